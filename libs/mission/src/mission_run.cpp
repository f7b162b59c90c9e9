#include "sortie/mission/mission_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <system_error>
#include <utility>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/bootstrap.hpp"
#include "sortie/mission/save_image.hpp"
#include "sortie/world/command_json.hpp"

namespace sortie::mission {
namespace {

// The replayed run of a command log file (a commands.json, or a report with "commands_log").
core::Result<ScenarioResult> replay_file(LoadedMission& loaded, const std::filesystem::path& path,
                                         std::uint64_t ticks) {
  SORTIE_TRY(auto text, core::read_text_file(path));
  auto j = core::Json::parse(text, nullptr, false);
  if (j.is_discarded()) return core::fail(core::Diagnostic::error("run.replay", "not JSON").of(path.string()));
  SORTIE_TRY(auto log, world::command_log_from_json(j.contains("commands_log") ? j["commands_log"] : j,
                                                    loaded.world->commands()));
  std::uint64_t ran = 0;
  SORTIE_TRY(auto hash, replay_scenario(loaded, log, ticks, &ran));
  ScenarioResult result;
  result.ticks = ran;
  result.final_hash = hash;
  result.log = std::move(log);
  collect_movement(loaded, result);
  result.scenario = summarize_scenario(*loaded.world, nullptr);
  return result;
}

// The save hook of a generated run: write a save (with the world image) at request.save_at, and
// check a resumed save at its tick: its image entry by entry, then its state hash (a difference:
// another game, build or damaged state).
std::function<core::Status(const World&)> save_hook(const MissionRunRequest& request, MissionRun& run,
                                                    const scenario::ScenarioRuntime* runtime, ClanNamer clans) {
  if (!request.save_at && !run.resumed) return nullptr;
  return [&request, &run, runtime, clans = std::move(clans)](const World& w) -> core::Status {
    const std::uint64_t tick = w.clock().tick;
    if (run.resumed && tick == run.resumed->tick) {
      if (auto st = compare_save_image(run.resumed->image, save_image(w, runtime), tick, clans); !st)
        return core::fail(std::move(st).error().of(request.load.string()));
      if (w.last_hash() != run.resumed->state_hash)
        return core::fail(
            core::Diagnostic::error("save.mismatch", fmt::format("re-simulated to tick {}, the world differs from the "
                                                                 "save: another game, build or a changed mission",
                                                                 tick))
                .expect(core::hash_hex(run.resumed->state_hash), core::hash_hex(w.last_hash()))
                .of(request.load.string()));
    }
    if (request.save_at && tick == *request.save_at) {
      SaveGame s;
      s.build = save_build_id();
      s.game = request.source.dir.string();
      s.sample_scale = std::string(assets::to_string(request.source.sample));
      s.mission = run.game->mission;
      s.seed = request.seed;
      s.tick = tick;
      s.state_hash = w.last_hash();
      s.image = save_image(w, runtime);
      SORTIE_CHECK(write_save(request.save, s));
      run.saved = std::move(s);
    }
    return {};
  };
}

// The movement stack's start: the environment the loader built (terrain, areal map, parameters),
// named in the "behavior" trace channel. A mission without one cannot move its units.
core::Status start_movement(const LoadedMission& loaded, world::Trace& trace) {
  if (!loaded.movement)
    return core::fail(core::Diagnostic::error("run.movement", "the mission has no movement environment"));
  if (trace.on("behavior")) {
    const move::MoveEnvironment& env = *loaded.movement;
    trace.write("behavior", fmt::format("movement stack: terrain {}, areal map {} areals, corridor radius {}",
                                        env.terrain ? "yes" : "no", env.areals ? env.areals->areal_count() : 0,
                                        env.params.corridor_radius));
  }
  return {};
}

// The run's main loop: the replay, or the generated run (with the scenario's runtime when it
// has one), then report.json and commands.json.
core::Status main_loop(const MissionRunRequest& request, MissionRun& run, scenario::ScenarioRuntime* runtime) {
  LoadedMission& loaded = *run.game->context.current();
  run.failed_at = RunStage::run;
  if (!request.replay.empty()) {
    SORTIE_TRY(run.result, replay_file(loaded, request.replay, request.ticks));
  } else {
    ScenarioOptions so;
    so.ticks = request.ticks + (run.resumed ? run.resumed->tick : 0);
    so.seed = request.seed;
    so.after_tick = save_hook(request, run, runtime, clan_namer(*loaded.data));
    if (runtime) so.wander = false;  // the scenario gives the orders
    SORTIE_TRY(run.result, run_scenario(loaded, so, request.on_tick, runtime));
    if (request.save_at && !run.saved)
      return core::fail(core::Diagnostic::error(
          "run.save_at", fmt::format("the run ended after {} ticks, before the tick to save at ({})", run.result.ticks,
                                     *request.save_at)));
  }
  if (request.out_dir.empty()) return {};
  SORTIE_TRY(auto log_json, world::command_log_json(run.result.log, loaded.world->commands()));
  run.failed_at = RunStage::write;
  std::error_code ec;
  std::filesystem::create_directories(request.out_dir, ec);
  SORTIE_CHECK(core::write_file_atomic(request.out_dir / "report.json", core::dump_json(run.report())));
  return core::write_file_atomic(request.out_dir / "commands.json", core::dump_json(log_json));
}

// The run's subsystems (bootstrap.hpp): archives, mission, world, movement, scenario, then the
// caller's; every failure's diagnostic and stage go into `run`.
core::Status run_stages(const MissionRunRequest& request, MissionRun& run) {
  using world::Stage;
  world::TraceOptions to;
  to.channels = request.trace;
  to.dir = request.out_dir;
  Bootstrap boot(std::move(to));
  std::unique_ptr<scenario::ScenarioRuntime> runtime;
  bool load_failed = false;
  const auto loaded = [&run]() -> LoadedMission& { return *run.game->context.current(); };
  SORTIE_CHECK(boot.add(Stage::library_ready, "archives", [&]() -> core::Status {
    run.failed_at = RunStage::open;
    SORTIE_TRY(auto game, open_game(run.dir, request.mission));
    run.game.emplace(std::move(game));
    return {};
  }));
  SORTIE_CHECK(boot.add(Stage::game_created, "mission", [&]() -> core::Status {
    MissionLoadOptions lo;
    lo.world.seed = request.seed;
    if (request.on_load_phase)
      lo.progress = [&](std::string_view phase, std::size_t, std::size_t) {
        request.on_load_phase(run.game->mission, phase);
      };
    const auto t0 = std::chrono::steady_clock::now();
    auto report = run.game->context.load(run.game->mission, lo);
    run.load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!report) return core::fail(std::move(report).error());
    run.load = std::move(*report);
    load_failed = !run.load.ok;  // reported by the load report, not as a failure
    if (load_failed) return core::fail(core::Diagnostic::error("load.failed", "the mission did not load"));
    boot.attach(*loaded().world);
    return {};
  }));
  SORTIE_CHECK(boot.add(
      Stage::subsystems_ready, "world",
      [&]() -> core::Status {
        register_maintenance(*loaded().world, run.game->context, world::MaintenanceDrive::fixed_step);
        return {};
      },
      [&] { loaded().world->run_all_maintenance(); }));  // the last pass, before the program ends
  SORTIE_CHECK(boot.add(Stage::subsystems_ready, "movement",
                        [&]() -> core::Status { return start_movement(loaded(), boot.trace()); }));
  if (request.scenario && request.replay.empty()) {
    SORTIE_CHECK(boot.add(
        Stage::subsystems_ready, "scenario",
        [&]() -> core::Status {
          run.failed_at = RunStage::run;
          scenario::RuntimeOptions ro;
          ro.seed = request.seed;
          SORTIE_TRY(runtime, make_scenario_runtime(loaded(), ro));
          return {};
        },
        [&] { runtime.reset(); }));
  }
  SORTIE_CHECK(boot.add(request.subsystems));
  auto status = boot.run([&] { return main_loop(request, run, runtime.get()); });
  run.lifecycle = boot.lifecycle().trace();
  run.reached_main_loop = boot.reached_main_loop();
  if (!status && load_failed) return {};
  if (!status && boot.write_failed()) run.failed_at = RunStage::write;
  return status;
}

}  // namespace

// A resumed run is the save's run: its game, mission and seed.
core::Result<MissionRunRequest> resume_request(const MissionRunRequest& request, SaveGame& save) {
  SORTIE_TRY(save, read_save(request.load));
  if (save.mode == SaveMode::play)
    return core::fail(
        core::Diagnostic::error("save.game", "a game played in sortie-viewer: load it there (F9, --save-file)")
            .of(request.load.string()));
  MissionRunRequest rq = request;
  const auto refuse = [&](std::string_view what, std::string expected, std::string found) {
    return core::fail(core::Diagnostic::error("save.game", fmt::format("the save is of another {}", what))
                          .expect(std::move(expected), std::move(found))
                          .of(request.load.string()));
  };
  if (!request.source.dir.empty() && request.source.dir.string() != save.game)
    return refuse("game", save.game.empty() ? "the embedded sample" : save.game, request.source.dir.string());
  if (!request.mission.empty() && request.mission != save.mission)
    return refuse("mission", save.mission, request.mission);
  rq.source.dir = save.game;
  rq.source.sample = sample_scale_from(save.sample_scale);
  rq.mission = save.mission;
  rq.seed = save.seed;
  return rq;
}

core::Result<MissionRun> run_mission(const MissionRunRequest& request) {
  MissionRun run;
  MissionRunRequest rq = request;
  if (!request.load.empty()) {  // the save's run
    SaveGame save;
    auto resumed = resume_request(request, save);
    if (!resumed) {
      run.failure = std::move(resumed.error());
      return run;
    }
    rq = std::move(*resumed);
    run.resumed = std::move(save);
  }
  SORTIE_TRY(run.dir, resolve_game_dir(rq.source));
  run.out_dir = rq.out_dir;
  if (auto st = run_stages(rq, run); !st) run.failure = std::move(st.error());
  return run;
}

core::Json MissionRun::report() const {
  core::Json j{{"ok", true},         {"game", dir.path.string()}, {"load", load.to_json()},
               {"load_ms", load_ms}, {"run", result.to_json()},   {"final_hash", core::hash_hex(result.final_hash)}};
  if (result.scenario) j["scenario"] = result.scenario->to_json();
  if (resumed) j["resumed"] = save_show_json(*resumed)["save"];  // the header: the image is the file's
  if (saved) j["saved"] = save_show_json(*saved)["save"];
  return j;
}

std::string MissionRun::to_text() const {
  std::string out = "\n" + load.object_chain.to_table() + "\n" + load.mission_total.to_table() + "\n";
  for (const auto& d : load.warnings) out += fmt::format("{}: {}\n", core::to_string(d.severity), d.to_string());
  out += "load phases:";
  for (const auto& t : load.timings) out += fmt::format(" {} {:.1f} ms;", t.phase, t.milliseconds);
  out += fmt::format("\nloaded {} objects ({} registered) in {:.1f} ms\n", load.constructed, load.registered, load_ms);
  out += fmt::format("ran {} ticks ({} move orders to {} units, {} obstacles) in {:.1f} ms\n", result.ticks,
                     result.orders, result.units, result.obstacles, result.wall_ms);
  const move::MoveStats& m = result.movement;
  out += fmt::format("movement: {} contacts, {} blocked moves, {} arrivals, {} failed orders, {} re-plans\n",
                     m.contacts, m.blocked_moves, m.arrivals, m.failures, m.replans);
  for (const auto& d : result.diagnostics) out += "note: " + d.to_string() + "\n";
  if (result.scenario) out += result.scenario->to_text();
  if (resumed)
    out += fmt::format("resumed a save of tick {} (re-simulated and checked: state hash {})\n", resumed->tick,
                       core::hash_hex(resumed->state_hash));
  if (saved) out += fmt::format("saved tick {} (state hash {})\n", saved->tick, core::hash_hex(saved->state_hash));
  out += "final state hash: " + core::hash_hex(result.final_hash) + "\n";
  if (!out_dir.empty()) out += "report: " + (out_dir / "report.json").string() + "\n";
  return out;
}

}  // namespace sortie::mission
