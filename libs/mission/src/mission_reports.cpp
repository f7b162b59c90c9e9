#include "sortie/mission/mission_reports.hpp"

#include <fmt/format.h>

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

}  // namespace sortie::mission
