// The server's session loop (sortie/net/serve_session.hpp; `sortie serve`) on loopback ENet, run
// on its own thread, with the client's loop (join_session.hpp) on this one: the lobby waits for the
// joiner, the ticks run, the linger waits until the joiner has the last one, the session ends and
// both print the same hash; the saved log replays to it.
#include "sortie/net/serve_session.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <thread>

#include "sortie/core/file_io.hpp"
#include "sortie/net/join_session.hpp"
#include "sortie/net/message_log.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;
namespace fs = std::filesystem;

namespace {

ServeOptions fast_session(std::uint64_t ticks) {
  ServeOptions o;
  o.port = 0;
  o.ticks = ticks;
  o.fast = true;
  o.bot = false;  // the loop, not the bot's orders, is under test here
  return o;
}

}  // namespace

TEST(ServeSession, the_lobby_waits_for_the_joiner_who_follows_to_the_end_on_the_same_hash) {
  constexpr std::uint64_t kTicks = 90;
  const fs::path dir = fs::path(::testing::TempDir()) / "sortie_serve_session";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto o = fast_session(kTicks);
  o.wait_players = 1;
  o.trace_dir = dir / "trace";
  fs::create_directories(o.trace_dir);
  auto serve = ServeSession::listen(o);
  ASSERT_TRUE(serve) << serve.error().to_string();
  ServeSession& s = **serve;
  EXPECT_EQ(s.address().rfind("127.0.0.1:", 0), 0u) << s.address();
  ASSERT_TRUE(s.host(test::small_setup()));
  std::optional<tl::expected<void, ServeError>> ran;
  std::thread server_thread([&] { ran = s.run(); });

  JoinOptions j;
  j.address = s.address();
  j.name = "alice";
  j.record = true;
  auto join = JoinSession::connect(j);
  ASSERT_TRUE(join) << join.error().to_string();
  const auto hash = (*join)->finish();  // no --ticks: until the server ends the session
  server_thread.join();

  ASSERT_TRUE(ran.has_value());
  ASSERT_TRUE(*ran) << ran->error().diagnostic.to_string();
  ASSERT_TRUE(hash) << hash.error().to_string();
  EXPECT_EQ(s.server().ticks(), kTicks);
  EXPECT_EQ((*join)->client().ticks(), kTicks);  // the linger waited for it
  EXPECT_EQ((*join)->client().live_tick(), 0u);  // the lobby waited: it saw every tick live
  EXPECT_EQ(*hash, s.server().replica().state_hash());
  EXPECT_EQ(s.server().replica().players().size(), 2u);  // the authority and alice

  ASSERT_TRUE(s.save(dir / "server.snlg"));
  ASSERT_TRUE((*join)->save(dir / "client.snlg"));
  for (const char* name : {"server.snlg", "client.snlg"}) {
    const auto bytes = core::read_file(dir / name);
    ASSERT_TRUE(bytes) << name;
    const auto log = read_message_log(*bytes);
    ASSERT_TRUE(log) << name << ": " << log.error().to_string();
    const auto replayed = replay_message_log(*log);
    ASSERT_TRUE(replayed) << name << ": " << replayed.error().to_string();
    EXPECT_EQ(replayed->ticks, kTicks) << name;
    EXPECT_EQ(replayed->final_hash, *hash) << name;
  }
  EXPECT_TRUE(fs::exists(o.trace_dir / "resnet.log"));
  EXPECT_TRUE(fs::exists(o.trace_dir / "NetWatch.log"));
}

TEST(ServeSession, without_players_it_runs_its_ticks_and_ends) {
  auto serve = ServeSession::listen(fast_session(30));
  ASSERT_TRUE(serve) << serve.error().to_string();
  const SessionSetup setup = test::small_setup();
  ASSERT_TRUE((*serve)->host(setup));
  const auto ran = (*serve)->run();
  ASSERT_TRUE(ran) << ran.error().diagnostic.to_string();
  EXPECT_EQ((*serve)->server().ticks(), 30u);
  EXPECT_EQ((*serve)->server().connected_peers(), 0u);
  EXPECT_EQ((*serve)->server().replica().players().size(), 1u);  // the authority only
}

TEST(ServeSession, rejects_a_port_in_use) {
  auto first = ServeSession::listen(fast_session(1));
  ASSERT_TRUE(first) << first.error().to_string();
  const std::string address = (*first)->address();
  auto o = fast_session(1);
  o.port = static_cast<std::uint16_t>(std::stoul(address.substr(address.rfind(':') + 1)));
  const auto second = ServeSession::listen(o);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code, "net.enet.host");
}
