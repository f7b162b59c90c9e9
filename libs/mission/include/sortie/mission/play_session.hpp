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
#include "sortie/mission/game_session.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/scenario/runtime.hpp"

namespace sortie::mission {

// {"tick", "kind", "units": ["hex id"...], "point": [x, y] | "target": "hex id" |
// "speed", "turn"}. Floats are written so they read back to the same bits.
core::Json action_json(const PlayAction& action);
// 16 hex digits (core::hash_hex's form) back to the number; nullopt otherwise. Save files use it
// for hashes and object ids.
std::optional<std::uint64_t> parse_hex64(std::string_view text);
// Errors: save.field (a member missing, of the wrong type or out of range).
core::Result<PlayAction> action_from_json(const core::Json& json);

class PlaySession final : public GameSession {
 public:
  // Submits the bodies and starts the scenario (its orders of the first tick). Errors: lua.*
  // (make_scenario_runtime), and the world's refusal of a start command.
  static core::Result<std::unique_ptr<PlaySession>> start(LoadedMission& mission, PlayOptions options = {});
  ~PlaySession() override;
  PlaySession(const PlaySession&) = delete;
  PlaySession& operator=(const PlaySession&) = delete;

  [[nodiscard]] const world::World& world() const override;
  // One fixed tick: the follows re-aim, the world ticks, the scenario gives the next tick's
  // orders. Once the outcome is decided nothing happens (the game is over).
  core::Status tick() override;
  [[nodiscard]] bool runs_ticks() const override { return true; }
  [[nodiscard]] std::uint64_t tick_number() const override;  // the world's tick (the next one to run)
  [[nodiscard]] bool decided() const override;
  [[nodiscard]] std::uint64_t state_hash() const;  // after the last tick (the loaded state's before any)

  // The clan a person plays: its index in data.tma's clan list (the units' `clan` property) and
  // name; -1 and empty when the mission has no clan.
  [[nodiscard]] std::int32_t player_clan() const override;
  [[nodiscard]] const std::string& player_clan_name() const override;
  [[nodiscard]] std::optional<std::int32_t> clan_of(world::ObjectId id) const override;
  // A live unit of the player's clan with a moving body: the player may order it.
  [[nodiscard]] bool commandable(world::ObjectId id) const override;
  [[nodiscard]] std::vector<world::ObjectId> player_units() const override;

  // The actions (OrderPlanner's rules), submitted to the world's next tick and recorded.
  std::size_t go(std::span<const world::ObjectId> units, core::Vec2 point) override;
  std::size_t follow(std::span<const world::ObjectId> units, world::ObjectId target) override;
  std::size_t halt(std::span<const world::ObjectId> units) override;
  std::size_t drive(world::ObjectId unit, float speed, float turn) override;
  // Applies a recorded action (replay_play). Errors: play.action (its tick is not the world's
  // next tick, or none of its units can take it).
  core::Status apply(const PlayAction& action);

  [[nodiscard]] std::optional<world::ObjectId> following(world::ObjectId unit) const override;
  [[nodiscard]] const std::vector<PlayAction>& actions() const;
  [[nodiscard]] std::optional<PlayAction> last_action() const override;
  [[nodiscard]] std::optional<ScenarioSummary> summary() const override;
  [[nodiscard]] const std::vector<scenario::TraceLine>& messages() const override;
  [[nodiscard]] std::uint64_t message_count() const override;
  [[nodiscard]] const scenario::ScenarioRuntime* runtime() const;
  [[nodiscard]] LoadedMission& mission();
  [[nodiscard]] const LoadedMission& mission() const override;
  [[nodiscard]] const PlayOptions& options() const override;

 private:
  struct Impl;
  explicit PlaySession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Starts a session on a freshly loaded mission and runs it to `tick`, applying `actions` at
// their ticks (ascending). With `expect_image`, the world image at `tick` (save_image.hpp) must
// equal it entry by entry; with `expect_hash`, the state hash at `tick` must be that one.
// Errors: play.action (an action out of order or past `tick`, or refused), save.mismatch (the
// image or the hash differs: another game, build or a changed mission; the first differing
// entry is named), the session's.
core::Result<std::unique_ptr<PlaySession>> replay_play(LoadedMission& mission, const PlayOptions& options,
                                                       std::span<const PlayAction> actions, std::uint64_t tick,
                                                       std::optional<std::uint64_t> expect_hash = std::nullopt,
                                                       const core::Json* expect_image = nullptr);

}  // namespace sortie::mission
