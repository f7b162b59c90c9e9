#pragma once
// Iron3D models and missions as glTF 2.0 (issue #20 part 1), written through tinygltf
// (docs/decisions/0018-gltf-interchange.md). docs/interchange.md is the user's description; in short:
//
// - Coordinates stay Iron3D's (X east, Y north, Z up, metres as stored); one root node
//   "sortie:z_up" turns them to glTF's Y up (a -90 degree rotation about X), so the vertex data
//   is the stored data, bit for bit.
// - A model (PreparedPlacement) is one node per component, under it the MSH node hierarchy with
//   the static pose (the type-8 fallback key the renderer draws; `frame` / `node_frames` sample
//   the node animation instead, e.g. at a CTLD's frames; `rest_pose` writes identity
//   nodes instead; `frame` / `node_frames` sample the node animation, e.g. at a CTLD's frames), and per node its LOD-0
//   slot as a mesh with one primitive per WEAR row used.
// - A WEAR row is a glTF material: the MAT0's first textured phase is the base colour texture
//   (an embedded PNG of Texm level 0), alpha mode from the texture's alpha (BLEND when a texel is
//   partly transparent, MASK when texels are only 0 or 255, else OPAQUE); metallic 0, roughness 1.
//   `extras.sortie` keeps the MAT0 (entry, flags, version, metadata, phases' raw parameters and
//   texture names) and the WEAR row name, so an import restores them. A WEAR LIGHTMAPS row
//   becomes the material's `extras.sortie.lightmap`, an embedded image (a second UV set is not
//   written: MSH has one UV stream).
// - A mission is the terrain (Land.msh, one primitive per Land2.wea texture) plus every placed
//   object as a node at its data.tma transform, named "<placed index> <prototype>", with the
//   instance name, clan and property bag in `extras`; areals and routes as optional LINES.
// Normals are written normalised (MSH stores them as i8/127); a zero normal becomes +Z.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"

namespace sortie::interchange {

struct GltfExportOptions {
  bool binary = true;          // one .glb; false: a .gltf with a .bin beside it
  std::string name = "model";  // file stem: NAME.glb, or NAME.gltf + NAME.bin
  bool rest_pose = false;      // identity node transforms instead of the static pose
  // Pose the MSH nodes at an animation time (frames, spec §9.2, assets::node_pose_at) instead of
  // the static pose: every node at `frame`, and the nodes named in `node_frames` (MSH node index
  // -> frame, e.g. a CTLD's per-node frames from iron3d::evaluate_ctld_pose) at theirs.
  std::optional<float> frame;
  std::map<std::int32_t, float> node_frames;
  bool areals = false;   // missions: the Land.map areal outlines as LINES
  bool routes = false;   // missions: the data.tma paths as LINE_STRIPs
  bool textures = true;  // embed the textures (PNG)
};

struct GltfFile {
  std::string name;  // relative file name
  core::Bytes bytes;
};

struct GltfExportStats {
  std::uint64_t nodes = 0, meshes = 0, primitives = 0, materials = 0, textures = 0, triangles = 0, vertices = 0;
  [[nodiscard]] core::Json to_json() const;
};

struct GltfExport {
  std::vector<GltfFile> files;  // the .glb, or the .gltf then the .bin
  GltfExportStats stats;
};

// Every placement of `store` (a model store from assets::prepare_model has one) at the origin.
// Errors gltf.write (tinygltf could not serialise),
// render.png.* (a texture did not encode).
core::Result<GltfExport> export_model_gltf(const assets::VisualStore& store, const GltfExportOptions& options);
// The mission: terrain, every placement at its transform with the data.tma facts in extras.
core::Result<GltfExport> export_mission_gltf(const assets::VisualStore& store, const assets::MissionData& mission,
                                             const GltfExportOptions& options);

}  // namespace sortie::interchange
