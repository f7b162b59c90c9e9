// Fast reader of two-field 16-bit value arrays in their common shape (values.hpp).
#include "sortie/fomap/values.hpp"

namespace sortie::fomap {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

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
  // The field at `i` up to `stop` (exclusive; `i` ends on it). A field is digits with an
  // optional '-', so it never holds the quote, a backslash or a second space: this reads the
  // same pairs as splitting the quoted token at its first space.
  const auto field = [&](char stop, std::int16_t& v) {
    const std::size_t b = i;
    while (i < n && i - b <= 6 && text[i] != stop) ++i;
    return i < n && text[i] == stop && plain_int16(text.substr(b, i - b), v);
  };
  while (true) {
    while (i < n && is_blank(text[i])) ++i;
    if (i >= n) return true;
    if (text[i] != '"') return false;
    ++i;
    std::int16_t x = 0, y = 0;
    if (!field(' ', x)) return false;
    ++i;
    if (!field('"', y)) return false;
    ++i;
    if (i < n && !is_blank(text[i])) return false;
    out.push_back(x);
    out.push_back(y);
  }
}

}  // namespace sortie::fomap
