#include "sortie/core/text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace sortie::core {
namespace {

// Code points of CP1251 bytes 0x80..0xBF; 0xC0..0xFF map to U+0410..U+044F. 0 marks 0x98 (unassigned).
constexpr std::array<std::uint16_t, 64> kHigh = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409, 0x2039, 0x040A,
    0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x0000, 0x2122,
    0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6,
    0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407, 0x00B0, 0x00B1, 0x0406, 0x0456,
    0x0491, 0x00B5, 0x00B6, 0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457};

std::uint32_t code_point(std::uint8_t b) {
  if (b < 0x80) return b;
  if (b >= 0xC0) return 0x0410u + (b - 0xC0u);
  return kHigh[b - 0x80];
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

DecodedText cp1251_to_utf8(std::string_view cp1251) {
  DecodedText out;
  out.utf8.reserve(cp1251.size());
  for (char ch : cp1251) {
    const auto b = static_cast<std::uint8_t>(ch);
    const std::uint32_t cp = code_point(b);
    if (cp == 0 && b != 0) {
      out.lossless = false;
      append_utf8(out.utf8, 0xFFFD);
      continue;
    }
    if (b < 0x20 && b != '\t' && b != '\n' && b != '\r') out.lossless = false;
    append_utf8(out.utf8, cp);
  }
  return out;
}

std::optional<std::string> utf8_to_cp1251(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  std::size_t i = 0;
  while (i < utf8.size()) {
    const auto b0 = static_cast<std::uint8_t>(utf8[i]);
    std::uint32_t cp = 0;
    std::size_t len = 0;
    if (b0 < 0x80) {
      cp = b0;
      len = 1;
    } else if ((b0 & 0xE0) == 0xC0) {
      cp = b0 & 0x1Fu;
      len = 2;
    } else if ((b0 & 0xF0) == 0xE0) {
      cp = b0 & 0x0Fu;
      len = 3;
    } else {
      return std::nullopt;  // 4-byte sequences are never CP1251
    }
    if (i + len > utf8.size()) return std::nullopt;
    for (std::size_t k = 1; k < len; ++k) {
      const auto bk = static_cast<std::uint8_t>(utf8[i + k]);
      if ((bk & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (bk & 0x3Fu);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800)) return std::nullopt;  // overlong
    i += len;
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
      continue;
    }
    if (cp >= 0x0410 && cp <= 0x044F) {
      out.push_back(static_cast<char>(0xC0 + (cp - 0x0410)));
      continue;
    }
    const auto it = std::find(kHigh.begin(), kHigh.end(), static_cast<std::uint16_t>(cp));
    if (cp == 0 || cp > 0xFFFF || it == kHigh.end()) return std::nullopt;
    out.push_back(static_cast<char>(0x80 + (it - kHigh.begin())));
  }
  return out;
}

char ascii_upper(char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c;
}
char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
}

std::string ascii_upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_upper(c);
  return out;
}
std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

bool iequals_ascii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_upper(a[i]) != ascii_upper(b[i])) return false;
  return true;
}

int icompare_ascii(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto ca = static_cast<unsigned char>(ascii_upper(a[i]));
    const auto cb = static_cast<unsigned char>(ascii_upper(b[i]));
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

bool iends_with_ascii(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && iequals_ascii(s.substr(s.size() - suffix.size()), suffix);
}

}  // namespace sortie::core
