#pragma once
// Land.map: the areal map (spec iron3d-formats §16, seed 000 "Land.map и ArealMap").
// An NRes archive with exactly one entry of type 12 whose attr1 is the areal count. The payload
// holds the areals (prefix, boundary vertices, edge links, polygon blocks) and a candidate grid.
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

inline constexpr std::uint32_t kLandMapEntryType = 12;
inline constexpr std::size_t kArealPrefixSize = 56;
// Packed runtime cell: (hit_count << 22) | pool_offset.
inline constexpr std::uint32_t kGridMaxHits = 1023;
inline constexpr std::uint32_t kGridMaxPoolOffset = 0x3FFFFF;

struct EdgeLink {
  std::int32_t area_ref = -1;  // (-1, -1) = no neighbour
  std::int32_t edge_ref = -1;  // link index in the target areal
  [[nodiscard]] bool is_none() const { return area_ref == -1 && edge_ref == -1; }
  bool operator==(const EdgeLink&) const = default;
};
static_assert(sizeof(EdgeLink) == 8);

// u32 n, then 4 * (3n + 1) bytes (never seen in the corpus; kept raw).
struct PolygonBlock {
  std::uint32_t n = 0;
  core::Bytes raw;
  bool operator==(const PolygonBlock&) const = default;
};

struct Areal {
  // ArealPrefix56, every field as stored.
  core::Vec3 anchor;
  float reserved_12 = 0;
  float area_metric = 0;
  core::Vec3 normal;
  std::uint32_t logic_flag = 0;
  std::uint32_t reserved_36 = 0;
  std::uint32_t class_id = 0;
  std::uint32_t reserved_44 = 0;
  // vertex_count and poly_count are vertices.size() and polygons.size().
  std::vector<core::Vec3> vertices;  // boundary polygon
  std::vector<EdgeLink> links;       // vertices.size() + 3 * polygons.size(); link k < vertex count = boundary edge k
  std::vector<PolygonBlock> polygons;
  [[nodiscard]] std::size_t link_count() const { return vertices.size() + 3 * polygons.size(); }
  bool operator==(const Areal&) const = default;
};

// The candidate grid in its packed runtime form: `cells[i] = (hits << 22) | offset` into `pool`.
// On disk each cell is u16 hit_count followed by that many u16 area ids.
struct ArealGrid {
  std::uint32_t cells_x = 0;
  std::uint32_t cells_y = 0;
  std::vector<std::uint32_t> cells;
  std::vector<std::uint16_t> pool;
  [[nodiscard]] std::size_t cell_count() const { return cells.size(); }
  [[nodiscard]] std::span<const std::uint16_t> candidates(std::size_t cell) const;
  // Appends one cell (in row-major order); fails when the pack limits are exceeded.
  core::Status push_cell(std::span<const std::uint16_t> area_ids);
  bool operator==(const ArealGrid&) const = default;
};

struct LandMap {
  LandEntryHeader entry;  // the type 12 entry (attr1 rewritten as the areal count on write)
  std::vector<Areal> areals;
  ArealGrid grid;
  bool operator==(const LandMap&) const = default;
};

// Payload codec. `areal_count` is the entry's attr1; `payload_offset` locates diagnostics.
core::Result<LandMap> decode_land_map_payload(core::ByteView payload, std::uint32_t areal_count,
                                              const ReadOptions& options, core::Diagnostics* findings = nullptr,
                                              std::uint64_t payload_offset = 0);
core::Result<core::Bytes> encode_land_map_payload(const LandMap& map);
// Stream level: exactly one entry, type 12.
core::Result<LandMap> decode_land_map_streams(std::span<const LandStream> streams, const ReadOptions& options,
                                              core::Diagnostics* findings = nullptr);

// Link and grid references (the reader runs the same checks).
core::Status validate_land_map(const LandMap& map, const ReadOptions& options, core::Diagnostics* findings = nullptr);

core::Result<LandMap> read_land_map(core::ByteView file, const ReadOptions& options,
                                    core::Diagnostics* findings = nullptr);
// Canonical NRes archive.
core::Result<core::Bytes> write_land_map(const LandMap& map);
// Same bytes layout as `original` (gaps and padding kept): write(read(x), x's archive) == x.
core::Result<core::Bytes> write_land_map(const LandMap& map, const NresArchive& original);

core::Json land_map_to_json(const LandMap& map);

FormatInfo land_map_format_info();

}  // namespace sortie::iron3d
