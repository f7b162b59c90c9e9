#include "seeds.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/net/client.hpp"
#include "sortie/net/memory_transport.hpp"
#include "sortie/net/server.hpp"

// A short recorded session: three objects, one client that joins, one move order, a pause.
SORTIE_FUZZ_SEEDS(net_log, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  using namespace sortie::net;
  world::World w(world::WorldConfig{});
  std::vector<world::Handle> handles;
  for (std::uint32_t i = 1; i <= 3; ++i) {
    core::Transform t;
    t.position = {10.0f * static_cast<float>(i), 5.0f, 0.0f};
    handles.push_back(w.create_object(world::ObjectId{1, mission::class_ids::kTmaUnit, i}, "unit", t).value());
  }
  for (const auto& h : handles) (void)w.add_to_game(h);
  nav::TriangleSoup ground;
  ground.positions = {{0, 0, 0}, {64, 0, 0}, {64, 64, 0}, {0, 64, 0}};
  ground.faces = {{{0, 1, 2}, 1}, {{0, 2, 3}, 1}};
  const SessionSetup setup = capture_setup(w, 0, "MISSIONS/seed/data.tma", ground).value();
  world::ManualPlatformClock clock;
  MemoryNetwork network(clock);
  auto st = network.listen("s").value();
  auto server = Server::host(*st, setup, {}, clock).value();
  auto ct = network.connect("s").value();
  auto client = Client::join(*ct, ClientConfig{"seed"}, clock).value();
  for (int t = 0; t < 12; ++t) {
    if (t == 3) {
      const world::ObjectId unit{1, mission::class_ids::kTmaUnit, 2};
      move::EnableCommand enable;
      enable.target = unit;
      (void)server->submit(world::make_command(0, enable));
      (void)server->submit(world::make_command(0, move::GotoCommand{unit, {40, 40}, 6.0f}));
    }
    if (t == 8) server->pause(true);
    (void)server->poll();
    (void)server->run_tick();
    clock.advance(world::kDefaultStepUs);
    (void)client->poll();
  }
  out.add("session", server->message_log());
});
