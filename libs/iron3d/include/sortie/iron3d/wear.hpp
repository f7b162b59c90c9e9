#pragma once
// WEAR material table (spec §10): CP1251 text. A model's Batch20.material_index is a row
// position in this table; the optional LIGHTMAPS block names lightmap Texm entries (§13).
// The text is kept line by line (exact bytes, including '\r'), so writing is byte-exact; the
// rows are typed views with the index of the line they came from.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

inline constexpr std::uint32_t kWearTypeId = 0x52414557;  // "WEAR"

struct WearRow {
  std::string legacy_id;  // first token, kept as text, never a key
  std::string name;       // second token (CP1251 bytes): material or lightmap name
  std::size_t line = 0;   // index into Wear::lines
  bool operator==(const WearRow&) const = default;
};

struct Wear {
  // Raw lines split at '\n' (each may still hold '\r'); joined with '\n' they are the file.
  std::vector<std::string> lines;
  std::vector<WearRow> materials;
  bool has_lightmaps = false;  // a LIGHTMAPS block is present (its count may be 0)
  std::vector<WearRow> lightmaps;
  bool operator==(const Wear&) const = default;
};

// Codes: wear.empty, wear.count (line 1 not an unsigned decimal), wear.count_zero,
// wear.row_missing, wear.row (fewer than 2 tokens), wear.lightmap_separator (no blank line
// before LIGHTMAPS), wear.lightmap_marker, wear.lightmap_count, wear.lightmap_row_missing,
// wear.lightmap_row (short row or non-blank text after the block). Offsets are byte offsets.
core::Result<Wear> read_wear(core::ByteView data, const ReadOptions& options = {});
core::Bytes write_wear(const Wear& wear);

// Typed views for the visual chain: material names in row order (row = Batch20.material_index)
// and lightmap names in order.
std::vector<std::string> wear_material_names(const Wear& wear);
std::vector<std::string> wear_lightmap_names(const Wear& wear);

// Builder: "<n>\r\n<id> <name>\r\n"..., then "\r\nLIGHTMAPS\r\n<m>\r\n<id> <name>\r\n" when
// lightmaps are given. Legacy ids are the row numbers. Names must be non-empty without
// whitespace; at least one material.
core::Result<Wear> build_wear(const std::vector<std::string>& materials,
                              const std::vector<std::string>& lightmaps = {});

// §2.3: the WEAR entry of model entry "foo.msh" is "foo.wea" (text after the last '.'
// replaced; a name without '.' gets ".wea" appended).
std::string wear_name_for_msh(std::string_view msh_entry_name);

core::Json wear_json(const Wear& wear);
FormatInfo wear_format_info();

}  // namespace sortie::iron3d
