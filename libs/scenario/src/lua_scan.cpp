// The literal effect names of a Lua mission script (lua_mission.hpp lua_effect_names): a small
// scanner that knows Lua's comments, strings and long brackets well enough not to take a name
// from inside them.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/text.hpp"
#include "sortie/scenario/lua_mission.hpp"

namespace sortie::scenario {
namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// At `[` of a long bracket ([[, [=[, ...): its level, or -1 when it is not one.
int long_bracket_level(std::string_view s, std::size_t i) {
  if (i >= s.size() || s[i] != '[') return -1;
  std::size_t j = i + 1;
  while (j < s.size() && s[j] == '=') ++j;
  return j < s.size() && s[j] == '[' ? static_cast<int>(j - i - 1) : -1;
}

// Past the long bracket of `level` that starts at i (or the end of the source).
std::size_t skip_long_bracket(std::string_view s, std::size_t i, int level) {
  const std::string close = "]" + std::string(static_cast<std::size_t>(level), '=') + "]";
  const std::size_t end = s.find(close, i + static_cast<std::size_t>(level) + 2);
  return end == std::string_view::npos ? s.size() : end + close.size();
}

// Past the quoted string that starts at i; `text` gets its contents when it has no escape.
std::size_t skip_quoted(std::string_view s, std::size_t i, std::string* text, bool* plain) {
  const char q = s[i];
  std::size_t j = i + 1;
  *plain = true;
  while (j < s.size() && s[j] != q && s[j] != '\n') {
    if (s[j] == '\\') {
      *plain = false;
      ++j;
    }
    ++j;
  }
  if (j >= s.size() || s[j] != q) *plain = false;  // not closed on its line: not a literal
  if (text != nullptr && *plain) *text = std::string(s.substr(i + 1, j - i - 1));
  return j < s.size() ? j + 1 : s.size();
}

std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) != 0) ++i;
  return i;
}

}  // namespace

std::vector<std::string> lua_effect_names(std::string_view s) {
  std::vector<std::string> out;
  char previous = ' ';  // the last significant character before the current token
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {  // a comment
      const int level = long_bracket_level(s, i + 2);
      if (level >= 0) {
        i = skip_long_bracket(s, i + 2, level);
      } else {
        const std::size_t nl = s.find('\n', i);
        i = nl == std::string_view::npos ? s.size() : nl + 1;
      }
      continue;
    }
    if (c == '"' || c == '\'') {
      bool plain = true;
      i = skip_quoted(s, i, nullptr, &plain);
      previous = c;
      continue;
    }
    if (const int level = long_bracket_level(s, i); level >= 0) {
      i = skip_long_bracket(s, i, level);
      previous = ']';
      continue;
    }
    if (ident_start(c)) {
      std::size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      const std::string_view word = s.substr(i, j - i);
      i = j;
      if (word == "effect" && previous != '.' && previous != ':') {
        std::size_t k = skip_space(s, i);
        const bool parens = k < s.size() && s[k] == '(';
        if (parens) k = skip_space(s, k + 1);
        if (k < s.size() && (s[k] == '"' || s[k] == '\'')) {
          std::string name;
          bool plain = true;
          i = skip_quoted(s, k, &name, &plain);
          // With parentheses the literal is the whole first argument ("be" .. x is not).
          const std::size_t next = skip_space(s, i);
          if (parens && (next >= s.size() || (s[next] != ',' && s[next] != ')'))) plain = false;
          const bool seen =
              std::any_of(out.begin(), out.end(), [&](const std::string& n) { return core::iequals_ascii(n, name); });
          if (plain && !name.empty() && !seen) out.push_back(std::move(name));
        }
      }
      previous = 'a';
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c)) == 0) previous = c;
    ++i;
  }
  return out;
}

}  // namespace sortie::scenario
