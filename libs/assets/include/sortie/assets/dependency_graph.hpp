#pragma once
// The mission dependency graph (seed 000 "dependency chain of a placed object", spec §7.4, §14):
// every node is a resource (or the mission / a placed object), every edge a reference with its
// kind and provenance. A failed edge carries the diagnostic that explains it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"

namespace sortie::assets {

enum class NodeKind : std::uint8_t {
  mission,
  land_msh,
  land_map,
  build_dat,
  mission_cfg,
  placed_object,
  unit_dat,
  prototype,
  mesh,
  wear,
  material,
  texture,
  lightmap,
  script,      // a compiled .scr package
  varset,      // a varset.var / <bundle>.var
  formula,     // a .fml formula export
  trf,         // a TRF table
  lua_script,  // sortie's own mission script (MISSIONS/<m>/mission.lua; libs/scenario lua_mission.hpp)
  weather,     // the mission's weather schedule (MISSIONS/<m>/sky.weather; docs/weather-schedule.md)
  effect,      // an FXID effect definition (effects.rlb; docs/effects.md)
};
std::string_view to_string(NodeKind kind);

enum class EdgeKind : std::uint8_t {
  mission_to_land_msh,     // data.tma land path -> Land.msh
  mission_to_land_map,     // data.tma land path -> Land.map
  mission_to_build_dat,    // game root BuildDat.lst
  mission_to_mission_cfg,  // MISSIONS/<m>/mission.cfg beside data.tma (only when present)
  mission_to_object,       // data.tma -> placed object
  object_to_prototype,     // placed object -> direct prototype key (objects.rlb)
  object_to_unit_dat,      // placed object -> unit DAT file
  unit_dat_to_component,   // unit DAT record -> component prototype key
  prototype_to_parent,     // objects.rlb ref naming a parent prototype
  prototype_to_mesh,       // effective MSH of a prototype
  mesh_to_wear,            // MSH -> WEAR in the same archive
  wear_to_material,        // WEAR row -> MAT0 in material.lib
  material_to_texture,     // MAT0 phase -> Texm in textures.lib
  wear_to_lightmap,        // WEAR LIGHTMAPS row -> Texm in lightmap.lib
  mission_to_script,       // data.tma clan (row = clan index) -> <base>.scr
  script_to_varset,        // .scr -> <stem>.var or the shared varset.var
  script_to_formula,       // .scr -> <stem>.fml (only when present)
  mission_to_trf,          // data.tma clan (row = clan index) -> its TRF table
  trf_to_prototype,        // TRF name (row = entry index) -> prototype key
  mission_to_lua_script,   // MISSIONS/<m>/mission.lua (only when present; compiled by libs/mission's loader)
  mission_to_weather,      // MISSIONS/<m>/sky.weather (only when present; read by libs/mission's loader)
  weather_to_effect,       // the schedule's lightning effect (`effect lightning NAME`)
  lua_script_to_effect,    // an effect the mission script names with a literal (`effect("name", ...)`)
  effect_to_material,      // an FXID body (opcode 3, row = command index) -> MAT0 in material.lib
};
std::string_view to_string(EdgeKind kind);
std::optional<EdgeKind> edge_kind_from_string(std::string_view name);

struct Node {
  NodeKind kind = NodeKind::mission;
  std::string archive;                      // game path of the archive (or of the file for file nodes)
  std::string entry;                        // entry name inside the archive ("" for files)
  [[nodiscard]] std::string label() const;  // "archive:entry" or "archive"
};

struct Edge {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  EdgeKind kind = EdgeKind::mission_to_object;
  std::int32_t placed_index = -1;          // data.tma objects[i] this edge was reached from
  std::int32_t unit_component_index = -1;  // record index inside the unit DAT, when via one
  std::int32_t row = -1;                   // WEAR row / MAT0 phase / LIGHTMAPS row, when relevant
  std::optional<std::uint32_t> failure;    // index into DependencyGraph::failures
};

// Counts in the shape of seed 000's table. Scope says what the numbers cover.
struct GraphStatistics {
  std::string scope;  // e.g. "mission MISSIONS/m01/data.tma: object chain"
  std::uint64_t placed_objects = 0;
  std::uint64_t unit_references = 0;
  std::uint64_t unit_components = 0;
  std::uint64_t direct_references = 0;
  std::uint64_t prototype_requests = 0;  // direct + components
  std::uint64_t mesh_requests = 0;
  std::uint64_t wear_requests = 0;
  std::uint64_t non_geometric = 0;
  std::uint64_t material_slots = 0;
  std::uint64_t texture_requests = 0;
  std::uint64_t lightmap_requests = 0;
  // Material slots whose WEAR name is not in material.lib and that were served by DEFAULT or the
  // library's first entry (the engine's "Material %s not found."); counted per slot, like
  // material_slots, with one warning per distinct WEAR row.
  std::uint64_t material_fallbacks = 0;
  // FXID effects the mission names (the weather's lightning, literals of its Lua script), each
  // distinct effect once; their bodies' materials count in material_slots and texture_requests.
  std::uint64_t effect_requests = 0;
  std::uint64_t failures = 0;
  GraphStatistics& operator+=(const GraphStatistics& o);
  [[nodiscard]] core::Json to_json() const;
  // The table as text lines ("885 placed objects", "561 unit references -> 5 521 components", ...).
  [[nodiscard]] std::string to_table() const;
};

class DependencyGraph {
 public:
  std::uint32_t node(NodeKind kind, std::string archive, std::string entry = {});
  std::uint32_t add_edge(Edge edge);
  std::uint32_t fail(Edge edge, core::Diagnostic diagnostic);

  [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }
  [[nodiscard]] const std::vector<Edge>& edges() const { return edges_; }
  [[nodiscard]] const core::Diagnostics& failures() const { return failures_; }
  [[nodiscard]] bool ok() const { return failures_.empty(); }
  core::Diagnostics warnings;  // inventory findings, compatible-profile warnings, material fallbacks
  // Appends `diagnostic` to `warnings` unless a warning with the same `key` was added before.
  bool warn_once(std::string key, core::Diagnostic diagnostic);
  GraphStatistics stats;

  // {"statistics": {...}, "edges": [{"from","to","kind","archive","entry",...}], "failures": [...]}
  [[nodiscard]] core::Json to_json(bool include_edges = true) const;

 private:
  std::vector<Node> nodes_;
  std::unordered_map<std::string, std::uint32_t> index_;  // kind|ARCHIVE|ENTRY (folded) -> node
  std::vector<Edge> edges_;
  core::Diagnostics failures_;
  std::unordered_set<std::string> warned_;
};

}  // namespace sortie::assets
