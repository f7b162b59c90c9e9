// Networked play over ENet (docs/net-protocol.md):
//   sortie serve [GAME_DIR] --mission M --port P [--ticks N]   headless authoritative server
//   sortie join HOST:PORT --name NAME [--ticks N]              headless client
//   sortie replay LOG                                          rebuild a recorded session
// Each prints the world state hash at the end; a server and its clients print the same one.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "cli_game.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/net/bots.hpp"
#include "sortie/net/client.hpp"
#include "sortie/net/enet_transport.hpp"
#include "sortie/net/message_log.hpp"
#include "sortie/net/server.hpp"
#include "sortie/net/udp_relay.hpp"

namespace sortie::cli {
namespace {

constexpr std::uint64_t kMaxNetTicks = 1'000'000'000;

int fail_with(const core::Diagnostic& d, bool json, int code) {
  if (json) print_json(core::Json{{"ok", false}, {"error", d.to_json()}});
  print_error(d);
  return code;
}

core::Status save_outputs(const std::string& log_path, const core::Bytes& log, net::FileTrace* trace) {
  if (!log_path.empty()) SORTIE_CHECK(core::write_file_atomic(log_path, log));
  if (trace != nullptr) SORTIE_CHECK(trace->save());
  return {};
}

// ---------------------------------------------------------------- serve

struct ServeOptions {
  std::string game_dir;
  std::string mission;
  std::string bind = "127.0.0.1";
  std::uint16_t port = 7777;
  std::uint64_t ticks = 600;
  std::uint64_t seed = 1;
  std::uint32_t wait_players = 0;
  std::uint32_t max_players = 64;
  std::uint64_t linger_ms = 10'000;
  std::uint64_t resource_max_delay_ms = 10'000;
  std::string policy = "transfer";
  std::string log;
  std::string trace_dir;
  std::string sample = "demo";
  bool fast = false;
  bool no_bot = false;
  bool json = false;
};

// The session's setup from a mission loaded the engine's way.
core::Result<net::SessionSetup> mission_setup(const ServeOptions& o) {
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
  return net::capture_setup(*loaded->world, o.seed, report.mission, std::move(terrain));
}

int serve_main(const ServeOptions& o) {
  using Clock = std::chrono::steady_clock;
  auto setup = mission_setup(o);
  if (!setup) return fail_with(setup.error(), o.json, exit_code_for(setup.error()));
  auto transport = net::EnetTransport::listen(o.bind, o.port, net::EnetOptions{o.max_players + 16u});
  if (!transport) return fail_with(transport.error(), o.json, kExitUsage);
  const std::string where = fmt::format("{}:{}", o.bind, (*transport)->port());
  (o.json ? std::cerr : std::cout) << "listening on " << where << std::endl;

  net::ServerConfig config;
  config.max_players = o.max_players;
  config.resource_max_delay_us = o.resource_max_delay_ms * 1000;
  config.leave_policy = o.policy == "remove" ? net::OwnedObjectPolicy::remove : net::OwnedObjectPolicy::transfer;
  config.session_id = o.seed;
  world::SteadyPlatformClock clock;
  std::unique_ptr<net::FileTrace> trace;
  if (!o.trace_dir.empty()) trace = std::make_unique<net::FileTrace>(o.trace_dir);
  auto server = net::Server::host(**transport, *setup, config, clock, trace.get());
  if (!server) return fail_with(server.error(), o.json, kExitInvalid);
  net::Server& s = **server;
  net::BotOptions bo;
  bo.seed = o.seed;
  net::HostBot bot(bo);
  if (!o.json) {
    std::cout << fmt::format("session: {} ({} objects), setup hash {}\n", setup->mission_path, setup->objects.size(),
                             core::hash_hex(s.replica().state_hash()))
              << std::flush;
  }
  auto check = [&](const core::Status& st) {
    if (!st) print_error(st.error());
    return st.has_value();
  };
  // Lobby: wait for the players asked for.
  while (o.wait_players > 0) {
    std::size_t ready = 0;
    for (const auto& p : s.peers()) ready += p.stage == net::PeerStage::ready ? 1 : 0;
    if (ready >= o.wait_players) break;
    if (!check(s.poll(10))) return kExitUsage;
  }
  // The game: one tick per step of real time (or as fast as possible with --fast).
  const auto step = std::chrono::microseconds(setup->step_us);
  auto next = Clock::now();
  for (std::uint64_t t = 0; t < o.ticks; ++t) {
    for (;;) {
      const auto now = Clock::now();
      if (o.fast || now >= next) break;
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count();
      if (!check(s.poll(static_cast<std::uint32_t>(std::clamp<long long>(wait, 0, 16))))) return kExitUsage;
    }
    if (!check(s.poll(0))) return kExitUsage;
    if (!o.no_bot && !check(bot.step(s))) return kExitInvalid;
    if (!check(s.run_tick())) return kExitInvalid;
    next += step;
  }
  // Linger until every client has the last tick (late joiners catch up meanwhile); with nobody
  // connected, a second is enough.
  const auto linger_start = Clock::now();
  for (;;) {
    const auto elapsed = Clock::now() - linger_start;
    const bool anyone = s.connected_peers() > 0;
    if (elapsed >= std::chrono::milliseconds(o.linger_ms)) break;
    if (anyone && s.clients_caught_up(o.ticks)) break;
    if (!anyone && elapsed >= std::chrono::seconds(1)) break;
    if (!check(s.poll(10))) return kExitUsage;
  }
  s.finish();
  const auto drain_end = Clock::now() + std::chrono::milliseconds(300);
  while (Clock::now() < drain_end && s.connected_peers() > 0) (void)s.poll(10);

  const std::uint64_t hash = s.replica().state_hash();
  if (auto st = save_outputs(o.log, s.message_log(), trace.get()); !st)
    return fail_with(st.error(), o.json, kExitUsage);
  core::Json departures = core::Json::array();
  for (const auto& d : s.departures()) {
    departures.push_back({{"peer", d.peer},
                          {"player", d.player},
                          {"reason", std::string(net::to_string(d.reason))},
                          {"detail", d.detail},
                          {"tick", d.tick},
                          {"objects", d.objects}});
  }
  if (o.json) {
    print_json(core::Json{{"ok", true},
                          {"address", where},
                          {"mission", setup->mission_path},
                          {"ticks", s.ticks()},
                          {"objects", s.world().live_count()},
                          {"players", s.replica().players().size()},
                          {"orders_accepted", s.stats().orders_accepted},
                          {"orders_rejected", s.stats().orders_rejected},
                          {"departures", departures},
                          {"final_hash", core::hash_hex(hash)}});
  } else {
    for (const auto& d : s.departures()) {
      std::cout << fmt::format("player {} left at tick {}: {} ({} objects)\n", d.player, d.tick,
                               net::to_string(d.reason), d.objects);
    }
    std::cout << fmt::format("ran {} ticks, {} objects, {} players joined\n", s.ticks(), s.world().live_count(),
                             s.replica().players().size() - 1);
    std::cout << "final state hash: " << core::hash_hex(hash) << "\n";
  }
  return kExitOk;
}

// ---------------------------------------------------------------- join

struct JoinOptions {
  std::string address;
  std::string name;
  std::uint64_t ticks = 0;
  std::uint64_t seed = 1;
  std::string lossy;
  std::uint64_t timeout_ms = 10'000;
  std::string log;
  std::string trace_dir;
  bool no_bot = false;
  bool json = false;
};

int join_main(const JoinOptions& o) {
  using Clock = std::chrono::steady_clock;
  auto hp = net::parse_host_port(o.address);
  if (!hp) return fail_with(hp.error(), o.json, kExitUsage);
  world::SteadyPlatformClock clock;
  std::unique_ptr<net::UdpRelay> relay;
  std::string host = hp->first;
  std::uint16_t port = hp->second;
  if (!o.lossy.empty()) {
    auto spec = net::parse_loss_spec(o.lossy);
    if (!spec) return fail_with(spec.error(), o.json, kExitUsage);
    auto r = net::UdpRelay::open(host, port, *spec, o.seed, clock);
    if (!r) return fail_with(r.error(), o.json, kExitUsage);
    relay = std::move(*r);
    host = "127.0.0.1";
    port = relay->port();
  }
  auto transport = net::EnetTransport::connect(host, port);
  if (!transport) return fail_with(transport.error(), o.json, kExitUsage);
  std::unique_ptr<net::FileTrace> trace;
  if (!o.trace_dir.empty()) trace = std::make_unique<net::FileTrace>(o.trace_dir);
  net::ClientConfig config;
  config.name = o.name;
  config.stop_after_ticks = o.ticks;
  config.record = !o.log.empty();
  auto client = net::Client::join(**transport, config, clock, trace.get());
  if (!client) return fail_with(client.error(), o.json, kExitUsage);
  net::Client& c = **client;
  net::BotOptions bo;
  bo.seed = o.seed ^ core::hash64(o.name);
  net::ClientBot bot(bo);
  const auto started = Clock::now();
  core::Status st;
  while (c.state() != net::ClientState::closed && !c.done()) {
    if (relay) relay->pump();
    st = c.poll(relay ? 1 : 5);
    if (relay) relay->pump();
    if (!st) break;
    if (!o.no_bot && c.state() == net::ClientState::in_game) {
      if (auto b = bot.step(c); !b) print_error(b.error());
    }
    if ((c.state() == net::ClientState::connecting || c.state() == net::ClientState::joining) &&
        Clock::now() - started > std::chrono::milliseconds(o.timeout_ms)) {
      return fail_with(core::Diagnostic::error("join.timeout", "no answer from the server")
                           .expect(fmt::format("a session within {} ms", o.timeout_ms), o.address),
                       o.json, kExitUsage);
    }
  }
  const bool finished = c.done() || (o.ticks == 0 && c.closed_reason() == net::Reason::session_end);
  if (!finished) {
    const core::Diagnostic d =
        c.error() ? *c.error() : core::Diagnostic::error("join.closed", "the session ended early");
    return fail_with(d, o.json, c.state() == net::ClientState::connecting ? kExitUsage : kExitInvalid);
  }
  const std::uint64_t hash = c.replica()->state_hash();
  const std::uint64_t ticks = c.ticks();
  c.leave();
  const auto drain_end = Clock::now() + std::chrono::milliseconds(100);
  while (Clock::now() < drain_end) {
    std::vector<net::TransportEvent> ignored;
    (void)(*transport)->poll(5, ignored);
    if (relay) relay->pump();
  }
  if (auto s = save_outputs(o.log, c.message_log(), trace.get()); !s) return fail_with(s.error(), o.json, kExitUsage);
  if (o.json) {
    core::Json j{{"ok", true},
                 {"player", c.player()},
                 {"ticks", ticks},
                 {"joined_at_tick", c.live_tick()},
                 {"orders", bot.orders_sent()},
                 {"sync_applied", c.stats().sync_applied},
                 {"sync_verified", c.stats().sync_verified},
                 {"sync_mismatches", c.stats().sync_mismatches},
                 {"final_hash", core::hash_hex(hash)}};
    if (relay) {
      const auto rs = relay->stats();
      j["relay"] = {{"datagrams", rs.datagrams_in},
                    {"dropped", rs.dropped},
                    {"duplicated", rs.duplicated},
                    {"held_back", rs.held_back}};
    }
    print_json(j);
  } else {
    std::cout << fmt::format(
        "player {} joined at tick {}, followed {} ticks ({} orders, {} sync entries checked, {} "
        "mismatches)\n",
        c.player(), c.live_tick(), ticks, bot.orders_sent(), c.stats().sync_verified, c.stats().sync_mismatches);
    std::cout << "final state hash: " << core::hash_hex(hash) << "\n";
  }
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
      "last tick it waits (--linger-ms) until every client has it, then ends the session and prints\n"
      "the final state hash, which every client prints too. --log writes the message log for\n"
      "`sortie replay`; --trace-dir writes resnet.log and NetWatch.log.\n\n"
      "Examples:\n  sortie serve --port 7777 --ticks 600\n"
      "  sortie serve /games/parkan --mission m03 --port 7777 --log session.snlg --trace-dir traces\n");
  add_game_options(cmd, o->game_dir, o->mission);
  add_number(cmd, "--port,-p", o->port, "UDP port (0: any free port, printed)")->default_str("7777");
  cmd->add_option("--bind", o->bind, "address to listen on (0.0.0.0: every interface)")->default_str("127.0.0.1");
  add_number(cmd, "--ticks,-n", o->ticks, "calculation ticks to run", std::uint64_t{0}, kMaxNetTicks)
      ->default_str("600");
  add_number(cmd, "--seed", o->seed, "world and bot seed")->default_str("1");
  add_number(cmd, "--wait-players", o->wait_players, "players to wait for before the first tick", 0u, 255u)
      ->default_str("0");
  add_number(cmd, "--max-players", o->max_players, "players in the session at once", 1u, 1000u)->default_str("64");
  add_number(cmd, "--linger-ms", o->linger_ms, "how long to wait for clients after the last tick", std::uint64_t{0},
             std::uint64_t{3'600'000})
      ->default_str("10000");
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
  cmd->add_flag("--fast", o->fast, "tick as fast as possible instead of in real time");
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
      "(drops, duplicates, held-back datagrams, delay); ENet recovers and the hash stays the server's.\n"
      "Exit 1 on a desync or a refused session, 2 when the server cannot be reached.\n\n"
      "Examples:\n  sortie join 127.0.0.1:7777 --name alice --ticks 600\n"
      "  sortie join 127.0.0.1:7777 --name bob --ticks 600 --lossy drop=0.1,dup=0.05,reorder=0.1,delay=20ms\n");
  cmd->add_option("address", o->address, "server HOST:PORT")->required();
  cmd->add_option("--name", o->name, "player name (1..32 bytes)")->required();
  add_number(cmd, "--ticks,-n", o->ticks, "ticks to follow (0: until the server ends the session)", std::uint64_t{0},
             kMaxNetTicks)
      ->default_str("0");
  add_number(cmd, "--seed", o->seed, "bot and lossy-link seed")->default_str("1");
  cmd->add_option("--lossy", o->lossy, "lossy link: drop=P,dup=P,reorder=P,delay=D,jitter=D,hold=D");
  add_number(cmd, "--timeout-ms", o->timeout_ms, "give up when no session starts within this", std::uint64_t{1},
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
