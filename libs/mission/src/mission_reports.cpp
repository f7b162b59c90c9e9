#include "sortie/mission/mission_reports.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "sortie/core/text.hpp"
#include "sortie/nav/iron3d_input.hpp"

namespace sortie::mission {

namespace {

std::string diagnostics_text(const core::Diagnostics& failures, const core::Diagnostics& warnings) {
  std::string out;
  for (const auto& d : failures) out += "error: " + d.to_string() + "\n";
  for (const auto& d : warnings) out += fmt::format("{}: {}\n", core::to_string(d.severity), d.to_string());
  return out;
}

}  // namespace

core::Json graph_report_json(const assets::MissionData& data, const std::optional<assets::InventoryReport>& inventory,
                             bool edges) {
  core::Json j = data.graph.to_json(edges);
  if (inventory) j["inventory"] = inventory->to_json();
  j["mission"] = data.tma_path.path;
  j["object_chain"] = data.object_chain.to_json();
  core::Json timings = core::Json::array();
  for (const auto& t : data.timings) timings.push_back({{"phase", t.phase}, {"ms", t.milliseconds}});
  j["timings"] = timings;
  return j;
}

std::string graph_report_text(const assets::MissionData& data,
                              const std::optional<assets::InventoryReport>& inventory) {
  std::string out = data.object_chain.to_table() + "\n" + data.graph.stats.to_table();
  out += fmt::format("{} nodes, {} edges\n", data.graph.nodes().size(), data.graph.edges().size());
  out += diagnostics_text(data.graph.failures(), data.graph.warnings);
  if (inventory) {
    out += fmt::format("inventory: {} archives, {} entries, {} reached, {} unreached decoded, {} broken\n",
                       inventory->archives, inventory->entries, inventory->reached, inventory->checked,
                       inventory->warnings.size());
    for (const auto& d : inventory->warnings) out += "warning: " + d.to_string() + "\n";
  }
  return out;
}

std::string load_report_text(const MissionLoadReport& report) {
  std::string out = report.object_chain.to_table() + "\n" + report.mission_total.to_table();
  out += "phases:";
  for (const auto& t : report.timings) out += fmt::format(" {} {:.2f} ms;", t.phase, t.milliseconds);
  out += "\n";
  out += diagnostics_text(report.failures, report.warnings);
  if (!report.ok) {
    return out + fmt::format("load of {} failed: {} failure(s); nothing was registered\n", report.mission,
                             report.failures.size());
  }
  const auto& v = report.visuals;
  out += fmt::format(
      "prepared {} meshes, {} materials, {} textures + {} lightmaps ({} KiB RGBA8), terrain and {} placements\n",
      v.meshes, v.materials, v.textures, v.lightmaps, (v.texture_bytes + 1023) / 1024, v.placements);
  if (v.effects > 0) out += fmt::format("prepared {} effects (FXID, docs/effects.md)\n", v.effects);
  out += fmt::format("loaded {}: {} objects constructed, {} registered\n", report.mission, report.constructed,
                     report.registered);
  return out;
}

namespace {

std::optional<float> map_coordinate(std::string_view s) {
  s = core::trim(s, " ");
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  float v = 0.0f;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

core::Json point_json(core::Vec2 p) {
  return core::Json::array({p.x, p.y});
}

}  // namespace

core::Result<core::Vec2> parse_map_point(std::string_view text, std::string_view option) {
  const auto comma = text.find(',');
  const auto x = comma == std::string_view::npos ? std::nullopt : map_coordinate(text.substr(0, comma));
  const auto y = comma == std::string_view::npos ? std::nullopt : map_coordinate(text.substr(comma + 1));
  if (!x || !y) {
    return core::fail(core::Diagnostic::error("usage.point", "not a point")
                          .in(std::string(option))
                          .expect("X,Y (two finite numbers)", std::string(text)));
  }
  return core::Vec2{*x, *y};
}

core::Json RouteReport::to_json() const {
  core::Json portals = core::Json::array();
  for (const auto& p : path.corridor)
    portals.push_back({{"from", p.from}, {"to", p.to}, {"left", point_json(p.left)}, {"right", point_json(p.right)}});
  core::Json points = core::Json::array();
  for (const auto& p : path.points) points.push_back(point_json(p));
  return {{"ok", true},
          {"mission", mission},
          {"from", point_json(from)},
          {"to", point_json(to)},
          {"start_areal", path.start.areal},
          {"goal_areal", path.goal.areal},
          {"areals", path.areals},
          {"corridor", portals},
          {"points", points},
          {"length", path.length}};
}

std::string RouteReport::to_text() const {
  std::string out = fmt::format("route on {} from ({}, {}) to ({}, {})\n", mission, from.x, from.y, to.x, to.y);
  std::string areals;
  for (std::size_t i = 0; i < path.areals.size(); ++i) areals += fmt::format("{}{}", i ? " -> " : "", path.areals[i]);
  out += fmt::format("areals: {} ({} areals, {} portals)\n", areals, path.areals.size(), path.corridor.size());
  std::string points;
  for (std::size_t i = 0; i < path.points.size(); ++i)
    points += fmt::format("{}({}, {})", i ? " -> " : "", path.points[i].x, path.points[i].y);
  out += "points: " + points + "\n";
  out += fmt::format("length: {:.3f}\n", path.length);
  return out;
}

core::Result<RouteReport> route_in_mission(OpenGame& game, core::Vec2 from, core::Vec2 to) {
  SORTIE_TRY(auto data, game.context.prepare(game.mission));
  if (data.land_map.areals.empty()) {
    return core::fail(core::Diagnostic::error("route.no_areal_map", "the mission's map has no areals to route over")
                          .of(data.tma_path.path));
  }
  SORTIE_TRY(auto map, nav::areal_map_from(data.land_map));
  auto path = map.find_path(from, to);
  if (!path) {
    core::Diagnostic d = path.error();
    d.file = data.tma_path.path;
    return tl::unexpected(std::move(d));
  }
  return RouteReport{data.tma_path.path, from, to, std::move(*path)};
}

}  // namespace sortie::mission
