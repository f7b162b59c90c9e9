#pragma once
// Resolution of placed objects to prepared visuals (spec §7.3, §14; seed 000):
//   placed resource name -> direct key | unit DAT -> component keys
//   -> objects.rlb entry (with parent expansion) -> effective MSH -> WEAR (same archive)
//   -> every WEAR row: MAT0 in material.lib (exact, DEFAULT, first entry; a fallback is a
//      load.material_fallback warning, the engine's "Material %s not found.") -> Texm in textures.lib
//   -> every LIGHTMAPS row: Texm in lightmap.lib
// Every reference becomes an edge of the DependencyGraph; failures name the placed object,
// the expanded key, the archive, the entry and the relation kind.
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/cache_trim.hpp"
#include "sortie/assets/dependency_graph.hpp"
#include "sortie/assets/prepared_effect.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::assets {

struct PlacedObjectRequest {
  std::int32_t index = 0;     // position in data.tma objects[]
  std::string resource_name;  // raw bytes of the TMA field
  std::string instance_name;  // raw bytes, for messages only
};

struct ResolverOptions {
  core::Profile profile = core::Profile::strict;  // profile of the format readers (archives: compatible)
  int max_parent_depth = 32;
  std::string objects_rlb = "objects.rlb";
  std::string material_lib = "material.lib";
  std::string textures_lib = "textures.lib";
  std::string lightmap_lib = "lightmap.lib";
};

// One effective prototype request of a placed object (the object itself, or one unit component).
struct ResolvedComponent {
  std::string archive;                     // game path the key was requested from ("objects.rlb", ...)
  std::string key;                         // expanded prototype key
  std::int32_t unit_component_index = -1;  // record index in the unit DAT, -1 for a direct key
  bool geometric = false;
  std::string mesh_archive;                      // game path of the archive holding the MSH
  std::string mesh_entry;                        // entry name of the MSH
  std::string wear_entry;                        // entry name of the WEAR table
  std::vector<std::string> requested_materials;  // WEAR row names, row order
  std::vector<std::string> materials;  // WEAR rows resolved to MAT0 entry names (exact, DEFAULT or first entry)
  std::vector<std::string> textures;   // texture requests in order (per material, per phase)
  std::vector<std::string> lightmaps;  // lightmap requests in order
  // The prototype's control resource (CTLD, `*.ctl`): the first `.ctl` ObjectRef of the expanded
  // registry refs whose entry exists, by the rule of the mesh (spec §7.3 step 6; which CTLD a
  // prototype uses is inferred, docs/poses.md). Empty without one (a direct key has none).
  std::string control_archive;
  std::string control_entry;
};

struct ResolvedObject {
  std::int32_t placed_index = 0;
  std::string resource_name;
  bool via_unit_dat = false;
  std::vector<ResolvedComponent> components;
};

// One effect a mission names: the weather's lightning effect, a literal of its Lua script.
struct EffectRequest {
  std::string name;  // "lightning" (effects.rlb) or "archive/name" (EffectRef::parse)
  std::uint32_t from_node = 0;
  EdgeKind edge = EdgeKind::weather_to_effect;
  std::string via;    // the step before the effect, e.g. "MISSIONS/m02/sky.weather -> effect lightning"
  std::string field;  // the diagnostics' field, e.g. "effect lightning"
};

// An effect found, read and prepared (materials not bound: the visual store binds them).
struct ResolvedEffect {
  EffectRef ref;        // as the request named it
  std::string archive;  // where it was found
  std::string entry;    // FXID entry name as stored
  std::shared_ptr<const PreparedEffect> effect;
  std::vector<std::string> materials;  // per executed body (effect_material_names order): the MAT0 entry serving it
};

class PrototypeResolver {
 public:
  PrototypeResolver(ArchiveRepository& repository, ResolverOptions options = {});
  ~PrototypeResolver();
  PrototypeResolver(const PrototypeResolver&) = delete;
  PrototypeResolver& operator=(const PrototypeResolver&) = delete;

  // Resolves every placed object, adding nodes/edges/statistics to `graph` (under `mission_node`).
  // Continues past failures so that every broken edge is reported; the graph is !ok() then.
  std::vector<ResolvedObject> resolve(std::string_view mission_label, std::uint32_t mission_node,
                                      std::span<const PlacedObjectRequest> objects, DependencyGraph& graph);

  // One prototype key looked up the way a placed object's direct key is (objects.rlb with its
  // parent chain expanded, else a model of that name), from the same cache; nothing below the
  // prototype (mesh visuals) is resolved. Used for the names of TRF tables.
  struct KeyLookup {
    bool geometric = false;
    std::string registry_entry;               // objects.rlb entry when found there
    std::optional<core::Diagnostic> failure;  // load.prototype_missing, load.parent_missing, ...
  };
  KeyLookup lookup_key(std::string_view key);

  // Resolves one WEAR table given by its bytes (e.g. a map's environment Land1.wea) into the graph;
  // the result names its materials and lightmaps (no mesh, key = label).
  ResolvedComponent resolve_environment_wear(std::string_view label, core::ByteView wear_bytes, DependencyGraph& graph,
                                             std::uint32_t from_node);

  // One effect into the graph: the edge request.edge from request.from_node to its FXID (read,
  // checked and prepared once per resolver: load.effect_missing, load.effect_invalid with the
  // reader's fxid.* or the runtime's fx.* reason), then effect_to_material for every executed body
  // (row = command index) and material_to_texture below. Strict: a missing or bad FXID is a failed
  // edge; compatible: a warning, and nullopt (the mission loads without the effect). A failed
  // material is a failed edge in both profiles, as for every other material. The effect's
  // fx.command_skipped findings join the graph's warnings once per effect.
  std::optional<ResolvedEffect> resolve_effect(std::string_view mission_label, const EffectRequest& request,
                                               DependencyGraph& graph);

  // The maintenance pass (cache_trim.hpp): drops the prototypes, unit DATs, mesh/WEAR, material,
  // texture and effect checks not looked up since the previous trim() (an effect a store holds
  // stays); a later load looks them up again. Bytes are not measured (small records).
  CacheTrim trim();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Mesh name candidates of §7.3 step 4: [n], then n's stem if n ends with .msh, else n + ".msh".
std::vector<std::string> mesh_name_candidates(std::string_view name);
// NUL-cut and ASCII-whitespace trim of a legacy name field.
std::string clean_legacy_name(std::string_view raw);

}  // namespace sortie::assets
