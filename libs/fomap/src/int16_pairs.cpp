// Fast reader of two-field 16-bit value arrays in their common shape (values.hpp).
#include "sortie/fomap/values.hpp"

namespace sortie::fomap {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Plain decimal int16 ("-12", "140"); false for anything the full parser must judge.
bool plain_int16(std::string_view t, std::int16_t& out) {
  if (t.empty() || t.size() > 6) return false;
  const bool neg = t[0] == '-';
  if (neg && t.size() == 1) return false;
  std::int32_t v = 0;
  for (std::size_t i = neg ? 1 : 0; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9') return false;
    v = v * 10 + (t[i] - '0');
  }
  v = neg ? -v : v;
  if (v < -32768 || v > 32767) return false;
  out = static_cast<std::int16_t>(v);
  return true;
}

}  // namespace

bool read_int16_pairs(std::string_view text, std::vector<std::int16_t>& out) {
  out.clear();
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (true) {
    while (i < n && is_blank(text[i])) ++i;
    if (i >= n) return true;
    if (text[i] != '"') return false;
    const std::size_t b = ++i;
    while (i < n && text[i] != '"') {
      if (text[i] == '\\') return false;
      ++i;
    }
    if (i >= n) return false;
    const std::string_view pair = text.substr(b, i - b);
    ++i;
    if (i < n && !is_blank(text[i])) return false;
    const std::size_t sp = pair.find(' ');
    std::int16_t x = 0, y = 0;
    if (sp == std::string_view::npos || !plain_int16(pair.substr(0, sp), x) || !plain_int16(pair.substr(sp + 1), y)) return false;
    out.push_back(x);
    out.push_back(y);
  }
}

}  // namespace sortie::fomap
