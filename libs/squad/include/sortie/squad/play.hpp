#pragma once
// `sortie squad run` as one call: a map file played headless with the scripted player (or a
// recorded log replayed), the world command log optionally written, and the report as JSON or
// text.
#include <cstdint>
#include <filesystem>
#include <string>

#include "sortie/core/json.hpp"
#include "sortie/squad/run.hpp"

namespace sortie::squad {

struct PlayRequest {
  std::filesystem::path map;  // docs/squad-maps.md
  double seconds = 60.0;
  std::uint64_t seed = 1;
  // A world command log ("SCLG", what `record` writes) or an older input log ("SQIL") replayed
  // instead of the script (its seed and length).
  std::filesystem::path replay;
  std::filesystem::path record;  // set: the world command log is written here (atomically)
};

struct Play {
  PlayRequest request;
  RunReport report;
  // The report with "ok": true (and "recorded" when a log was written).
  [[nodiscard]] core::Json to_json() const;
  // map, ticks and seed, the survivors, shots and melee, the final hashes.
  [[nodiscard]] std::string to_text() const;
};

// Errors: the map's (squad.map.*), the replay file's (io.*, squad.input.*, world.command_log.*),
// the run's (squad.run.*), the record's (io.*).
core::Result<Play> play_map(const PlayRequest& request);

}  // namespace sortie::squad
