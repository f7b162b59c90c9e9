#pragma once
// The staged, transactional mission loader (seed 000 "Фазы loader-а", seed 003; spec §26.3):
//   1 context  2 foundation  3 mission description  4 prototype resolution (libs/assets:
//   prepare_mission)  5 resource preparation (the prepared-visual store: meshes, materials,
//   RGBA8 textures, terrain) -> 6 construction (pending, invisible objects in a NEW world)
//   -> 7 cross-reference validation and registration of everything at once -> 8 ground (the
//   height field is installed; seed 000's "scenario start" — scripts, timers — will fill it).
// A reachable failure stops the load before anything is registered; the session keeps its
// previous world untouched.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/env/effect.hpp"
#include "sortie/mission/mission_effects.hpp"
#include "sortie/move/environment.hpp"
#include "sortie/world/class_registry.hpp"
#include "sortie/world/world.hpp"

namespace sortie::mission {

using world::ClassId;
using world::Handle;
using world::HeightField;
using world::ObjectId;
using world::World;
using world::WorldConfig;

// The default ground: a world::HeightField over a nav::TerrainWorld built from the mission's
// Land.msh (raw Land.msh Z, spec §15.6/§18); nullptr when the mesh has no faces.
std::shared_ptr<const HeightField> make_terrain_ground(const assets::MissionData& data);

struct MissionLoadOptions {
  core::Profile profile = core::Profile::strict;
  WorldConfig world;
  assets::ProgressFn progress;
  // Ground installed in phase 8 (movement controllers snap Z to it); objects' Z stays as authored
  // until they move. Empty function = no ground.
  std::function<std::shared_ptr<const HeightField>(const assets::MissionData&)> make_ground = make_terrain_ground;
  assets::VisualStoreOptions visuals;  // its profile is `profile`
  // The mission's Lua script is looked up and compiled (the mission_to_lua_script edge); off: the
  // mission loads without it.
  bool scripts = true;
  // Parameters of the movement stack (libs/move). Unset: the game directory's Behavior.ini when
  // there is one (read with `profile`; its warnings join the report's), else the defaults.
  std::optional<move::MoveParams> movement;
};

struct PlacedObjectInfo {
  std::int32_t placed_index = 0;
  ObjectId id;
  Handle handle;
  bool unit = false;
  std::size_t components = 0;
};

struct MissionLoadReport {
  std::string mission;
  bool ok = false;
  assets::GraphStatistics object_chain;
  assets::GraphStatistics mission_total;
  core::Diagnostics failures;  // every failed reachable edge (load stopped before registration)
  core::Diagnostics warnings;  // graph warnings (e.g. load.material_fallback), then visual.* findings
  std::vector<assets::PhaseTiming> timings;
  assets::VisualStoreStats visuals;  // of the prepared-visual store (phase "resources")
  std::size_t constructed = 0;
  std::size_t registered = 0;
  [[nodiscard]] core::Json to_json() const;
};

// The mission's own Lua script (MISSIONS/<m>/mission.lua; libs/scenario lua_mission.hpp), as
// the loader found and compiled it.
struct MissionScript {
  std::string path;    // game path, "MISSIONS/m01/mission.lua"
  std::string source;  // compiled once at load: a syntax error is a failed mission_to_lua_script edge
};

struct LoadedMission {
  std::shared_ptr<const assets::MissionData> data;
  // What a renderer draws: terrain, and per placed object (visuals->placements(), TMA order, the
  // same index as `objects`) its authored transform and prototypes with decoded visuals.
  // Immutable; the live transform of a moving object is in `world`.
  std::shared_ptr<const assets::VisualStore> visuals;
  std::unique_ptr<World> world;
  std::vector<PlacedObjectInfo> objects;  // TMA order
  // What units move over: the terrain and areal map of this mission and the movement
  // parameters. The world's command registry (when the options gave none) is the standard set
  // plus the movement and scenario kinds bound to it (scenario::scenario_command_registry).
  move::MoveEnvironmentPtr movement;
  // The mission's Lua script; absent without one (or when --compatible skipped a broken one).
  std::optional<MissionScript> script;
  // The mission's weather schedule (MISSIONS/<m>/sky.weather); absent without one.
  std::optional<MissionWeather> weather;
  // The effects the mission prepared (visuals->effects(), by name): what Lua `effect()` starts and
  // the world's fx.start is checked against (docs/effects.md). Never null after a load.
  std::shared_ptr<const env::EffectLibrary> effects;
  // The effect a lightning strike of `weather` starts (env::choose_lightning_effect); null
  // without weather.
  std::shared_ptr<const assets::PreparedEffect> lightning;

  // The world object of each placement: ids[placed_index] (what render::MissionScene's
  // apply_snapshot takes).
  [[nodiscard]] std::vector<ObjectId> ids_by_placement() const;
  // Where the player's clan (scenario::player_clan) stands: the positions of the world's active
  // objects of that clan, in queue order; empty without a world, data or such a clan.
  [[nodiscard]] std::vector<core::Vec3> player_clan_positions() const;
};

// Holds the current world. load() replaces it only when the whole load succeeded.
class MissionSession {
 public:
  MissionSession(assets::ArchiveRepository& repo, assets::PrototypeResolver& resolver)
      : repo_(repo), resolver_(resolver) {}
  // On failure the report lists the diagnostics and the current mission is unchanged.
  // Fatal errors (the mission file missing/undecodable) come back as the error.
  core::Result<MissionLoadReport> load(std::string_view mission, const MissionLoadOptions& options);
  // With default options. An overload defined in the library rather than a default argument:
  // gcc 12 warns (-Wmaybe-uninitialized, a false positive) about the temporary's shared_ptr
  // members when it is built and destroyed inline at every call site.
  core::Result<MissionLoadReport> load(std::string_view mission);
  [[nodiscard]] const LoadedMission* current() const { return current_ ? &*current_ : nullptr; }
  [[nodiscard]] LoadedMission* current() { return current_ ? &*current_ : nullptr; }
  // Prepared meshes, materials and textures kept between this session's loads.
  [[nodiscard]] const assets::VisualCache& visual_cache() const { return visual_cache_; }
  [[nodiscard]] assets::VisualCache& visual_cache() { return visual_cache_; }

 private:
  assets::ArchiveRepository& repo_;
  assets::PrototypeResolver& resolver_;
  assets::VisualCache visual_cache_;
  std::optional<LoadedMission> current_;
};

// Phases 6-8 on prepared data: a new world (with the movement environment built from the
// mission's Land.msh / Land.map and the effects of `visuals`), constructed, validated (every geometric component has
// its prepared visual in `visuals`), registered and started. Errors (world.load.*, nav.*) leave nothing behind: the
// returned world is discarded by the caller.
core::Result<LoadedMission> build_world(std::shared_ptr<const assets::MissionData> data,
                                        std::shared_ptr<const assets::VisualStore> visuals,
                                        const MissionLoadOptions& options, std::vector<assets::PhaseTiming>& timings);

}  // namespace sortie::mission
