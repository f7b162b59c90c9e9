// `sortie route [GAME_DIR] --mission M --from X,Y --to X,Y [--json]`: a route over the mission's
// areal map (nav::ArealMap::find_path): the areals, the corridor of portals, the funnel-smoothed
// points and their length. Exit 1 with the reason when an endpoint is off the map or no route
// joins them; 2 for usage and I/O errors.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <tuple>

#include "cli_game.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/nav/iron3d_input.hpp"

namespace sortie::cli {
namespace {

struct RouteCliOptions {
  std::string game_dir;
  std::string mission;
  std::string from;
  std::string to;
  bool json = false;
};

// "X,Y" with two finite decimal numbers.
std::optional<core::Vec2> parse_point(std::string_view text) {
  const auto comma = text.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  auto number = [](std::string_view s) -> std::optional<float> {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    float v = 0.0f;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  };
  const auto x = number(text.substr(0, comma));
  const auto y = number(text.substr(comma + 1));
  if (!x || !y) return std::nullopt;
  return core::Vec2{*x, *y};
}

core::Json point_json(core::Vec2 p) {
  return core::Json::array({p.x, p.y});
}

int run_route(const RouteCliOptions& o) {
  const auto from = parse_point(o.from);
  const auto to = parse_point(o.to);
  for (const auto& [name, text, value] : {std::tuple{"--from", o.from, from}, std::tuple{"--to", o.to, to}}) {
    if (!value) {
      return fail_with(core::Diagnostic::error("usage.point", fmt::format("{} is not a point", name))
                           .in(name)
                           .expect("X,Y (two finite numbers)", text),
                       o.json);
    }
  }
  auto game = open_game_or_sample(o.game_dir, assets::SampleScale::demo, o.mission);
  if (!game) return fail_with(game.error(), o.json);
  auto data = game->context.prepare(game->mission);
  if (!data) return fail_with(data.error(), o.json);
  if (data->land_map.areals.empty()) {
    return fail_with(core::Diagnostic::error("route.no_areal_map", "the mission's map has no areals to route over")
                         .of(data->tma_path.path),
                     o.json);
  }
  auto map = nav::areal_map_from(data->land_map);
  if (!map) return fail_with(map.error(), o.json);
  auto path = map->find_path(*from, *to);
  if (!path) {
    core::Diagnostic d = path.error();
    d.file = data->tma_path.path;
    return fail_with(d, o.json);
  }
  if (o.json) {
    core::Json portals = core::Json::array();
    for (const auto& p : path->corridor)
      portals.push_back({{"from", p.from}, {"to", p.to}, {"left", point_json(p.left)}, {"right", point_json(p.right)}});
    core::Json points = core::Json::array();
    for (const auto& p : path->points) points.push_back(point_json(p));
    print_json(core::Json{{"ok", true},
                          {"mission", data->tma_path.path},
                          {"from", point_json(*from)},
                          {"to", point_json(*to)},
                          {"start_areal", path->start.areal},
                          {"goal_areal", path->goal.areal},
                          {"areals", path->areals},
                          {"corridor", portals},
                          {"points", points},
                          {"length", path->length}});
    return kExitOk;
  }
  std::cout << fmt::format("route on {} from ({}, {}) to ({}, {})\n", data->tma_path.path, from->x, from->y, to->x,
                           to->y);
  std::string areals;
  for (std::size_t i = 0; i < path->areals.size(); ++i) areals += fmt::format("{}{}", i ? " -> " : "", path->areals[i]);
  std::cout << fmt::format("areals: {} ({} areals, {} portals)\n", areals, path->areals.size(), path->corridor.size());
  std::string points;
  for (std::size_t i = 0; i < path->points.size(); ++i)
    points += fmt::format("{}({}, {})", i ? " -> " : "", path->points[i].x, path->points[i].y);
  std::cout << "points: " << points << "\n";
  std::cout << fmt::format("length: {:.3f}\n", path->length);
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
