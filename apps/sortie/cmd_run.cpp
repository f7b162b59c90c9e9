// `sortie run [GAME_DIR] [--mission M] [--ticks N] [--json] [--out DIR]`: the main job. Units move
// with the movement stack (libs/move); the report counts contacts, blocked moves and arrivals.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_game.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/mission/mission_run.hpp"
#include "sortie/render/mission_render.hpp"

namespace sortie::cli {
namespace {

// A billion ticks of 16 ms is six months of game time: more is a typo, not a run.
constexpr std::uint64_t kMaxRunTicks = 1'000'000'000;

struct RunCliOptions {
  mission::MissionRunRequest rq;  // the options set its fields directly
  std::string game_dir;
  std::string sample_scale = "demo";
  std::uint64_t save_at = 0;  // 0: none (the option's range starts at 1)
  bool json = false;
  bool no_scenario = false;
};

int run_main(RunCliOptions& o) {
  auto& rq = o.rq;
  rq.source = {o.game_dir, sample_scale_from(o.sample_scale), {}};
  rq.scenario = !o.no_scenario;
  if (o.save_at > 0) rq.save_at = o.save_at;
  RunProgress progress;  // cli_util.hpp
  progress.attach(rq);
  auto run = mission::run_mission(rq);
  progress.finish();
  if (!run) return fail_with(run.error());
  if (!o.json && !run->dir.path.empty()) {  // empty: a save that could not be resumed opened no game
    std::cout << (run->dir.sample
                      ? fmt::format("game: embedded {} sample ({} {})\n", o.sample_scale,
                                    run->dir.generated ? "generated into" : "cached at", run->dir.path.string())
                      : "game: " + run->dir.path.string() + "\n");
  }
  if (run->failure && run->failed_at == mission::RunStage::open) return fail_with(*run->failure, o.json);
  if (!run->failure && !run->load.ok) return fail_load(run->load, o.json, "nothing was registered");
  if (run->failure)
    return fail_with(
        *run->failure, false,
        run->failed_at == mission::RunStage::run ? exit_code_for(*run->failure) : kExitUsage);  // writing the outputs
  if (!rq.out_dir.empty()) {  // the final state as the renderer sees it (reads a snapshot; the state hash is untouched)
    render::MissionRenderRequest picture;
    picture.loaded = run->game->context.current();
    picture.out = rq.out_dir / "snapshot.png";
    if (picture.loaded != nullptr)
      picture.camera = render::player_group_pose(*picture.loaded);  // else the default framing
    if (auto drawn = render::render_mission(picture); !drawn) return fail_with(drawn.error(), false, kExitUsage);
  }
  if (o.json)
    print_json(run->report());
  else
    std::cout << run->to_text();
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
      "with --ticks 0 it is the hash of the state as loaded.\n"
      "A mission with a scenario (MISSIONS/<m>/mission.lua, docs/mission-scripts.md) plays it: its parts\n"
      "give the orders, the run ends at the outcome or the tick limit, and the report lists the\n"
      "objectives and the result; a replay reproduces the hash without running any script.\n"
      "--no-scenario runs such a mission without it (random orders); `sortie serve` has the same switch.\n\n"
      "Examples:\n  sortie run\n  sortie run --ticks 2000 --json\n  sortie run /games/parkan --mission m03 --out "
      "/tmp/run\n"
      "  sortie run --replay /tmp/run/commands.json --ticks 600   (same final hash)\n"
      "  sortie run --save-at 100 --save /tmp/t100.save --ticks 300\n"
      "  sortie run --load /tmp/t100.save --ticks 200   (same final hash as the run above)\n"
      "A save (docs/save-files.md) names the run and holds the world at the tick (sortie save show);\n"
      "--load re-simulates the run to that tick, refuses a save whose world differs there (naming the\n"
      "first differing entry), a damaged file or one of another save version, then runs --ticks more.\n"
      "--trace CH,...|all with --out writes trace channels (docs/traces.md), each line stamped with the\n"
      "tick; they never change the state hash. The run starts and ends through the program bootstrap\n"
      "(lifecycle channel); its cache maintenance passes (20 s, 60 s) follow the fixed step.\n");
  add_game_options(cmd, o->game_dir, o->rq.mission);
  add_number(cmd, "--ticks,-n", o->rq.ticks, "calculation ticks to run (16 ms each)", std::uint64_t{0}, kMaxRunTicks)
      ->default_str("600");
  add_number(cmd, "--seed", o->rq.seed, "seed of the simulation and order streams")->default_str("1");
  cmd->add_flag("--json", o->json, "print the whole report as JSON");
  cmd->add_option("--out", o->rq.out_dir, "write report.json, commands.json and snapshot.png into this directory");
  cmd->add_option("--replay", o->rq.replay, "replay a commands.json instead of generating orders");
  cmd->add_option("--trace", o->rq.trace,
                  "trace channels to write as <channel>.log into --out (docs/traces.md: lifecycle, queue, behavior, "
                  "wizard, control, lua, fx, ai, superai, scenario, all)")
      ->delimiter(',');
  auto* save_at = add_number(cmd, "--save-at", o->save_at, "write a save (--save) when the world reaches this tick",
                             std::uint64_t{1}, kMaxRunTicks);
  auto* save = cmd->add_option("--save", o->rq.save, "the save file --save-at writes (atomically)");
  save_at->needs(save);
  save->needs(save_at);
  auto* load =
      cmd->add_option("--load", o->rq.load, "resume a save: re-simulate to its tick, check it, run --ticks more");
  load->excludes(cmd->get_option("--replay"));
  save_at->excludes(cmd->get_option("--replay"));
  auto* no_scenario =
      cmd->add_flag("--no-scenario", o->no_scenario, "do not play the mission's scenario: random orders instead");
  no_scenario->excludes(save_at);
  no_scenario->excludes(load);
  add_sample_option(cmd, o->sample_scale);
  cmd->callback([o, &outcome] { outcome.exit_code = run_main(*o); });
});

}  // namespace sortie::cli
