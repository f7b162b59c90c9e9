// `sortie mission graph|load GAME_DIR --mission M [--json]` and `sortie mission list GAME_DIR`.
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/assets/inventory.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/mission/mission_reports.hpp"

namespace sortie::cli {
namespace {

struct MissionCliOptions {
  std::string game_dir;
  std::string mission;
  bool json = false;
  bool compatible = false;
  bool edges = true;
  bool inventory = false;
};

core::Result<mission::GameContext> open_game(const MissionCliOptions& o) {
  mission::GameContextOptions go;
  go.profile = o.compatible ? core::Profile::compatible : core::Profile::strict;
  return mission::GameContext::open(o.game_dir, go);
}

int run_graph(const MissionCliOptions& o) {
  auto game = open_game(o);
  if (!game) return fail_with(game.error(), o.json);
  auto md = game->prepare(o.mission);
  if (!md) return fail_with(md.error(), o.json);
  std::optional<assets::InventoryReport> inv;
  if (o.inventory) inv = assets::inventory_archives(game->repository(), md->graph, game->options().profile);
  if (o.json)
    print_json(mission::graph_report_json(*md, inv, o.edges));
  else
    std::cout << mission::graph_report_text(*md, inv);
  return md->ok() ? kExitOk : kExitInvalid;
}

int run_load(const MissionCliOptions& o) {
  auto game = open_game(o);
  if (!game) return fail_with(game.error(), o.json);
  mission::MissionLoadOptions lo;
  Progress bar("loading " + o.mission, 9);
  int phase_no = 0;
  lo.progress = [&](std::string_view phase, std::size_t, std::size_t) {
    bar.update(static_cast<std::uint64_t>(++phase_no), phase);
  };
  auto report = game->load(o.mission, lo);
  bar.finish();
  if (!report) return fail_with(report.error(), o.json);
  if (o.json)
    print_json(report->to_json());
  else
    std::cout << mission::load_report_text(*report);
  return report->ok ? kExitOk : kExitInvalid;
}

int run_list(const MissionCliOptions& o) {
  auto game = open_game(o);
  if (!game) return fail_with(game.error(), false);
  auto missions = game->missions();
  if (!missions) return fail_with(missions.error(), false);
  if (o.json)
    print_json(*missions);
  else
    for (const auto& m : *missions) std::cout << m << "\n";
  return kExitOk;
}

// GAME_DIR, --mission, --json and --compatible of `mission graph` and `mission load`.
void add_mission_options(CLI::App* cmd, MissionCliOptions& o, const std::string& json_help) {
  cmd->add_option("game_dir", o.game_dir, "game directory")->required()->check(CLI::ExistingDirectory);
  cmd->add_option("--mission,-m", o.mission, "mission name (MISSIONS/<name>/data.tma) or path to a data.tma")
      ->required();
  cmd->add_flag("--json", o.json, json_help);
  cmd->add_flag("--compatible", o.compatible, "read formats in the compatible profile");
}

}  // namespace

SORTIE_COMMAND(mission, [](CLI::App& root, Outcome& outcome) {
  auto* group = root.add_subcommand("mission", "Mission dependency graph and loading");
  group->require_subcommand(1);
  {
    auto o = std::make_shared<MissionCliOptions>();
    auto* cmd = group->add_subcommand(
        "graph", "Resolve a mission's dependency graph: every edge with its kind, archive and entry");
    cmd->footer(
        "Exit 1 when any reachable edge fails; each failure names the placed object, the expanded key,\n"
        "the archive, the entry and the relation kind.\n\nExamples:\n"
        "  sortie mission graph GAME_DIR --mission m01\n  sortie mission graph GAME_DIR --mission m01 --json > "
        "graph.json\n");
    add_mission_options(cmd, *o, "statistics, failures and the edge list as JSON");
    cmd->add_flag("--inventory", o->inventory,
                  "also decode every unreached entry of the opened archives; broken ones are warnings");
    cmd->add_flag("!--no-edges", o->edges, "leave the edge list out of the JSON");
    cmd->callback([o, &outcome] { outcome.exit_code = run_graph(*o); });
  }
  {
    auto o = std::make_shared<MissionCliOptions>();
    auto* cmd = group->add_subcommand("load", "Load a mission through every phase (staged, transactional) and report");
    cmd->footer(
        "Phases: context, mission, foundation, prototypes, environment, resources (prepared meshes, materials,\n"
        "RGBA8 textures and terrain), construct, register, scenario.\n"
        "Exit 1 with the diagnostics when a reachable resource is missing or broken (nothing registered);\n"
        "exit 2 when the game directory or the named mission does not exist.\n"
        "A WEAR row naming a material that material.lib lacks is served by DEFAULT (as the engine does)\n"
        "and reported as a load.material_fallback warning.\n\n"
        "Examples:\n  sortie mission load GAME_DIR --mission m01\n  sortie mission load GAME_DIR -m m02 --json\n");
    add_mission_options(cmd, *o, "load report as JSON");
    cmd->callback([o, &outcome] { outcome.exit_code = run_load(*o); });
  }
  {
    auto o = std::make_shared<MissionCliOptions>();
    auto* cmd = group->add_subcommand("list", "List the missions of a game directory");
    cmd->add_option("game_dir", o->game_dir, "game directory")->required()->check(CLI::ExistingDirectory);
    cmd->add_flag("--json", o->json, "JSON array");
    cmd->callback([o, &outcome] { outcome.exit_code = run_list(*o); });
  }
});

}  // namespace sortie::cli
