#pragma once
// Prepared visual resources (seed 000 "prepare_visual", spec §8, §10-§13, §15): what a renderer
// draws, decoded once from MSH, WEAR, MAT0, Texm and Land.msh into the shared math vocabulary
// (core::Vec2/Vec3/Mat4/Aabb) and RGBA8 images. Every type here is plain immutable data once
// built; the VisualStore (visual_store.hpp) shares them through shared_ptr<const ...>.
//
// The converters below are pure: they take a decoded record and return the prepared form.
// Findings that do not stop preparation (a normal stream of the wrong length, a node pose that is
// not finite, a parent after its child) are appended to `warnings` (code visual.*).
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/texm.hpp"

namespace sortie::assets {

// ---- textures (Texm, spec §12; lightmaps §13) ---------------------------------------------

struct PreparedTexture {
  std::string archive;  // game path of the library ("textures.lib", "lightmap.lib")
  std::string entry;    // entry name as stored
  bool lightmap = false;
  std::uint32_t source_format = 0;  // Texm format code (565, 4444, 8888, 888, 0, ...)
  std::uint32_t source_levels = 0;  // levels decoded from the file; mips past them are box-filtered
  std::uint32_t base_level = 0;     // §12.5 loader mip-skip: the level the engine draws from
  std::optional<std::vector<iron3d::TexmPageRect>> page;  // atlas rectangles, level-0 pixels
  // The full chain: level 0 is width x height, level i is max(1, w >> i) x max(1, h >> i),
  // the last level is 1 x 1. Pixels R, G, B, A, rows top to bottom.
  std::vector<iron3d::Rgba8Image> mips;

  [[nodiscard]] std::uint32_t width() const { return mips.empty() ? 0 : mips.front().width; }
  [[nodiscard]] std::uint32_t height() const { return mips.empty() ? 0 : mips.front().height; }
  [[nodiscard]] std::uint64_t byte_size() const;  // RGBA bytes of every level
};

// Levels of a full chain down to 1 x 1: floor(log2(max(width, height))) + 1 (0 for an empty size).
std::uint32_t full_mip_count(std::uint32_t width, std::uint32_t height);
// RGBA8 bytes of the full chain of a width x height level 0; saturates at UINT64_MAX.
std::uint64_t mip_chain_bytes(std::uint32_t width, std::uint32_t height);
// What one prepared texture may hold unless the caller says otherwise: 1 GiB of RGBA8 (a full
// 8192 x 8192 chain is about 341 MiB, a 16384 x 16384 one about 1.33 GiB).
inline constexpr std::uint64_t kMaxPreparedTextureBytes = std::uint64_t{1} << 30;

// One box-filtered level: the result is max(1, w / 2) x max(1, h / 2); target pixel (x, y)
// averages the source rectangle [x*w/w', (x+1)*w/w') x [y*h/h', (y+1)*h/h') (so an odd last
// column or row is folded into its neighbour, never dropped), each channel independently
// (straight alpha), rounded half up: (sum + n/2) / n.
iron3d::Rgba8Image downsample_rgba8(const iron3d::Rgba8Image& image);

// Decodes every level the file has (up to the full chain; surplus 1x1 levels are ignored), then
// box-filters the missing ones from the last decoded level. The declared size is checked before
// anything is allocated: visual.texture_size when width or height is 0 or the full chain would
// exceed `max_bytes`. Errors texm.* from the decoder (texm.level: no level 0; texm.mip_data: a
// level whose bytes do not match its size and format).
core::Result<PreparedTexture> prepare_texture(const iron3d::Texm& texm, std::string archive, std::string entry,
                                              bool lightmap, std::uint64_t max_bytes = kMaxPreparedTextureBytes);

// ---- materials (MAT0, spec §11; WEAR rows §10) --------------------------------------------

// One Phase34 with the runtime record of §11.5. The record's fields are named by their offsets:
// the engine feeds them to its material state, their exact roles are not recovered.
struct PreparedPhase {
  std::array<std::uint8_t, 18> parameters{};  // raw bytes as stored
  // factors[0] = record +0..+12  = p[4], p[5], p[6], p[7] / 255
  // factors[1] = record +16..+28 = p[0], p[1], p[2] / 255, p[3] * 0.01
  // factors[2] = record +32..+44 = p[8..11] / 255
  // factors[3] = record +48..+60 = p[12..15] / 255
  std::array<core::Vec4, 4> factors{};
  std::uint32_t word64 = 0;                        // record +64: p[16]
  std::int32_t word72 = 0;                         // record +72: p[17]; -1 for an untextured phase
  std::string texture_name;                        // NUL-cut, trimmed phase texture name; "" = untextured
  std::shared_ptr<const PreparedTexture> texture;  // textures.lib entry; null when untextured
};

struct PreparedMaterial {
  std::string archive;        // "material.lib"
  std::string entry;          // MAT0 entry name as stored
  std::uint32_t version = 0;  // entry attr2
  std::uint32_t flags = 0;    // entry attr1 (runtime flags, §11.1)
  std::uint8_t metadata_a = 255;
  std::uint8_t metadata_b = 255;
  std::uint32_t metadata_c_raw = 0;
  std::uint32_t metadata_d_raw = 0;
  std::vector<PreparedPhase> phases;
  std::vector<iron3d::Mat0AnimBlock> animation;  // phase animation blocks as stored (mode, mask, keys)
};

// Phases of a MAT0 with their runtime records; textures are left null (the store binds them).
PreparedMaterial prepare_material(const iron3d::Mat0& mat, std::string archive, std::string entry, std::uint32_t flags);

// One WEAR row: the name it asks for and the material that serves it.
struct MaterialSlot {
  std::string requested;  // material name in the WEAR row
  bool fallback = false;  // not in material.lib under that name: DEFAULT or the first entry serves it
  std::shared_ptr<const PreparedMaterial> material;
};

// ---- meshes (MSH, spec §8, §9) -------------------------------------------------------------

// The batches of one slot that use one WEAR row, as one triangle list.
struct PreparedSubmesh {
  std::uint16_t material_row = 0;      // Batch20.material_index: row of the model's WEAR table
  std::vector<std::uint32_t> indices;  // into PreparedMesh vertices (base_vertex applied), batch order
};

// A Slot68: the geometry of one node at one LOD/group, in node space.
struct PreparedSlot {
  core::Aabb bounds;  // as stored
  core::Vec3 sphere_center;
  float sphere_radius = 0;
  std::vector<PreparedSubmesh> submeshes;  // one per WEAR row the slot uses, rows ascending
};

struct PreparedNode {
  std::uint16_t parent = iron3d::kMshNone;  // kMshNone = root
  std::string name;                         // type-10 record, raw CP1251 bytes ("" when absent)
  // Static pose: the type-8 key `fallback_key` (translation, quaternion / 32767 normalised; all
  // zero = identity) when the model has it, else identity. to_model composes the parents (§9.3).
  core::Mat4 local = core::Mat4::identity();
  core::Mat4 to_model = core::Mat4::identity();
  std::array<std::int32_t, 15> slots{};             // [lod * 5 + group] -> PreparedMesh::slots index, -1 = none
  std::uint16_t anim_map_start = iron3d::kMshNone;  // into PreparedMesh::frame_map (spec §9.2)
  std::uint16_t fallback_key = 0;                   // the static pose's key; bound of the mapped keys
};

// What to draw: one node's group-0 slot at one LOD.
struct PreparedPart {
  std::uint16_t node = iron3d::kMshNone;  // kMshNone: a model without a node table (identity pose)
  std::uint8_t lod = 0;
  std::uint32_t slot = 0;
};

struct PreparedMesh {
  std::string archive;  // game path of the archive holding the MSH
  std::string entry;    // MSH entry name as stored
  std::vector<core::Vec3> positions;
  std::vector<core::Vec3> normals;  // one per position, or empty (no type-4 stream)
  std::vector<core::Vec2> uvs;      // one per position, or empty (no type-5 stream)
  std::vector<PreparedSlot> slots;  // Slot68 order
  std::vector<PreparedNode> nodes;  // Node38 order; empty for the 24-byte node variant
  std::vector<PreparedPart> parts;  // node order, LOD ascending within a node
  // Node animation as stored (types 8 and 19): what node_pose_at samples.
  std::vector<iron3d::MshAnimKey> anim_keys;
  std::vector<std::uint16_t> frame_map;
  std::uint32_t frame_count = 0;
  std::uint32_t material_rows = 0;  // highest material_row used + 1
  core::Aabb bounds;                // model space: the LOD-0 parts' vertices through their nodes

  [[nodiscard]] const core::Mat4& part_transform(const PreparedPart& part) const;  // node -> model
  [[nodiscard]] std::uint64_t triangle_count(std::uint8_t lod) const;
};

// A node's local transform at animation time `t` (frames), spec §9.2: the frame is t - 0.5
// rounded to nearest (ties to even); past the frame count, without a map, or where the map
// names the fallback key or beyond, the static pose; else the keys m and m + 1 of the map
// interpolated at t (translation lerp, quaternion shortest-path normalised lerp; t outside the
// keys' interval clamps to it; k1.time <= k0.time gives k0). A node past the list: identity.
core::Mat4 node_pose_at(const PreparedMesh& mesh, std::size_t node, float t);

// Every node's node -> model transform with the nodes named in `node_frames` (MSH node index ->
// animation frame, e.g. a component instance's CTLD pose) at that frame (node_pose_at) and the
// others at their static pose, parents composed as prepare_mesh does. Index by PreparedPart::node.
std::vector<core::Mat4> posed_to_model(const PreparedMesh& mesh, const std::map<std::int32_t, float>& node_frames);

// Errors visual.mesh_range: a batch outside the index or vertex streams (the MSH reader rejects
// these already, the check keeps the converter safe on any MshModel), or 0xFFFF nodes or more
// (node indices are u16 with 0xFFFF for "none", as in the file).
core::Result<PreparedMesh> prepare_mesh(const iron3d::MshModel& model, std::string archive, std::string entry,
                                        core::Diagnostics* warnings = nullptr);

// ---- terrain (Land.msh, spec §15) ------------------------------------------------------------

struct PreparedTerrainFace {
  std::array<std::uint32_t, 3> vertices{};
  std::int16_t land1_row = -1;  // Land1.wea row (material_tag high byte); -1 for 0xFF (none)
  std::uint8_t land2_row = 0;   // Land2.wea row (material_tag low byte)
  // Index into PreparedTerrain::textures: the first textured phase of the Land2 row's material;
  // -1 when the row is past the table or its material is untextured.
  std::int32_t texture = -1;
};

struct PreparedTerrainLayer {
  std::string wear_path;  // "DATA/MAPS/x/Land1.wea"; "" when the map has none
  std::vector<MaterialSlot> materials;
  std::vector<std::shared_ptr<const PreparedTexture>> lightmaps;
};

struct PreparedTerrain {
  std::string path;                        // game path of Land.msh
  std::vector<core::Vec3> positions;       // raw Land.msh coordinates (X/Y ground, Z height)
  std::vector<core::Vec3> normals;         // one per position, or empty
  std::vector<core::Vec2> uvs;             // one per position, or empty
  std::vector<PreparedTerrainFace> faces;  // Land.msh face order
  core::Aabb bounds;
  std::array<PreparedTerrainLayer, 2> layers;                    // [0] Land1.wea (table 0), [1] Land2.wea (table 1)
  std::vector<std::shared_ptr<const PreparedTexture>> textures;  // distinct, by first face using them
};

// Positions, normals, UVs and faces with their rows; layers and textures are left empty.
// Errors visual.terrain_range: a face vertex past the positions (the Land.msh reader rejects
// these already, the check keeps the converter safe on any LandMsh).
core::Result<PreparedTerrain> prepare_terrain_geometry(const iron3d::LandMsh& msh, std::string path,
                                                       core::Diagnostics* warnings = nullptr);

}  // namespace sortie::assets
