#pragma once
// Replay: rebuild the initial world, feed a recorded command log, and compare the state hash
// of every tick with the live run.
#include <cstdint>
#include <functional>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/world.hpp"

namespace sortie::world {

// Builds the initial world (objects, handlers, controllers). Must be deterministic and must
// not submit commands: commands come from the log.
using WorldSetup = std::function<core::Status(World&)>;

struct ReplayResult {
  std::vector<std::uint64_t> hashes;  // hash after each tick, tick 1 first
  std::uint64_t final_hash = 0;
};

core::Result<ReplayResult> replay(const CommandLog& log, const WorldConfig& config, const WorldSetup& setup,
                                  std::uint64_t ticks);

// Replays and compares with `expected` (one hash per tick). `world.replay.diverged` names
// the first tick whose hash differs; `world.replay.length` when the counts differ.
core::Status verify_replay(const CommandLog& log, const WorldConfig& config, const WorldSetup& setup,
                           const std::vector<std::uint64_t>& expected);

}  // namespace sortie::world
