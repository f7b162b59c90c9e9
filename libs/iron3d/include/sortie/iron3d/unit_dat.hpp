#pragma once
// Unit DAT (`UNITS\...\*.dat`, spec §7.2): 8-byte opaque header (starts F1 F0) followed by
// 112-byte component records. Every byte is kept; the component references (archive, key)
// that prototype resolution follows are exposed as a typed view.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/format.hpp"

namespace sortie::iron3d {

inline constexpr std::size_t kUnitDatHeaderSize = 8;
inline constexpr std::size_t kUnitComponentSize = 112;

struct UnitComponentRecord {
  core::FixedString archive_name;    // 32 bytes at 0x00 (always objects.rlb in the corpus)
  core::FixedString resource_name;   // 32 bytes at 0x20: component prototype key
  std::uint32_t kind = 1;            // 0x40 (always 1 in the corpus)
  std::int32_t parent_or_link = -1;  // 0x44 (semantics open)
  core::FixedString description;     // 32 bytes at 0x48, may be full without NUL
  std::uint32_t tail0 = 0;           // 0x68 opaque
  std::uint32_t tail1 = 0;           // 0x6C opaque
  bool operator==(const UnitComponentRecord&) const = default;
};

struct UnitDat {
  std::array<std::uint8_t, kUnitDatHeaderSize> header{0xF1, 0xF0, 0, 0, 0, 0, 0, 0};
  std::vector<UnitComponentRecord> components;
  bool operator==(const UnitDat&) const = default;
};

// Typed view of one component reference: names NUL-cut and ASCII-trimmed (raw bytes stay in
// the record). `index` is the record index in file order (the unit_component_index of §7.4).
struct UnitComponentRef {
  std::string archive;
  std::string key;
  std::size_t index = 0;
  bool operator==(const UnitComponentRef&) const = default;
};

// Codes: unit_dat.size (shorter than 8 or not 8 + n*112), unit_dat.magic (header not F1 F0;
// strict rejects, compatible warns), unit_dat.resource_empty (a record without a key: warning),
// unit_dat.kind (kind != 1: warning).
core::Result<UnitDat> read_unit_dat(core::ByteView data, const ReadOptions& options = {},
                                    core::Diagnostics* warnings = nullptr);
core::Bytes write_unit_dat(const UnitDat& dat);

std::vector<UnitComponentRef> unit_dat_components(const UnitDat& dat);

// Builder for generated content: header F1 F0 00.., one record per (archive, key) with kind 1,
// parent_or_link = index - 1, zero tails and the given description. Names must fit 31 bytes.
struct UnitComponentSpec {
  std::string archive = "objects.rlb";
  std::string key;
  std::string description;
};
core::Result<UnitDat> build_unit_dat(const std::vector<UnitComponentSpec>& components);

// Legacy "binding" variant (§7.2; never seen in the corpora): u32 0x0000F0F1 at 0, u32 flags
// at 4, archive[32] at 0x08, model[32] at 0x28; length >= 0x48, both names non-empty. A
// resolver tries it only when read_unit_dat fails. The file itself stays raw (no writer).
// Codes: unit_dat.binding_size, unit_dat.binding_magic, unit_dat.binding_empty.
struct UnitDatBinding {
  std::uint32_t flags = 0;
  core::FixedString archive_name;
  core::FixedString model_name;
  [[nodiscard]] UnitComponentRef ref() const;
};
core::Result<UnitDatBinding> read_unit_dat_binding(core::ByteView data, const ReadOptions& options = {});

core::Json unit_dat_json(const UnitDat& dat);
FormatInfo unit_dat_format_info();

}  // namespace sortie::iron3d
