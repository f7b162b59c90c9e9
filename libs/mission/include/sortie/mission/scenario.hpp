#pragma once
// The headless mission run behind `sortie run`: a loaded mission is driven for N fixed ticks
// while some units receive move orders. Orders are commands drawn from their own seeded RNG
// stream, so the command log replays to the same state hash. An order whose unit and goal both
// lie in areals of the Land.map with a route between them becomes a route command (a corridor
// over the areal graph, libs/nav); otherwise (explicit miss) it stays a straight move command.
#include <cstdint>
#include <functional>

#include "sortie/world/command.hpp"
#include "sortie/mission/mission_loader.hpp"

namespace sortie::mission {

using world::Command;
using world::CommandLog;

struct ScenarioOptions {
  std::uint64_t ticks = 600;
  std::uint64_t seed = 1;             // order stream seed
  std::uint32_t order_interval = 60;  // ticks between waves of orders
  std::uint32_t orders_per_wave = 4;  // units ordered per wave
  float speed = 6.0f;                 // world units per game second
};

struct ScenarioResult {
  std::uint64_t ticks = 0;
  std::uint64_t final_hash = 0;  // after the last tick; with 0 ticks, the hash of the loaded state
  std::uint64_t orders = 0;
  std::uint64_t routed = 0;  // orders given as route commands
  std::uint64_t objects = 0;
  std::uint64_t units = 0;
  CommandLog log;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> checkpoints;  // (tick, hash) every 100 ticks and the last
  double wall_ms = 0;
  [[nodiscard]] core::Json to_json() const;
};

using TickProgressFn = std::function<void(std::uint64_t tick, std::uint64_t total)>;

core::Result<ScenarioResult> run_scenario(LoadedMission& mission, const ScenarioOptions& options,
                                          const TickProgressFn& progress = nullptr);

// Re-runs a recorded command log on a freshly loaded copy of the same mission and returns the
// final hash (compare with the recorded one).
core::Result<std::uint64_t> replay_scenario(LoadedMission& mission, const CommandLog& log, std::uint64_t ticks);

}  // namespace sortie::mission
