#pragma once
// Options whose uses keep their command-line order (`sortie tma edit --set ... --move ... --set`):
// CLI11 keeps each option's values apart, parse_order() tells the order they came in.
#include <CLI/CLI.hpp>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sortie/core/diagnostic.hpp"

namespace sortie::cli {

class OrderedOptions {
 public:
  struct Use {
    int tag = 0;
    std::vector<std::string> values;  // `arity` values
  };

  // Adds an option to `cmd` that may be given any number of times, `arity` values each.
  CLI::Option* add(CLI::App& cmd, const std::string& name, int tag, int arity, const std::string& help);

  // Every use of the added options, in command-line order. usage.option_values when an option got
  // a number of values that is not a multiple of its arity.
  [[nodiscard]] core::Result<std::vector<Use>> uses(const CLI::App& cmd) const;

 private:
  std::deque<std::vector<std::string>> values_;                // option targets, stable addresses
  std::map<const CLI::Option*, std::pair<int, int>> options_;  // option -> tag, arity
};

}  // namespace sortie::cli
