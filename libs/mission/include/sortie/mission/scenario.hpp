#pragma once
// The headless mission run behind `sortie run`: a loaded mission is driven for N fixed ticks
// while its units move with the movement stack of libs/move (Behavior / Wizard / Control,
// collisions; seed 001). At tick 0 every unit gets a body (move.enable) and every placed static
// object with a visual becomes a static obstacle; then waves of move.goto orders, drawn from
// their own seeded RNG stream, send random units without an order to random points near them.
// Everything is a command, so
// the command log replays to the same state hash. The report counts contacts, blocked moves,
// arrivals and failed orders (a failure is a diagnostic, never a teleport).
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sortie/mission/mission_loader.hpp"
#include "sortie/mission/mission_scenario.hpp"
#include "sortie/move/move_system.hpp"
#include "sortie/world/command.hpp"

namespace sortie::mission {

using world::Command;
using world::CommandLog;

struct ScenarioOptions {
  std::uint64_t ticks = 600;
  std::uint64_t seed = 1;             // order stream seed
  std::uint32_t order_interval = 60;  // ticks between waves of orders
  std::uint32_t orders_per_wave = 4;  // units ordered per wave (at most; only units without an order)
  float order_radius = 48.0f;         // a goal is at most this far from the unit along X and Y
  float speed = 6.0f;                 // world units per game second
  float unit_radius = 1.5f;           // unit bodies: vertical capsules
  float unit_height = 3.0f;
  bool static_obstacles = true;  // placed static objects with a visual become static bodies
  // Waves of random move.goto orders (the run without a scenario). A mission with a scenario
  // runs without them: its parts give the orders.
  bool wander = true;
  // Called after every tick (the world's hash is set); an error stops the run with it. Save
  // files use it: write one at --save-at, check a loaded save's hash at its tick.
  std::function<core::Status(const World&)> after_tick;
};

struct ScenarioResult {
  std::uint64_t ticks = 0;
  std::uint64_t final_hash = 0;  // after the last tick; with 0 ticks, the hash of the loaded state
  std::uint64_t orders = 0;      // move.goto orders given
  std::uint64_t objects = 0;
  std::uint64_t units = 0;
  std::uint64_t obstacles = 0;                // static bodies
  move::MoveStats movement;                   // contacts, blocked moves, arrivals, failures, re-plans
  std::vector<core::Diagnostic> diagnostics;  // the movement system's (failed orders)
  CommandLog log;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> checkpoints;  // (tick, hash) every 100 ticks and the last
  double wall_ms = 0;
  // The scenario's objectives and outcome (world state; also after a replay); nullopt without one.
  std::optional<ScenarioSummary> scenario;
  [[nodiscard]] core::Json to_json() const;
};

// The map's rectangle on the ground plane: Land.msh's XY extent (0..256 without terrain).
struct MapBounds {
  float min_x = 0.0f, min_y = 0.0f, max_x = 0.0f, max_y = 0.0f;
};
MapBounds map_bounds(const assets::MissionData& data);

// The bodies of tick `tick` (move.enable): a capsule on every unit, then a static circle on
// every placed static object with a visual (its footprint radius; unless
// options.static_obstacles is off), in TMA order. What run_scenario gives at tick 0, and what a
// served session gives before its first tick, so units move the same in both.
std::vector<Command> movement_start_commands(const LoadedMission& mission, const ScenarioOptions& options,
                                             std::uint64_t tick);

using TickProgressFn = std::function<void(std::uint64_t tick, std::uint64_t total)>;

// With `runtime` (make_scenario_runtime), the scenario's parts start at tick 0 (after the bodies)
// and step before every tick, and the run ends after the tick its outcome is decided at (or at
// options.ticks).
core::Result<ScenarioResult> run_scenario(LoadedMission& mission, const ScenarioOptions& options,
                                          const TickProgressFn& progress = nullptr,
                                          scenario::ScenarioRuntime* runtime = nullptr);

// Re-runs a recorded command log on a freshly loaded copy of the same mission and returns the
// final hash (compare with the recorded one). No scenario part runs: what they did is in the
// log. Like the run, it ends after the tick a scenario outcome is decided at; `ran` gets the
// ticks run.
core::Result<std::uint64_t> replay_scenario(LoadedMission& mission, const CommandLog& log, std::uint64_t ticks,
                                            std::uint64_t* ran = nullptr);

// The world's scenario has an outcome.
bool scenario_decided(const World& world);

// The movement counters and diagnostics of a mission's world (zero before any move.enable).
void collect_movement(const LoadedMission& mission, ScenarioResult& result);

}  // namespace sortie::mission
