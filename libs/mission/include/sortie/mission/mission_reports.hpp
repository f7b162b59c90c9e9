#pragma once
// What `sortie mission graph` and `sortie mission load` print: the prepared mission's dependency
// graph (with the archive inventory when asked) and the staged load's report, as JSON and text.
#include <optional>
#include <string>

#include "sortie/assets/inventory.hpp"
#include "sortie/assets/mission_data.hpp"
#include "sortie/core/json.hpp"
#include "sortie/mission/mission_loader.hpp"
#include "sortie/mission/open_game.hpp"
#include "sortie/nav/areal_map.hpp"

namespace sortie::mission {

// The graph (`edges`: with every edge), the object chain, the phase timings and the inventory.
core::Json graph_report_json(const assets::MissionData& data, const std::optional<assets::InventoryReport>& inventory,
                             bool edges);
std::string graph_report_text(const assets::MissionData& data, const std::optional<assets::InventoryReport>& inventory);

// The load report's lines (its JSON is MissionLoadReport::to_json()).
std::string load_report_text(const MissionLoadReport& report);

// ---- `sortie route` ----

// "X,Y": two finite decimal numbers (blanks around each allowed). usage.point, field `option`.
core::Result<core::Vec2> parse_map_point(std::string_view text, std::string_view option);

// A route over a mission's areal map: where it was asked and what nav::ArealMap::find_path gave.
struct RouteReport {
  std::string mission;  // the mission's data.tma path
  core::Vec2 from{}, to{};
  nav::Path path;
  // {"ok", "mission", "from", "to", "start_areal", "goal_areal", "areals", "corridor", "points", "length"}
  [[nodiscard]] core::Json to_json() const;
  // "route on M from (x, y) to (x, y)", then the areals, the points and the length.
  [[nodiscard]] std::string to_text() const;
};

// Prepares the game's mission and routes between the points. Errors: the mission's preparation,
// route.no_areal_map (its Land.map has no areals), the map's (nav.*) and the route's
// (nav.path.off_map, nav.path.unreachable; file set to the mission).
core::Result<RouteReport> route_in_mission(OpenGame& game, core::Vec2 from, core::Vec2 to);

}  // namespace sortie::mission
