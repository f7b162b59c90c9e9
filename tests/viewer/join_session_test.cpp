// The viewer's net client (apps/viewer/net/join_session.hpp) against an in-process ENet server:
// it follows the session to --ticks and ends on the server's hash; nobody listening is a timeout.
#include "net/join_session.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "sortie/net/enet_transport.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::viewer;

TEST(JoinSession, follows_to_the_tick_limit_and_ends_on_the_servers_hash) {
  constexpr std::uint64_t kTicks = 60;
  world::SteadyPlatformClock clock;
  auto transport = net::EnetTransport::listen("127.0.0.1", 0).value();
  auto server = net::Server::host(*transport, net::test::small_setup(), {}, clock).value();
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
  EXPECT_EQ(s.client().ticks(), kTicks);
  EXPECT_EQ(s.replica()->world().live_count(), server->world().live_count());
  const auto hash = s.finish();
  ASSERT_TRUE(hash) << hash.error().to_string();
  EXPECT_EQ(*hash, server->replica().state_hash());
}

TEST(JoinSession, rejects_a_bad_address) {
  JoinOptions o;
  o.address = "localhost";
  o.name = "viewer";
  const auto s = JoinSession::connect(o);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "net.address");
  EXPECT_EQ(s.error().found, "localhost");
}

TEST(JoinSession, nobody_listening_times_out) {
  world::ManualPlatformClock clock;
  auto transport = net::EnetTransport::connect("127.0.0.1", 9).value();  // discard port: no ENet server
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
}
