// Networked play:
//   BM_Codec*               messages per second through the codec (encode + decode);
//   BM_BytesPerClient*      bytes per client per second of game time while 100 mirrored units move
//                           every tick (62.5 ticks/s): END markers every tick, quantised delta sync
//                           states every sync_interval ticks - never full snapshots. In-process
//                           (payload bytes) and over ENet on loopback (UDP payload bytes, ENet's
//                           headers, acknowledgements and pings included). Target: <= 8 KB/s.
//   BM_ClientsPerCore/K     one server thread (pinned to core 0, real time, 16 ms ticks) with the
//                           same 100 moving units and K clients on loopback (a second thread, thin
//                           clients that acknowledge): the server's work per tick, max and p99,
//                           and how many ticks overran the 16 ms step. Target: >= 64 clients.
//   taskset -c 0,1 build/release/bench/bench_net --benchmark_filter=Bytes
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "sortie/mission/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/net/client.hpp"
#include "sortie/net/codec.hpp"
#include "sortie/net/enet_transport.hpp"
#include "sortie/net/memory_transport.hpp"
#include "sortie/net/server.hpp"

using namespace sortie;
using namespace sortie::net;

namespace {

// ---------------------------------------------------------------- codec

std::vector<Message> codec_mix() {
  SyncState sync;
  sync.tick = 1000;
  for (std::uint32_t i = 1; i <= 16; ++i) {
    SyncEntry e;
    e.id = world::ObjectId{1, 20, i};
    e.age = 2;
    e.mask = SyncEntry::kPosX | SyncEntry::kPosY;
    e.delta = {6, -3, 0, 0, 0, 0};
    sync.entries.push_back(e);
  }
  CreateMirror mirror;
  mirror.id = world::ObjectId{1, 20, 7};
  mirror.owner = 1;
  mirror.prototype = "UNITS\\TANKS\\u_006.dat";
  mirror.properties.set("placed_index", std::int64_t{6});
  mirror.properties.set("clan", std::int64_t{1});
  return {EndMessageSeq{1000, 2, 0x1234567890abcdefull},
          TickCommand{1000, move::GotoCommand::kWireId,
                      world::encode_payload(move::GotoCommand{world::ObjectId{1, 20, 3}, {100.0f, 50.0f}, 6.0f})},
          ChangeObjectOwner{1000, world::ObjectId{1, 20, 4}, 3},
          sync,
          mirror,
          Ack{1000, 998}};
}

void BM_CodecEncodeDecode(benchmark::State& state) {
  const std::vector<Message> mix = codec_mix();
  std::size_t bytes = 0;
  for (auto _ : state) {
    for (const Message& m : mix) {
      auto f = encode_message(m);
      auto back = decode_packet(*f);
      benchmark::DoNotOptimize(back);
      bytes += f->size();
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * mix.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_CodecEncodeDecode);

// A tick's sequence as it travels: one packet with a command and the END marker.
void BM_CodecDecodeTickPacket(benchmark::State& state) {
  const std::vector<Message> mix = codec_mix();
  const core::Bytes packet = encode_packet(std::vector<Message>{mix[1], mix[2], mix[0]}).value();
  for (auto _ : state) benchmark::DoNotOptimize(decode_packet(packet, Delivery::reliable_ordered));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 3));
}
BENCHMARK(BM_CodecDecodeTickPacket);

// ---------------------------------------------------------------- the moving-units session

constexpr std::size_t kUnits = 100;
constexpr double kTicksPerSecond = 1e6 / world::kDefaultStepUs;

// 100 units on a 2048 x 2048 ground, each ordered 1000 units away at 6 units/s: all of them
// move on every tick of the measurement.
SessionSetup moving_setup() {
  world::WorldConfig config;
  config.seed = 3;
  world::World w(config);
  std::vector<world::Handle> handles;
  for (std::size_t i = 0; i < kUnits; ++i) {
    core::Transform t;
    t.position = {100.0f + 10.0f * static_cast<float>(i % 10), 100.0f + 10.0f * static_cast<float>(i / 10), 0.0f};
    handles.push_back(
        w.create_object(world::ObjectId{1, mission::class_ids::kTmaUnit, static_cast<std::uint32_t>(i + 1)},
                        "UNITS\\TANKS\\u_006.dat", t)
            .value());
  }
  for (const auto& h : handles) (void)w.add_to_game(h);
  nav::TriangleSoup ground;
  ground.positions = {{0, 0, 0}, {2048, 0, 0}, {2048, 2048, 0}, {0, 2048, 0}};
  ground.faces = {{{0, 1, 2}, 1}, {{0, 2, 3}, 1}};
  return capture_setup(w, 3, "bench", ground).value();
}

void order_all(Server& server) {
  for (std::size_t i = 0; i < kUnits; ++i) {
    const world::ObjectId id{1, mission::class_ids::kTmaUnit, static_cast<std::uint32_t>(i + 1)};
    const float a = static_cast<float>(i) * 0.37f;
    const core::Vec2 goal{1024.0f + 900.0f * (a - static_cast<float>(static_cast<int>(a))) - 450.0f,
                          1900.0f - static_cast<float>(i)};
    if (server.ticks() == 0) {  // a body first, as `sortie run` gives its units
      move::EnableCommand enable;
      enable.target = id;
      enable.radius = 1.5f;
      enable.height = 3.0f;
      enable.max_speed = 6.0f;
      (void)server.submit(world::make_command(0, enable));
    }
    (void)server.submit(world::make_command(0, move::GotoCommand{id, goal, 6.0f}));
  }
}

constexpr std::uint64_t kWarmupTicks = 64;
constexpr std::uint64_t kMeasuredTicks = 625;  // 10 s of game time

void BM_BytesPerClientInProcess(benchmark::State& state) {
  for (auto _ : state) {
    world::ManualPlatformClock clock;
    MemoryNetwork network(clock);
    auto st = network.listen("s").value();
    auto server = Server::host(*st, moving_setup(), {}, clock).value();
    auto ct = network.connect("s").value();
    auto client = Client::join(*ct, ClientConfig{"c"}, clock).value();
    order_all(*server);
    auto step = [&] {
      (void)server->poll();
      (void)server->run_tick();
      clock.advance(world::kDefaultStepUs);
      (void)client->poll();
      (void)server->poll();
    };
    for (std::uint64_t t = 0; t < kWarmupTicks; ++t) step();
    const std::uint64_t bytes0 = st->stats().bytes_sent;
    const std::uint64_t sync0 = server->stats().sync_bytes;
    for (std::uint64_t t = 0; t < kMeasuredTicks; ++t) step();
    const double seconds = static_cast<double>(kMeasuredTicks) / kTicksPerSecond;
    state.counters["bytes_per_client_per_s"] = static_cast<double>(st->stats().bytes_sent - bytes0) / seconds;
    state.counters["sync_bytes_per_s"] = static_cast<double>(server->stats().sync_bytes - sync0) / seconds;
    state.counters["moving_units"] = static_cast<double>(kUnits);
    state.counters["hash_ok"] = client->replica()->state_hash() == server->world().last_hash() ? 1 : 0;
    state.counters["sync_mismatches"] = static_cast<double>(client->stats().sync_mismatches);
  }
}
BENCHMARK(BM_BytesPerClientInProcess)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_BytesPerClientEnet(benchmark::State& state) {
  for (auto _ : state) {
    world::SteadyPlatformClock clock;
    auto st = EnetTransport::listen("127.0.0.1", 0).value();
    auto server = Server::host(*st, moving_setup(), {}, clock).value();
    auto ct = EnetTransport::connect("127.0.0.1", st->port()).value();
    auto client = Client::join(*ct, ClientConfig{"c"}, clock).value();
    while (client->state() != ClientState::in_game) {
      (void)server->poll(1);
      (void)client->poll(1);
    }
    order_all(*server);
    // Real time: one tick every 16 ms, both sides serviced in between (ENet's pings and
    // acknowledgements then count as they would in a game).
    auto run = [&](std::uint64_t ticks) {
      auto next = std::chrono::steady_clock::now();
      for (std::uint64_t t = 0; t < ticks; ++t) {
        while (std::chrono::steady_clock::now() < next) {
          (void)server->poll(0);
          (void)client->poll(1);
        }
        (void)server->run_tick();
        next += std::chrono::microseconds(world::kDefaultStepUs);
      }
    };
    run(kWarmupTicks);
    const std::uint64_t bytes0 = st->stats().bytes_sent;
    const auto t0 = std::chrono::steady_clock::now();
    run(kMeasuredTicks);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.counters["wire_bytes_per_client_per_s"] = static_cast<double>(st->stats().bytes_sent - bytes0) / seconds;
    state.counters["moving_units"] = static_cast<double>(kUnits);
  }
}
BENCHMARK(BM_BytesPerClientEnet)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---------------------------------------------------------------- clients per core

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

void pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

// A client that only speaks the protocol: HELLO, then one NET_ACK per tick it hears of.
struct ThinClient {
  std::unique_ptr<EnetTransport> transport;
  PeerId server = 0;
  std::uint64_t ticks = 0;
  std::uint64_t sync = 0;
  bool dirty = false;
};

void BM_ClientsPerCore(benchmark::State& state) {
  const auto clients = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    world::SteadyPlatformClock clock;
    EnetOptions eo;
    eo.max_peers = clients + 8;
    auto st = EnetTransport::listen("127.0.0.1", 0, eo).value();
    ServerConfig config;
    config.max_players = clients;
    auto server = Server::host(*st, moving_setup(), config, clock).value();
    order_all(*server);
    std::atomic<bool> stop{false};
    std::thread thin([&] {
      pin_to(1);
      std::vector<ThinClient> cs(clients);
      for (auto& c : cs) c.transport = EnetTransport::connect("127.0.0.1", st->port()).value();
      std::size_t n = 0;
      while (!stop.load()) {
        for (auto& c : cs) {
          std::vector<TransportEvent> events;
          (void)c.transport->poll(0, events);
          for (auto& e : events) {
            if (e.type == TransportEvent::Type::connected) {
              c.server = e.peer;
              (void)c.transport->send(
                  c.server, Delivery::reliable_ordered,
                  encode_message(Hello{kApplicationGuid, kProtocolVersion, "thin" + std::to_string(n++)}).value());
            } else if (e.type == TransportEvent::Type::received) {
              auto ms = decode_packet(e.data, e.delivery);
              if (!ms) continue;
              for (const Message& m : *ms) {
                if (const auto* end = std::get_if<EndMessageSeq>(&m)) c.ticks = end->tick + 1;
                if (const auto* s = std::get_if<SyncState>(&m)) c.sync = s->tick;
                if (std::holds_alternative<Welcome>(m) || std::holds_alternative<EndMessageSeq>(m)) c.dirty = true;
              }
            }
          }
          if (c.dirty && c.server != 0) {
            (void)c.transport->send(c.server, Delivery::unreliable_sequenced,
                                    encode_message(Ack{c.ticks, c.sync}).value());
            c.transport->flush();
            c.dirty = false;
          }
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    });
    pin_to(0);
    // Lobby: every thin client ready.
    const auto lobby_end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      (void)server->poll(1);
      std::size_t ready = 0;
      for (const auto& p : server->peers()) ready += p.stage == PeerStage::ready ? 1 : 0;
      if (ready >= clients || std::chrono::steady_clock::now() > lobby_end) break;
    }
    std::size_t ready = 0;
    for (const auto& p : server->peers()) ready += p.stage == PeerStage::ready ? 1 : 0;
    // The game: 2 s of real-time ticks. The work of a tick is its poll + run_tick, measured as
    // the server thread's CPU time (the machine may be shared: wall time would count other
    // processes too) and as wall time.
    std::vector<double> cpu_ms;
    std::vector<double> wall_ms;
    auto next = std::chrono::steady_clock::now();
    for (int t = 0; t < 125; ++t) {
      while (std::chrono::steady_clock::now() < next) (void)server->poll(0);
      const auto w0 = std::chrono::steady_clock::now();
      const double c0 = thread_cpu_ms();
      (void)server->poll(0);
      (void)server->run_tick();
      cpu_ms.push_back(thread_cpu_ms() - c0);
      wall_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count());
      next += std::chrono::microseconds(world::kDefaultStepUs);
    }
    stop = true;
    thin.join();
    std::sort(cpu_ms.begin(), cpu_ms.end());
    std::sort(wall_ms.begin(), wall_ms.end());
    const double step_ms = world::kDefaultStepUs / 1000.0;
    state.counters["clients_ready"] = static_cast<double>(ready);
    state.counters["tick_cpu_ms_p50"] = cpu_ms[cpu_ms.size() / 2];
    state.counters["tick_cpu_ms_max"] = cpu_ms.back();
    state.counters["tick_wall_ms_p50"] = wall_ms[wall_ms.size() / 2];
    state.counters["tick_wall_ms_max"] = wall_ms.back();
    state.counters["ticks_cpu_over_16ms"] =
        static_cast<double>(std::count_if(cpu_ms.begin(), cpu_ms.end(), [&](double v) { return v > step_ms; }));
  }
}
BENCHMARK(BM_ClientsPerCore)
    ->Arg(16)
    ->Arg(64)
    ->Arg(128)
    ->Arg(192)
    ->Arg(256)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
