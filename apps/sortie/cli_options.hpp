#pragma once
// Numeric command-line options that reject what they cannot hold. CLI11 converts "-5" into an
// unsigned option by wrapping it (`sortie run --ticks -5` ran for ever): every numeric option of
// the CLI goes through add_number, which checks the text before conversion. A bad value is a
// usage error (exit 2) whose message names the option and the allowed range.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

namespace sortie::cli {

// Validates the text of a number in [lo, hi]; `whole` also rejects fractions and exponents.
inline CLI::Validator number_in_range(long double lo, long double hi, bool whole, std::string range_text) {
  return CLI::Validator(
      [lo, hi, whole, range_text](std::string& text) -> std::string {
        const char* begin = text.c_str();
        char* end = nullptr;
        errno = 0;
        const long double v = std::strtold(begin, &end);
        const bool parsed = end != begin && *end == '\0' && errno == 0 && std::isfinite(v);
        bool ok = parsed && v >= lo && v <= hi;
        if (ok && whole) ok = text.find_first_of(".eExXpP") == std::string::npos && std::floor(v) == v;
        if (ok) return {};
        return fmt::format("value '{}' is not {} in {}", text, whole ? "a whole number" : "a number", range_text);
      },
      range_text);
}

// Adds `name` as a numeric option limited to [lo, hi] (inclusive).
template <class T>
CLI::Option* add_number(CLI::App* cmd, const std::string& name, T& value, const std::string& help, T lo, T hi) {
  static_assert(std::is_arithmetic_v<T>);
  const std::string range = fmt::format("[{}, {}]", lo, hi);
  return cmd->add_option(name, value, help)
      ->check(
          number_in_range(static_cast<long double>(lo), static_cast<long double>(hi), std::is_integral_v<T>, range));
}

// The same over the whole range of T (still rejects "-5" for unsigned T, and overflow).
template <class T>
CLI::Option* add_number(CLI::App* cmd, const std::string& name, T& value, const std::string& help) {
  return add_number(cmd, name, value, help, std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
}

}  // namespace sortie::cli
