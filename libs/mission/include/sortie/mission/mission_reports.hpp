#pragma once
// What `sortie mission graph` and `sortie mission load` print: the prepared mission's dependency
// graph (with the archive inventory when asked) and the staged load's report, as JSON and text.
#include <optional>
#include <string>

#include "sortie/assets/inventory.hpp"
#include "sortie/assets/mission_data.hpp"
#include "sortie/core/json.hpp"
#include "sortie/mission/mission_loader.hpp"

namespace sortie::mission {

// The graph (`edges`: with every edge), the object chain, the phase timings and the inventory.
core::Json graph_report_json(const assets::MissionData& data, const std::optional<assets::InventoryReport>& inventory,
                             bool edges);
std::string graph_report_text(const assets::MissionData& data, const std::optional<assets::InventoryReport>& inventory);

// The load report's lines (its JSON is MissionLoadReport::to_json()).
std::string load_report_text(const MissionLoadReport& report);

}  // namespace sortie::mission
