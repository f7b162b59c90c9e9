#pragma once
// Numeric command-line options that reject what they cannot hold: the one rule for every number
// either program (sortie, sortie-viewer) reads. CLI11 converts "-5" into an unsigned option by
// wrapping it (`sortie run --ticks -5` ran for ever): add_number checks the text before
// conversion. A bad value is a usage error (exit 2) whose message names the option and the
// allowed range.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace sortie::cli {

// Which ends of [lo, hi] belong to the range: [lo, hi], (lo, hi] or (lo, hi).
enum class Ends { closed, open_low, open_both };

namespace detail {

// A whole number: an optional sign, then decimal digits without a leading zero, or 0x and hex
// digits. "010" is refused: CLI11 would store it as octal 8 while it reads as ten ("0x10" is 16
// either way).
inline bool whole_number(const std::string& text, long double& value) {
  std::string_view t = text;
  const bool negative = !t.empty() && t.front() == '-';
  if (!t.empty() && (t.front() == '-' || t.front() == '+')) t.remove_prefix(1);
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  if (base == 10 && t.size() > 1 && t[0] == '0') return false;
  unsigned long long magnitude = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), magnitude, base);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return false;
  value = negative ? -static_cast<long double>(magnitude) : static_cast<long double>(magnitude);
  return true;
}

// A finite number as std::strtold reads it, the whole text.
inline bool real_number(const std::string& text, long double& value) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  value = std::strtold(begin, &end);
  return end != begin && *end == '\0' && errno == 0 && std::isfinite(value);
}

}  // namespace detail

// Validates the text of a number in the range; `whole` numbers are decimal or 0x hex, never a
// fraction or an exponent.
inline CLI::Validator number_in_range(long double lo, long double hi, bool whole, std::string range_text,
                                      Ends ends = Ends::closed) {
  return CLI::Validator(
      [lo, hi, whole, range_text, ends](std::string& text) -> std::string {
        const std::string given = text;
        long double v = 0;
        const bool parsed = whole ? detail::whole_number(text, v) : detail::real_number(text, v);
        const bool above = ends == Ends::closed ? v >= lo : v > lo;
        const bool below = ends == Ends::open_both ? v < hi : v <= hi;
        if (parsed && above && below) return {};
        text = given;
        return fmt::format("value '{}' is not {} in {}", given, whole ? "a whole number" : "a number", range_text);
      },
      range_text);
}

// The check of a T in [lo, hi] (or the open ends of `ends`), its range text "[lo, hi]".
template <class T>
CLI::Validator number_check(T lo, T hi, Ends ends) {
  const std::string range =
      fmt::format("{}{}, {}{}", ends == Ends::closed ? '[' : '(', lo, hi, ends == Ends::open_both ? ')' : ']');
  return number_in_range(static_cast<long double>(lo), static_cast<long double>(hi), std::is_integral_v<T>, range,
                         ends);
}

// Adds `name` as a numeric option limited to [lo, hi] (or the open ends of `ends`).
template <class T>
CLI::Option* add_number(CLI::App* cmd, const std::string& name, T& value, const std::string& help, T lo, T hi,
                        Ends ends = Ends::closed) {
  static_assert(std::is_arithmetic_v<T>);
  return cmd->add_option(name, value, help)->check(number_check(lo, hi, ends));
}

// An optional number: empty unless given (a default that depends on other options).
template <class T>
CLI::Option* add_number(CLI::App* cmd, const std::string& name, std::optional<T>& value, const std::string& help, T lo,
                        T hi, Ends ends = Ends::closed) {
  static_assert(std::is_arithmetic_v<T>);
  return cmd->add_option(name, value, help)->check(number_check(lo, hi, ends));
}

// The same over the whole range of T (still rejects "-5" for unsigned T, and overflow).
template <class T>
CLI::Option* add_number(CLI::App* cmd, const std::string& name, T& value, const std::string& help) {
  return add_number(cmd, name, value, help, std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
}

}  // namespace sortie::cli
