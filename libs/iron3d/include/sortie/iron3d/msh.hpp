#pragma once
// MSH model (spec §8, anim keys §9.1 kept raw): an NRes archive whose entries are streams
// identified by type_id. Required streams 1, 2, 3, 6, 13 appear exactly once; optional typed
// streams (4, 5, 7, 8, 10, 19) use the first entry of their type; every entry (including
// unknown types and later duplicates of optional types) is kept with its attrs and bytes.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {

inline constexpr std::size_t kMshBoundsHeaderSize = 0x8C;
inline constexpr std::uint16_t kMshNone = 0xFFFF;

// One inner NRes entry, raw.
struct MshStream {
  std::uint32_t type_id = 0;
  std::uint32_t attr1 = 0;
  std::uint32_t attr2 = 0;
  std::uint32_t attr3 = 0;
  core::FixedString name;  // 36 raw bytes
  core::Bytes payload;
  bool operator==(const MshStream&) const = default;
};

struct MshNode {  // Node38
  std::uint16_t flags = 0;
  std::uint16_t parent = kMshNone;          // 0xFFFF = root, else index < own index
  std::uint16_t anim_map_start = kMshNone;  // offset into the type-19 map, 0xFFFF = none
  std::uint16_t fallback_key = 0;           // type-8 key; also the exclusive bound of mapped keys
  std::array<std::uint16_t, 15> slots{};    // [lod * 5 + group], 0xFFFF = none
  bool operator==(const MshNode&) const = default;
};

struct MshSlot {  // Slot68
  std::uint16_t tri_start = 0, tri_count = 0, batch_start = 0, batch_count = 0;
  core::Vec3 aabb_min, aabb_max, sphere_center;
  float sphere_radius = 0;
  std::array<std::uint32_t, 5> tail{};
  bool operator==(const MshSlot&) const = default;
};

struct MshTriDesc {  // TriDesc16 (type 7)
  std::uint16_t flags = 0;
  std::array<std::uint16_t, 3> links{kMshNone, kMshNone, kMshNone};
  std::array<std::int16_t, 3> normal{};
  std::uint16_t sel_packed = 0x3F;
  bool operator==(const MshTriDesc&) const = default;
};

struct MshBatch {  // Batch20 (type 13), fields at unaligned offsets
  std::uint16_t flags = 0;
  std::uint16_t material_index = 0;  // positional row in the model's WEAR table
  std::uint16_t opaque4 = 0;
  std::uint16_t opaque6 = 0;
  std::uint16_t index_count = 0;
  std::uint32_t index_start = 0;
  std::uint16_t opaque14 = 0;
  std::uint32_t base_vertex = 0;
  bool operator==(const MshBatch&) const = default;
};

struct MshAnimKey {  // AnimKey24 (type 8), raw
  core::Vec3 translation;
  float time = 0;
  std::array<std::int16_t, 4> rotation{0, 0, 0, 32767};  // x, y, z, w / 32767
  bool operator==(const MshAnimKey&) const = default;
};

struct MshModel {
  std::vector<MshStream> streams;  // physical order; typed streams are re-encoded from the views
  std::uint32_t node_stride = 38;  // type-1 attr3: 38, or 24 (MTCHECK variant, nodes kept raw)
  std::size_t node_count = 0;
  std::vector<MshNode> nodes;  // empty for the 24-byte variant
  std::array<std::uint8_t, kMshBoundsHeaderSize> bounds_header{};
  std::vector<MshSlot> slots;
  std::vector<core::Vec3> positions;
  std::vector<std::uint16_t> indices;
  std::vector<MshBatch> batches;
  std::optional<std::vector<std::array<std::int8_t, 4>>> normals;  // type 4
  std::optional<std::vector<std::array<std::int16_t, 2>>> uv0;     // type 5
  std::optional<std::vector<MshTriDesc>> tri_descs;                // type 7 (when size % 16 == 0)
  std::optional<std::vector<MshAnimKey>> anim_keys;                // type 8 (when size % 24 == 0)
  std::optional<std::vector<std::uint16_t>> frame_map;             // type 19 (when size % 2 == 0)
  std::uint32_t frame_count = 0;                                   // type-19 entry attr2
  std::optional<std::vector<std::string>> node_names;              // type 10, raw CP1251 (kept raw on disk)
  bool operator==(const MshModel&) const = default;
};

// Codes: msh.stream_missing, msh.stream_duplicate, msh.node_stride, msh.stream_size,
// msh.header_size, msh.slot_batch_range, msh.batch_index_range, msh.names, msh.key_time,
// msh.bounds, msh.vertex_index. Warnings (both profiles, not fatal): msh.node_slot (slot index
// past the slot table), msh.node_parent (parent not before child), msh.slot_tri_range,
// msh.stream_size for optional streams kept raw.
core::Result<MshModel> read_msh_streams(std::vector<MshStream> streams, const ReadOptions& options = {},
                                        core::Diagnostics* warnings = nullptr);
// Streams with the typed ones re-encoded from the model's views (attrs and names unchanged).
std::vector<MshStream> encode_msh_streams(const MshModel& model);

struct MshFile {
  NresArchive archive;  // the inner container as read (layout, gaps, sort table)
  MshModel model;
};
core::Result<MshFile> read_msh(core::ByteView data, const ReadOptions& options = {},
                               core::Diagnostics* warnings = nullptr);
// Byte-exact for an unchanged model; edited streams go through the NRes editor (layout kept).
core::Result<core::Bytes> write_msh(const MshFile& file);
// A fresh canonical NRes from the model's streams (builder output).
core::Result<core::Bytes> write_msh_canonical(const MshModel& model);

// Views the mission pipeline follows.
std::optional<std::size_t> msh_slot_for(const MshModel& model, std::size_t node, std::size_t lod, std::size_t group);
// Sorted distinct Batch20.material_index values (WEAR row positions the model uses).
std::vector<std::uint16_t> msh_material_rows(const MshModel& model);

// Builder for generated content: one root node whose (lod 0, group 0) slot holds every batch.
struct MshBuildBatch {
  std::uint16_t material_index = 0;
  std::uint32_t index_start = 0;
  std::uint16_t index_count = 0;
};
struct MshBuildInput {
  std::vector<core::Vec3> positions;
  std::vector<std::array<float, 2>> uvs;  // optional; same count as positions when given
  // Optional unit vertex normals (same count as positions), stored as the i8 triple whose
  // direction is closest; without them the normals are the faces' mean.
  std::vector<core::Vec3> normals;
  std::vector<std::uint16_t> indices;  // triangle list
  std::vector<MshBuildBatch> batches;
  std::string node_name = "root";
};
// Errors builder.msh (inconsistent input: index out of range, count not a multiple of 3, ...).
core::Result<MshModel> build_msh_model(const MshBuildInput& input);
// An axis-aligned box of half size (hx, hy, hz): 8 vertices, 12 triangles, one batch per face
// pair when `material_rows` > 1 (material_index = face pair % material_rows), else one batch.
MshBuildInput msh_box_input(float hx, float hy, float hz, std::uint16_t material_rows = 1);

core::Json msh_json(const MshModel& model);
FormatInfo msh_format_info();

}  // namespace sortie::iron3d
