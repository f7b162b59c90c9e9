#include "sortie/world/replay.hpp"

#include <fmt/format.h>

#include "sortie/core/hash.hpp"

namespace sortie::world {

using core::Diagnostic;
using core::fail;

core::Result<ReplayResult> replay(const CommandLog& log, const WorldConfig& config, const WorldSetup& setup,
                                  std::uint64_t ticks) {
  WorldConfig cfg = config;
  cfg.keep_hash_history = true;
  World world(cfg);
  if (setup) SORTIE_CHECK(setup(world));
  for (std::size_t i = 0; i < log.commands.size(); ++i) {
    auto status = world.submit(log.commands[i]);
    if (!status) return fail(std::move(status).error().within(fmt::format("commands[{}]", i)));
  }
  for (std::uint64_t t = 0; t < ticks; ++t) SORTIE_CHECK(world.tick());
  ReplayResult result;
  result.hashes = world.hash_history();
  result.final_hash = world.last_hash();
  return result;
}

core::Status verify_replay(const CommandLog& log, const WorldConfig& config, const WorldSetup& setup,
                           const std::vector<std::uint64_t>& expected) {
  SORTIE_TRY(auto result, replay(log, config, setup, expected.size()));
  if (result.hashes.size() != expected.size()) {
    return fail(Diagnostic::error("world.replay.length", "replay produced a different number of ticks")
                    .expect(std::to_string(expected.size()), std::to_string(result.hashes.size())));
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (result.hashes[i] != expected[i]) {
      return fail(Diagnostic::error("world.replay.diverged", fmt::format("state hash differs after tick {}", i + 1))
                      .in(fmt::format("ticks[{}]", i + 1))
                      .expect(core::hash_hex(expected[i]), core::hash_hex(result.hashes[i])));
    }
  }
  return {};
}

}  // namespace sortie::world
