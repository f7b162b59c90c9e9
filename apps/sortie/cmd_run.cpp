// `sortie run [GAME_DIR] [--mission M] [--ticks N] [--json] [--out DIR]`: the main job. Units move
// with the movement stack (libs/move); the report counts contacts, blocked moves and arrivals.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "cli_game.hpp"
#include "cli_options.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/move/move_system.hpp"
#include "sortie/render/mission_scene.hpp"
#include "sortie/world/command_json.hpp"

namespace sortie::cli {
namespace {

// A billion ticks of 16 ms is six months of game time: more is a typo, not a run.
constexpr std::uint64_t kMaxRunTicks = 1'000'000'000;

struct RunCliOptions {
  std::string game_dir;
  std::string mission;
  std::uint64_t ticks = 600;
  std::uint64_t seed = 1;
  bool json = false;
  std::string out_dir;
  std::string replay;
  std::string sample_scale = "demo";
};

// Prints an error (and, with --json, {"ok": false, "error": ...}); returns its exit code.
int fail_with(const core::Diagnostic& d, bool json) {
  if (json) print_json(core::Json{{"ok", false}, {"error", d.to_json()}});
  print_error(d);
  return exit_code_for(d);
}

int run_main(const RunCliOptions& o) {
  namespace fs = std::filesystem;
  const bool quiet = o.json;
  auto dir = game_dir_or_sample(o.game_dir, sample_scale_from(o.sample_scale));
  if (!dir) {
    print_error(dir.error());
    return exit_code_for(dir.error());
  }
  if (!quiet && dir->sample) {
    std::cout << fmt::format("game: embedded {} sample ({} {})\n", o.sample_scale,
                             dir->generated ? "generated into" : "cached at", dir->path.string());
  } else if (!quiet) {
    std::cout << "game: " << dir->path.string() << "\n";
  }

  auto game = open_game(dir->path, o.mission);
  if (!game) return fail_with(game.error(), o.json);
  mission::GameContext& context = game->context;
  const std::string& mission = game->mission;

  mission::MissionLoadOptions lo;
  lo.world.seed = o.seed;
  Progress load_bar("loading " + mission, 9);
  int phase_no = 0;
  lo.progress = [&](std::string_view phase, std::size_t, std::size_t) {
    load_bar.update(static_cast<std::uint64_t>(++phase_no), phase);
  };
  const auto t0 = std::chrono::steady_clock::now();
  auto report = context.load(mission, lo);
  load_bar.finish();
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!report) return fail_with(report.error(), o.json);
  if (!report->ok) {
    if (o.json) print_json(core::Json{{"ok", false}, {"load", report->to_json()}});
    for (const auto& d : report->failures) print_error(d);
    std::cerr << fmt::format("sortie: load of {} failed: {} failure(s); nothing was registered\n", report->mission,
                             report->failures.size());
    return kExitInvalid;
  }
  auto* loaded = context.current();

  mission::ScenarioResult result;
  if (!o.replay.empty()) {
    auto text = core::read_text_file(o.replay);
    if (!text) {
      print_error(text.error());
      return exit_code_for(text.error());
    }
    auto j = core::Json::parse(*text, nullptr, false);
    auto log = j.is_discarded() ? core::Result<world::CommandLog>(
                                      core::fail(core::Diagnostic::error("run.replay", "not JSON").of(o.replay)))
                                : world::command_log_from_json(j.contains("commands_log") ? j["commands_log"] : j,
                                                               loaded->world->commands());
    if (!log) {
      print_error(log.error());
      return kExitInvalid;
    }
    auto hash = mission::replay_scenario(*loaded, *log, o.ticks);
    if (!hash) {
      print_error(hash.error());
      return kExitInvalid;
    }
    result.ticks = o.ticks;
    result.final_hash = *hash;
    result.log = *log;
    mission::collect_movement(*loaded, result);
  } else {
    mission::ScenarioOptions so;
    so.ticks = o.ticks;
    so.seed = o.seed;
    Progress tick_bar("running", o.ticks);
    auto r = mission::run_scenario(*loaded, so, [&](std::uint64_t t, std::uint64_t) {
      if (t % 32 == 0) tick_bar.update(t);
    });
    tick_bar.finish();
    if (!r) {
      print_error(r.error());
      return kExitInvalid;
    }
    result = std::move(*r);
  }

  core::Json rep{{"ok", true},         {"game", game->dir.string()}, {"load", report->to_json()},
                 {"load_ms", load_ms}, {"run", result.to_json()},    {"final_hash", core::hash_hex(result.final_hash)}};
  if (!o.out_dir.empty()) {
    auto log_json = world::command_log_json(result.log, loaded->world->commands());
    if (!log_json) {
      print_error(log_json.error());
      return kExitInvalid;
    }
    std::error_code ec;
    fs::create_directories(o.out_dir, ec);
    auto st = core::write_file_atomic(fs::path(o.out_dir) / "report.json", core::dump_json(rep));
    if (st) st = core::write_file_atomic(fs::path(o.out_dir) / "commands.json", core::dump_json(*log_json));
    if (st) {  // the final state as the renderer sees it (reads a snapshot; the state hash is untouched)
      std::vector<world::ObjectId> ids(loaded->objects.size());
      for (const auto& obj : loaded->objects)
        if (static_cast<std::size_t>(obj.placed_index) < ids.size())
          ids[static_cast<std::size_t>(obj.placed_index)] = obj.id;
      st = render::write_mission_snapshot(fs::path(o.out_dir) / "snapshot.png", loaded->visuals, loaded->data.get(),
                                          *loaded->world->snapshot(), ids);
    }
    if (!st) {
      print_error(st.error());
      return kExitUsage;
    }
  }
  if (o.json) {
    print_json(rep);
    return kExitOk;
  }
  std::cout << "\n" << report->object_chain.to_table() << "\n" << report->mission_total.to_table() << "\n";
  for (const auto& d : report->warnings) std::cout << core::to_string(d.severity) << ": " << d.to_string() << "\n";
  std::cout << "load phases:";
  for (const auto& t : report->timings) std::cout << fmt::format(" {} {:.1f} ms;", t.phase, t.milliseconds);
  std::cout << fmt::format("\nloaded {} objects ({} registered) in {:.1f} ms\n", report->constructed,
                           report->registered, load_ms);
  std::cout << fmt::format("ran {} ticks ({} move orders to {} units, {} obstacles) in {:.1f} ms\n", result.ticks,
                           result.orders, result.units, result.obstacles, result.wall_ms);
  const move::MoveStats& m = result.movement;
  std::cout << fmt::format("movement: {} contacts, {} blocked moves, {} arrivals, {} failed orders, {} re-plans\n",
                           m.contacts, m.blocked_moves, m.arrivals, m.failures, m.replans);
  for (const auto& d : result.diagnostics) std::cout << "note: " << d.to_string() << "\n";
  std::cout << "final state hash: " << core::hash_hex(result.final_hash) << "\n";
  if (!o.out_dir.empty()) std::cout << "report: " << (fs::path(o.out_dir) / "report.json").string() << "\n";
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(run, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<RunCliOptions>();
  auto* cmd =
      root.add_subcommand("run", "Load a mission the way the engine does and run it headless for N fixed ticks");
  cmd->footer(
      "Without GAME_DIR the embedded sample game is used (generated once into the cache directory,\n"
      "$XDG_CACHE_HOME/sortie or ~/.cache/sortie). The load is staged and transactional: a broken\n"
      "reachable resource stops it with a diagnostic naming the placed object, key, archive, entry and\n"
      "relation, and exit code 1; a game directory or mission that does not exist is exit code 2.\n"
      "Units walk with the movement stack (Behavior / Wizard / Control, collisions; Behavior.ini of the\n"
      "game directory sets its PathFind_* parameters); the report counts contacts, blocked moves,\n"
      "arrivals and failed orders. The final state hash is the same on every run, compiler and build;\n"
      "with --ticks 0 it is the hash of the state as loaded.\n\n"
      "Examples:\n  sortie run\n  sortie run --ticks 2000 --json\n  sortie run /games/parkan --mission m03 --out "
      "/tmp/run\n"
      "  sortie run --replay /tmp/run/commands.json --ticks 600   (same final hash)\n");
  add_game_options(cmd, o->game_dir, o->mission);
  add_number(cmd, "--ticks,-n", o->ticks, "calculation ticks to run (16 ms each)", std::uint64_t{0}, kMaxRunTicks)
      ->default_str("600");
  add_number(cmd, "--seed", o->seed, "seed of the simulation and order streams")->default_str("1");
  cmd->add_flag("--json", o->json, "print the whole report as JSON");
  cmd->add_option("--out", o->out_dir, "write report.json, commands.json and snapshot.png into this directory");
  cmd->add_option("--replay", o->replay, "replay a commands.json instead of generating orders");
  add_sample_option(cmd, o->sample_scale);
  cmd->callback([o, &outcome] { outcome.exit_code = run_main(*o); });
});

}  // namespace sortie::cli
