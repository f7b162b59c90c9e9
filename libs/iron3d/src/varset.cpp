#include "sortie/iron3d/varset.hpp"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "asset_util.hpp"
#include "sortie/core/text.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

std::string_view to_string(VarType type) {
  return type == VarType::float32 ? "float" : "DWORD";
}

float VarsetVar::as_float() const {
  return std::bit_cast<float>(default_value.bits);
}

std::optional<std::size_t> Varset::find(std::string_view name) const {
  for (std::size_t i = 0; i < vars.size(); ++i)
    if (vars[i].name == name) return i;
  return std::nullopt;
}

namespace {

// Whitespace of the grammar: space, \t, \n, \f, \r. \v (0x0B) is not one: it is a control byte
// and stays in a field (docs/script-bundles.md).
constexpr std::string_view kVarsetSpace = " \t\n\f\r";

std::string_view trim_field(std::string_view s) {
  return core::trim(s, kVarsetSpace);
}

bool all_digits(std::string_view s, int base) {
  if (s.empty()) return false;
  for (const char c : s) {
    const bool dec = c >= '0' && c <= '9';
    const bool hex = (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!dec && !(base == 16 && hex)) return false;
  }
  return true;
}

bool parse_float(std::string_view text, std::uint32_t& bits) {
  // An optional '+' before a digit or '.' (from_chars takes only '-').
  if (text.size() > 1 && text[0] == '+' && (text[1] == '.' || (text[1] >= '0' && text[1] <= '9')))
    text.remove_prefix(1);
  if (text.empty()) return false;
  const char* b = text.data();
  const char* e = b + text.size();
  float f = 0.0f;
  const auto [p, ec] = std::from_chars(b, e, f, std::chars_format::general);
  if (p != e) return false;
  if (ec == std::errc::result_out_of_range) {
    // A well-formed decimal outside float's normal range: strtof gives the correctly rounded
    // value (0 or a subnormal for an underflow, infinity for an overflow, rejected below).
    const std::string copy(text);
    f = std::strtof(copy.c_str(), nullptr);
  } else if (ec != std::errc()) {
    return false;
  }
  if (!std::isfinite(f)) return false;
  bits = std::bit_cast<std::uint32_t>(f);
  return true;
}

bool parse_dword(std::string_view text, std::uint32_t& bits) {
  int base = 10;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (!all_digits(text, base)) return false;
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (ec != std::errc() || p != text.data() + text.size() || v > 0xFFFFFFFFull) return false;
  bits = static_cast<std::uint32_t>(v);
  return true;
}

std::vector<std::string_view> split_fields(std::string_view inner) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = inner.find(',', start);
    out.push_back(trim_field(inner.substr(start, comma == std::string_view::npos ? inner.npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

// "<head>(...)" with nothing but an optional ';' after the last ')': returns the inner text.
std::optional<std::string_view> call_inner(std::string_view s, std::string_view head) {
  const auto close = s.rfind(')');
  if (close == std::string_view::npos || close < head.size()) return std::nullopt;
  const auto after = trim_field(s.substr(close + 1));
  if (!after.empty() && after != ";") return std::nullopt;
  return s.substr(head.size(), close - head.size());
}

// One line of the file, what the declaration parsers need to report.
struct VarsetLine {
  std::string_view raw;   // the line as split
  std::string_view code;  // without the comment, trimmed
  std::size_t index = 0;
  std::size_t offset = 0;
  const ReadOptions* options = nullptr;

  [[nodiscard]] core::Diagnostic error(std::string code_name, std::string msg, std::string field,
                                       std::string expected) const {
    return Diagnostic::error(std::move(code_name), std::move(msg))
        .of(options->file_name)
        .at(offset)
        .in(std::move(field))
        .expect(std::move(expected), std::string(trim_field(raw)));
  }
};

core::Result<VarsetVar> read_var_line(const VarsetLine& ln, std::size_t var_index, core::Diagnostics* warnings) {
  const std::string line_field = fmt::format("lines[{}]", ln.index);
  const auto inner = call_inner(ln.code, "VAR(");
  if (!inner)
    return core::fail(ln.error("varset.syntax", "VAR declaration without a closing ')' (or text after it)", line_field,
                               "VAR(type, name, default) with ')' or ');' last"));
  const auto f = split_fields(*inner);
  if (f.size() < 3)
    return core::fail(ln.error("varset.syntax", fmt::format("VAR declaration has {} fields", f.size()), line_field,
                               "3 fields (type, name, default) or 5 (..., min, max)"));
  if (var_index >= kVarsetMaxDeclarations)
    return core::fail(ln.error("varset.limit", "more VAR declarations than the reader's limit", line_field,
                               fmt::format("<= {} declarations", kVarsetMaxDeclarations)));
  const std::string field = fmt::format("vars[{}]", var_index);
  VarsetVar v;
  v.line = ln.index;
  if (f[0] == "float")
    v.type = VarType::float32;
  else if (f[0] == "DWORD")
    v.type = VarType::dword;
  else if (f[0].empty())
    return core::fail(ln.error("varset.syntax", "VAR declaration without a type", field + ".type", "float or DWORD"));
  else
    return core::fail(
        ln.error("varset.type", fmt::format("unknown variable type '{}'", f[0]), field + ".type", "float or DWORD"));
  if (f[1].empty())
    return core::fail(ln.error("varset.syntax", "VAR declaration without a name", field + ".name", "a name"));
  v.name = std::string(f[1]);
  if (f[2].empty())
    return core::fail(ln.error("varset.syntax", "VAR declaration without a default", field + ".default", "a value"));
  v.default_value.raw = std::string(f[2]);
  if (!parse_var_value(v.type, f[2], v.default_value.bits))
    return core::fail(ln.error("varset.value", fmt::format("default '{}' is not a {} value", f[2], to_string(v.type)),
                               field + ".default",
                               v.type == VarType::float32 ? "finite decimal float" : "u32 decimal or 0x hex"));
  if (f.size() == 3) return v;
  VarValue lo{std::string(f.size() > 3 ? f[3] : std::string_view()), 0};
  VarValue hi{std::string(f.size() > 4 ? f[4] : std::string_view()), 0};
  if (f.size() == 5 && parse_var_value(v.type, lo.raw, lo.bits) && parse_var_value(v.type, hi.raw, hi.bits)) {
    v.min = std::move(lo);
    v.max = std::move(hi);
    return v;
  }
  for (std::size_t i = 3; i < f.size(); ++i) v.extra_fields.emplace_back(f[i]);
  if (warnings != nullptr)
    warnings->push_back(
        Diagnostic::warning("varset.fields", fmt::format("VAR declaration has {} fields: the {} after the default are "
                                                         "not a min/max pair and are kept unread",
                                                         f.size(), f.size() - 3))
            .of(ln.options->file_name)
            .at(ln.offset)
            .in(field)
            .expect("3 fields, or 5 with a valid min and max", std::string(ln.code)));
  return v;
}

// A STRING(name, value) line, or nothing when the line is not one (it is then ignored).
std::optional<VarsetString> read_string_line(const VarsetLine& ln) {
  const auto inner = call_inner(ln.code, "STRING(");
  const auto comma = inner ? inner->find(',') : std::string_view::npos;
  if (!inner || comma == std::string_view::npos || trim_field(inner->substr(0, comma)).empty()) return std::nullopt;
  VarsetString str;
  str.line = ln.index;
  str.name = std::string(trim_field(inner->substr(0, comma)));
  str.raw_value = std::string(trim_field(inner->substr(comma + 1)));
  str.value = str.raw_value;
  if (str.value.size() >= 2 && str.value.front() == '"' && str.value.back() == '"')
    str.value = str.value.substr(1, str.value.size() - 2);
  return str;
}

}  // namespace

bool parse_var_value(VarType type, std::string_view text, std::uint32_t& bits) {
  return type == VarType::float32 ? parse_float(text, bits) : parse_dword(text, bits);
}

core::Result<Varset> read_varset(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  const std::string_view text = core::as_chars(data);
  Varset vs;
  std::size_t start = 0;
  while (true) {
    const auto nl = text.find('\n', start);
    VarsetLine ln;
    ln.raw = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    ln.index = vs.lines.size();
    ln.offset = start;
    ln.options = &options;
    vs.lines.emplace_back(ln.raw);
    std::string_view s = ln.raw;
    if (const auto c = s.find("//"); c != std::string_view::npos) s = s.substr(0, c);
    ln.code = trim_field(s);
    if (ln.code.starts_with("VAR(")) {
      SORTIE_TRY(auto v, read_var_line(ln, vs.vars.size(), warnings));
      vs.vars.push_back(std::move(v));
    } else if (ln.code.starts_with("STRING(")) {
      if (auto str = read_string_line(ln)) vs.strings.push_back(std::move(*str));
    }
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return vs;
}

core::Bytes write_varset(const Varset& varset) {
  core::ByteWriter w;
  for (std::size_t i = 0; i < varset.lines.size(); ++i) {
    if (i) w.u8('\n');
    w.bytes(varset.lines[i]);
  }
  return w.take();
}

core::Result<Varset> build_varset(const std::vector<VarsetSpec>& vars,
                                  const std::vector<std::pair<std::string, std::string>>& strings) {
  std::string text = "// varset written by sortie\r\n";
  for (const auto& v : vars) text += fmt::format("VAR({}, {}, {});\r\n", to_string(v.type), v.name, v.default_text);
  for (const auto& [name, value] : strings) text += fmt::format("STRING({}, \"{}\");\r\n", name, value);
  return read_varset(core::as_bytes(text));
}

core::Json varset_json(const Varset& varset) {
  core::Json j;
  j["format"] = "varset";
  auto value_json = [](VarType t, const VarValue& v) {
    core::Json o;
    o["raw"] = core::legacy_text_json(v.raw);
    if (t == VarType::float32)
      o["value"] = std::bit_cast<float>(v.bits);
    else
      o["value"] = v.bits;
    return o;
  };
  core::Json vars = core::Json::array();
  for (std::size_t i = 0; i < varset.vars.size(); ++i) {
    const auto& v = varset.vars[i];
    core::Json o;
    o["index"] = i;
    o["type"] = std::string(to_string(v.type));
    o["name"] = core::legacy_text_json(v.name);
    o["default"] = value_json(v.type, v.default_value);
    if (v.min) o["min"] = value_json(v.type, *v.min);
    if (v.max) o["max"] = value_json(v.type, *v.max);
    if (!v.extra_fields.empty()) {
      core::Json extra = core::Json::array();
      for (const auto& e : v.extra_fields) extra.push_back(core::legacy_text_json(e));
      o["extra_fields"] = std::move(extra);
    }
    o["line"] = v.line;
    vars.push_back(std::move(o));
  }
  j["vars"] = std::move(vars);
  core::Json strings = core::Json::array();
  for (const auto& s : varset.strings)
    strings.push_back(
        {{"name", core::legacy_text_json(s.name)}, {"value", core::legacy_text_json(s.value)}, {"line", s.line}});
  j["strings"] = std::move(strings);
  j["line_count"] = varset.lines.size();
  return j;
}

namespace {

int detect(core::ByteView, std::string_view file_name) {
  return detail::has_extension(file_name, ".var") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<Varset> kVarsetFormat{
    .name = "varset",
    .description = "Iron3D script variable table (text; varset.var, <bundle>.var)",
    .detect = &detect,
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics* w) { return read_varset(d, o, w); },
    .json = &varset_json,
    .write = [](const Varset& v) -> core::Result<core::Bytes> { return write_varset(v); },
    .inspect_warnings = InspectWarnings::when_any,
};

}  // namespace

FormatInfo varset_format_info() {
  return format_info<Varset, kVarsetFormat>();
}

}  // namespace sortie::iron3d
