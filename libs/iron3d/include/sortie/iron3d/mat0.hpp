#pragma once
// MAT0 material definition (spec §11): NRes entry type "MAT0" in Material.lib; the entry's
// attr2 is the payload version, which decides the prefix length (0/2/6/10 bytes). Phases name
// the diffuse textures (Texm in textures.lib).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {

inline constexpr std::uint32_t kMat0TypeId = 0x3054414D;  // "MAT0"
inline constexpr std::uint32_t kMat0MaxKnownVersion = 6;  // every corpus material has attr2 = 6
inline constexpr std::size_t kMat0PhaseSize = 34;
inline constexpr std::uint16_t kMat0MaxAnimBlocks = 20;  // block count must be < 20

struct Mat0Phase {
  std::array<std::uint8_t, 18> parameters{};
  core::FixedString texture_name = core::FixedString::make("", 16);  // may use all 16 bytes
  bool operator==(const Mat0Phase&) const = default;
};

struct Mat0AnimKey {
  std::uint16_t k0 = 0, k1 = 0, k2 = 0;
  bool operator==(const Mat0AnimKey&) const = default;
};

struct Mat0AnimBlock {
  std::uint32_t header_raw = 0;
  std::vector<Mat0AnimKey> keys;
  [[nodiscard]] std::uint32_t mode() const { return header_raw & 7u; }
  [[nodiscard]] std::uint32_t interpolation_mask() const { return header_raw >> 3; }
  bool operator==(const Mat0AnimBlock&) const = default;
};

struct Mat0 {
  std::uint32_t version = kMat0MaxKnownVersion;  // the entry's attr2 (not stored in the payload)
  // Prefix fields; written only when the version has them (defaults otherwise).
  std::uint8_t metadata_a = 255;              // version >= 2
  std::uint8_t metadata_b = 255;              // version >= 2
  std::uint32_t metadata_c_raw = 0x3F800000;  // version >= 3 (bits of 1.0f)
  std::uint32_t metadata_d_raw = 0;           // version >= 4
  std::vector<Mat0Phase> phases;
  std::vector<Mat0AnimBlock> animation_blocks;
  bool operator==(const Mat0&) const = default;
};

std::size_t mat0_prefix_size(std::uint32_t version);

// Codes: mat0.size (< 4 bytes), mat0.version (attr2 > 6: strict rejects, compatible warns and
// reads the 10-byte prefix), mat0.block_count (>= 20), mat0.phase_count (phases do not fit),
// mat0.block (a block header or its keys do not fit), mat0.trailing.
core::Result<Mat0> read_mat0(core::ByteView payload, std::uint32_t version, const ReadOptions& options = {},
                             core::Diagnostics* warnings = nullptr);
core::Bytes write_mat0(const Mat0& mat);
// Reads entry `index` of a Material.lib archive: the entry type must be MAT0 (code
// mat0.entry_type) and its attr2 gives the version. Diagnostics carry "archive:entry" and
// file offsets.
core::Result<Mat0> read_mat0_entry(const NresArchive& archive, std::size_t index, const ReadOptions& options = {},
                                   core::Diagnostics* warnings = nullptr);

// Typed view: non-empty phase texture names (NUL-cut, ASCII-trimmed) in disk order.
std::vector<std::string> mat0_texture_names(const Mat0& mat);

// Builder: one phase per texture name (empty string = untextured phase), parameters set to a
// plain opaque white (p[0..2]=255, p[4..7]=255), no animation blocks unless `loop_phases`
// (then one loop block with one key per phase). Names must fit 16 bytes.
core::Result<Mat0> build_mat0(const std::vector<std::string>& textures, bool loop_phases = false);

core::Json mat0_json(const Mat0& mat);
FormatInfo mat0_format_info();

}  // namespace sortie::iron3d
