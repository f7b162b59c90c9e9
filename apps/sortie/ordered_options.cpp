#include "ordered_options.hpp"

#include <fmt/format.h>

namespace sortie::cli {

CLI::Option* OrderedOptions::add(CLI::App& cmd, const std::string& name, int tag, int arity, const std::string& help) {
  auto* opt = cmd.add_option(name, values_.emplace_back(), help)
                  ->expected(arity)
                  ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  if (arity > 1) opt->allow_extra_args(false);
  options_[opt] = {tag, arity};
  return opt;
}

core::Result<std::vector<OrderedOptions::Use>> OrderedOptions::uses(const CLI::App& cmd) const {
  std::vector<Use> uses;
  // parse_order() lists an option once per value: a use is complete every `arity` values.
  std::map<const CLI::Option*, std::size_t> seen;
  for (const CLI::Option* opt : cmd.parse_order()) {
    const auto it = options_.find(opt);
    if (it == options_.end()) continue;
    const auto arity = static_cast<std::size_t>(it->second.second);
    const std::size_t at = ++seen[opt];
    const auto& results = opt->results();
    if (at % arity != 0 || at > results.size()) continue;
    const auto first = results.begin() + static_cast<std::ptrdiff_t>(at - arity);
    uses.push_back({it->second.first, std::vector<std::string>(first, first + static_cast<std::ptrdiff_t>(arity))});
  }
  for (const auto& [opt, count] : seen) {
    const auto arity = static_cast<std::size_t>(options_.at(opt).second);
    if (count % arity != 0) {
      return core::fail(core::Diagnostic::error("usage.option_values",
                                                fmt::format("{} takes {} values per use", opt->get_name(), arity)));
    }
  }
  return uses;
}

}  // namespace sortie::cli
