#pragma once
// The mission scene: what `sortie render` and the viewer draw of a loaded mission. It reads the
// prepared-visual store (terrain from Land.msh with its Land2.wea textures, every placed
// object's MSH components with their WEAR -> MAT0 -> Texm materials) and, when given, a world
// snapshot for the objects' live transforms; it never touches the live world or an archive.
//
// Geometry is not copied: draw calls point into the store's prepared meshes (the scene keeps
// the store alive). Textures are converted once per prepared texture to render::Texture.
//
// Placement: p_world = T(placement) * part_transform(part) * p_node, T the TMA transform of
// spec §25.1 (core::Transform::to_matrix). Terrain Z is raw Land.msh Z, the unit of the TMA
// positions and of the runtime ground (spec §15.6).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/visual_fallback.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/core/math.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/mesh.hpp"
#include "sortie/render/texture.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/snapshot.hpp"

namespace sortie::render {

struct MissionOverlays {
  bool areals = false;  // Land.map areal boundaries, lines on the ground
  bool routes = false;  // data.tma paths, lines with their points
  bool labels = false;  // object names above the objects
};

// A placed object drawn as a magenta checker box because an asset of its chain is missing or
// broken (`sortie render --allow-missing`).
// A placed object drawn as a magenta checker box (assets' --allow-missing fallback store).
using MissingPlacement = assets::MissingPlacement;

struct MissionSceneOptions {
  Filter filter = Filter::trilinear;
  bool objects = true;  // false: terrain (and overlays) only
  MissionOverlays overlays;
  std::vector<MissingPlacement> missing;
  float placeholder_half_size = 2.0f;  // half side of a missing object's box
  // The terrain as one baked surface: materials blended across face borders, the Land2.wea
  // lightmap applied (src/terrain_surface.hpp); false: one hard-edged draw per texture.
  bool blend_terrain = true;
  bool surround = true;  // skirts down from the map's open edges and a sea to the horizon
};

struct MissionSceneStats {
  std::uint64_t objects = 0;              // placed objects drawn (with at least one mesh)
  std::uint64_t placeholders = 0;         // missing objects drawn as checker boxes
  std::uint64_t object_triangles = 0;     // LOD 0, every drawn component
  std::uint64_t one_sided_triangles = 0;  // of those, in closed parts: back faces culled (closed_surface_cull)
  // Triangles of opaque draws left out because the same object already draws the same submesh
  // with the same material at the same transform (components naming one model with no offset
  // between them, as the sample's units do): every fragment of such a copy fails the depth
  // test, so the picture is the same without it. Not counted in object_triangles.
  std::uint64_t coincident_triangles = 0;
  std::uint64_t terrain_triangles = 0;
  std::uint64_t textures = 0;  // distinct textures the draws sample
  std::uint64_t draws = 0;
};

// Which side of a mesh part may be culled. The part's triangles (every index list, vertices
// welded by position) closing a surface, each edge used once in each direction, hide their own
// back faces from any viewpoint outside it: Cull::back when the enclosed volume is positive
// (counter-clockwise seen from outside, draw.hpp), Cull::front when negative. Anything else (open,
// non-manifold or inconsistently wound; the retail winding is not recovered) is drawn two-sided,
// Cull::none. The scene swaps back and front under a mirroring placement.
Cull closed_surface_cull(std::span<const core::Vec3> positions,
                         std::span<const std::span<const std::uint32_t>> index_lists);

// Result of a picking ray.
struct ScenePick {
  std::int32_t placed_index = -1;  // -1: the terrain or nothing was hit
  bool terrain = false;
  float distance = 0.0f;  // along the ray from its origin
  core::Vec3 point;
};

class MissionScene {
 public:
  // Errors: render.scene.* when a prepared resource cannot be drawn (a texture the renderer
  // rejects, a mesh index out of range: field names the placement and component).
  static core::Result<MissionScene> build(std::shared_ptr<const assets::VisualStore> visuals,
                                          const assets::MissionData* data, MissionSceneOptions options = {});

  MissionScene(MissionScene&&) noexcept;
  MissionScene& operator=(MissionScene&&) noexcept;
  ~MissionScene();

  // Moves the placed objects to their live transforms: object_ids[i] is the world object of
  // placement i (mission::LoadedMission::objects). An object absent from the snapshot is hidden.
  // An object no placement stands for (spawned by a script, a network player's unit) is drawn
  // like the first placed object of its prototype key, when there is one.
  void apply_snapshot(const world::WorldSnapshot& snapshot, std::span<const world::ObjectId> object_ids);

  // The frame to render: draw calls (terrain, objects, overlays) and labels, without the still
  // objects of map regions wholly outside the camera's view. Valid while the scene lives and
  // until the next apply_snapshot or frame() (the draw list is the scene's: one caller at a time).
  [[nodiscard]] Frame frame(const Camera& camera) const;
  [[nodiscard]] std::span<const DrawCall> draws() const;
  [[nodiscard]] std::span<const Label> labels() const;

  [[nodiscard]] const core::Aabb& terrain_bounds() const;
  [[nodiscard]] const core::Aabb& bounds() const;  // terrain and objects
  [[nodiscard]] const MissionSceneStats& stats() const;
  [[nodiscard]] const assets::VisualStore& visuals() const;
  // World position of placement `placed_index` (live when a snapshot was applied); nullopt for
  // an unknown index or a hidden object.
  [[nodiscard]] std::optional<core::Vec3> object_position(std::int32_t placed_index) const;

  // Nearest object or terrain triangle along the ray origin + t * direction (t > 0).
  [[nodiscard]] std::optional<ScenePick> pick(const core::Vec3& origin, const core::Vec3& direction) const;
  // The same for window position (x, y) through `camera` and `viewport`.
  [[nodiscard]] std::optional<ScenePick> pick(const Camera& camera, const Viewport& viewport, float x, float y) const;

  // Light of the scene (a sun from the south-west, high).
  static Light default_light();

 private:
  struct Impl;
  explicit MissionScene(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// An 8 x 8 magenta / black checker (missing assets).
Texture missing_checker_texture();

// A prepared texture's chain from its engine base level (spec §12.5) as a render::Texture: what
// the scene draws from. Errors: render.scene.texture (no levels, a level of the wrong size), the
// renderer's texture checks.
core::Result<Texture> texture_from_prepared(const assets::PreparedTexture& texture);
// The texture a material draws with: its first textured phase's, or null.
const assets::PreparedTexture* material_texture(const assets::PreparedMaterial* material);

}  // namespace sortie::render
