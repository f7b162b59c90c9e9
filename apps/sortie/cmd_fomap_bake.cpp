// `sortie fomap bake --protos P -o OUT PATHS...`: every map of the containers baked to its
// server and client blobs (fomap/bake_pack.hpp); `sortie fomap json FILE`: a container as JSON.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/fomap/bake_pack.hpp"
#include "sortie/fomap/json_model.hpp"

namespace sortie::cli {
namespace {

using core::Diagnostic;
using core::Json;

struct BakeCliOptions {
  std::vector<std::string> protos;
  std::string out_dir;
  std::vector<std::string> paths;
  std::string only;
  bool fact_sheet_client_dictionary = false;
  bool json = false;
};

int run_bake(const BakeCliOptions& o) {
  const auto project = load_project(o.protos);
  if (!project) return kExitUsage;
  fomap::PackOptions options;
  options.bake.client_dictionary_includes_server_strings = !o.fact_sheet_client_dictionary;
  options.only = o.only;
  options.output = o.out_dir;
  std::optional<Progress> progress;
  const fomap::PackReport report =
      fomap::bake_pack({o.paths.begin(), o.paths.end()}, *project, options,
                       [&](std::size_t done, std::size_t total, const std::filesystem::path& file) {
                         if (!progress) progress.emplace("bake", total);
                         progress->update(done, file.filename().string());
                       });
  if (progress) progress->finish();
  print_errors(report.io_errors);
  int worst = worst_exit(report.io_errors);
  for (const auto& m : report.maps) {
    if (m.ok()) continue;
    worst = std::max(worst, worst_exit(m.errors));
    if (o.json) continue;
    std::cerr << fmt::format("sortie: {}: map {} not baked ({} error(s))\n", m.source, m.map, m.errors.size());
    print_errors(m.errors);
  }
  if (o.json) {
    print_json(report.to_json());
  } else {
    std::cout << fmt::format("{} file(s): {} map(s) baked to {}, {} failed\n", report.files, report.baked(), o.out_dir,
                             report.failed());
  }
  return worst;
}

struct JsonCliOptions {
  std::string file;
  std::vector<std::string> protos;
};

int run_json(const JsonCliOptions& o) {
  const auto input = load_container(o.file, o.protos);
  if (!input) return kExitUsage;
  fomap::write_container_json(std::cout, input->container, input->project);
  std::cout.flush();
  return input->container.loadable() ? kExitOk : kExitInvalid;
}

}  // namespace
}  // namespace sortie::cli

SORTIE_COMMAND(fomap_bake, [](CLI::App& root, sortie::cli::Outcome& outcome) {
  using namespace sortie::cli;
  CLI::App* group = &fomap_group(root);

  auto bo = std::make_shared<BakeCliOptions>();
  auto* bake = group->add_subcommand(
      "bake",
      "Bake every map of the given containers to <MapId>.fomap-bin-server and -client (always both, atomically)");
  bake->footer(
      "Examples:\n  sortie fomap bake --protos protos/ -o out/ Maps/\n  sortie fomap bake --protos protos/ -o out/ "
      "--only arroyo Maps/\n");
  add_list_option(bake, "--protos", bo->protos, "proto directory or file (walked recursively)")->required();
  bake->add_option("-o,--output", bo->out_dir, "output directory (flat: map ids, no subdirectories)")->required();
  bake->add_option("paths", bo->paths, "map containers or directories (walked)")->required();
  bake->add_option("--only", bo->only,
                   "targeted bake: only this map id (exit 2, nothing written, when no container declares it)");
  bake->add_flag("--fact-sheet-client-dictionary", bo->fact_sheet_client_dictionary,
                 "client dictionary from static items only (spec §10.2) instead of the contract's superset");
  bake->add_flag("--json", bo->json, "machine-readable report");
  bake->callback([bo, &outcome] { outcome.exit_code = run_bake(*bo); });

  auto jo = std::make_shared<JsonCliOptions>();
  auto* json = group->add_subcommand("json", "Print a map container as JSON in the canonical model's vocabulary");
  json->footer("Examples:\n  sortie fomap json Maps/arroyo.fomap --protos protos/\n");
  json->add_option("file", jo->file, "map container")->required();
  add_list_option(json, "--protos", jo->protos, "proto directory (for project property types)");
  json->callback([jo, &outcome] { outcome.exit_code = run_json(*jo); });
});
