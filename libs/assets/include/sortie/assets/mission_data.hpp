#pragma once
// Phases 1-5 of the staged mission loader (seed 000): mission context, world foundation
// (Land.msh, Land.map, BuildDat.lst), mission description (data.tma), prototype resolution and
// resource preparation. The result is immutable prepared data plus the dependency graph; nothing
// is published to a world here. The runtime (libs/world) constructs and registers from it.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/dependency_graph.hpp"
#include "sortie/assets/prototype_resolver.hpp"
#include "sortie/assets/script_bundle.hpp"
#include "sortie/iron3d/build_dat.hpp"
#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/iron3d/mission_cfg.hpp"
#include "sortie/iron3d/tma.hpp"

namespace sortie::assets {

struct PhaseTiming {
  std::string phase;
  double milliseconds = 0;
};

// Progress: phase name, items done, items total (total 0 = unknown).
using ProgressFn = std::function<void(std::string_view phase, std::size_t done, std::size_t total)>;

struct MissionPrepareOptions {
  core::Profile profile = core::Profile::strict;
  bool environment_wear = true;  // resolve Land1.wea / Land2.wea of the map (counted in mission totals)
  ProgressFn progress;
};

// A map's environment WEAR table (Land1.wea = layer 1, Land2.wea = layer 2), resolved.
struct EnvironmentWear {
  int layer = 1;
  std::string path;            // game path of the .wea file
  ResolvedComponent resolved;  // key = path; requested_materials, materials and lightmaps per row
};

struct MissionData {
  GamePath tma_path;
  GamePath land_dir;
  iron3d::Tma tma;
  iron3d::LandMsh land_msh;
  iron3d::LandMap land_map;
  iron3d::BuildDat build_dat;
  // mission.cfg beside data.tma (docs/mission-cfg.md): absent when the mission has none (no
  // edge, no error); a file that cannot be read or decoded is a failed mission_to_mission_cfg
  // edge (load.mission_cfg_missing / load.mission_cfg_invalid) and stays absent here.
  std::optional<iron3d::MissionConfig> mission_cfg;
  GamePath mission_cfg_path;  // set when the file exists
  std::vector<ResolvedObject> objects;
  // The native script bundles, one per clan with a script base, in clan order (script_bundle.hpp;
  // edges mission_to_script, script_to_varset, script_to_formula, mission_to_trf, trf_to_prototype).
  std::vector<ScriptBundle> scripts;
  std::vector<EnvironmentWear> environment;  // the WEAR layers the map has (none when not resolved)
  // The FXID effects the mission names (libs/mission resolves them after this phase: the weather's
  // lightning effect, the literal names of its Lua script; docs/effects.md), once per effect.
  std::vector<ResolvedEffect> effects;
  DependencyGraph graph;
  GraphStatistics object_chain;  // statistics of the placed-object chain alone
  std::vector<PhaseTiming> timings;
  [[nodiscard]] bool ok() const { return graph.ok(); }
};

// "m01" -> MISSIONS/m01/data.tma; a path (with a separator or ending in .tma) is used as given.
core::Result<GamePath> mission_tma_path(std::string_view mission);
// Land directory from a TMA land path (spec §2.3): "DATA\MAPS\Tut_1\land" -> "DATA/MAPS/Tut_1".
core::Result<GamePath> land_directory(std::string_view land_path);

// Fatal errors (returned): the mission file itself missing or undecodable. Every other failure
// is a failed edge of the returned graph (then !ok()), with its diagnostic.
core::Result<MissionData> prepare_mission(ArchiveRepository& repo, PrototypeResolver& resolver,
                                          std::string_view mission, const MissionPrepareOptions& options = {});

// Missions of a game directory: every MISSIONS/<name>/data.tma, sorted.
core::Result<std::vector<std::string>> list_missions(const Vfs& vfs);

}  // namespace sortie::assets
