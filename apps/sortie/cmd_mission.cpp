// `sortie mission graph GAME_DIR --mission M [--json]` and `sortie mission list GAME_DIR`.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/vfs.hpp"

namespace sortie::cli {
namespace {

struct MissionCliOptions {
  std::string game_dir;
  std::string mission;
  bool json = false;
  bool compatible = false;
  bool edges = true;
};

int run_graph(const MissionCliOptions& o) {
  assets::DirectoryVfs vfs(o.game_dir);
  assets::ArchiveRepository repo(vfs);
  assets::ResolverOptions ro;
  ro.profile = o.compatible ? core::Profile::compatible : core::Profile::strict;
  assets::PrototypeResolver resolver(repo, ro);
  assets::MissionPrepareOptions po;
  po.profile = ro.profile;
  auto md = assets::prepare_mission(repo, resolver, o.mission, po);
  if (!md) {
    if (o.json) print_json(core::Json{{"ok", false}, {"error", md.error().to_json()}});
    print_error(md.error());
    return exit_code_for(md.error());
  }
  if (o.json) {
    core::Json j = md->graph.to_json(o.edges);
    j["mission"] = md->tma_path.path;
    j["object_chain"] = md->object_chain.to_json();
    core::Json timings = core::Json::array();
    for (const auto& t : md->timings) timings.push_back({{"phase", t.phase}, {"ms", t.milliseconds}});
    j["timings"] = timings;
    print_json(j);
  } else {
    std::cout << md->object_chain.to_table() << "\n" << md->graph.stats.to_table();
    std::cout << fmt::format("{} nodes, {} edges\n", md->graph.nodes().size(), md->graph.edges().size());
    for (const auto& d : md->graph.failures()) std::cout << "error: " << d.to_string() << "\n";
    for (const auto& d : md->graph.warnings) std::cout << core::to_string(d.severity) << ": " << d.to_string() << "\n";
  }
  return md->ok() ? kExitOk : kExitInvalid;
}

int run_list(const MissionCliOptions& o) {
  assets::DirectoryVfs vfs(o.game_dir);
  auto missions = assets::list_missions(vfs);
  if (!missions) {
    print_error(missions.error());
    return exit_code_for(missions.error());
  }
  if (o.json) {
    print_json(*missions);
  } else {
    for (const auto& m : *missions) std::cout << m << "\n";
  }
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(mission, [](CLI::App& root, Outcome& outcome) {
  auto* group = root.add_subcommand("mission", "Mission dependency graph and loading");
  group->require_subcommand(1);
  {
    auto o = std::make_shared<MissionCliOptions>();
    auto* cmd = group->add_subcommand("graph", "Resolve a mission's dependency graph: every edge with its kind, archive and entry");
    cmd->footer(
        "Exit 1 when any reachable edge fails; each failure names the placed object, the expanded key,\n"
        "the archive, the entry and the relation kind.\n\nExamples:\n"
        "  sortie mission graph GAME_DIR --mission m01\n  sortie mission graph GAME_DIR --mission m01 --json > graph.json\n");
    cmd->add_option("game_dir", o->game_dir, "game directory")->required()->check(CLI::ExistingDirectory);
    cmd->add_option("--mission,-m", o->mission, "mission name (MISSIONS/<name>/data.tma) or path to a data.tma")->required();
    cmd->add_flag("--json", o->json, "statistics, failures and the edge list as JSON");
    cmd->add_flag("--compatible", o->compatible, "read formats in the compatible profile");
    cmd->callback([o, &outcome] { outcome.exit_code = run_graph(*o); });
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
