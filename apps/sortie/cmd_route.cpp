// `sortie route [GAME_DIR] --mission M --from X,Y --to X,Y [--json]`: a route over the mission's
// areal map (nav::ArealMap::find_path): the areals, the corridor of portals, the funnel-smoothed
// points and their length. Exit 1 with the reason when an endpoint is off the map or no route
// joins them; 2 for usage and I/O errors.
#include <memory>

#include "cli_game.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/mission/mission_reports.hpp"

namespace sortie::cli {
namespace {

struct RouteCliOptions {
  std::string game_dir;
  std::string mission;
  std::string from;
  std::string to;
  bool json = false;
};

int run_route(const RouteCliOptions& o) {
  auto from = mission::parse_map_point(o.from, "--from");
  if (!from) return fail_with(from.error(), o.json);
  auto to = mission::parse_map_point(o.to, "--to");
  if (!to) return fail_with(to.error(), o.json);
  auto game = open_game_or_sample(o.game_dir, assets::SampleScale::demo, o.mission);
  if (!game) return fail_with(game.error(), o.json);
  auto route = mission::route_in_mission(*game, *from, *to);
  if (!route) return fail_with(route.error(), o.json);
  print_report(*route, o.json);
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(route, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<RouteCliOptions>();
  auto* cmd = root.add_subcommand("route", "Route between two points over a mission's areal map (Land.map)");
  cmd->footer(
      "Locates both points (grid candidates, exact polygon test), finds the areal route (A*), the\n"
      "corridor of portal edges between consecutive areals and the funnel-smoothed path through it.\n"
      "Without GAME_DIR the embedded sample game is used; without --mission its first mission.\n"
      "Exit 1 with the reason (nav.path.off_map, nav.path.unreachable) when there is no route.\n\n"
      "Examples:\n  sortie route --from 20,30 --to 200,180\n"
      "  sortie route /games/parkan --mission m03 --from 100,100 --to 900,850 --json\n");
  add_game_options(cmd, o->game_dir, o->mission);
  cmd->add_option("--from", o->from, "start point X,Y")->required();
  cmd->add_option("--to", o->to, "goal point X,Y")->required();
  cmd->add_flag("--json", o->json, "print the route as JSON");
  cmd->callback([o, &outcome] { outcome.exit_code = run_route(*o); });
});

}  // namespace sortie::cli
