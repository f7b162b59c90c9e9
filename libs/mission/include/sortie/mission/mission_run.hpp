#pragma once
// `sortie run` as one call, through the program bootstrap (bootstrap.hpp): open the game (or the
// embedded sample), load its mission through every phase, run the headless scenario for N ticks or replay a recorded
// command log, and write report.json and commands.json. The picture of the final state (snapshot.png) is the
// presentation layer's: render::render_mission with the run's loaded mission.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/json.hpp"
#include "sortie/mission/bootstrap.hpp"
#include "sortie/mission/open_game.hpp"
#include "sortie/mission/save_game.hpp"
#include "sortie/mission/scenario.hpp"

namespace sortie::mission {

struct MissionRunRequest {
  GameSource source;
  std::string mission;  // empty: the game's first
  std::uint64_t ticks = 600;
  std::uint64_t seed = 1;  // the world's simulation seed and the order stream's
  // A command log (`commands.json` of an earlier run, or its report.json) replayed instead of
  // generated orders.
  std::filesystem::path replay;
  std::filesystem::path out_dir;  // set: report.json and commands.json are written there
  // Trace channels to turn on (docs/traces.md: lifecycle, queue, behavior, wizard, control,
  // scenario, lua, ai, superai, fx, ...; "all"); their <channel>.log files go to out_dir.
  std::vector<std::string> trace;
  // The caller's own subsystems, started after the run's (bootstrap.hpp).
  std::vector<ProgramSubsystem> subsystems;
  // Play the mission's scenario when it has one (its parts give the orders); false
  // (`--no-scenario`): waves of random orders as for a mission without one. `sortie serve` keeps
  // the same rule (net::ServerScenario; without it, its host bot orders).
  bool scenario = true;
  // Each of the loader's phases, with the mission's name.
  std::function<void(std::string_view mission, std::string_view phase)> on_load_phase;
  TickProgressFn on_tick;  // the generated run's ticks
  // Save files (save_game.hpp). `save_at` (>= 1) with `save`: write a save when the world
  // reaches that tick (the run must get there). `load`: resume a save: its game, mission and
  // seed (a `source` or `mission` that names another is refused), re-simulated to its tick and
  // checked against its state hash there, then `ticks` more.
  std::optional<std::uint64_t> save_at;
  std::filesystem::path save;
  std::filesystem::path load;
};

// Where a run stopped: opening the game (or a fatal load error), the scenario or replay (the
// replay file, its command log, the run), writing the outputs.
enum class RunStage : std::uint8_t { open, run, write };

struct MissionRun {
  GameDir dir;
  std::optional<OpenGame> game;  // game->context.current() is the mission that ran
  MissionLoadReport load;        // load.ok false: the load failed, nothing ran
  double load_ms = 0.0;
  ScenarioResult result;
  std::filesystem::path out_dir;
  std::optional<core::Diagnostic> failure;  // the run stopped at `failed_at`
  RunStage failed_at = RunStage::open;
  std::optional<SaveGame> resumed;  // the save the run resumed
  std::optional<SaveGame> saved;    // the save the run wrote
  // The bootstrap's stage trace (world::Lifecycle::trace) and whether it reached the main loop.
  std::vector<std::string> lifecycle;
  bool reached_main_loop = false;

  // report.json: {"ok": true, game, load, load_ms, run, final_hash}.
  [[nodiscard]] core::Json report() const;
  // The text report: dependency tables, warnings, phase timings, the run, the final state hash.
  [[nodiscard]] std::string to_text() const;
};

// Errors: only the game directory's (the sample's generation); every later stop is a MissionRun
// with `failure` set (or a failed load).
core::Result<MissionRun> run_mission(const MissionRunRequest& request);

}  // namespace sortie::mission
