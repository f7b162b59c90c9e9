// `sortie squad run|accept|check`: the squad-tactics simulation headless (libs/squad).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/squad/accept.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/map_discovery.hpp"
#include "sortie/squad/play.hpp"
#include "sortie/squad/tuning.hpp"
#include "squad_group.hpp"

namespace sortie::cli {
namespace {

int squad_run(const squad::PlayRequest& rq, bool json) {
  auto play = squad::play_map(rq);
  if (!play) return fail_with(play.error(), json);
  print_report(*play, json);
  return kExitOk;
}

int squad_check(const std::vector<std::string>& paths, bool json) {
  return print_run(squad::check_maps(paths), json);
}

struct SquadAcceptOptions {
  std::uint64_t seed = 1;
  std::vector<std::string> maps;
  bool json = false;
  double seconds = 180.0;
};

int squad_accept(const SquadAcceptOptions& o) {
  auto maps = squad::collect_maps(o.maps, squad::default_map_dirs(squad::current_executable()));
  if (!maps) return fail_with(maps.error(), o.json);
  squad::AcceptOptions ao;
  ao.seed = o.seed;
  ao.combat_seconds = o.seconds;
  Progress bar("squad accept", maps->size() + 1);
  ao.progress = [&](std::string_view what, std::size_t done, std::size_t) { bar.update(done, what); };
  auto rep = squad::run_acceptance(*maps, ao);
  bar.finish();
  if (!rep) return fail_with(rep.error(), o.json);
  print_report(*rep, o.json);
  return rep->ok() ? kExitOk : kExitInvalid;
}

// The longest run an input log can hold, in seconds (the library checks it again).
constexpr std::uint64_t kMaxWholeSeconds = squad::kInputLogTicksMax / squad::kTickRate;
constexpr double kMaxSeconds = static_cast<double>(kMaxWholeSeconds);

void add_accept_options(CLI::App* app, SquadAcceptOptions& o) {
  add_number(app, "--seed", o.seed, "seed of every run")->default_str("1");
  app->add_option("--maps", o.maps, "map directories (every *.txt) or files (default: data/squad)");
  add_number(app, "--seconds", o.seconds, "seconds of combat per map", 0.0, kMaxSeconds)->default_str("180");
  app->add_flag("--json", o.json, "print the criteria as JSON");
}

}  // namespace

CLI::App& squad_group(CLI::App& root) {
  return command_group(root, "squad", "Squad tactics: run the simulation headless, replay, accept, check maps",
                       "Examples:\n"
                       "  sortie squad run data/squad/rooms.txt --seconds 60 --seed 7 --record /tmp/rooms.sqil\n"
                       "  sortie squad run data/squad/rooms.txt --replay /tmp/rooms.sqil     (same final hash)\n"
                       "  sortie squad check data/squad/*.txt\n"
                       "  sortie squad render data/squad/rooms.txt --at 20 --overlay -o /tmp/rooms.png\n"
                       "  sortie squad accept --seed 3 --maps data/squad      (also: sortie squad --accept ...)\n");
}

SORTIE_COMMAND(squad, [](CLI::App& root, Outcome& outcome) {
  auto* cmd = &squad_group(root);
  cmd->require_subcommand(0, 1);
  // `sortie squad --accept [options]` is the same as `sortie squad accept [options]`.
  auto top = std::make_shared<SquadAcceptOptions>();
  auto accept_flag = std::make_shared<bool>(false);
  cmd->add_flag("--accept", *accept_flag, "run the acceptance (same as the accept subcommand)");
  add_accept_options(cmd, *top);
  cmd->callback([cmd, top, accept_flag, &outcome] {
    if (!cmd->get_subcommands().empty()) return;
    if (!*accept_flag) throw CLI::RequiredError("a subcommand (run, accept, check) or --accept");
    outcome.exit_code = squad_accept(*top);
  });
  auto ao = std::make_shared<SquadAcceptOptions>();
  auto* accept = cmd->add_subcommand(
      "accept", "Acceptance: scripted scenarios and 3 minutes of combat per map, PASS/FAIL per criterion");
  add_accept_options(accept, *ao);
  accept->callback([ao, &outcome] { outcome.exit_code = squad_accept(*ao); });

  auto ro = std::make_shared<squad::PlayRequest>();
  auto run_json = std::make_shared<bool>(false);
  auto* run = cmd->add_subcommand("run", "Play a map headless with the scripted player and print the final hash");
  run->add_option("map", ro->map, "map file (docs/squad-maps.md)")->required();
  auto* seconds =
      add_number(run, "--seconds", ro->seconds, "seconds of simulated time (60 ticks each)", 0.0, kMaxSeconds)
          ->default_str("60");
  auto* seed = add_number(run, "--seed", ro->seed, "seed of the simulation's random streams")->default_str("1");
  run->add_flag("--json", *run_json, "print the report as JSON");
  run->add_option("--record", ro->record, "write the world command log (SCLG, docs/squad-maps.md) to this file");
  run->add_option("--replay", ro->replay,
                  "replay a world command log or an older SQIL input log (its seed and length) instead of the script")
      ->excludes(seconds)
      ->excludes(seed);
  run->callback([ro, run_json, &outcome] { outcome.exit_code = squad_run(*ro, *run_json); });

  auto maps = std::make_shared<std::vector<std::string>>();
  auto check_json = std::make_shared<bool>(false);
  auto* check = cmd->add_subcommand("check", "Check map files; file:line diagnostics, exit 1 on the first broken map");
  check->add_option("maps", *maps, "map files")->required();
  check->add_flag("--json", *check_json, "print the results as JSON");
  check->callback([maps, check_json, &outcome] { outcome.exit_code = squad_check(*maps, *check_json); });
});

}  // namespace sortie::cli
