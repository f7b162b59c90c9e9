// Networked play over ENet (docs/net-protocol.md):
//   sortie serve [GAME_DIR] --mission M --port P [--ticks N]   headless authoritative server
//   sortie join HOST:PORT --name NAME [--ticks N]              headless client
//   sortie replay LOG                                          rebuild a recorded session
// Each prints the world state hash at the end; a server and its clients print the same one.
// The session loops are libs/net's (net::ServeSession, net::JoinSession; the viewer's join too).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_game.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/net/join_session.hpp"
#include "sortie/net/message_log.hpp"
#include "sortie/net/serve_session.hpp"

namespace sortie::cli {
namespace {

constexpr std::uint64_t kMaxNetTicks = 1'000'000'000;

int fail_with(const core::Diagnostic& d, bool json, int code) {
  if (json) print_json(core::Json{{"ok", false}, {"error", d.to_json()}});
  print_error(d);
  return code;
}

// ---------------------------------------------------------------- serve

struct ServeOptions {
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
  bool no_bot = false;
  bool json = false;
};

// The session's setup from a mission loaded the engine's way, and the bodies its units get
// before the first tick (as in `sortie run`).
core::Result<net::SessionSetup> mission_setup(const ServeOptions& o, std::vector<world::Command>& start) {
  SORTIE_TRY(auto game, open_game_or_sample(o.game_dir, sample_scale_from(o.sample), o.mission));
  mission::GameContext& context = game.context;
  mission::MissionLoadOptions lo;
  lo.world.seed = o.seed;
  SORTIE_TRY(const auto report, context.load(game.mission, lo));
  if (!report.ok) {
    return core::fail(report.failures.empty() ? core::Diagnostic::error("serve.load", "the mission did not load")
                                              : report.failures.front());
  }
  const mission::LoadedMission* loaded = context.current();
  const assets::MissionData* data = loaded != nullptr ? loaded->data.get() : nullptr;
  if (data == nullptr || !loaded->world) {
    return core::fail(core::Diagnostic::error("serve.load", "the mission loaded without a world"));
  }
  std::optional<nav::TriangleSoup> terrain;
  if (!data->land_msh.faces.empty()) terrain = nav::triangle_soup_from(data->land_msh);
  net::SessionMovement movement;
  if (!data->land_map.areals.empty()) movement.areals = data->land_map;
  if (loaded->movement) movement.params = loaded->movement->params;
  start = mission::movement_start_commands(*loaded, mission::ScenarioOptions{}, 0);
  return net::capture_setup(*loaded->world, o.seed, report.mission, std::move(terrain), std::move(movement));
}

core::Json server_traffic_json(const net::ServerStats& st, const net::TransportStats& udp) {
  return core::Json{{"packets_in", st.packets_in},         {"bytes_in", st.bytes_in},
                    {"messages_in", st.messages_in},       {"packets_out", st.packets_out},
                    {"bytes_out", st.bytes_out},           {"messages_out", st.messages_out},
                    {"catch_up_bytes", st.catch_up_bytes}, {"sync_bytes", st.sync_bytes},
                    {"udp_bytes_in", udp.bytes_received},  {"udp_bytes_out", udp.bytes_sent}};
}

int serve_main(ServeOptions o) {
  std::vector<world::Command> start;
  auto setup = mission_setup(o, start);
  if (!setup) return fail_with(setup.error(), o.json, exit_code_for(setup.error()));
  o.net.server.max_players = o.max_players;
  o.net.server.resource_max_delay_us = o.resource_max_delay_ms * 1000;
  o.net.server.leave_policy = o.policy == "remove" ? net::OwnedObjectPolicy::remove : net::OwnedObjectPolicy::transfer;
  o.net.server.session_id = o.seed;
  o.net.bot = !o.no_bot;
  o.net.bot_seed = o.seed;
  o.net.trace_dir = o.trace_dir;
  auto session = net::ServeSession::listen(o.net);
  if (!session) return fail_with(session.error(), o.json, kExitUsage);
  const std::string where = (*session)->address();
  (o.json ? std::cerr : std::cout) << "listening on " << where << std::endl;
  if (auto st = (*session)->host(*setup); !st) return fail_with(st.error(), o.json, kExitInvalid);
  net::Server& s = (*session)->server();
  // The units' movement bodies, exactly as `sortie run` gives them before its first tick.
  for (const world::Command& c : start) {
    if (auto st = s.submit(c); !st) return fail_with(st.error(), o.json, kExitInvalid);
  }
  if (!o.json) {
    std::cout << fmt::format("session: {} ({} objects), setup hash {}\n", setup->mission_path, setup->objects.size(),
                             core::hash_hex(s.replica().state_hash()))
              << std::flush;
  }
  if (auto run = (*session)->run(); !run) {
    print_error(run.error().diagnostic);
    return run.error().transport ? kExitUsage : kExitInvalid;
  }
  const std::uint64_t hash = s.replica().state_hash();
  if (auto st = (*session)->save(o.log); !st) return fail_with(st.error(), o.json, kExitUsage);
  const net::ServerStats& st = s.stats();
  const net::TransportStats udp = (*session)->transport_stats();
  if (o.json) {
    core::Json departures = core::Json::array();
    for (const auto& d : s.departures()) {
      departures.push_back({{"peer", d.peer},
                            {"player", d.player},
                            {"reason", std::string(net::to_string(d.reason))},
                            {"detail", d.detail},
                            {"tick", d.tick},
                            {"objects", d.objects}});
    }
    print_json(core::Json{{"ok", true},
                          {"address", where},
                          {"mission", setup->mission_path},
                          {"ticks", s.ticks()},
                          {"objects", s.world().live_count()},
                          {"players", s.replica().players().size()},
                          {"closing_tick", (*session)->closing_tick()},
                          {"orders_accepted", st.orders_accepted},
                          {"orders_rejected", st.orders_rejected},
                          {"departures", departures},
                          {"traffic", server_traffic_json(st, udp)},
                          {"tick_us",
                           {{"count", st.tick_times.count()},
                            {"mean", st.tick_times.mean_us()},
                            {"p99", st.tick_times.quantile_us(0.99)},
                            {"max", st.tick_times.max_us()}}},
                          {"final_hash", core::hash_hex(hash)}});
    return kExitOk;
  }
  for (const auto& d : s.departures()) {
    std::cout << fmt::format("player {} left at tick {}: {} ({} objects)\n", d.player, d.tick, net::to_string(d.reason),
                             d.objects);
  }
  std::cout << fmt::format(
      "ran {} ticks{}, {} objects, {} players joined\n", s.ticks(),
      (*session)->closing_tick() ? " (the last one a closing tick for players lost after the end)" : "",
      s.world().live_count(), s.replica().players().size() - 1);
  std::cout << fmt::format(
      "traffic: in {} messages, {} bytes; out {} messages, {} bytes ({} of setup and catch-up); UDP in {} out {} "
      "bytes\n",
      st.messages_in, st.bytes_in, st.messages_out, st.bytes_out, st.catch_up_bytes, udp.bytes_received,
      udp.bytes_sent);
  std::cout << fmt::format("tick time: mean {:.0f} us, p99 {} us, max {} us\n", st.tick_times.mean_us(),
                           st.tick_times.quantile_us(0.99), st.tick_times.max_us());
  std::cout << "final state hash: " << core::hash_hex(hash) << "\n";
  return kExitOk;
}

// ---------------------------------------------------------------- join

struct JoinOptions {
  net::JoinOptions net;
  std::string log;
  std::string trace_dir;
  bool no_bot = false;
  bool json = false;
};

int join_main(JoinOptions o) {
  o.net.bot = !o.no_bot;
  o.net.record = !o.log.empty();
  o.net.trace_dir = o.trace_dir;
  o.net.warn = [](const core::Diagnostic& d) { print_error(d); };
  auto session = net::JoinSession::connect(o.net);
  if (!session) return fail_with(session.error(), o.json, kExitUsage);
  net::JoinSession& j = **session;
  const net::Client& c = j.client();
  auto hash = j.finish();
  // The log and the trace are written on failure too: that is when they are needed.
  auto saved = j.save(o.log);
  if (!hash) {
    if (!saved) print_error(saved.error());
    const bool io = hash.error().code == "join.timeout" || c.state() == net::ClientState::connecting;
    return fail_with(hash.error(), o.json, io ? kExitUsage : kExitInvalid);
  }
  if (!saved) return fail_with(saved.error(), o.json, kExitUsage);
  const net::ClientStats& cs = c.stats();
  const net::TransportStats udp = j.transport_stats();
  if (o.json) {
    core::Json out{{"ok", true},
                   {"player", c.player()},
                   {"ticks", c.ticks()},
                   {"joined_at_tick", c.live_tick()},
                   {"orders", j.orders_sent()},
                   {"sync_applied", cs.sync_applied},
                   {"sync_verified", cs.sync_verified},
                   {"sync_mismatches", cs.sync_mismatches},
                   {"traffic",
                    {{"packets_in", cs.packets_in},
                     {"bytes_in", cs.bytes_in},
                     {"messages_in", cs.messages_in},
                     {"messages_out", cs.messages_out},
                     {"bytes_out", cs.bytes_out},
                     {"acks_out", cs.acks_sent},
                     {"udp_bytes_in", udp.bytes_received},
                     {"udp_bytes_out", udp.bytes_sent}}},
                   {"final_hash", core::hash_hex(*hash)}};
    if (j.relay() != nullptr) {
      const auto rs = j.relay()->stats();
      out["relay"] = {{"datagrams", rs.datagrams_in},
                      {"dropped", rs.dropped},
                      {"duplicated", rs.duplicated},
                      {"held_back", rs.held_back}};
    }
    print_json(out);
    return kExitOk;
  }
  std::cout << fmt::format(
      "player {} joined at tick {}, followed {} ticks ({} orders, {} sync entries checked, {} mismatches)\n",
      c.player(), c.live_tick(), c.ticks(), j.orders_sent(), cs.sync_verified, cs.sync_mismatches);
  std::cout << fmt::format(
      "traffic: in {} messages, {} bytes; out {} messages ({} acks), {} bytes; UDP in {} out {} bytes\n",
      cs.messages_in, cs.bytes_in, cs.messages_out, cs.acks_sent, cs.bytes_out, udp.bytes_received, udp.bytes_sent);
  std::cout << "final state hash: " << core::hash_hex(*hash) << "\n";
  return kExitOk;
}

// ---------------------------------------------------------------- replay

int replay_main(const std::string& path, bool json) {
  auto bytes = core::read_file(path);
  if (!bytes) return fail_with(bytes.error(), json, kExitUsage);
  auto log = net::read_message_log(*bytes);
  if (!log) return fail_with(std::move(log.error()).of(path), json, kExitInvalid);
  auto outcome = net::replay_message_log(*log);
  if (!outcome) return fail_with(std::move(outcome.error()).of(path), json, kExitInvalid);
  if (json) {
    print_json(core::Json{{"ok", true},
                          {"mission", outcome->mission_path},
                          {"ticks", outcome->ticks},
                          {"objects", outcome->objects},
                          {"players", outcome->players},
                          {"final_hash", core::hash_hex(outcome->final_hash)}});
  } else {
    std::cout << fmt::format("replayed {} ticks of {} ({} objects, {} players)\n", outcome->ticks,
                             outcome->mission_path, outcome->objects, outcome->players);
    std::cout << "final state hash: " << core::hash_hex(outcome->final_hash) << "\n";
  }
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(serve, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<ServeOptions>();
  auto* cmd = root.add_subcommand("serve", "Run a headless authoritative server for networked play (ENet)");
  cmd->footer(
      "Loads the mission the way `sortie run` does (without GAME_DIR: the embedded sample), listens\n"
      "on BIND:PORT (UDP) and runs N ticks of 16 ms in real time; clients may join at any time and\n"
      "catch up. A host bot orders the mission's units around (--no-bot to keep them still). After the\n"
      "last tick it waits (--linger-ms, --linger-idle-ms) until every client has it, drops those that\n"
      "do not, runs one closing tick when a player was lost after the last tick, ends the session and\n"
      "prints its traffic, tick times and the final state hash, which every client prints too.\n"
      "--log writes the message log for `sortie replay`; --trace-dir writes resnet.log and NetWatch.log.\n\n"
      "Examples:\n  sortie serve --port 7777 --ticks 600\n"
      "  sortie serve /games/parkan --mission m03 --port 7777 --log session.snlg --trace-dir traces\n");
  add_game_options(cmd, o->game_dir, o->mission);
  add_number(cmd, "--port,-p", o->net.port, "UDP port (0: any free port, printed)")->default_str("7777");
  cmd->add_option("--bind", o->net.bind, "address to listen on (0.0.0.0: every interface)")->default_str("127.0.0.1");
  add_number(cmd, "--ticks,-n", o->net.ticks, "calculation ticks to run", std::uint64_t{0}, kMaxNetTicks)
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
  add_sample_option(cmd, o->sample);
  cmd->add_flag("--fast", o->net.fast, "tick as fast as possible instead of in real time");
  cmd->add_flag("--no-bot", o->no_bot, "give no orders to the mission's units");
  cmd->add_flag("--json", o->json, "print the result as JSON");
  cmd->callback([o, &outcome] { outcome.exit_code = serve_main(*o); });
});

SORTIE_COMMAND(join, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<JoinOptions>();
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
             std::uint64_t{0}, kMaxNetTicks)
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

SORTIE_COMMAND(replay, [](CLI::App& root, Outcome& outcome) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = root.add_subcommand("replay", "Rebuild a recorded network session and print its final state hash");
  cmd->footer(
      "Reads a message log written by `sortie serve --log` (or `sortie join --log`), builds the world\n"
      "from its setup and runs every tick sequence, checking the recorded state hash after each tick.\n"
      "Exit 1 when the log is invalid or a hash differs.\n\nExample:\n  sortie replay session.snlg\n");
  cmd->add_option("log", *path, "message log")->required();
  cmd->add_flag("--json", *json, "print the result as JSON");
  cmd->callback([path, json, &outcome] { outcome.exit_code = replay_main(*path, *json); });
});

}  // namespace sortie::cli
