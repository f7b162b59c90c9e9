// `sortie fomap hash STRING...`: the engine's string hash (hstring) of each argument.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/fomap/hash.hpp"

namespace sortie::cli {
namespace {

using core::Diagnostic;
using core::Json;

// ---- hash -------------------------------------------------------------------------------

struct HashOptions {
  std::vector<std::string> strings;
  bool json = false;
};

int run_hash(const HashOptions& o) {
  if (o.json) {
    Json arr = Json::array();
    for (const auto& s : o.strings) arr.push_back({{"string", s}, {"hash", fomap::hash_text(fomap::string_hash(s))}});
    print_json(arr);
  } else {
    for (const auto& s : o.strings) std::cout << fomap::hash_text(fomap::string_hash(s)) << "  " << s << "\n";
  }
  return kExitOk;
}

}  // namespace
}  // namespace sortie::cli

SORTIE_COMMAND(fomap_hash, [](CLI::App& root, sortie::cli::Outcome& outcome) {
  using namespace sortie::cli;
  CLI::App* group = &fomap_group(root);

  auto ho = std::make_shared<HashOptions>();
  auto* hash = group->add_subcommand("hash", "Print the engine's string hash (hstring) of each argument");
  hash->footer("Examples:\n  sortie fomap hash Item art/tiles/floor.frm\n");
  hash->add_option("strings", ho->strings, "strings to hash (empty string = the null hash 0)")->required();
  hash->add_flag("--json", ho->json, "machine-readable output");
  hash->callback([ho, &outcome] { outcome.exit_code = run_hash(*ho); });
});
