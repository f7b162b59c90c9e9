#include "sortie/iron3d/varset.hpp"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>

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

// Parses a value of `type`; false when the text is not a valid value.
bool parse_value(VarType type, std::string_view text, std::uint32_t& bits) {
  if (text.empty()) return false;
  const char* b = text.data();
  const char* e = b + text.size();
  if (type == VarType::float32) {
    float f = 0.0f;
    auto [p, ec] = std::from_chars(b, e, f, std::chars_format::general);
    if (ec != std::errc() || p != e || !std::isfinite(f)) return false;
    bits = std::bit_cast<std::uint32_t>(f);
    return true;
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    b += 2;
  }
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(b, e, v, base);
  if (ec != std::errc() || p != e || v > 0xFFFFFFFFull) return false;
  bits = static_cast<std::uint32_t>(v);
  return true;
}

std::vector<std::string_view> split_fields(std::string_view inner) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = inner.find(',', start);
    out.push_back(core::trim(inner.substr(start, comma == std::string_view::npos ? inner.npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

// "<head>(...)" with nothing but an optional ';' after the last ')': returns the inner text.
std::optional<std::string_view> call_inner(std::string_view s, std::string_view head) {
  const auto close = s.rfind(')');
  if (close == std::string_view::npos || close < head.size()) return std::nullopt;
  const auto after = core::trim(s.substr(close + 1));
  if (!after.empty() && after != ";") return std::nullopt;
  return s.substr(head.size(), close - head.size());
}

}  // namespace

core::Result<Varset> read_varset(core::ByteView data, const ReadOptions& options) {
  const std::string_view text = core::as_chars(data);
  Varset vs;
  std::size_t start = 0;
  while (true) {
    const auto nl = text.find('\n', start);
    const auto raw = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    const std::size_t line_index = vs.lines.size();
    vs.lines.emplace_back(raw);
    auto err = [&](std::string code, std::string msg, std::string field, std::string expected) {
      return Diagnostic::error(std::move(code), std::move(msg))
          .of(options.file_name)
          .at(start)
          .in(std::move(field))
          .expect(std::move(expected), std::string(core::trim(raw)));
    };
    std::string_view s = raw;
    if (const auto c = s.find("//"); c != std::string_view::npos) s = s.substr(0, c);
    s = core::trim(s);
    const std::string line_field = fmt::format("lines[{}]", line_index);
    if (s.starts_with("VAR(")) {
      const auto inner = call_inner(s, "VAR(");
      if (!inner)
        return core::fail(
            err("varset.syntax", "VAR declaration without a closing ')'", line_field, "VAR(type, name, default)"));
      const auto f = split_fields(*inner);
      if (f.size() != 3 && f.size() != 5)
        return core::fail(err("varset.syntax", fmt::format("VAR declaration has {} fields", f.size()), line_field,
                              "3 fields (type, name, default) or 5 (…, min, max)"));
      if (vs.vars.size() >= kVarsetMaxDeclarations)
        return core::fail(err("varset.limit", "more VAR declarations than the reader's limit", line_field,
                              fmt::format("<= {} declarations", kVarsetMaxDeclarations)));
      const std::string field = fmt::format("vars[{}]", vs.vars.size());
      VarsetVar v;
      v.line = line_index;
      if (f[0] == "float")
        v.type = VarType::float32;
      else if (f[0] == "DWORD")
        v.type = VarType::dword;
      else
        return core::fail(
            err("varset.type", fmt::format("unknown variable type '{}'", f[0]), field + ".type", "float or DWORD"));
      if (f[1].empty())
        return core::fail(err("varset.syntax", "VAR declaration without a name", field + ".name", "a name"));
      v.name = std::string(f[1]);
      auto value = [&](std::string_view t, std::string_view what) -> core::Result<VarValue> {
        VarValue val{std::string(t), 0};
        if (!parse_value(v.type, t, val.bits))
          return core::fail(err("varset.value", fmt::format("{} '{}' is not a {} value", what, t, to_string(v.type)),
                                field + "." + std::string(what),
                                v.type == VarType::float32 ? "finite decimal float" : "u32 decimal or 0x hex"));
        return val;
      };
      SORTIE_TRY(v.default_value, value(f[2], "default"));
      if (f.size() == 5) {
        SORTIE_TRY(v.min, value(f[3], "min"));
        SORTIE_TRY(v.max, value(f[4], "max"));
      }
      vs.vars.push_back(std::move(v));
    } else if (s.starts_with("STRING(")) {
      const auto inner = call_inner(s, "STRING(");
      const auto comma = inner ? inner->find(',') : std::string_view::npos;
      if (!inner || comma == std::string_view::npos || core::trim(inner->substr(0, comma)).empty())
        return core::fail(
            err("varset.syntax", "STRING declaration is not STRING(name, value)", line_field, "STRING(name, value)"));
      VarsetString str;
      str.line = line_index;
      str.name = std::string(core::trim(inner->substr(0, comma)));
      str.raw_value = std::string(core::trim(inner->substr(comma + 1)));
      str.value = str.raw_value;
      if (str.value.size() >= 2 && str.value.front() == '"' && str.value.back() == '"')
        str.value = str.value.substr(1, str.value.size() - 2);
      vs.strings.push_back(std::move(str));
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
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics*) { return read_varset(d, o); },
    .json = &varset_json,
    .write = [](const Varset& v) -> core::Result<core::Bytes> { return write_varset(v); },
};

}  // namespace

FormatInfo varset_format_info() {
  return format_info<Varset, kVarsetFormat>();
}

}  // namespace sortie::iron3d
