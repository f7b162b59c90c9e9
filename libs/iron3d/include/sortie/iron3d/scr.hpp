#pragma once
// Compiled AI script package `.scr` (spec §20.2, seed 001 "SuperAI"): the verified outer
// framing only. Layout (little-endian):
//
//   u32 handler_count                 the VM's handler table size: 73 in every known build
//   u32 event_count
//   event_count x {
//     u32 name_len                    bytes before the terminating NUL
//     u8  name[name_len + 1]          raw bytes; the last one must be 0
//     u32 event_word                  opaque
//     u32 instruction_count
//     instruction_count x {
//       u32 w0..w4                    w0 = dispatch selector (0..72 handler, 0xFFFFFFFF none)
//       u32 w5 = reference_count
//       u32 references[w5]            varset declaration indices
//       u32 w6
//     }
//   }
//   trailing bytes                    kept apart, not an error
//
// The handler count is the package's version contract: ai.dll installs exactly 73 handlers
// and reports a package built for another table as a version mismatch, its own error
// (scr.version_mismatch; a warning in the compatible profile). Opcode semantics are unknown:
// the words are kept raw; only the dispatch selector has a typed view.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

inline constexpr std::uint32_t kScrHandlerCount = 73;  // the version the loader accepts
inline constexpr std::uint32_t kScrSentinel = 0xFFFFFFFFu;
inline constexpr std::size_t kScrMinInstructionSize = 28;  // seven words, no reference

// Typed view of an instruction's first word.
struct ScrSelector {
  enum class Kind : std::uint8_t { handler, sentinel, unknown };
  Kind kind = Kind::unknown;
  std::uint32_t raw = 0;  // the word itself; the handler index when kind == handler
};
ScrSelector scr_selector(std::uint32_t w0, std::uint32_t handler_count = kScrHandlerCount);
std::string_view to_string(ScrSelector::Kind kind);

struct ScrInstruction {
  std::array<std::uint32_t, 5> words{};   // w0..w4
  std::vector<std::uint32_t> references;  // w5 = references.size()
  std::uint32_t w6 = 0;
  [[nodiscard]] std::uint32_t selector_word() const { return words[0]; }
  bool operator==(const ScrInstruction&) const = default;
};

struct ScrEvent {
  std::string name;  // raw bytes before the terminating NUL (may hold inner NULs)
  std::uint32_t event_word = 0;
  std::vector<ScrInstruction> instructions;
  bool operator==(const ScrEvent&) const = default;
};

struct ScrPackage {
  std::uint32_t handler_count = kScrHandlerCount;
  std::vector<ScrEvent> events;
  core::Bytes trailing;  // bytes after the last event, written back verbatim
  bool operator==(const ScrPackage&) const = default;
};

struct ScrReadResult {
  ScrPackage package;
  core::Diagnostics warnings;  // compatible profile only (version mismatch)
};

// Codes: scr.version_mismatch (handler_count != 73; strict error, compatible warning),
// scr.limit (a count above its limit), scr.count (a count whose minimum size exceeds the bytes
// left), scr.name_nul (the name's last byte is not 0), scr.eof (a field runs past the end).
core::Result<ScrReadResult> read_scr(core::ByteView data, const ReadOptions& options = {});
core::Bytes write_scr(const ScrPackage& package);

struct ScrSummary {
  std::size_t events = 0;
  std::size_t instructions = 0;
  std::size_t references = 0;
  std::size_t handler_selectors = 0;
  std::size_t sentinels = 0;
  std::size_t unknown_selectors = 0;
};
ScrSummary scr_summary(const ScrPackage& package);

core::Json scr_json(const ScrPackage& package);
FormatInfo scr_format_info();

}  // namespace sortie::iron3d
