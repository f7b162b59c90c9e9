#pragma once
// Headless runs: the scripted player on a map for N seconds (recording its input), or a recorded
// log replayed to the same final hash. The first client is `sortie squad run`. Every run goes
// through a SquadWorld (squad_world.hpp): the input becomes world commands, the world log is
// recorded, and a world log (or the older SQIL input log) replays.
#include <cstdint>
#include <functional>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/sim.hpp"
#include "sortie/world/command.hpp"

namespace sortie::squad {

struct RunOptions {
  double seconds = 60.0;
  std::uint64_t seed = 1;
  const InputLog* replay = nullptr;  // replay these frames (and this seed) instead of the script
  // Or replay a world command log (its squad.session gives the seed and the length; `seconds`
  // is used only when the session's length is 0).
  const world::CommandLog* replay_world = nullptr;
  bool keep_event_log = false;
};

struct RunReport {
  std::string map_name;
  std::uint64_t seed = 0;
  std::uint64_t ticks = 0;
  std::uint64_t final_hash = 0;  // the SquadSim's state hash
  std::uint64_t world_hash = 0;  // the world's state hash (the sim's folded in)
  bool replayed = false;
  Stats stats;
  std::uint32_t agents_alive = 0;
  std::uint32_t agents_total = 0;
  std::uint32_t targets_alive = 0;
  std::uint32_t targets_total = 0;
  InputLog log;                 // the frames that were played
  world::CommandLog world_log;  // the commands that were applied (session first)
  double wall_ms = 0.0;
  [[nodiscard]] core::Json to_json() const;  // without the frames
};

core::Json stats_json(const Stats& s);

// Codes: squad.run.seconds (negative, not finite, or over the input log limit),
// squad.run.map_mismatch (the log was recorded on another map or tuning), squad.run.session (a
// world log without squad.session), squad.tuning.*, world.command.*.
// `observe` sees the simulation after every step.
core::Result<RunReport> run_squad(const SquadMap& map, const RunOptions& options,
                                  const std::function<void(const SquadSim&)>& observe = {});

}  // namespace sortie::squad
