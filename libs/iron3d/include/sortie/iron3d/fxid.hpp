#pragma once
// FXID effect definition (spec §19): NRes entry type "FXID" (effects.rlb). 60-byte header then
// command_count commands, each a u32 word (opcode = low byte, enabled = bit 8) plus a fixed
// body whose size depends on the opcode. Resource references (archive[32] + name[32]) sit at
// per-opcode offsets (§19.3, not right after the word as fparkan HEAD reads them).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/format.hpp"

namespace sortie::iron3d {

inline constexpr std::uint32_t kFxidTypeId = 0x44495846;  // "FXID"
inline constexpr std::size_t kFxidHeaderSize = 60;

// Total command size (word included) for opcode 1..10; 0 for unknown opcodes.
std::size_t fxid_command_size(std::uint32_t opcode);
// Offset of the resource reference inside a command, if the opcode has one (opcode 1: +160,
// optional; opcode 6 none).
std::optional<std::size_t> fxid_reference_offset(std::uint32_t opcode);

struct FxidHeader {
  std::uint32_t time_mode = 0;
  float duration_seconds = 0.0f;
  float phase_jitter = 0.0f;
  std::uint32_t flags = 0;
  std::uint32_t settings_id = 0;
  std::array<float, 3> random_shift{};
  std::array<float, 3> pivot{};
  std::array<float, 3> scale{};
  bool operator==(const FxidHeader&) const = default;
};

struct FxidCommand {
  std::uint32_t word = 0;
  core::Bytes body;  // size = fxid_command_size(opcode) - 4
  [[nodiscard]] std::uint32_t opcode() const { return word & 0xFFu; }
  [[nodiscard]] bool enabled() const { return ((word >> 8) & 1u) != 0; }
  bool operator==(const FxidCommand&) const = default;
};

struct Fxid {
  FxidHeader header;  // command_count on disk = commands.size()
  std::vector<FxidCommand> commands;
  bool operator==(const Fxid&) const = default;
};

// Codes: fxid.size (shorter than the header), fxid.command_count (more commands than 4-byte
// words fit), fxid.command_eof (a command word is missing), fxid.opcode_unknown (0 or > 10),
// fxid.command_size (a command runs past the payload), fxid.trailing.
core::Result<Fxid> read_fxid(core::ByteView payload, const ReadOptions& options = {});
core::Bytes write_fxid(const Fxid& fx);

// Typed view of the referenced resources: one per command that has a non-empty reference
// (archive or name non-empty after NUL cut + trim), in command order.
struct FxidReference {
  std::size_t command = 0;
  std::uint32_t opcode = 0;
  std::string archive;
  std::string name;
  core::FixedString archive_raw;
  core::FixedString name_raw;
  bool operator==(const FxidReference&) const = default;
};
std::vector<FxidReference> fxid_references(const Fxid& fx);

// Builder: command with the opcode's size, zero body, enabled flag; reference written at the
// opcode's offset when given (names must fit 31 bytes).
core::Result<FxidCommand> make_fxid_command(std::uint32_t opcode, bool enabled, std::string_view archive = {},
                                            std::string_view name = {});

core::Json fxid_json(const Fxid& fx);
FormatInfo fxid_format_info();

}  // namespace sortie::iron3d
