#pragma once
// The parts of a mission's scenario and what they see. A part is one source of mission logic:
// the native script bundles of a clan (native_bundle.hpp), a Lua mission script (lua_mission.hpp),
// a SuperAI clan controller (super_ai.hpp). The scenario runtime (runtime.hpp) starts every part
// once after the mission is loaded, then steps them once per fixed tick, in the order they were
// added, before the world's own tick. A part acts on the world only through registered commands
// (ScenarioContext::submit): what it does is logged, replayed from the log without the part
// running, and mirrored to network clients. Parts hold ObjectIds, never object pointers, so a
// deleted object or a network mirror leaves no dangling reference.
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/assets/mission_data.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/env/effect.hpp"
#include "sortie/move/environment.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/event.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/state_writer.hpp"
#include "sortie/world/trace.hpp"

namespace sortie::world {
class World;
}

namespace sortie::scenario {

// What the loaded mission gives its scenario (filled by libs/mission, which sits above).
struct MissionFacts {
  std::string mission;                              // "m01"
  std::shared_ptr<const assets::MissionData> data;  // data.tma (clans, relations, objects), map, scripts
  move::MoveEnvironmentPtr movement;                // terrain and areal map, for queries and sight lines
  std::vector<world::ObjectId> ids_by_placement;    // ids[placed_index]; a null id when not constructed
  // The effects the mission prepared (Lua `effect(name, x, y[, z])` starts them); null: none.
  std::shared_ptr<const env::EffectLibrary> effects;
  // A person plays the player's clan (the viewer's game, mission::PlaySession): scripts leave
  // its units to the player (Lua `human()`). False in headless runs and served sessions.
  bool human = false;
};

// One line of a trace channel (ai.log and the other scenario channels): stamped with the tick.
using TraceLine = world::TraceLine;

// The ids of a world event's target and other, resolved when it was dispatched (a null id for a
// null handle), so a part never has to look up a handle whose object is gone since.
struct EventIds {
  world::ObjectId target;
  world::ObjectId other;
};

// A player joined (a networked session told the runtime, runtime.hpp) or left.
struct PlayerChange {
  world::PlayerId player = 0;
  bool joined = true;
};

class ScenarioPart;

struct ScenarioContext {
  world::World& world;
  const MissionFacts& facts;
  std::uint64_t tick = 0;  // the tick the submitted commands apply at (the world's next tick)
  // Submits a command for `tick` (world::World::submit with the tick filled in).
  std::function<core::Status(world::Command)> submit;
  // Appends a trace line (kept when the channel is on; see runtime.hpp).
  std::function<void(std::string_view channel, std::string text)> trace;
  // World events dispatched during the previous tick (arrived, spawned, collision, ...), in
  // sequence order, for parts that react to them.
  const std::vector<world::Event>& events;
  // Parallel to `events`: their objects' ids.
  std::span<const EventIds> event_ids{};
  // Objects registered / gone since the previous step (the world's queue compared), ascending
  // id; the scenario object itself is never listed.
  std::span<const world::ObjectId> created{};
  std::span<const world::ObjectId> destroyed{};
  // Players that joined or left since the previous step, in the order the runtime was told.
  std::span<const PlayerChange> players{};
  // A new id for an object a part spawns (scenario.spawn): {local player, class 43, next index},
  // unique across the parts of one runtime. Empty outside a runtime.
  std::function<world::ObjectId()> allocate_id{};
  // Records a finding that does not stop the part (an order to an object that is gone, ...);
  // the runtime keeps it with the diagnostics. Empty outside a runtime.
  std::function<void(core::Diagnostic)> warn{};
  // The run's seed (for a part's own RNG streams).
  std::uint64_t seed = 0;
  // Another running part of the same runtime by its name() ("superai:Enemy"), or null: how a
  // mission script configures a clan's SuperAI. Empty outside a runtime.
  std::function<ScenarioPart*(std::string_view name)> find_part{};
};

class ScenarioPart {
 public:
  virtual ~ScenarioPart() = default;
  // Stable name, part of the scenario's state encoding and of diagnostics ("lua:mission.lua").
  [[nodiscard]] virtual std::string name() const = 0;
  // Once, after the mission is loaded and before its first tick (MISSION_START).
  virtual core::Status start(ScenarioContext& ctx) = 0;
  // Once per tick. An error stops this part (the runtime records the diagnostic); the world
  // and the other parts go on.
  virtual core::Status step(ScenarioContext& ctx) = 0;
  // Canonical encoding of the part's own state (fixed field order, exact bits): the scenario's
  // state hash covers it.
  virtual void encode(world::StateWriter& out) const = 0;
  // The part's state as data for a save's world image (docs/save-files.md): what encode() covers,
  // named. The default is the encoding itself ({"encoding": hex}).
  virtual void image(nlohmann::json& out) const;
};

}  // namespace sortie::scenario
