#include "sortie/squad/play.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/squad_world.hpp"
#include "sortie/squad/tuning.hpp"
#include "sortie/world/command_log.hpp"

namespace sortie::squad {

core::Result<Play> play_map(const PlayRequest& request) {
  SORTIE_TRY(auto map, load_squad_map(request.map));
  InputLog replay;
  world::CommandLog replay_world;
  RunOptions ro;
  ro.seconds = request.seconds;
  ro.seed = request.seed;
  if (!request.replay.empty()) {
    SORTIE_TRY(auto bytes, core::read_file(request.replay, kReplayFileMax));
    if (core::as_chars(core::ByteView(bytes).first(std::min<std::size_t>(4, bytes.size()))) == "SCLG") {
      auto log = world::read_command_log(bytes, *squad_command_registry());
      if (!log) return core::fail(std::move(log.error()).of(request.replay.string()));
      replay_world = std::move(*log);
      ro.replay_world = &replay_world;
    } else {
      SORTIE_TRY(replay, read_input_log(bytes, request.replay.string()));
      ro.replay = &replay;
    }
  }
  SORTIE_TRY(auto report, run_squad(map, ro));
  if (!request.record.empty()) {
    SORTIE_TRY(auto bytes, world::write_command_log(report.world_log, *squad_command_registry()));
    SORTIE_CHECK(core::write_file_atomic(request.record, bytes));
  }
  return Play{request, std::move(report)};
}

core::Json Play::to_json() const {
  core::Json j = report.to_json();
  j["ok"] = true;
  if (!request.record.empty()) j["recorded"] = request.record.string();
  return j;
}

std::string Play::to_text() const {
  const auto& r = report;
  const auto& s = r.stats;
  std::string out = fmt::format("map: {} ({})\n", r.map_name, request.map.string());
  out += fmt::format("{} {} ticks ({:.1f} s) with seed {} in {:.0f} ms\n", r.replayed ? "replayed" : "played", r.ticks,
                     static_cast<double>(r.ticks) / kTickRate, r.seed, r.wall_ms);
  out += fmt::format("agents alive {}/{}, hostiles alive {}/{} (spawned {}), kills {}\n", r.agents_alive,
                     r.agents_total, r.targets_alive, r.targets_total, s.spawned, s.kills);
  out += fmt::format("shots {} (hit {}, wall {}, vetoed at the trigger {}), FRIENDLY_HITS {}\n", s.shots,
                     s.bullet_target_hits, s.bullet_wall_hits, s.shots_vetoed, s.friendly_hits);
  out += fmt::format("melee strikes {} (hits {}, withheld {}), solves {}, commits {}, claws {}\n", s.melee_strikes,
                     s.melee_hits, s.melee_withheld, s.solves, s.commits, s.hostile_attacks);
  if (!request.record.empty()) out += "world command log: " + request.record.string() + "\n";
  out += "final state hash: " + core::hash_hex(r.final_hash) + "\n";
  out += "world state hash: " + core::hash_hex(r.world_hash) + "\n";
  return out;
}

}  // namespace sortie::squad
