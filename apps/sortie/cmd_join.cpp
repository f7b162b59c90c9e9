// `sortie join HOST:PORT --name NAME [--ticks N]`: a headless client of a `sortie serve` session
// (docs/net-protocol.md). The session loop is net::JoinSession; the report is
// net/session_report.hpp's.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/cli/report.hpp"
#include "sortie/net/session_report.hpp"

namespace sortie::cli {
namespace {

struct JoinCliOptions {
  net::JoinOptions net;
  std::string log;
  std::string trace_dir;
  bool no_bot = false;
  bool json = false;
};

int join_main(JoinCliOptions o) {
  o.net.bot = !o.no_bot;
  o.net.record = !o.log.empty();
  o.net.trace_dir = o.trace_dir;
  o.net.warn = [](const core::Diagnostic& d) { print_error(d); };
  auto session = net::JoinSession::connect(o.net);
  if (!session) return fail_with(session.error(), o.json, kExitUsage);
  net::JoinSession& j = **session;
  auto hash = j.finish();
  // The log and the trace are written on failure too: that is when they are needed.
  auto saved = j.save(o.log);
  if (!hash) {
    if (!saved) print_error(saved.error());
    const bool io = hash.error().code == "join.timeout" || j.client().state() == net::ClientState::connecting;
    return fail_with(hash.error(), o.json, io ? kExitUsage : kExitInvalid);
  }
  if (!saved) return fail_with(saved.error(), o.json, kExitUsage);
  if (o.json) {
    print_json(net::join_report_json(j, *hash));
  } else {
    std::cout << net::join_report_text(j, *hash);
  }
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(join, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<JoinCliOptions>();
  auto* cmd = root.add_subcommand("join", "Join a `sortie serve` session as a headless client (ENet)");
  cmd->footer(
      "Connects to HOST:PORT, builds the server's world from the setup and the tick sequences (catching\n"
      "up when the game already runs), checks its state hash against the server's after every tick, and\n"
      "prints the final state hash after --ticks N ticks (without --ticks: when the server ends the\n"
      "session). A bot spawns two units of its own, takes one of the host's and orders them around\n"
      "(--no-bot: a spectator). --lossy puts a seeded lossy UDP link between this client and the server\n"
      "(drops, duplicates, held-back datagrams, delay); ENet recovers (tested at 30 % loss) and the hash\n"
      "stays the server's. The trace and the log are written when the join fails too.\n"
      "Exit 1 on a desync or a refused session, 2 when the server cannot be reached.\n\n"
      "Examples:\n  sortie join 127.0.0.1:7777 --name alice --ticks 600\n"
      "  sortie join 127.0.0.1:7777 --name bob --ticks 600 --lossy drop=0.1,dup=0.05,reorder=0.1,delay=20ms\n");
  cmd->add_option("address", o->net.address, "server HOST:PORT")->required();
  cmd->add_option("--name", o->net.name, "player name (1..32 bytes)")->required();
  add_number(cmd, "--ticks,-n", o->net.ticks, "ticks to follow (0: until the server ends the session)",
             std::uint64_t{0}, net::kMaxSessionTicks)
      ->default_str("0");
  add_number(cmd, "--seed", o->net.seed, "bot and lossy-link seed")->default_str("1");
  cmd->add_option("--lossy", o->net.lossy, "lossy link: drop=P,dup=P,reorder=P,delay=D,jitter=D,hold=D");
  add_number(cmd, "--timeout-ms", o->net.timeout_ms, "give up when no session starts within this", std::uint64_t{1},
             std::uint64_t{3'600'000})
      ->default_str("10000");
  cmd->add_option("--log", o->log, "write the received stream as a message log (for `sortie replay`)");
  cmd->add_option("--trace-dir", o->trace_dir, "write resnet.log and NetWatch.log into this directory");
  cmd->add_flag("--no-bot", o->no_bot, "give no orders");
  cmd->add_flag("--json", o->json, "print the result as JSON");
  cmd->callback([o, &outcome] { outcome.exit_code = join_main(*o); });
});

}  // namespace sortie::cli
