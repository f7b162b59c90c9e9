// Property value text <-> value (spec/fomap.md §5.2, §5.3).
#include "sortie/fomap/values.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>

namespace sortie::fomap {
namespace {

using core::Diagnostic;
using core::fail;

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trim4(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::size_t b = 0;
  while (b < s.size() && blank(s[b])) ++b;
  std::size_t e = s.size();
  while (e > b && blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

Diagnostic value_error(std::string code, std::string message, std::string expected, std::string_view found) {
  return Diagnostic::error(std::move(code), std::move(message)).expect(std::move(expected), std::string(found));
}

// Finite decimal float with optional trailing 'f'; no leading '+'.
std::optional<double> parse_float_text(std::string_view s) {
  if (s.empty() || s.front() == '+') return std::nullopt;
  if (s.back() == 'f' || s.back() == 'F') s.remove_suffix(1);
  if (s.empty()) return std::nullopt;
  double v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Integer per §5.2: '-'? ('0x' hex | decimal) else finite float truncated. nullopt on garbage.
// Magnitude up to 2^64-1; result as (negative, magnitude) folded into int64 range check by caller.
struct IntText {
  bool ok = false;
  bool negative = false;
  std::uint64_t magnitude = 0;
  bool from_float = false;
  double real = 0;
};

// 1..18 ASCII digits (cannot overflow): the common case, without from_chars' generality.
bool plain_decimal(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 18) return false;
  std::uint64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  out = v;
  return true;
}

IntText parse_int_text(std::string_view text) {
  IntText r;
  std::string_view s = trim4(text);
  if (s.empty() || s.front() == '+') return r;
  std::string_view digits = s;
  bool neg = false;
  if (digits.front() == '-') {
    neg = true;
    digits.remove_prefix(1);
  }
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  if (base == 10 && plain_decimal(digits, r.magnitude)) {
    r.ok = true;
    r.negative = neg;
    return r;
  }
  if (!digits.empty() && digits.front() != '-' && digits.front() != '+') {
    std::uint64_t v = 0;
    auto res = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (res.ec == std::errc() && res.ptr == digits.data() + digits.size()) {
      r.ok = true;
      r.negative = neg;
      r.magnitude = v;
      return r;
    }
  }
  if (base == 10) {
    if (auto f = parse_float_text(s)) {
      r.ok = true;
      r.from_float = true;
      r.real = std::trunc(*f);
      return r;
    }
  }
  return r;
}

struct Range {
  std::int64_t lo;
  std::int64_t hi;
  bool unsigned64 = false;
};

Range range_of(ScalarKind k) {
  switch (k) {
    case ScalarKind::int8:
      return {-128, 127};
    case ScalarKind::int16:
    case ScalarKind::mdir:
    case ScalarKind::mpos:
    case ScalarKind::msize:
    case ScalarKind::ipos16:
      return {-32768, 32767};
    case ScalarKind::int32:
    case ScalarKind::ipos:
    case ScalarKind::isize:
    case ScalarKind::irect:
      return {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
    case ScalarKind::uint8:
      return {0, 255};
    case ScalarKind::uint16:
      return {0, 65535};
    case ScalarKind::uint32:
    case ScalarKind::ucolor:
      return {0, 4294967295LL};
    case ScalarKind::uint64:
      return {0, std::numeric_limits<std::int64_t>::max(), true};
    default:
      return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  }
}

core::Result<std::int64_t> parse_int_in(std::string_view text, ScalarKind kind) {
  const IntText t = parse_int_text(text);
  if (!t.ok)
    return fail(value_error("fomap.value.integer", "not an integer", "decimal, 0x hex or a finite number", text));
  const Range r = range_of(kind);
  std::int64_t v = 0;
  if (t.from_float) {
    if (t.real < static_cast<double>(r.lo) || t.real > static_cast<double>(r.hi))
      return fail(value_error("fomap.value.range", "number out of range for the property type",
                              fmt::format("{}..{}", r.lo, r.hi), text));
    v = static_cast<std::int64_t>(t.real);
  } else if (t.negative) {
    if (t.magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1u)
      return fail(value_error("fomap.value.range", "number out of range for the property type",
                              fmt::format("{}..{}", r.lo, r.hi), text));
    v = t.magnitude == static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1u
            ? std::numeric_limits<std::int64_t>::min()
            : -static_cast<std::int64_t>(t.magnitude);
  } else {
    if (t.magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return fail(value_error("fomap.value.range", "number out of range for the property type",
                              fmt::format("{}..{}", r.lo, r.hi), text));
    v = static_cast<std::int64_t>(t.magnitude);
  }
  if (v < r.lo || v > r.hi)
    return fail(value_error("fomap.value.range", "number out of range for the property type",
                            fmt::format("{}..{}", r.lo, r.hi), text));
  return v;
}

// Element escape undo for array/dict string tokens (quoted tokens keep escapes).
std::string unescape_token(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      const char n = s[i + 1];
      if (n == 'n') {
        out.push_back('\n');
        ++i;
        continue;
      }
      if (n == '"' || n == '\\') {
        out.push_back(n);
        ++i;
        continue;
      }
      if (n == 'r') {
        ++i;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

bool is_text_kind(ScalarKind k) {
  return k == ScalarKind::string || k == ScalarKind::hstring || k == ScalarKind::proto_ref || k == ScalarKind::any ||
         k == ScalarKind::unknown;
}

// Parses one scalar from a token / whole text. `top_level` marks a single-valued property
// (string decoding applies to the whole text).
core::Result<ScalarValue> parse_scalar(ScalarKind kind, const PropertyType& type, std::string_view text, bool top_level,
                                       bool token_quoted, const PropertyCatalog& catalog) {
  ScalarValue v;
  switch (kind) {
    case ScalarKind::boolean: {
      std::string_view s = trim4(text);
      if (s.size() == 4 && (s[0] | 0x20) == 't' && (s[1] | 0x20) == 'r' && (s[2] | 0x20) == 'u' &&
          (s[3] | 0x20) == 'e') {
        v.ints[0] = 1;
        return v;
      }
      if (s.size() == 5 && (s[0] | 0x20) == 'f' && (s[1] | 0x20) == 'a' && (s[2] | 0x20) == 'l' &&
          (s[3] | 0x20) == 's' && (s[4] | 0x20) == 'e')
        return v;
      const IntText t = parse_int_text(s);
      if (t.ok && !t.from_float && t.magnitude <= 1 && !(t.negative && t.magnitude == 1)) {
        v.ints[0] = static_cast<std::int64_t>(t.magnitude);
        return v;
      }
      if (t.ok && t.from_float && (t.real == 0.0 || t.real == 1.0)) {
        // only an exact 0/1 is accepted (1.0 ok, 1.5 is not)
        auto f = parse_float_text(s);
        if (f && (*f == 0.0 || *f == 1.0)) {
          v.ints[0] = *f == 1.0 ? 1 : 0;
          return v;
        }
      }
      return fail(value_error("fomap.value.bool", "not a boolean", "True, False, 0 or 1", text));
    }
    case ScalarKind::float32:
    case ScalarKind::float64: {
      auto f = parse_float_text(trim4(text));
      if (!f) return fail(value_error("fomap.value.float", "not a finite number", "decimal number", text));
      v.real = *f;
      return v;
    }
    case ScalarKind::string: {
      if (top_level) {
        SORTIE_TRY(v.text, decode_string(text));
      } else {
        v.text = token_quoted ? unescape_token(text) : unescape_token(text);
      }
      return v;
    }
    case ScalarKind::hstring:
    case ScalarKind::proto_ref: {
      if (top_level && (text.find('\\') != std::string_view::npos || text.find('"') != std::string_view::npos)) {
        SORTIE_TRY(v.text, decode_string(text));
      } else if (!top_level) {
        v.text = unescape_token(text);
      } else {
        v.text = std::string(text);
      }
      return v;
    }
    case ScalarKind::any:
    case ScalarKind::unknown:
      v.text = std::string(text);
      return v;
    case ScalarKind::enumeration: {
      const auto& enums = catalog.enums();
      auto e = enums.find(type.enum_name);
      std::string_view s = trim4(text);
      if (e != enums.end()) {
        std::string_view name = s;
        if (auto m = catalog.migrate_enum(type.enum_name, s)) name = *m;
        auto it = e->second.find(name);
        if (it != e->second.end()) {
          v.ints[0] = it->second;
          v.text = it->first;
          return v;
        }
        if (e->second.count(kOpenEnumMarker) && !s.empty() && s.find_first_of(" \t\"\\") == std::string_view::npos &&
            !(s.front() >= '0' && s.front() <= '9') && s.front() != '-') {
          v.ints[0] = kOpenEnumValue;
          v.text = std::string(name);
          return v;
        }
        const IntText t = parse_int_text(s);
        if (t.ok && !t.from_float) {
          const std::int64_t n =
              t.negative ? -static_cast<std::int64_t>(t.magnitude) : static_cast<std::int64_t>(t.magnitude);
          for (const auto& [vn, vv] : e->second) {
            if (vv == n) {
              v.ints[0] = n;
              v.text = vn;
              return v;
            }
          }
        }
      }
      return fail(value_error("fomap.value.enum", "not a value of enum " + type.enum_name,
                              "a declared value name or number", text));
    }
    case ScalarKind::mpos:
    case ScalarKind::msize:
    case ScalarKind::ipos16:
    case ScalarKind::ipos:
    case ScalarKind::isize:
    case ScalarKind::irect: {
      // Same token rules as tokenize_value, without allocating: a quoted field is one token.
      const int n = type.fields();
      int count = 0;
      std::array<std::string_view, 4> fields{};
      std::size_t i = 0;
      const std::size_t len = text.size();
      while (true) {
        while (i < len && is_blank(text[i])) ++i;
        if (i >= len) break;
        std::string_view tok;
        if (text[i] == '"') {
          const std::size_t b = ++i;
          while (i < len && text[i] != '"') i += (text[i] == '\\' && i + 1 < len) ? 2 : 1;
          tok = text.substr(b, std::min(i, len) - b);
          if (i < len) ++i;
        } else {
          const std::size_t b = i;
          while (i < len && !is_blank(text[i])) i += (text[i] == '\\' && i + 1 < len) ? 2 : 1;
          tok = text.substr(b, std::min(i, len) - b);
        }
        if (count < 4) fields[static_cast<std::size_t>(count)] = tok;
        ++count;
      }
      if (count != n)
        return fail(value_error("fomap.value.fields", "wrong number of fields for " + type.text,
                                fmt::format("{} blank-separated numbers", n), text));
      for (int f = 0; f < n; ++f) {
        SORTIE_TRY(v.ints[static_cast<std::size_t>(f)], parse_int_in(fields[static_cast<std::size_t>(f)], kind));
      }
      return v;
    }
    default: {
      SORTIE_TRY(v.ints[0], parse_int_in(text, kind));
      return v;
    }
  }
}

std::string format_scalar(ScalarKind kind, const PropertyType& type, const ScalarValue& v) {
  switch (kind) {
    case ScalarKind::boolean:
      return v.ints[0] ? "True" : "False";
    case ScalarKind::float32:
    case ScalarKind::float64: {
      std::string s = fmt::format("{:.6f}", v.real);
      while (!s.empty() && s.back() == '0') s.pop_back();
      if (!s.empty() && s.back() == '.') s.pop_back();
      if (s == "-0") s = "0";
      return s;
    }
    case ScalarKind::string:
    case ScalarKind::hstring:
    case ScalarKind::proto_ref:
    case ScalarKind::any:
    case ScalarKind::unknown:
      return v.text;
    case ScalarKind::enumeration:
      return v.text.empty() ? std::to_string(v.ints[0]) : v.text;
    case ScalarKind::mpos:
    case ScalarKind::msize:
    case ScalarKind::ipos16:
    case ScalarKind::ipos:
    case ScalarKind::isize:
      return fmt::format("{} {}", v.ints[0], v.ints[1]);
    case ScalarKind::irect:
      return fmt::format("{} {} {} {}", v.ints[0], v.ints[1], v.ints[2], v.ints[3]);
    default:
      (void)type;
      return std::to_string(v.ints[0]);
  }
}

// §5.3 top-level unwrapping.
std::string unwrap_top(std::string text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    if (text.size() == 2) return {};
    const char a = text[1];
    const char b = text[text.size() - 2];
    if (!is_blank(a) && !is_blank(b)) {
      auto d = decode_string(text);
      if (d) return *d;
    }
  }
  return text;
}

// One token of §5.2 from `i` (past any blanks); false at the end of the text. A quoted token
// runs to its closing quote, or to the end of the text when there is none (`closed` false).
struct Token {
  std::string_view text;
  bool quoted = false;
  bool closed = true;
};
bool next_token(std::string_view text, std::size_t& i, Token& out) {
  const std::size_t n = text.size();
  while (i < n && is_blank(text[i])) ++i;
  if (i >= n) return false;
  out.quoted = text[i] == '"';
  const std::size_t b = out.quoted ? ++i : i;
  while (i < n && (out.quoted ? text[i] != '"' : !is_blank(text[i]))) {
    if (text[i] == '\\' && i + 1 < n) ++i;
    ++i;
  }
  out.text = text.substr(b, std::min(i, n) - b);
  out.closed = !out.quoted || i < n;
  if (out.quoted && i < n) ++i;  // closing quote
  return true;
}

}  // namespace

Tokens tokenize_value(std::string_view text) {
  Tokens out;
  std::size_t i = 0;
  Token t;
  while (next_token(text, i, t)) {
    out.tokens.push_back(t.text);
    out.quoted.push_back(t.quoted);
  }
  return out;
}

bool ends_in_open_quote(std::string_view text) {
  std::size_t i = 0;
  Token t;
  while (next_token(text, i, t))
    if (!t.closed) return true;
  return false;
}

core::Result<std::string> decode_string(std::string_view text) {
  std::string_view body = text;
  if (!text.empty() && text.front() == '"') {
    // must end with the matching closing quote as the very last character
    std::size_t i = 1;
    std::size_t close = std::string_view::npos;
    while (i < text.size()) {
      if (text[i] == '\\') {
        i += 2;
        continue;
      }
      if (text[i] == '"') {
        close = i;
        break;
      }
      ++i;
    }
    if (close == std::string_view::npos)
      return fail(value_error("fomap.value.string_quote", "string has no closing quote", "\"...\"", text));
    if (close != text.size() - 1)
      return fail(value_error("fomap.value.string_quote", "text after the closing quote of a string",
                              "\"...\" as the whole value", text));
    body = text.substr(1, text.size() - 2);
  }
  std::string out;
  out.reserve(body.size());
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (i + 1 >= body.size())
      return fail(
          value_error("fomap.value.string_escape", "string ends with a lone backslash", "an escape sequence", text));
    const char e = body[++i];
    if (e == 'n')
      out.push_back('\n');
    else if (e == '"')
      out.push_back('"');
    else if (e == '\\')
      out.push_back('\\');
    else if (e == 'r') {
    } else {
      out.push_back('\\');
      out.push_back(e);
    }
  }
  return out;
}

std::string encode_element(std::string_view text) {
  bool quote = text.empty();
  for (char c : text)
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\\' || c == '"') quote = true;
  if (!quote) return std::string(text);
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (char c : text) {
    if (c == '\n')
      out += "\\n";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\\')
      out += "\\\\";
    else if (c == '\r')
      continue;
    else
      out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::int64_t lenient_int64(std::string_view text) {
  std::string_view s = trim4(text);
  if (s.size() > 80 || s.empty()) return 0;
  bool neg = false;
  std::string_view d = s;
  if (d.front() == '-') {
    neg = true;
    d.remove_prefix(1);
    if (!d.empty() && d.front() == '-') return 0;
  }
  int base = 10;
  if (d.size() > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
    base = 16;
    d.remove_prefix(2);
  }
  if (!d.empty() && d.front() != '+' && d.front() != '-') {
    std::uint64_t v = 0;
    auto r = std::from_chars(d.data(), d.data() + d.size(), v, base);
    if (r.ptr == d.data() + d.size()) {
      if (r.ec == std::errc::result_out_of_range) return neg ? std::numeric_limits<std::int64_t>::min() : -1;
      if (r.ec == std::errc()) {
        const auto sv = static_cast<std::int64_t>(v);  // wraps for values >= 2^63
        return neg ? static_cast<std::int64_t>(0 - v) : sv;
      }
    }
  }
  if (base == 10) {
    if (auto f = parse_float_text(s)) {
      const double t = std::trunc(*f);
      if (t >= 9.2233720368547758e18) return std::numeric_limits<std::int64_t>::max();
      if (t <= -9.2233720368547758e18) return std::numeric_limits<std::int64_t>::min();
      return static_cast<std::int64_t>(t);
    }
  }
  return 0;
}

std::optional<std::int64_t> strict_decimal_int64(std::string_view text) {
  std::string_view s = text;
  if (s.empty()) return std::nullopt;
  std::size_t i = s.front() == '-' ? 1 : 0;
  if (i == s.size()) return std::nullopt;
  for (std::size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return std::nullopt;
  std::int64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

core::Result<PropertyValue> parse_value(const PropertyType& type, std::string_view text,
                                        const PropertyCatalog& catalog) {
  PropertyValue out;
  if (type.container == Container::single) {
    SORTIE_TRY(auto v, parse_scalar(type.kind, type, text, true, false, catalog));
    out.elements.push_back(std::move(v));
    return out;
  }
  Tokens toks = tokenize_value(text);
  auto parse_element = [&](ScalarKind kind, std::string_view tok, bool quoted) -> core::Result<ScalarValue> {
    if (type.fields() > 1 && kind == type.kind) {
      if (!quoted)
        return fail(value_error("fomap.value.element_quote",
                                "each element of " + type.text + " must be one quoted token", "\"x y\" per element",
                                tok));
    }
    return parse_scalar(kind, type, tok, false, quoted, catalog);
  };
  if (type.container == Container::array) {
    out.elements.reserve(toks.tokens.size());
    for (std::size_t i = 0; i < toks.tokens.size(); ++i) {
      auto v = parse_element(type.kind, toks.tokens[i], toks.quoted[i]);
      if (!v) return fail(std::move(v).error().within(fmt::format("[{}]", i)));
      out.elements.push_back(std::move(*v));
    }
    return out;
  }
  // dict
  for (std::size_t i = 0; i + 1 < toks.tokens.size(); i += 2) {
    SORTIE_TRY(auto key, parse_scalar(type.key_kind, type, toks.tokens[i], false, toks.quoted[i], catalog));
    std::vector<ScalarValue> values;
    if (type.dict_of_arrays) {
      const std::string inner =
          toks.quoted[i + 1] ? unescape_token(toks.tokens[i + 1]) : std::string(toks.tokens[i + 1]);
      Tokens sub = tokenize_value(inner);
      for (std::size_t k = 0; k < sub.tokens.size(); ++k) {
        SORTIE_TRY(auto e, parse_element(type.kind, sub.tokens[k], sub.quoted[k]));
        values.push_back(std::move(e));
      }
    } else {
      SORTIE_TRY(auto e, parse_element(type.kind, toks.tokens[i + 1], toks.quoted[i + 1]));
      values.push_back(std::move(e));
    }
    out.entries.emplace_back(std::move(key), std::move(values));
  }
  return out;
}

core::Result<ScalarValue> parse_single_value(const PropertyType& type, std::string_view text,
                                             const PropertyCatalog& catalog) {
  return parse_scalar(type.kind, type, text, true, false, catalog);
}

core::Status validate_value(const PropertyType& type, std::string_view text, const PropertyCatalog& catalog) {
  if (type.container == Container::single) {
    auto v = parse_scalar(type.kind, type, text, true, false, catalog);
    if (!v) return fail(std::move(v).error());
    return {};
  }
  auto v = parse_value(type, text, catalog);
  if (!v) return fail(std::move(v).error());
  return {};
}

std::string format_value(const PropertyType& type, const PropertyValue& value, const PropertyCatalog& catalog) {
  (void)catalog;
  if (type.container == Container::single) {
    if (value.elements.empty()) return {};
    if (type.kind == ScalarKind::unknown || type.kind == ScalarKind::any) return value.elements[0].text;
    return unwrap_top(encode_element(format_scalar(type.kind, type, value.elements[0])));
  }
  std::string joined;
  auto append = [&](const std::string& s) {
    if (!joined.empty()) joined.push_back(' ');
    joined += s;
  };
  if (type.container == Container::array) {
    for (const auto& e : value.elements) append(encode_element(format_scalar(type.kind, type, e)));
  } else {
    for (const auto& [k, vs] : value.entries) {
      append(encode_element(format_scalar(type.key_kind, type, k)));
      if (type.dict_of_arrays) {
        std::string inner;
        for (const auto& e : vs) {
          if (!inner.empty()) inner.push_back(' ');
          inner += encode_element(format_scalar(type.kind, type, e));
        }
        append(encode_element(inner));
      } else if (!vs.empty()) {
        append(encode_element(format_scalar(type.kind, type, vs[0])));
      }
    }
  }
  return unwrap_top(encode_element(joined));
}

PropertyValue default_value(const PropertyType& type, const PropertyCatalog& catalog) {
  PropertyValue v;
  if (type.container == Container::single) {
    ScalarValue s;
    if (type.kind == ScalarKind::enumeration) {
      auto e = catalog.enums().find(type.enum_name);
      if (e != catalog.enums().end())
        for (const auto& [name, val] : e->second)
          if (val == 0 && name != kOpenEnumMarker) s.text = name;
    }
    v.elements.push_back(std::move(s));
  }
  return v;
}

bool is_default_value(const PropertyType& type, const PropertyValue& value, const PropertyCatalog& catalog) {
  return value == default_value(type, catalog);
}

core::Result<std::string> canonical_value_text(const PropertyType& type, std::string_view text,
                                               const PropertyCatalog& catalog) {
  if (type.container == Container::single && (type.kind == ScalarKind::unknown || type.kind == ScalarKind::any))
    return std::string(text);
  if (type.container != Container::single && (is_text_kind(type.kind) && type.kind != ScalarKind::string &&
                                              type.kind != ScalarKind::hstring && type.kind != ScalarKind::proto_ref))
    return std::string(text);
  SORTIE_TRY(auto v, parse_value(type, text, catalog));
  return format_value(type, v, catalog);
}

}  // namespace sortie::fomap
