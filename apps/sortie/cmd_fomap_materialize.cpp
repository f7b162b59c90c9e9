// `sortie fomap materialize FILE --protos P [--world]`: bake in memory, load the server statics,
// materialize one instance per map, load the client statics (fomap/materialize.hpp); with --world
// each instance is published into a fresh world (mission/fomap_instance.hpp).
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/mission/fomap_materialize_run.hpp"

namespace sortie::cli {
namespace {

struct MaterializeCliOptions {
  std::string file;
  std::vector<std::string> protos;
  std::string map;
  bool json = false;
  bool world = false;
};

int run_materialize(const MaterializeCliOptions& o) {
  const auto input = load_container(o.file, o.protos);
  if (!input) return kExitUsage;
  auto run = mission::materialize_fomap(input->container, input->project, o.file, o.map, o.world);
  if (!run) return fail_with(run.error());
  return print_run(*run, o.json);
}

}  // namespace
}  // namespace sortie::cli

SORTIE_COMMAND(fomap_materialize, [](CLI::App& root, sortie::cli::Outcome& outcome) {
  using namespace sortie::cli;
  CLI::App* group = &fomap_group(root);

  auto mzo = std::make_shared<MaterializeCliOptions>();
  auto* mat = group->add_subcommand(
      "materialize",
      "Bake in memory, then load the server static data, materialize one instance and load the client statics");
  mat->footer(
      "Examples:\n  sortie fomap materialize Maps/arroyo.fomap --protos protos/ --json\n"
      "  sortie fomap materialize Maps/arroyo.fomap --protos protos/ --world\n");
  mat->add_option("file", mzo->file, "map container")->required();
  add_list_option(mat, "--protos", mzo->protos, "proto directory or file")->required();
  mat->add_option("--map", mzo->map, "only this map of a multi-map container");
  mat->add_flag("--json", mzo->json, "entities, id map and skipped children as JSON");
  mat->add_flag(
      "--world", mzo->world,
      "also publish each instance into a fresh world: object and registered counts, state hash (JSON: `world`)");
  mat->callback([mzo, &outcome] { outcome.exit_code = run_materialize(*mzo); });
});
