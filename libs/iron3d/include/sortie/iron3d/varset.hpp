#pragma once
// `varset.var` (spec §20.3, seed 001): the script variable table. Line-oriented, byte-safe text
// (comments may hold any bytes). For every line split at '\n': text from the first "//" is a
// comment, whitespace (space, \t, \r, \n, \f: not \v) is trimmed, then
//
//   VAR(<type>, <name>, <default>)            closed by ")", ");" or ") ;"
//   VAR(<type>, <name>, <default>, <min>, <max>)   the ranged form (seed 001: "ranges")
//   STRING(<name>, <value>)                   value raw, or "quoted" (quotes removed in `value`)
//
// and every other line is ignored, never rejected (FUNCTION(...), a STRING line that is not
// STRING(name, value), blank lines, comments). <type> is `float` (decimal with an optional sign,
// finite; an underflow is the correctly rounded 0 or subnormal) or `DWORD` (decimal or 0x/0X
// hex with an optional '+', fits u32). Fields after the default never reject a line: exactly
// two that parse for the type are the range, anything else is kept raw in `extra_fields` (a
// varset.fields warning). The name is the raw bytes between the commas (control bytes kept).
// VAR declarations in file order define the index space the compiled `.scr` references point
// into; STRING declarations are kept in their own list and take no index. The file is kept line
// by line (exact bytes), so writing is byte-exact. docs/script-bundles.md has the decisions.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

enum class VarType : std::uint8_t { float32, dword };
std::string_view to_string(VarType type);

// A typed value: `bits` holds the u32 for DWORD and the IEEE-754 bits for float.
struct VarValue {
  std::string raw;  // the field's text as written (trimmed)
  std::uint32_t bits = 0;
  bool operator==(const VarValue&) const = default;
};

struct VarsetVar {
  VarType type = VarType::dword;
  std::string name;
  VarValue default_value;
  std::optional<VarValue> min;  // the ranged form only
  std::optional<VarValue> max;
  std::vector<std::string> extra_fields;  // fields after the default that are not a range, trimmed
  std::size_t line = 0;                   // index into Varset::lines
  [[nodiscard]] float as_float() const;   // float declarations
  bool operator==(const VarsetVar&) const = default;
};

struct VarsetString {
  std::string name;
  std::string raw_value;  // trimmed text between the first ',' and the closing ')'
  std::string value;      // raw_value without surrounding double quotes
  std::size_t line = 0;
  bool operator==(const VarsetString&) const = default;
};

struct Varset {
  // Raw lines split at '\n' (each may still hold '\r'); joined with '\n' they are the file.
  std::vector<std::string> lines;
  std::vector<VarsetVar> vars;  // the index space of script references
  std::vector<VarsetString> strings;
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;  // VAR index
  bool operator==(const Varset&) const = default;
};

// Codes: varset.syntax (no closing ')', text after it other than ';', fewer than three fields,
// an empty type, name or default), varset.type (type other than float/DWORD), varset.value
// (a default that does not parse for its type), varset.limit (more than 4096 VAR declarations).
// Warnings (when `warnings` is given): varset.fields (a VAR line with fields after the default
// that are not a valid min/max pair). Offsets are byte offsets of the line; field paths
// "vars[i].default" / "lines[n]".
core::Result<Varset> read_varset(core::ByteView data, const ReadOptions& options = {},
                                 core::Diagnostics* warnings = nullptr);
// The numeric grammar of a declaration's value (also used for the script runtime's checks).
bool parse_var_value(VarType type, std::string_view text, std::uint32_t& bits);
core::Bytes write_varset(const Varset& varset);

// Builder for fixtures: one "VAR(type, name, default);\r\n" line per entry, then STRING lines.
struct VarsetSpec {
  VarType type = VarType::dword;
  std::string name;
  std::string default_text;
};
core::Result<Varset> build_varset(const std::vector<VarsetSpec>& vars,
                                  const std::vector<std::pair<std::string, std::string>>& strings = {});

core::Json varset_json(const Varset& varset);
FormatInfo varset_format_info();

}  // namespace sortie::iron3d
