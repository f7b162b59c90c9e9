#pragma once
// What a person's game plays through (issue #19 part 7). The mission game (game::MissionGame:
// selection, orders, groups, follow, stop, piloting) reads one world and gives its orders through
// a GameSession, whether that world ticks here (mission::PlaySession, the viewer's own game) or on
// a server (net::JoinPlay, the replica of a joined player).
//
// The orders' rules are one: an OrderPlanner turns an action (go in formation, follow, halt,
// drive) into registered movement commands (move.goto / move.halt / move.drive, one per unit) and
// re-aims the follows; a session only decides where the commands go (its world's next tick, or
// NET_ORDERs the server checks, stamps and sends to every replica).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/mission/mission_scenario.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/scenario/runtime.hpp"
#include "sortie/world/command.hpp"

namespace sortie::mission {

struct LoadedMission;

enum class ActionKind : std::uint8_t { go = 0, follow = 1, halt = 2, drive = 3 };
std::string_view to_string(ActionKind kind);

// One thing the player did, at the world tick its commands apply at.
struct PlayAction {
  std::uint64_t tick = 0;
  ActionKind kind = ActionKind::go;
  std::vector<world::ObjectId> units;  // ascending, each a unit the player commands
  core::Vec2 point{};                  // go: the formation's centre
  world::ObjectId target{};            // follow: the object followed
  float speed = 0.0f;                  // drive: forward speed (units/s, negative: reverse)
  float turn = 0.0f;                   // drive: turn rate (rad/s)
  friend bool operator==(const PlayAction&, const PlayAction&) = default;
};

struct PlayOptions {
  ScenarioOptions scenario;  // unit bodies, obstacles and the order speed (ticks and wander unused)
  scenario::RuntimeOptions runtime;
  float spacing = 5.0f;                // formation: distance between neighbouring goals
  float follow_distance = 6.0f;        // a follower's goal stops this short of its target
  std::uint32_t follow_interval = 15;  // ticks between a follow's re-aims (when the target moved)
  float max_drive_speed = 8.0f;        // |speed| of a drive action is clamped to this
  float max_drive_turn = 2.0f;         // |turn| likewise (rad/s)
};

// Where an action's commands go. A command carries the tick it is meant for (the world's next);
// a server stamps its own.
using CommandSink = std::function<core::Status(world::Command)>;

// The movement commands of the player's actions, and the follows they started.
class OrderPlanner {
 public:
  OrderPlanner(MapBounds bounds, PlayOptions options) : bounds_(bounds), options_(std::move(options)) {}

  // `units`: the ones that take the action, ascending and once each, all live in `w`.
  //   go: goals in a formation around a.point (rows facing the way the group travels, kept inside
  //       the map), each unit to the nearest free goal (ties: the lower id);
  //   follow: each unit walks to follow_distance short of a.target and re-aims while it moves;
  //   halt, drive: one command per unit (a.speed and a.turn as given: clamp them first).
  // A new action ends the units' follows.
  core::Status act(const world::World& w, const PlayAction& a, std::span<const world::ObjectId> units,
                   const CommandSink& sink);
  // Before each tick: follows whose target moved re-aim (every follow_interval ticks); a follow of
  // a gone unit or target ends.
  core::Status refresh_follows(const world::World& w, const CommandSink& sink);
  [[nodiscard]] std::optional<world::ObjectId> following(world::ObjectId unit) const;
  // Drops the follows of units the player no longer commands.
  void forget(const std::function<bool(world::ObjectId)>& keep);
  [[nodiscard]] const PlayOptions& options() const { return options_; }

 private:
  struct Follow {
    world::ObjectId unit;
    world::ObjectId target;
    core::Vec2 aimed{};      // the target's position at the last re-aim
    std::uint64_t next = 0;  // the tick of the next re-aim check
  };
  core::Status go_to(const world::World& w, world::ObjectId unit, core::Vec2 goal, const CommandSink& sink) const;
  [[nodiscard]] core::Vec2 follow_goal(const world::WorldObject& unit, core::Vec2 target) const;
  void drop_follows(std::span<const world::ObjectId> units);

  MapBounds bounds_;
  PlayOptions options_;
  std::vector<Follow> follows_;  // unit order
};

// The goals of a formation of `count` units around `centre`: rows of ceil(sqrt(count)) goals,
// `spacing` apart, the first row nearest `from` (where the group comes from), centred on
// `centre`. Exposed for tests.
std::vector<core::Vec2> formation_goals(core::Vec2 centre, core::Vec2 from, std::size_t count, float spacing);

// The session a person's game plays (see above).
class GameSession {
 public:
  virtual ~GameSession() = default;

  // The world the game shows and orders: the session's own, or a replica of the server's.
  [[nodiscard]] virtual const world::World& world() const = 0;
  // The mission's data (clans, map, terrain, placements); its world is the local load's, which
  // for a joined player is not the one played: read objects through world().
  [[nodiscard]] virtual const LoadedMission& mission() const = 0;

  // The world's tick (the next one to run), and whether the outcome is decided.
  [[nodiscard]] virtual std::uint64_t tick_number() const = 0;
  [[nodiscard]] virtual bool decided() const = 0;
  // True when the game's own clock runs the ticks (tick(), pause and game speed); false when a
  // server does (tick() is then never called).
  [[nodiscard]] virtual bool runs_ticks() const = 0;
  virtual core::Status tick() = 0;

  // The player's clan (its index in data.tma's clan list; -1: none) and name.
  [[nodiscard]] virtual std::int32_t player_clan() const = 0;
  [[nodiscard]] virtual const std::string& player_clan_name() const = 0;
  // A unit's clan (its `clan` property), nullopt for an object without one or gone.
  [[nodiscard]] virtual std::optional<std::int32_t> clan_of(world::ObjectId id) const = 0;
  // A live unit with a moving body the player may order.
  [[nodiscard]] virtual bool commandable(world::ObjectId id) const = 0;
  // Every commandable unit, ascending.
  [[nodiscard]] virtual std::vector<world::ObjectId> player_units() const = 0;

  // The actions (OrderPlanner's rules); units that are not commandable are left out. Each
  // returns how many units got the order (0: nothing was sent).
  virtual std::size_t go(std::span<const world::ObjectId> units, core::Vec2 point) = 0;
  virtual std::size_t follow(std::span<const world::ObjectId> units, world::ObjectId target) = 0;
  virtual std::size_t halt(std::span<const world::ObjectId> units) = 0;
  // Piloting: a manual speed and turn rate (clamped to the options' limits).
  virtual std::size_t drive(world::ObjectId unit, float speed, float turn) = 0;
  // What the unit follows, if anything.
  [[nodiscard]] virtual std::optional<world::ObjectId> following(world::ObjectId unit) const = 0;
  // The last action given (nullopt before any).
  [[nodiscard]] virtual std::optional<PlayAction> last_action() const = 0;

  // The scenario's objectives and outcome (nullopt without a scenario object) and the script's
  // messages (none for a joined player: scripts run on the server).
  [[nodiscard]] virtual std::optional<ScenarioSummary> summary() const = 0;
  [[nodiscard]] virtual const std::vector<scenario::TraceLine>& messages() const = 0;
  [[nodiscard]] virtual std::uint64_t message_count() const = 0;
  [[nodiscard]] virtual const PlayOptions& options() const = 0;
};

// The commandable ones of `units` by `commandable`, ascending and once each.
std::vector<world::ObjectId> commandable_units(std::span<const world::ObjectId> units,
                                               const std::function<bool(world::ObjectId)>& commandable);

// A drive action's speed and turn clamped to the options' limits; nullopt when not finite.
std::optional<std::pair<float, float>> clamp_drive(const PlayOptions& options, float speed, float turn);

}  // namespace sortie::mission
