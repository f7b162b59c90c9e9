#pragma once
// A mission played by a person (the viewer's game). The tick is the headless run's
// (scenario.hpp): bodies first, the scenario's parts before every tick, the outcome ending the
// game; the SuperAI plays the hostile clans and the mission script is told a person plays the
// player's clan (Lua `human()`), so it leaves that clan's units to the player.
//
//   auto play = PlaySession::start(mission);       // bodies and the scenario's start, for tick 0
//   between ticks:  play->go(selection, point);    // the player's actions
//   each fixed tick: play->tick();                 // nothing more once the outcome is decided
//
// Every action becomes registered movement commands for the world's next tick, one per unit
// (move.goto / move.halt / move.drive), so it is logged, replayed and sent over the network like
// any other order. The session also keeps the actions themselves with their ticks: a save holds
// them, and replay_play re-runs the session from the mission's load to any tick (a follow order
// keeps re-aiming on its own, so its commands are not enough to resume it).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/math.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/scenario/runtime.hpp"

namespace sortie::mission {

enum class ActionKind : std::uint8_t { go = 0, follow = 1, halt = 2, drive = 3 };
std::string_view to_string(ActionKind kind);

// One thing the player did, at the world tick its commands apply at.
struct PlayAction {
  std::uint64_t tick = 0;
  ActionKind kind = ActionKind::go;
  std::vector<world::ObjectId> units;  // ascending, each a unit of the player's clan
  core::Vec2 point{};                  // go: the formation's centre
  world::ObjectId target{};            // follow: the object followed
  float speed = 0.0f;                  // drive: forward speed (units/s, negative: reverse)
  float turn = 0.0f;                   // drive: turn rate (rad/s)
  friend bool operator==(const PlayAction&, const PlayAction&) = default;
};

// {"tick", "kind", "units": ["hex id"...], "point": [x, y] | "target": "hex id" |
// "speed", "turn"}. Floats are written so they read back to the same bits.
core::Json action_json(const PlayAction& action);
// 16 hex digits (core::hash_hex's form) back to the number; nullopt otherwise. Save files use it
// for hashes and object ids.
std::optional<std::uint64_t> parse_hex64(std::string_view text);
// Errors: save.field (a member missing, of the wrong type or out of range).
core::Result<PlayAction> action_from_json(const core::Json& json);

struct PlayOptions {
  ScenarioOptions scenario;  // unit bodies, obstacles and the order speed (ticks and wander unused)
  scenario::RuntimeOptions runtime;
  float spacing = 5.0f;                // formation: distance between neighbouring goals
  float follow_distance = 6.0f;        // a follower's goal stops this short of its target
  std::uint32_t follow_interval = 15;  // ticks between a follow's re-aims (when the target moved)
  float max_drive_speed = 8.0f;        // |speed| of a drive action is clamped to this
  float max_drive_turn = 2.0f;         // |turn| likewise (rad/s)
};

class PlaySession {
 public:
  // Submits the bodies and starts the scenario (its orders of the first tick). Errors: lua.*
  // (make_scenario_runtime), and the world's refusal of a start command.
  static core::Result<std::unique_ptr<PlaySession>> start(LoadedMission& mission, PlayOptions options = {});
  ~PlaySession();
  PlaySession(const PlaySession&) = delete;
  PlaySession& operator=(const PlaySession&) = delete;

  // One fixed tick: the follows re-aim, the world ticks, the scenario gives the next tick's
  // orders. Once the outcome is decided nothing happens (the game is over).
  core::Status tick();
  [[nodiscard]] std::uint64_t tick_number() const;  // the world's tick (the next one to run)
  [[nodiscard]] bool decided() const;
  [[nodiscard]] std::uint64_t state_hash() const;  // after the last tick (the loaded state's before any)

  // The clan a person plays: its index in data.tma's clan list (the units' `clan` property) and
  // name; -1 and empty when the mission has no clan.
  [[nodiscard]] std::int32_t player_clan() const;
  [[nodiscard]] const std::string& player_clan_name() const;
  // A unit's clan (its `clan` property), nullopt for an object without one or gone.
  [[nodiscard]] std::optional<std::int32_t> clan_of(world::ObjectId id) const;
  // A live unit of the player's clan with a moving body: the player may order it.
  [[nodiscard]] bool commandable(world::ObjectId id) const;
  // Every commandable unit, ascending.
  [[nodiscard]] std::vector<world::ObjectId> player_units() const;

  // The actions. Units that are not commandable are left out; returns how many got the order
  // (0: nothing was submitted or recorded).
  // Goals spread in a formation around `point` (rows facing the way the group travels), kept
  // inside the map; each unit goes to the nearest free goal (ties: the lower id).
  std::size_t go(std::span<const world::ObjectId> units, core::Vec2 point);
  // Each unit walks to `follow_distance` short of `target` and re-aims while the target moves,
  // until another order or the target is gone.
  std::size_t follow(std::span<const world::ObjectId> units, world::ObjectId target);
  std::size_t halt(std::span<const world::ObjectId> units);
  // Piloting: a manual speed and turn rate (clamped) until the next drive or another order.
  std::size_t drive(world::ObjectId unit, float speed, float turn);
  // Applies a recorded action (replay_play). Errors: play.action (its tick is not the world's
  // next tick, or none of its units can take it).
  core::Status apply(const PlayAction& action);

  // What the unit follows, if anything.
  [[nodiscard]] std::optional<world::ObjectId> following(world::ObjectId unit) const;
  [[nodiscard]] const std::vector<PlayAction>& actions() const;
  // The scenario's objectives and outcome (nullopt without a scenario object) and its messages.
  [[nodiscard]] std::optional<ScenarioSummary> summary() const;
  [[nodiscard]] const std::vector<scenario::TraceLine>& messages() const;
  [[nodiscard]] std::uint64_t message_count() const;
  [[nodiscard]] const scenario::ScenarioRuntime* runtime() const;
  [[nodiscard]] LoadedMission& mission();
  [[nodiscard]] const LoadedMission& mission() const;
  [[nodiscard]] const PlayOptions& options() const;

 private:
  struct Impl;
  explicit PlaySession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The goals of a formation of `count` units around `centre`: rows of ceil(sqrt(count)) goals,
// `spacing` apart, the first row nearest `from` (where the group comes from), centred on
// `centre`. Exposed for tests.
std::vector<core::Vec2> formation_goals(core::Vec2 centre, core::Vec2 from, std::size_t count, float spacing);

// Starts a session on a freshly loaded mission and runs it to `tick`, applying `actions` at
// their ticks (ascending). With `expect_hash`, the state hash at `tick` must be that one.
// Errors: play.action (an action out of order or past `tick`, or refused), save.mismatch (the
// hash differs: another game, build or a changed mission), the session's.
core::Result<std::unique_ptr<PlaySession>> replay_play(LoadedMission& mission, const PlayOptions& options,
                                                       std::span<const PlayAction> actions, std::uint64_t tick,
                                                       std::optional<std::uint64_t> expect_hash = std::nullopt);

}  // namespace sortie::mission
