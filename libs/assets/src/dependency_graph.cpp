#include "sortie/assets/dependency_graph.hpp"

#include <fmt/format.h>

#include <array>

#include "sortie/core/text.hpp"

namespace sortie::assets {
namespace {

constexpr std::array<std::string_view, 20> kNodeNames = {
    "mission",   "land_msh", "land_map", "build_dat",  "mission_cfg", "placed_object", "unit_dat",
    "prototype", "mesh",     "wear",     "material",   "texture",     "lightmap",      "script",
    "varset",    "formula",  "trf",      "lua_script", "weather",     "effect"};
constexpr std::array<std::string_view, 24> kEdgeNames = {
    "mission_to_land_msh", "mission_to_land_map", "mission_to_build_dat", "mission_to_mission_cfg",
    "mission_to_object",   "object_to_prototype", "object_to_unit_dat",   "unit_dat_to_component",
    "prototype_to_parent", "prototype_to_mesh",   "mesh_to_wear",         "wear_to_material",
    "material_to_texture", "wear_to_lightmap",    "mission_to_script",    "script_to_varset",
    "script_to_formula",   "mission_to_trf",      "trf_to_prototype",     "mission_to_lua_script",
    "mission_to_weather",  "weather_to_effect",   "lua_script_to_effect", "effect_to_material"};

std::string thousands(std::uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out.push_back(' ');
    out.push_back(digits[i]);
  }
  return out;
}

}  // namespace

std::string_view to_string(NodeKind kind) {
  return kNodeNames.at(static_cast<std::size_t>(kind));
}
std::string_view to_string(EdgeKind kind) {
  return kEdgeNames.at(static_cast<std::size_t>(kind));
}
std::optional<EdgeKind> edge_kind_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kEdgeNames.size(); ++i)
    if (kEdgeNames[i] == name) return static_cast<EdgeKind>(i);
  return std::nullopt;
}

std::string Node::label() const {
  return entry.empty() ? archive : archive + ":" + entry;
}

GraphStatistics& GraphStatistics::operator+=(const GraphStatistics& o) {
  placed_objects += o.placed_objects;
  unit_references += o.unit_references;
  unit_components += o.unit_components;
  direct_references += o.direct_references;
  prototype_requests += o.prototype_requests;
  mesh_requests += o.mesh_requests;
  wear_requests += o.wear_requests;
  non_geometric += o.non_geometric;
  material_slots += o.material_slots;
  texture_requests += o.texture_requests;
  lightmap_requests += o.lightmap_requests;
  material_fallbacks += o.material_fallbacks;
  effect_requests += o.effect_requests;
  failures += o.failures;
  return *this;
}

core::Json GraphStatistics::to_json() const {
  return core::Json{{"scope", scope},
                    {"placed_objects", placed_objects},
                    {"unit_references", unit_references},
                    {"unit_components", unit_components},
                    {"direct_references", direct_references},
                    {"prototype_requests", prototype_requests},
                    {"mesh_requests", mesh_requests},
                    {"wear_requests", wear_requests},
                    {"non_geometric_prototypes", non_geometric},
                    {"material_slots", material_slots},
                    {"texture_requests", texture_requests},
                    {"lightmap_requests", lightmap_requests},
                    {"material_fallbacks", material_fallbacks},
                    {"failures", failures}};
}

std::string GraphStatistics::to_table() const {
  std::string out;
  if (!scope.empty()) out += scope + "\n";
  out += fmt::format("{} placed objects\n", thousands(placed_objects));
  out += fmt::format("{} unit references -> {} components\n", thousands(unit_references), thousands(unit_components));
  out += fmt::format("{} prototype/MSH/WEAR requests ({} direct, {} non-geometric)\n", thousands(prototype_requests),
                     thousands(direct_references), thousands(non_geometric));
  out += fmt::format("{} material slots\n", thousands(material_slots));
  out += fmt::format("{} texture requests + {} lightmaps\n", thousands(texture_requests), thousands(lightmap_requests));
  if (material_fallbacks > 0)
    out += fmt::format("{} material slots fell back (material not found)\n", thousands(material_fallbacks));
  if (effect_requests > 0) out += fmt::format("{} effects (FXID)\n", thousands(effect_requests));
  out += fmt::format("failures {}\n", thousands(failures));
  return out;
}

std::uint32_t DependencyGraph::node(NodeKind kind, std::string archive, std::string entry) {
  std::string key =
      fmt::format("{}|{}|{}", static_cast<int>(kind), core::ascii_upper(archive), core::ascii_upper(entry));
  if (auto it = index_.find(key); it != index_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(Node{kind, std::move(archive), std::move(entry)});
  index_.emplace(std::move(key), id);
  return id;
}

bool DependencyGraph::warn_once(std::string key, core::Diagnostic diagnostic) {
  if (!warned_.insert(std::move(key)).second) return false;
  warnings.push_back(std::move(diagnostic));
  return true;
}

std::uint32_t DependencyGraph::add_edge(Edge edge) {
  edges_.push_back(edge);
  return static_cast<std::uint32_t>(edges_.size() - 1);
}

std::uint32_t DependencyGraph::fail(Edge edge, core::Diagnostic diagnostic) {
  edge.failure = static_cast<std::uint32_t>(failures_.size());
  failures_.push_back(std::move(diagnostic));
  ++stats.failures;
  return add_edge(edge);
}

core::Json DependencyGraph::to_json(bool include_edges) const {
  core::Json j;
  j["statistics"] = stats.to_json();
  j["ok"] = ok();
  j["failures"] = core::diagnostics_json(failures_);
  j["warnings"] = core::diagnostics_json(warnings);
  j["node_count"] = nodes_.size();
  j["edge_count"] = edges_.size();
  if (include_edges) {
    core::Json edges = core::Json::array();
    for (const auto& e : edges_) {
      const Node& from = nodes_[e.from];
      const Node& to = nodes_[e.to];
      core::Json je{{"from", from.label()},  {"to", to.label()},  {"kind", std::string(to_string(e.kind))},
                    {"archive", to.archive}, {"entry", to.entry}, {"ok", !e.failure.has_value()}};
      if (e.placed_index >= 0) je["placed_index"] = e.placed_index;
      if (e.unit_component_index >= 0) je["unit_component_index"] = e.unit_component_index;
      if (e.row >= 0) je["row"] = e.row;
      if (e.failure) je["failure"] = failures_[*e.failure].to_json();
      edges.push_back(std::move(je));
    }
    j["edges"] = std::move(edges);
  }
  return j;
}

}  // namespace sortie::assets
