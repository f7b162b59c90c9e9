#include "sortie/squad/run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "sortie/core/hash.hpp"
#include "sortie/squad/script.hpp"
#include "sortie/squad/squad_world.hpp"

namespace sortie::squad {

core::Json stats_json(const Stats& s) {
  return core::Json{{"shots", s.shots},
                    {"bullet_target_hits", s.bullet_target_hits},
                    {"bullet_wall_hits", s.bullet_wall_hits},
                    {"bullets_expired", s.bullets_expired},
                    {"friendly_hits", s.friendly_hits},
                    {"kills", s.kills},
                    {"agents_down", s.agents_down},
                    {"hostile_attacks", s.hostile_attacks},
                    {"spawned", s.spawned},
                    {"solves", s.solves},
                    {"commits", s.commits},
                    {"melee_strikes", s.melee_strikes},
                    {"melee_hits", s.melee_hits},
                    {"melee_withheld", s.melee_withheld},
                    {"shots_vetoed", s.shots_vetoed}};
}

core::Json RunReport::to_json() const {
  return core::Json{{"map", map_name},
                    {"seed", seed},
                    {"ticks", ticks},
                    {"seconds", static_cast<double>(ticks) / kTickRate},
                    {"final_hash", core::hash_hex(final_hash)},
                    {"world_hash", core::hash_hex(world_hash)},
                    {"replayed", replayed},
                    {"stats", stats_json(stats)},
                    {"agents", {{"alive", agents_alive}, {"total", agents_total}}},
                    {"targets", {{"alive", targets_alive}, {"total", targets_total}}},
                    {"wall_ms", wall_ms}};
}

core::Result<RunReport> run_squad(const SquadMap& map, const RunOptions& options,
                                  const std::function<void(const SquadSim&)>& observe) {
  const std::uint64_t fingerprint = map_fingerprint(map);
  const auto ticks_for = [&](double seconds) -> core::Result<std::uint64_t> {
    const double t = seconds * kTickRate;
    if (!std::isfinite(t) || t < 0.0 || t > static_cast<double>(kInputLogTicksMax)) {
      return core::fail(core::Diagnostic::error("squad.run.seconds", "seconds out of range")
                            .expect(fmt::format("0 .. {}", kInputLogTicksMax / kTickRate), fmt::format("{}", seconds)));
    }
    return static_cast<std::uint64_t>(std::llround(t));
  };
  std::uint64_t ticks = 0;
  std::uint64_t seed = options.seed;
  if (options.replay != nullptr) {
    if (options.replay->map_fingerprint != fingerprint) {
      return core::fail(core::Diagnostic::error("squad.run.map_mismatch", "the input log was recorded on another map")
                            .expect(core::hash_hex(fingerprint), core::hash_hex(options.replay->map_fingerprint)));
    }
    seed = options.replay->seed;
    ticks = options.replay->frames.size();
  } else if (options.replay_world != nullptr) {
    SORTIE_TRY(const SquadSessionCommand session, find_session(*options.replay_world));
    if (session.map_fingerprint != fingerprint) {
      return core::fail(core::Diagnostic::error("squad.run.map_mismatch", "the command log was recorded on another map")
                            .expect(core::hash_hex(fingerprint), core::hash_hex(session.map_fingerprint)));
    }
    seed = session.seed;
    if (session.ticks != 0) {
      ticks = session.ticks;
    } else {
      SORTIE_TRY(ticks, ticks_for(options.seconds));
    }
  } else {
    SORTIE_TRY(ticks, ticks_for(options.seconds));
  }
  SimConfig config;
  config.seed = seed;
  config.keep_event_log = options.keep_event_log;
  const bool from_world_log = options.replay_world != nullptr;
  auto created = from_world_log ? SquadWorld::create_for_replay(map, config) : SquadWorld::create(map, config, ticks);
  if (!created) return core::fail(created.error());
  SquadWorld game = std::move(*created);
  if (from_world_log) {
    for (const world::Command& c : options.replay_world->commands) SORTIE_CHECK(game.world().submit(c));
  }
  RunReport rep;
  rep.map_name = map.name;
  rep.seed = seed;
  rep.replayed = options.replay != nullptr || from_world_log;
  rep.log.seed = seed;
  rep.log.map_fingerprint = fingerprint;
  rep.log.frames.reserve(ticks);
  ScriptedPlayer player(seed);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t k = 0; k < ticks; ++k) {
    if (from_world_log) {
      SORTIE_CHECK(game.tick());
      rep.log.frames.push_back(game.controller().last_input());
    } else {
      const InputFrame f = options.replay != nullptr ? options.replay->frames[k] : player.next(game.sim());
      rep.log.frames.push_back(f);
      SORTIE_CHECK(game.step(f));
    }
    if (observe) observe(game.sim());
  }
  rep.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const SquadSim& sim = game.sim();
  rep.ticks = sim.tick();
  rep.final_hash = sim.state_hash();
  rep.world_hash = game.world_hash();
  rep.world_log = game.world().command_log();
  rep.stats = sim.stats();
  rep.agents_alive = sim.live_agents();
  rep.agents_total = static_cast<std::uint32_t>(sim.agents().size());
  rep.targets_alive = sim.live_targets();
  rep.targets_total = static_cast<std::uint32_t>(sim.targets().size());
  return rep;
}

}  // namespace sortie::squad
