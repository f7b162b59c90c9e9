// `sortie serve [GAME_DIR] --mission M --port P [--ticks N]`: a headless authoritative server for
// networked play over ENet (docs/net-protocol.md). The session loop is net::ServeSession; the
// hosted mission and the report come from net/session_report.hpp.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_game.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/cli/report.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/net/serve_mission.hpp"
#include "sortie/net/session_report.hpp"

namespace sortie::cli {
namespace {

struct ServeCliOptions {
  net::ServeOptions net;
  std::string game_dir;
  std::string mission;
  std::uint64_t seed = 1;
  std::uint32_t max_players = 64;
  std::uint64_t resource_max_delay_ms = 10'000;
  std::string policy = "transfer";
  std::string log;
  std::string trace_dir;
  std::string sample = "demo";
  std::vector<std::string> trace;
  bool no_bot = false;
  bool no_scenario = false;
  bool json = false;
};

int serve_main(ServeCliOptions o) {
  net::ServeMissionRequest rq;
  rq.source = {o.game_dir, sample_scale_from(o.sample), {}};
  rq.mission = o.mission;
  rq.seed = o.seed;
  rq.net = o.net;
  rq.net.server.max_players = o.max_players;
  rq.net.server.resource_max_delay_us = o.resource_max_delay_ms * 1000;
  rq.net.server.leave_policy = o.policy == "remove" ? net::OwnedObjectPolicy::remove : net::OwnedObjectPolicy::transfer;
  rq.net.server.session_id = o.seed;
  rq.net.bot = !o.no_bot;
  rq.net.bot_seed = o.seed;
  rq.net.trace_dir = o.trace_dir;
  rq.scenario = !o.no_scenario;
  rq.trace = o.trace;
  rq.log = o.log;
  rq.on_listening = [&](std::string_view address) {
    (o.json ? std::cerr : std::cout) << "listening on " << address << std::endl;
  };
  rq.on_hosted = [&](const net::SessionSetup& setup, std::uint64_t hash) {
    if (!o.json)
      std::cout << "session: " << setup.mission_path << " (" << setup.objects.size() << " objects), setup hash "
                << core::hash_hex(hash) << std::endl;
  };
  net::ServedMission served = net::serve_mission(rq);
  if (served.failure) {
    switch (served.failed_at) {
      case net::ServeStage::open:
        return fail_with(*served.failure, o.json);
      case net::ServeStage::listen:
      case net::ServeStage::write:
        return fail_with(*served.failure, o.json, kExitUsage);
      case net::ServeStage::session:
        return fail_with(*served.failure, o.json, kExitInvalid);
      case net::ServeStage::transport:
        print_error(*served.failure);
        return kExitUsage;
    }
  }
  if (o.json) {
    print_json(net::serve_report_json(*served.session, served.setup));
  } else {
    std::cout << net::serve_report_text(*served.session);
  }
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(serve, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<ServeCliOptions>();
  auto* cmd = root.add_subcommand("serve", "Run a headless authoritative server for networked play (ENet)");
  cmd->footer(
      "Loads the mission the way `sortie run` does (without GAME_DIR: the embedded sample), listens\n"
      "on BIND:PORT (UDP) and runs N ticks of 16 ms in real time; clients may join at any time and\n"
      "catch up. A host bot orders the mission's units around (--no-bot to keep them still). After the\n"
      "last tick it waits (--linger-ms, --linger-idle-ms) until every client has it, drops those that\n"
      "do not, runs one closing tick when a player was lost after the last tick, ends the session and\n"
      "prints its traffic, tick times and the final state hash, which every client prints too.\n"
      "--log writes the message log for `sortie replay`; --trace-dir writes resnet.log and NetWatch.log.\n"
      "A mission with a scenario (docs/mission-scripts.md) plays it on the server, as `sortie run` does: its\n"
      "script and SuperAI give the orders (no host bot), clients follow its effects, and the game ends at\n"
      "the outcome or the tick limit; the report lists the objectives and the result. --no-scenario plays\n"
      "without it; --trace writes trace channels (docs/traces.md) as <channel>.log into --trace-dir, every\n"
      "line stamped with the tick: the scenario's, the world queue's, the movement stack's (behavior,\n"
      "wizard, control), players' network orders (input) and the start-up and teardown (lifecycle).\n"
      "The server starts through the program bootstrap (archives, mission, transport, session, world,\n"
      "scenario): a failure at start-up (a missing mission, a port in use) stops what started, in reverse.\n\n"
      "Examples:\n  sortie serve --port 7777 --ticks 600\n"
      "  sortie serve /games/parkan --mission m03 --port 7777 --log session.snlg --trace-dir traces --trace lua\n");
  add_game_options(cmd, o->game_dir, o->mission);
  add_number(cmd, "--port,-p", o->net.port, "UDP port (0: any free port, printed)")->default_str("7777");
  cmd->add_option("--bind", o->net.bind, "address to listen on (0.0.0.0: every interface)")->default_str("127.0.0.1");
  add_number(cmd, "--ticks,-n", o->net.ticks, "calculation ticks to run", std::uint64_t{0}, net::kMaxSessionTicks)
      ->default_str("600");
  add_number(cmd, "--seed", o->seed, "world and bot seed")->default_str("1");
  add_number(cmd, "--wait-players", o->net.wait_players, "players to wait for before the first tick", 0u, 255u)
      ->default_str("0");
  add_number(cmd, "--max-players", o->max_players, "players in the session at once", 1u, 1000u)->default_str("64");
  add_number(cmd, "--linger-ms", o->net.linger_ms, "how long to wait for clients after the last tick", std::uint64_t{0},
             std::uint64_t{3'600'000})
      ->default_str("10000");
  add_number(cmd, "--linger-idle-ms", o->net.linger_idle_ms,
             "stop waiting for clients after the last tick when none made progress for this long", std::uint64_t{0},
             std::uint64_t{3'600'000})
      ->default_str("2000");
  add_number(cmd, "--resource-max-delay", o->resource_max_delay_ms,
             "Network_ResourceTransferMaxDelay in ms: a client's setup must be confirmed within it", std::uint64_t{1},
             std::uint64_t{3'600'000})
      ->default_str("10000");
  cmd->add_option("--policy", o->policy, "what a leaving player's objects become: transfer or remove")
      ->check(CLI::IsMember({"transfer", "remove"}))
      ->default_str("transfer");
  cmd->add_option("--log", o->log, "write the message log here (for `sortie replay`)");
  cmd->add_option("--trace-dir", o->trace_dir, "write resnet.log and NetWatch.log into this directory");
  cmd->add_option("--trace", o->trace,
                  "trace channels to write as <channel>.log into --trace-dir (docs/traces.md: lifecycle, queue, "
                  "behavior, wizard, control, input, lua, ai, superai, scenario, fx, all)")
      ->delimiter(',');
  cmd->add_flag("--no-scenario", o->no_scenario, "do not play the mission's scenario (the host bot orders instead)");
  add_sample_option(cmd, o->sample);
  cmd->add_flag("--fast", o->net.fast, "tick as fast as possible instead of in real time");
  cmd->add_flag("--no-bot", o->no_bot, "give no orders to the mission's units");
  cmd->add_flag("--json", o->json, "print the result as JSON");
  cmd->callback([o, &outcome] { outcome.exit_code = serve_main(*o); });
});

}  // namespace sortie::cli
