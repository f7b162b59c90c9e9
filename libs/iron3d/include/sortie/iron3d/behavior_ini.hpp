#pragma once
// `Behavior.ini` (spec §21.1, §21 general rule; seed 001 "Параметры Behavior.ini"): the runtime
// configuration of Behavior.dll. Line-oriented text, split at '\n' (a line may end in '\r'):
//
//   // comment                    `//` outside double quotes starts a comment, anywhere
//   [Section]                     optional; kept (the demo file has none)
//   LogFile = "Behavior.log"      key = value; spaces around '=' and the value are ignored;
//   PathFind_MaxAccel=12.5        a value in double quotes keeps its inner text as is
//
// Keys are ASCII-case-insensitive (Windows profile semantics); the first occurrence of a key is
// the effective one. The file is kept line by line (exact bytes), so writing is byte-exact.
// Known keys (behavior_ini_keys()) get a typed value; unknown keys are kept and reported.
// Absent keys are absent: the caller decides its default (never a silent 0).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

enum class BehaviorValueType : std::uint8_t { integer, number, text };
std::string_view to_string(BehaviorValueType type);

struct BehaviorKeyInfo {
  std::string_view name;  // canonical spelling
  BehaviorValueType type;
  std::string_view meaning;
};

// The keys Behavior.dll reads: the demo file's switches and the PathFind_* / Network_* values.
std::span<const BehaviorKeyInfo> behavior_ini_keys();
// ASCII-case-insensitive lookup; nullptr for an unknown key.
const BehaviorKeyInfo* find_behavior_key(std::string_view name);

// `invalid`: a malformed line the compatible profile kept (reported as a warning).
enum class BehaviorLineKind : std::uint8_t { blank, comment, section, entry, invalid };

struct BehaviorIniEntry {
  std::size_t line = 0;          // index into BehaviorIni::lines
  std::size_t offset = 0;        // byte offset of that line
  std::string section;           // the [section] it is under ("" before any)
  std::string key;               // as written
  std::string raw_value;         // as written between '=' and the comment/line end, trimmed
  std::string value;             // raw_value without its surrounding double quotes
  bool known = false;            // one of behavior_ini_keys()
  bool effective = true;         // false for a repeated key (the first one counts)
  std::optional<double> number;  // integer and number keys: the parsed value (absent if malformed)
  bool operator==(const BehaviorIniEntry&) const = default;
};

struct BehaviorIni {
  std::vector<std::string> lines;         // raw lines; joined with '\n' they are the file
  std::vector<BehaviorLineKind> kinds;    // one per line
  std::vector<BehaviorIniEntry> entries;  // key = value lines in file order
  // The effective entry of a key (case-insensitive), nullptr when absent.
  [[nodiscard]] const BehaviorIniEntry* find(std::string_view key) const;
  // The parsed number of a present, well-formed integer/number key.
  [[nodiscard]] std::optional<double> number(std::string_view key) const;
  bool operator==(const BehaviorIni&) const = default;
};

// Errors (strict; compatible keeps the line and reports a warning instead), offsets are the
// line's byte offset, fields "lines[n]" / "entries[i].value":
//   behavior_ini.syntax     a line that is neither blank, comment, [section] nor key = value;
//                           an empty key; an empty or unterminated [section]
//   behavior_ini.quote      a value opening a double quote it does not close
//   behavior_ini.character  a control byte (other than tab) in a key or a value
//   behavior_ini.value      a known integer key whose value is not a decimal i32, a known
//                           number key whose value is not a finite decimal
// Always fatal: behavior_ini.limit (more than 4096 entries).
// Warnings (both profiles): behavior_ini.key_unknown, behavior_ini.key_duplicate.
core::Result<BehaviorIni> read_behavior_ini(core::ByteView data, const ReadOptions& options = {},
                                            core::Diagnostics* warnings = nullptr);
core::Bytes write_behavior_ini(const BehaviorIni& ini);

// Builder for fixtures and samples: "Key=Value\r\n" per pair after a comment line.
core::Result<BehaviorIni> build_behavior_ini(const std::vector<std::pair<std::string, std::string>>& values);

core::Json behavior_ini_json(const BehaviorIni& ini);
FormatInfo behavior_ini_format_info();

}  // namespace sortie::iron3d
