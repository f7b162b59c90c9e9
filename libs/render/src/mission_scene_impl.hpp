#pragma once
// Internal state of MissionScene (mission_scene.cpp builds it, scene_pick.cpp reads it).
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "sortie/render/mission_scene.hpp"
#include "sortie/render/terrain_surface.hpp"

namespace sortie::render {

// The draws of one placed object (or of one missing placeholder).
struct SceneObject {
  std::int32_t placed_index = -1;  // -1: an object spawned at run time (see `spawned_id`)
  std::uint64_t spawned_id = 0;    // the world object (ObjectId::raw) of a spawned object
  std::string key;                 // the placement's resource name (the world's prototype key)
  core::Mat4 placement = core::Mat4::identity();
  std::size_t first_draw = 0;  // in Impl::object_draws
  std::size_t draw_count = 0;
  std::vector<core::Mat4> part_models;  // per draw: node -> model transform
  core::Aabb local_bounds;              // model space, every drawn part
  bool visible = true;
  bool moving = false;  // its placement has changed since the scene was built: batched apart
  bool placeholder = false;
  std::string label;
};

struct MissionScene::Impl {
  std::shared_ptr<const assets::VisualStore> visuals;
  MissionSceneOptions options;
  std::map<const assets::PreparedTexture*, Texture> textures;  // map nodes: stable addresses
  Texture checker;
  Mesh placeholder_box;
  std::vector<std::vector<std::uint32_t>> terrain_groups;  // indices per terrain texture (+1 untextured)
  std::vector<DrawCall> terrain_draws;
  TerrainSurface terrain_surface;  // the blended, lightmapped surface (empty: drawn per texture)
  Mesh surround;                   // skirts from the terrain's open edges down to the sea
  Mesh sea_plane;
  std::vector<DrawCall> surround_draws;  // skirts, sea (not pickable)
  std::vector<DrawCall> object_draws;    // every object's draws, SceneObject ranges
  std::vector<SceneObject> objects;
  // The first placed object of each prototype key: what an object spawned at run time with that
  // key looks like (apply_snapshot clones its draws).
  std::unordered_map<std::string, std::size_t> template_of_key;
  std::unordered_map<const assets::PreparedSlot*, Cull> part_cull;  // closed_surface_cull per slot
  Mesh areal_lines;
  Mesh route_lines;
  Mesh route_points;
  std::vector<DrawCall> overlay_draws;
  // The visible objects' draws merged in world space, one mesh per material (a frame of a
  // corpus-scale mission has thousands of small draws; the renderer's cost per draw dominates):
  // the objects that never moved in one set, merged again only when one of them appears,
  // disappears or starts moving; the moving ones (units) in another, merged again whenever
  // one of them moves.
  // The still objects are merged per material and per region of the map (an 8 x 8 grid over the
  // terrain), each merged draw with its bounds, so a view skips the regions outside it before the
  // renderer transforms their vertices (frame()).
  struct Batches {
    std::vector<Mesh> meshes;
    std::vector<DrawCall> draws;
    std::vector<core::Aabb> bounds;  // per draw, world space
  };
  static constexpr int kRegions = 8;  // per side of the map
  Batches still_batches;
  Batches moving_batches;
  std::vector<DrawCall> frame_draws;  // visible objects, terrain, sea, overlays
  std::size_t still_first = 0;        // still_batches.draws in frame_draws: [still_first, + size)
  // frame()'s draws for its camera: frame_draws without the still draws outside the view.
  mutable std::vector<DrawCall> view_draws;
  std::vector<Label> labels;
  core::Aabb terrain_bounds;
  core::Aabb bounds;
  MissionSceneStats stats;

  // Merges the batches (the still ones too when `still` is set) and assembles frame_draws.
  void rebuild_frame(bool still = true);
  void merge(bool moving, Batches& out) const;
  [[nodiscard]] int region_of(const core::Mat4& placement) const;
  // Scene objects for snapshot objects that no placement stands for, by their prototype key;
  // true when one was added.
  bool add_spawned(const world::WorldSnapshot& snapshot, std::span<const world::ObjectId> object_ids);
  [[nodiscard]] Atmosphere atmosphere_for(const Camera& camera) const;

  // MissionScene::build, step by step; `used` collects the textures the draws use.
  core::Result<TextureView> texture_view(const assets::PreparedTexture* t);
  [[nodiscard]] Material base_material(bool lit) const;
  core::Status add_terrain(std::set<const void*>& used);
  core::Status add_terrain_surface(std::set<const void*>& used);
  void add_surround(const core::Vec4& skirt_colour);
  core::Status add_objects(const assets::MissionData* data, std::set<const void*>& used);
  static core::Vec4 clan_tint(const assets::MissionData* data, std::int32_t placed_index);
  core::Status add_object_parts(const assets::PreparedPlacement& pl, SceneObject& obj, std::set<const void*>& used,
                                const core::Vec4& tint);
  [[nodiscard]] bool coincides(const SceneObject& obj, const DrawCall& d, const core::Mat4& part_model) const;
  void add_placeholders(std::set<const void*>& used);
  void add_overlays(const assets::MissionData* data);
};

}  // namespace sortie::render
