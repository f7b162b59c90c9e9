// The client's session loop (sortie/net/join_session.hpp; `sortie join` and `sortie-viewer join`)
// against an in-process ENet server: it follows the session to --ticks and ends on the server's
// hash; a bad address or loss spec is refused; nobody listening is a timeout.
#include "sortie/net/join_session.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <chrono>

#include "sortie/mission/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/net/enet_transport.hpp"
#include "sortie/world/trace.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;

TEST(JoinSession, follows_to_the_tick_limit_and_ends_on_the_servers_hash) {
  constexpr std::uint64_t kTicks = 60;
  world::SteadyPlatformClock clock;
  auto transport = EnetTransport::listen("127.0.0.1", 0).value();
  auto server = Server::host(*transport, test::small_setup(), {}, clock).value();
  JoinOptions o;
  o.address = "127.0.0.1:" + std::to_string(transport->port());
  o.name = "viewer";
  o.ticks = kTicks;
  auto session = JoinSession::connect(o);
  ASSERT_TRUE(session) << session.error().to_string();
  JoinSession& s = **session;
  EXPECT_FALSE(s.ready());
  const auto start = std::chrono::steady_clock::now();
  bool was_ready_before_end = false;
  while (!s.finished()) {
    ASSERT_TRUE(server->poll(1));
    if (server->ticks() < kTicks && s.ready()) {
      ASSERT_TRUE(server->run_tick());
    }
    auto st = s.pump();
    ASSERT_TRUE(st) << st.error().to_string();
    was_ready_before_end = was_ready_before_end || (s.ready() && !s.finished());
    ASSERT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)) << "server tick " << server->ticks();
  }
  EXPECT_TRUE(was_ready_before_end);
  EXPECT_TRUE(s.over());
  EXPECT_EQ(s.client().ticks(), kTicks);
  EXPECT_EQ(s.replica()->world().live_count(), server->world().live_count());
  EXPECT_EQ(s.orders_sent(), 0u);  // a spectator
  const auto hash = s.finish();
  ASSERT_TRUE(hash) << hash.error().to_string();
  EXPECT_EQ(*hash, server->replica().state_hash());
  EXPECT_EQ(s.client().state(), ClientState::closed);
  EXPECT_EQ(s.client().closed_reason(), Reason::left);
}

// A client that joins late gets the setup and the catch-up ticks in its first rounds; the world
// trace given before the first round sees all of it (the viewer's --trace on a joined session).
TEST(JoinSession, a_world_trace_given_before_the_welcome_sees_the_setup_and_the_catch_up) {
  constexpr std::uint64_t kAhead = 30;
  world::SteadyPlatformClock clock;
  auto transport = EnetTransport::listen("127.0.0.1", 0).value();
  auto server = Server::host(*transport, test::small_setup(), {}, clock).value();
  // An order at tick 10 (the authority's): the replica applies it while catching up.
  const world::ObjectId unit3{1, mission::class_ids::kTmaUnit, 3};
  for (std::uint64_t i = 0; i < kAhead; ++i) {
    if (i == 10) {
      ASSERT_TRUE(server->submit(world::make_command(0, move::GotoCommand{unit3, {50, 50}, 6.0f})));
    }
    ASSERT_TRUE(server->run_tick());
  }
  JoinOptions o;
  o.address = "127.0.0.1:" + std::to_string(transport->port());
  o.name = "late";
  o.ticks = kAhead + 5;
  auto session = JoinSession::connect(o);
  ASSERT_TRUE(session) << session.error().to_string();
  JoinSession& s = **session;
  world::TraceOptions to;
  to.channels = {"queue"};
  auto trace = std::make_shared<world::Trace>(to);
  s.client().trace_world(trace);
  const auto start = std::chrono::steady_clock::now();
  while (!s.finished()) {
    ASSERT_TRUE(server->poll(1));
    if (server->ticks() < o.ticks && s.ready()) {
      ASSERT_TRUE(server->run_tick());
    }
    auto st = s.pump();
    ASSERT_TRUE(st) << st.error().to_string();
    ASSERT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)) << "server tick " << server->ticks();
  }
  ASSERT_NE(s.replica(), nullptr);
  EXPECT_EQ(s.replica()->world().trace(), trace.get());
  EXPECT_EQ(s.client().live_tick(), kAhead);
  std::size_t adds = 0, catch_up = 0;
  for (const auto& line : trace->lines()) {
    if (line.text.starts_with("add ")) ++adds;
    if (line.tick > 0 && line.tick <= kAhead && line.text.find("commands ") != std::string::npos) ++catch_up;
  }
  EXPECT_EQ(adds, server->world().live_count());                                            // every mirror of the setup
  EXPECT_EQ(catch_up, 1u) << fmt::format("{}", fmt::join(trace->lines_of("queue"), "\n"));  // the order's tick
  ASSERT_TRUE(s.finish());
}

TEST(JoinSession, rejects_a_bad_address_or_loss_spec) {
  struct Case {
    const char* address;
    const char* lossy;
    const char* code;
  };
  for (const Case& c : {Case{"localhost", "", "net.address"}, Case{"127.0.0.1:7777", "drop=2", "net.loss_spec"}}) {
    JoinOptions o;
    o.address = c.address;
    o.name = "viewer";
    o.lossy = c.lossy;
    const auto s = JoinSession::connect(o);
    ASSERT_FALSE(s) << c.address << " " << c.lossy;
    EXPECT_EQ(s.error().code, c.code);
  }
}

TEST(JoinSession, nobody_listening_times_out) {
  world::ManualPlatformClock clock;
  auto transport = EnetTransport::connect("127.0.0.1", 9).value();  // discard port: no ENet server
  JoinOptions o;
  o.address = "127.0.0.1:9";
  o.name = "viewer";
  o.timeout_ms = 100;
  auto s = JoinSession::over(*transport, o, clock);
  ASSERT_TRUE(s);
  EXPECT_TRUE((*s)->pump());
  clock.advance(200'000);
  const auto st = (*s)->pump();
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, "join.timeout");
  EXPECT_EQ(st.error().found, "127.0.0.1:9");
  EXPECT_FALSE((*s)->finished());
}
