#pragma once
// The prepared-visual store of one loaded mission (seed 000 phase 5 "resource preparation"):
// per placed object its prototypes and transform, per prototype its decoded mesh, WEAR rows ->
// materials (MAT0 phases) -> RGBA8 textures with full mip chains, its lightmaps, and the
// terrain (Land.msh with the Land1/Land2.wea layers). A renderer draws a mission from it without
// touching an archive.
//
// Identity and sharing: meshes, materials and textures are decoded once per archive and entry
// (ASCII case-folded) and held as shared_ptr<const ...>; the VisualCache keeps them across the
// loads of one session, so a texture used by 50 prototypes, or by two missions, is decoded once.
// A store is built once per mission load and never changes afterwards (every accessor is const,
// the builder returns shared_ptr<const VisualStore>).
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/cache_trim.hpp"
#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/prepared_effect.hpp"
#include "sortie/assets/prepared_visual.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/math.hpp"

namespace sortie::assets {

// The visual of a geometric prototype: its effective MSH and the rows of the WEAR beside it.
// Shared by every prototype with the same mesh.
struct PreparedVisual {
  std::shared_ptr<const PreparedMesh> mesh;
  std::string wear_entry;               // WEAR entry in the mesh's archive
  std::vector<MaterialSlot> materials;  // WEAR rows in order: PreparedSubmesh::material_row indexes this
  std::vector<std::shared_ptr<const PreparedTexture>> lightmaps;  // WEAR LIGHTMAPS rows in order
};

struct PreparedPrototype {
  std::string archive;  // game path the key was requested from ("objects.rlb", or a model archive)
  std::string key;      // expanded prototype key
  std::shared_ptr<const PreparedVisual> visual;  // null for a non-geometric prototype
};

struct PreparedComponent {
  std::int32_t unit_component_index = -1;        // record in the unit DAT; -1 for a direct key
  const PreparedPrototype* prototype = nullptr;  // owned by the store
  // This instance's static pose from its prototype's CTLD (iron3d::evaluate_ctld_pose: MSH node
  // index -> animation frame, for node_pose_at). A record of its own per component instance, also
  // when instances share one visual; empty without a CTLD (the MSH's static pose).
  std::map<std::int32_t, float> node_frames;
};

// One data.tma object as the renderer places it.
struct PreparedPlacement {
  std::int32_t placed_index = 0;
  std::string resource_name;  // cleaned TMA resource name
  bool via_unit_dat = false;
  core::Transform transform;                  // as authored (spec §25.1): position, raw Euler orientation, scale
  std::vector<PreparedComponent> components;  // the object itself, or its unit components in order
};

struct VisualStoreStats {
  std::uint64_t placements = 0;
  std::uint64_t prototypes = 0;  // distinct prototypes (archive, key)
  std::uint64_t visuals = 0;     // distinct geometric visuals (= meshes)
  std::uint64_t meshes = 0;
  std::uint64_t materials = 0;
  std::uint64_t textures = 0;  // distinct diffuse textures (objects and terrain)
  std::uint64_t lightmaps = 0;
  std::uint64_t vertices = 0;            // over the distinct meshes and the terrain
  std::uint64_t triangles = 0;           // LOD 0 of the distinct meshes + terrain faces
  std::uint64_t texture_bytes = 0;       // RGBA8 of every level of the distinct textures and lightmaps
  std::uint64_t material_fallbacks = 0;  // distinct WEAR rows served by DEFAULT / the first entry
  std::uint64_t effects = 0;             // distinct FXID effects, their bodies' materials bound
  [[nodiscard]] core::Json to_json() const;
};

struct VisualCacheStats {
  std::uint64_t meshes_decoded = 0;
  std::uint64_t materials_decoded = 0;
  std::uint64_t textures_decoded = 0;   // diffuse textures (textures.lib)
  std::uint64_t lightmaps_decoded = 0;  // lightmap.lib
  std::uint64_t visuals_built = 0;
  std::uint64_t hits = 0;  // requests served by an already prepared resource
  [[nodiscard]] core::Json to_json() const;
};

// Prepared resources by identity, kept between the stores of one session (not thread-safe; one
// loader uses it at a time). Holding a store keeps its resources alive after clear() and trim().
// trim() is the maintenance pass: an entry nobody outside the cache holds (no store, no scene)
// and that no store requested since the previous trim() is dropped; a later request decodes it
// again, identically. An entry a store holds is kept, so a store's resources keep one identity.
class VisualCache {
 public:
  VisualCache();
  ~VisualCache();
  VisualCache(const VisualCache&) = delete;
  VisualCache& operator=(const VisualCache&) = delete;
  VisualCache(VisualCache&&) noexcept;
  VisualCache& operator=(VisualCache&&) noexcept;

  [[nodiscard]] const VisualCacheStats& stats() const;
  void clear();
  // Drops what was neither held nor requested since the last trim (visuals, then materials,
  // meshes, textures: a dropped visual releases its mesh in the same pass). Counts are over the
  // four kinds; bytes are the decoded payloads (texture levels, vertices and indices).
  CacheTrim trim();
  [[nodiscard]] std::size_t entries() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  friend class VisualStoreBuilder;
};

class VisualStore {
 public:
  [[nodiscard]] const std::string& mission() const { return mission_; }
  [[nodiscard]] std::span<const PreparedPlacement> placements() const { return placements_; }
  [[nodiscard]] const PreparedPlacement* placement(std::int32_t placed_index) const;
  // Every distinct prototype, sorted by folded archive then key.
  [[nodiscard]] std::span<const PreparedPrototype> prototypes() const { return prototypes_; }
  // ASCII case-insensitive lookup; nullptr when the mission does not use that prototype.
  [[nodiscard]] const PreparedPrototype* prototype(std::string_view archive, std::string_view key) const;
  [[nodiscard]] const PreparedTerrain& terrain() const { return terrain_; }
  // The mission's effects (MissionData::effects), each body's material bound (its textures count
  // in textures()), sorted by EffectRef::key(); effect("lightning") or effect("archive/name")
  // finds one (EffectRef::parse), nullptr when the mission did not prepare it.
  [[nodiscard]] const std::vector<std::shared_ptr<const PreparedEffect>>& effects() const { return effects_; }
  [[nodiscard]] std::shared_ptr<const PreparedEffect> effect(std::string_view name) const;
  // Distinct resources, sorted by folded archive and entry.
  [[nodiscard]] const std::vector<std::shared_ptr<const PreparedMesh>>& meshes() const { return meshes_; }
  [[nodiscard]] const std::vector<std::shared_ptr<const PreparedMaterial>>& materials() const { return materials_; }
  [[nodiscard]] const std::vector<std::shared_ptr<const PreparedTexture>>& textures() const { return textures_; }
  [[nodiscard]] const std::vector<std::shared_ptr<const PreparedTexture>>& lightmaps() const { return lightmaps_; }
  [[nodiscard]] const VisualStoreStats& stats() const { return stats_; }
  // visual.* findings that did not stop preparation.
  [[nodiscard]] const core::Diagnostics& warnings() const { return warnings_; }

 private:
  friend class VisualStoreBuilder;
  VisualStore() = default;
  std::string mission_;
  std::vector<PreparedPlacement> placements_;
  std::vector<PreparedPrototype> prototypes_;
  std::map<std::string, std::size_t> prototype_index_;  // folded "archive|key" -> prototypes_
  PreparedTerrain terrain_;
  std::vector<std::shared_ptr<const PreparedEffect>> effects_;
  std::map<std::string, std::size_t> effect_index_;  // EffectRef::key() -> effects_
  std::vector<std::shared_ptr<const PreparedMesh>> meshes_;
  std::vector<std::shared_ptr<const PreparedMaterial>> materials_;
  std::vector<std::shared_ptr<const PreparedTexture>> textures_;
  std::vector<std::shared_ptr<const PreparedTexture>> lightmaps_;
  VisualStoreStats stats_;
  core::Diagnostics warnings_;
};

struct VisualStoreOptions {
  core::Profile profile = core::Profile::strict;  // of the format readers
  std::string material_lib = "material.lib";
  std::string textures_lib = "textures.lib";
  std::string lightmap_lib = "lightmap.lib";
  // Budget for the RGBA8 bytes of the textures and lightmaps this store holds (every level).
  std::uint64_t max_texture_bytes = std::uint64_t{1} << 31;
};

// Prepares the visuals of a resolved mission (`mission.ok()`). Errors carry the provenance
// chain of the first reference, e.g. "MISSIONS/m1/data.tma: objects[0] 's_tree' ->
// static.rlb:tree.msh -> tree.wea -> row 1 'M_TWO' -> textures.lib: texture 'T_B' not found".
// Codes: visual.graph_failed (the mission has failed edges), visual.mesh_missing,
// visual.mesh_invalid, visual.material_missing, visual.material_invalid, visual.texture_missing,
// visual.texture_invalid, visual.lightmap_missing, visual.lightmap_invalid, visual.mesh_range,
// visual.terrain_range, visual.texture_budget (checked on a texture's declared size, before it is
// decoded); io.* / archive codes when an archive no longer opens.
core::Result<std::shared_ptr<const VisualStore>> build_visual_store(ArchiveRepository& repo, VisualCache& cache,
                                                                    const MissionData& mission,
                                                                    const VisualStoreOptions& options = {});

// One resource name as data.tma would place it (a prototype key such as "s_tree_04", or a unit
// DAT path), resolved and prepared alone: a store with one placement at the identity transform
// and no terrain (what `sortie export model` writes). The resolver's failures come back as
// visual.graph_failed with the first broken edge's chain.
core::Result<std::shared_ptr<const VisualStore>> prepare_model(ArchiveRepository& repo, VisualCache& cache,
                                                               std::string_view resource_name,
                                                               const VisualStoreOptions& options = {});

}  // namespace sortie::assets
