#pragma once
// Legacy text: Windows-1251 <-> UTF-8, ASCII-only case folding, trimming.
#include <optional>
#include <string>
#include <string_view>

namespace sortie::core {

struct DecodedText {
  std::string utf8;
  bool lossless = true;  // false when a byte has no Unicode mapping (0x98) or a NUL/control was met
};

// Every byte maps to one code point; 0x98 (undefined in CP1251) decodes to U+FFFD and clears `lossless`.
DecodedText cp1251_to_utf8(std::string_view cp1251);
// nullopt when the text is not valid UTF-8 or holds a character outside CP1251.
std::optional<std::string> utf8_to_cp1251(std::string_view utf8);

// ASCII-only folding (bytes >= 0x80 are never folded).
char ascii_upper(char c);
char ascii_lower(char c);
std::string ascii_upper(std::string_view s);
std::string ascii_lower(std::string_view s);
bool iequals_ascii(std::string_view a, std::string_view b);
// Compares after folding to upper case; a proper prefix sorts first. <0, 0, >0.
int icompare_ascii(std::string_view a, std::string_view b);
bool iends_with_ascii(std::string_view s, std::string_view suffix);

// Byte sets for trim(): ASCII whitespace (space, \t, \r, \n, \v, \f) and blanks (space, \t).
inline constexpr std::string_view kAsciiWhitespace = " \t\r\n\v\f";
inline constexpr std::string_view kBlanks = " \t";
// `s` without the leading and trailing bytes that are in `set`; a view into `s`.
constexpr std::string_view trim(std::string_view s, std::string_view set = kAsciiWhitespace) {
  const auto b = s.find_first_not_of(set);
  if (b == std::string_view::npos) return s.substr(s.size());
  return s.substr(b, s.find_last_not_of(set) - b + 1);
}

}  // namespace sortie::core
