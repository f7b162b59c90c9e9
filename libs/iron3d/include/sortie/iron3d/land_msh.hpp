#pragma once
// Land.msh: the terrain mesh (spec iron3d-formats §15, seed 000 "Land.msh").
// An NRes archive of nine typed streams, observed order [1, 2, 3, 4, 5, 18, 14, 11, 21];
// fixed-stride streams carry attr1 = element count and attr3 = stride.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/land_stream.hpp"

namespace sortie::iron3d {

class NresArchive;

// Stream type ids.
enum class LandMshStream : std::uint32_t {
  nodes = 1,            // Node38 records, kept raw
  slots = 2,            // 0x8C header + Slot68 records
  positions = 3,        // f32 x, y (ground), z (height)
  normals = 4,          // i8 x 4
  uvs = 5,              // i16 x 2 (decode / 1024)
  material_pairs = 11,  // {u16 material_lookup, u16 flags}
  aux_words = 14,       // u32, opaque
  microtexture = 18,    // u32, opaque ("microtexture mapping chunk")
  faces = 21,           // TerrainFace28
};

// The order every known map uses.
inline constexpr std::array<std::uint32_t, 9> kLandMshStreamOrder = {1, 2, 3, 4, 5, 18, 14, 11, 21};
inline constexpr std::size_t kLandMshSlotHeaderSize = 0x8C;
inline constexpr std::uint16_t kNoNeighbour = 0xFFFF;
// Flag of a material pair that starts a new batch (the only proven bit).
inline constexpr std::uint16_t kPairBatchBoundary = 0x0010;

struct PackedNormal {
  std::int8_t x = 0, y = 0, z = 0, w = 0;
  bool operator==(const PackedNormal&) const = default;
};
struct PackedUv {
  std::int16_t u = 0, v = 0;
  bool operator==(const PackedUv&) const = default;
};
struct MaterialPair {
  std::uint16_t material_lookup = 0;  // opaque key of the shade cache, not a WEAR row
  std::uint16_t flags = 0;
  bool operator==(const MaterialPair&) const = default;
};

// Type 2 slot. In Land.msh the first two words address a range of type 11 pairs.
struct TerrainSlot68 {
  std::uint16_t pair_table_index = 0;
  std::uint16_t pair_count = 0;
  std::uint16_t word4 = 0;  // batch_start in models; opaque here
  std::uint16_t word6 = 0;  // batch_count in models; opaque here
  core::Vec3 aabb_min;
  core::Vec3 aabb_max;
  core::Vec3 sphere_center;
  float sphere_radius = 0;
  std::array<std::uint32_t, 5> tail{};  // opaque
  bool operator==(const TerrainSlot68&) const = default;
};

struct TerrainFace28 {
  std::uint32_t surface_mask = 0;  // full 32-bit mask (see SurfaceMasks)
  std::uint16_t material_tag = 0;  // low byte: Land2.wea row; high byte: Land1.wea row or 0xFF
  std::uint16_t aux_tag = 0;       // opaque
  std::array<std::uint16_t, 3> vertices{};
  std::array<std::uint16_t, 3> neighbours{};  // 0xFFFF = none
  std::array<std::uint8_t, 8> tail{};         // opaque (material/class/edge fields)
  [[nodiscard]] std::uint8_t land2_row() const { return static_cast<std::uint8_t>(material_tag & 0xFF); }
  [[nodiscard]] bool has_land1_row() const { return (material_tag >> 8) != 0xFF; }
  [[nodiscard]] std::uint8_t land1_row() const { return static_cast<std::uint8_t>(material_tag >> 8); }
  bool operator==(const TerrainFace28&) const = default;
};

// Runtime view of a full surface mask: a 16-bit compact mask and a 6-bit material class mask
// are bit permutations of it; full bits neither of them maps are kept in `unknown_full`.
struct SurfaceMasks {
  std::uint16_t compact = 0;
  std::uint8_t material_class = 0;
  std::uint32_t unknown_full = 0;
  bool operator==(const SurfaceMasks&) const = default;
};
inline constexpr std::uint32_t kCompactMappedFullBits = 0x00227E7F;  // the 15 full bits with a compact bit
inline constexpr std::uint32_t kClassMappedFullBits = 0x000D8180;    // the 6 full bits with a class bit
inline constexpr std::uint16_t kCompactUnmappedBits = 0x4000;        // compact bit with no full source

std::uint16_t full_to_compact(std::uint32_t full);     // only the 15 mapped bits
std::uint32_t compact_to_full(std::uint16_t compact);  // exact inverse over the 15 bits; 0x4000 ignored
std::uint8_t full_to_material_class(std::uint32_t full);
std::uint32_t material_class_to_full(std::uint8_t material_class);
SurfaceMasks split_surface_mask(std::uint32_t full);
// Inverse of split_surface_mask (lossless for every value split_surface_mask produces).
std::uint32_t join_surface_mask(const SurfaceMasks& masks);

// A stream entry of a type the format does not define (compatible profile only).
struct LandMshExtraStream {
  std::size_t entry_index = 0;  // position in LandMsh::entries
  core::Bytes payload;
  bool operator==(const LandMshExtraStream&) const = default;
};

struct LandMsh {
  // Directory fields in physical order. For the nine known types attr1 and attr3 (and the type 2
  // attr1) are rewritten from the typed data on write; attr2, names and unknown attrs are kept.
  std::vector<LandEntryHeader> entries;
  core::Bytes nodes_raw;                                           // type 1 (38-byte Node38 records)
  std::array<std::uint8_t, kLandMshSlotHeaderSize> slot_header{};  // type 2 header, raw
  std::vector<TerrainSlot68> slots;                                // type 2
  std::vector<core::Vec3> positions;                               // type 3
  std::vector<PackedNormal> normals;                               // type 4
  std::vector<PackedUv> uvs;                                       // type 5
  std::vector<MaterialPair> material_pairs;                        // type 11
  std::vector<std::uint32_t> aux_words;                            // type 14
  std::vector<std::uint32_t> microtexture;                         // type 18
  std::vector<TerrainFace28> faces;                                // type 21
  std::vector<LandMshExtraStream> extra_streams;                   // unknown types, verbatim

  // Pairs addressed by a slot; empty when the range runs past type 11.
  [[nodiscard]] std::span<const MaterialPair> slot_pairs(std::size_t slot) const;
  bool operator==(const LandMsh&) const = default;
};

// Stream-level codec (the container is handled by NRes). `findings` receives warnings of the
// compatible profile (and notes); may be null.
core::Result<LandMsh> decode_land_msh_streams(std::span<const LandStream> streams, const ReadOptions& options,
                                              core::Diagnostics* findings = nullptr);
// Entries in the physical order of `msh.entries`, payloads encoded from the typed data.
core::Result<std::vector<LandStreamOut>> encode_land_msh_streams(const LandMsh& msh);

// Checks that do not need the disk layout (the reader runs them too): face vertex and neighbour
// references, slot pair ranges. Used on builder output and after edits.
core::Status validate_land_msh(const LandMsh& msh, const ReadOptions& options, core::Diagnostics* findings = nullptr);

// Whole file.
core::Result<LandMsh> read_land_msh(core::ByteView file, const ReadOptions& options,
                                    core::Diagnostics* findings = nullptr);
// Canonical NRes archive (payloads padded to 8, directory in entry order, rebuilt sort table).
core::Result<core::Bytes> write_land_msh(const LandMsh& msh);
// Same layout as `original` (gaps, padding, payload placement kept): write(read(x), x's archive) == x.
core::Result<core::Bytes> write_land_msh(const LandMsh& msh, const NresArchive& original);

core::Json land_msh_to_json(const LandMsh& msh);

FormatInfo land_msh_format_info();

}  // namespace sortie::iron3d
