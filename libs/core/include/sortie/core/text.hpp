#pragma once
// Legacy text: Windows-1251 <-> UTF-8, ASCII-only case folding.
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

}  // namespace sortie::core
