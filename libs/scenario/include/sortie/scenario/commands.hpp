#pragma once
// The scenario's command kinds (wire ids 48..52 of the "scripts and environment" range,
// world/command_registry.hpp). Objectives, the outcome, objects a part spawns and the digest of
// the parts' own state are world state because they change only through these kinds: they are
// hashed, logged, replayed without any part running, and mirrored to network clients.
//
//   48 scenario.objective  add / complete / fail an objective (id, text)
//   49 scenario.outcome    win / lose with a reason; decided once (later ones are skipped)
//   50 scenario.start      creates the scenario object (class 42, index 1, invisible) holding
//                          ScenarioState and ScenarioDigest; again = skipped
//   51 scenario.digest     the runtime's digest of every part's encode() (runtime.hpp)
//   52 scenario.spawn      creates an object with the id the part chose (class 43), its clan
//                          property, and posts EventType::spawned
//
// Every kind but start is skipped (counted by the world) while there is no scenario object; an
// objective or outcome after the outcome is decided is skipped too.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/env/effect.hpp"
#include "sortie/move/environment.hpp"
#include "sortie/scenario/objectives.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/state_writer.hpp"

namespace sortie::world {
class CommandRegistry;
class World;
}  // namespace sortie::world

namespace sortie::scenario {

inline constexpr std::size_t kMaxObjectiveId = 64;
inline constexpr std::size_t kMaxObjectiveText = 1024;
inline constexpr std::size_t kMaxReason = 1024;

enum class ObjectiveAction : std::uint8_t { add = 0, complete = 1, fail = 2 };

// Payload: u8 action (0 add, 1 complete, 2 fail), lp id (1..64 bytes), lp text (<= 1024 bytes;
// only `add` uses it, the others must leave it empty).
struct ObjectiveCommand {
  static constexpr std::string_view kName = "scenario.objective";
  static constexpr world::CommandKindId kWireId = 48;
  ObjectiveAction action = ObjectiveAction::add;
  std::string id{};
  std::string text{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const ObjectiveCommand&, const ObjectiveCommand&) = default;
};

// Payload: u8 outcome (1 win, 2 lose; 0 none is refused), lp reason (<= 1024 bytes).
struct OutcomeCommand {
  static constexpr std::string_view kName = "scenario.outcome";
  static constexpr world::CommandKindId kWireId = 49;
  Outcome outcome = Outcome::win;
  std::string reason{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);
  friend bool operator==(const OutcomeCommand&, const OutcomeCommand&) = default;
};

// Payload: lp mission name (<= 255 bytes; informative: names the scenario in logs).
struct StartCommand {
  static constexpr std::string_view kName = "scenario.start";
  static constexpr world::CommandKindId kWireId = 50;
  std::string mission{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);
  friend bool operator==(const StartCommand&, const StartCommand&) = default;
};

// Payload: u64 digest.
struct DigestCommand {
  static constexpr std::string_view kName = "scenario.digest";
  static constexpr world::CommandKindId kWireId = 51;
  std::uint64_t digest = 0;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);
  friend bool operator==(const DigestCommand&, const DigestCommand&) = default;
};

// Payload: u64 id (class 43, owner the world's local player), lp prototype (1..255 bytes),
// f32 x y z, i32 clan.
struct SpawnCommand {
  static constexpr std::string_view kName = "scenario.spawn";
  static constexpr world::CommandKindId kWireId = 52;
  world::ObjectId id{};
  std::string prototype{};
  core::Vec3 position{};
  std::int32_t clan = 0;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);
  friend bool operator==(const SpawnCommand&, const SpawnCommand&) = default;
};

// The runtime's digest of its parts (component "scenario.digest" on the scenario object).
struct ScenarioDigest {
  static constexpr std::string_view kComponentName = "scenario.digest";
  std::uint64_t value = 0;
  std::uint64_t tick = 0;  // the tick it was applied at
  void encode(world::StateWriter& out) const {
    out.u64(value);
    out.u64(tick);
  }
};

// The scenario object of a world: {local player, class 42, index 1}.
world::ObjectId scenario_object_id(const world::World& world);
// Its state; null before scenario.start applied.
const ScenarioState* find_scenario_state(const world::World& world);
const ScenarioDigest* find_scenario_digest(const world::World& world);

// Registers the five kinds.
core::Status register_scenario_commands(world::CommandRegistry& registry);
// A mission world's registry: move::move_command_registry(env), the scenario kinds and the effects'
// fx.start (env/effect_world.hpp) checked against `effects` (the mission's; null: bounds only).
std::shared_ptr<const world::CommandRegistry> scenario_command_registry(
    const move::MoveEnvironmentPtr& env, std::shared_ptr<const env::EffectLibrary> effects = nullptr);

}  // namespace sortie::scenario
