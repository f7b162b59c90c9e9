// The network under stress (issue #21 part 2), over the in-process transport and a manual clock
// so every step is deterministic: a 10,000-tick fast session where honest clients never come
// near the flood limit, a late joiner's catch-up in bounded chunks, departures with their true
// reason, a player lost after the last tick reaching the final state, the server's counters, and
// a failed join that still leaves its trace.
#include <gtest/gtest.h>

#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/net/bots.hpp"
#include "sortie/net/join_session.hpp"
#include "sortie/net/message_log.hpp"
#include "sortie/net/watcher.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;
using net::test::frame;
using net::test::MemorySession;

namespace {

namespace fs = std::filesystem;

// A session in --fast style: `step_us` of clock per tick, every client polls once per tick and
// its bot acts. Stops early when a client closes.
void run_fast(MemorySession& s, std::vector<ClientBot>& bots, std::uint64_t ticks, std::uint64_t step_us) {
  BotOptions ho;
  ho.interval = 30;
  HostBot host(ho);
  for (std::uint64_t t = 0; t < ticks; ++t) {
    ASSERT_TRUE(s.server().poll().has_value());
    ASSERT_TRUE(host.step(s.server()).has_value());
    ASSERT_TRUE(s.server().run_tick().has_value());
    s.advance_us(step_us);
    for (std::size_t i = 0; i < bots.size(); ++i) {
      Client& c = s.client(i);
      if (c.state() == ClientState::closed) return;
      if (!c.poll()) {
        ASSERT_EQ(c.state(), ClientState::closed);
        return;
      }
      ASSERT_TRUE(bots[i].step(c).has_value());
    }
  }
}

std::vector<ClientBot> bots_for(std::size_t n) {
  std::vector<ClientBot> bots;
  for (std::size_t i = 0; i < n; ++i) {
    BotOptions bo;
    bo.seed = i + 1;
    bo.interval = 10;
    bots.emplace_back(bo);
  }
  return bots;
}

// The KILL_PLAYER messages of the server's recorded sequences.
std::vector<KillPlayer> kills_in_log(const Server& server) {
  auto log = read_message_log(server.message_log());
  EXPECT_TRUE(log.has_value());
  std::vector<KillPlayer> out;
  if (!log) return out;
  for (const Message& m : log->messages) {
    if (const auto* k = std::get_if<KillPlayer>(&m)) out.push_back(*k);
  }
  return out;
}

}  // namespace

TEST(NetStress, ten_thousand_fast_ticks_converge_and_no_honest_client_is_kicked) {
  constexpr std::uint64_t kFastTicks = 10'000;
  MemorySession s;
  for (const char* name : {"alice", "bob", "carol", "dave"}) s.add_client(name);
  s.pump();
  std::vector<ClientBot> bots = bots_for(4);
  run_fast(s, bots, kFastTicks, 100);  // 10,000 ticks in one second of session time
  s.advance_us(20'000);
  s.pump();
  EXPECT_TRUE(s.server().departures().empty());
  for (std::size_t i = 0; i < 4; ++i) {
    const Client& c = s.client(i);
    ASSERT_EQ(c.state(), ClientState::in_game) << i;
    EXPECT_EQ(c.ticks(), kFastTicks);
    EXPECT_EQ(c.replica()->state_hash(), s.server().replica().state_hash());
    EXPECT_EQ(c.stats().sync_mismatches, 0u);
    // NET_ACKs are coalesced: at most one per 10 ms (and a heartbeat when idle), not one per poll.
    EXPECT_LE(c.stats().acks_sent, 110u);
    EXPECT_GT(bots[i].orders_sent(), 4u);
  }
  // What each client sent in that second stays far below the 600 messages/s flood limit.
  for (const PeerInfo& p : s.server().peers()) EXPECT_LT(p.messages_in, 300u) << p.name;
  EXPECT_EQ(s.server().stats().tick_times.count(), kFastTicks);
}

TEST(NetStress, an_ack_for_every_poll_of_a_fast_session_would_be_a_flood) {
  MemorySession s;
  ClientConfig eager;
  eager.ack_min_interval_us = 0;  // the old client: one NET_ACK per poll
  s.add_client("alice", {}, {}, eager);
  s.pump();
  std::vector<ClientBot> bots = bots_for(1);
  run_fast(s, bots, 3000, 100);
  ASSERT_EQ(s.server().departures().size(), 1u);
  EXPECT_EQ(s.server().departures()[0].reason, Reason::flood);
}

TEST(NetStress, a_late_joiner_gets_the_history_in_bounded_chunks_as_it_acknowledges) {
  ServerConfig config;
  config.catch_up_window_ticks = 500;
  config.catch_up_byte_burst = 4 * 1024;
  config.catch_up_bytes_per_s = 8 * 1024;
  MemorySession s(net::test::small_setup(), config);
  Client& alice = s.add_client("alice");
  s.pump();
  std::vector<ClientBot> bots = bots_for(1);
  run_fast(s, bots, 3000, 1000);
  const std::uint64_t history = s.server().message_log().size();
  ASSERT_GT(history, 60'000u);
  // A hello alone: the setup and the first chunk, not the whole history.
  Transport& raw = s.add_raw();
  s.pump();
  ASSERT_TRUE(
      raw.send(1, Delivery::reliable_ordered, frame(Hello{kApplicationGuid, kProtocolVersion, "mallory"})).has_value());
  s.pump();
  auto mallory = [&] {
    for (const PeerInfo& p : s.server().peers()) {
      if (p.name == "mallory") return p;
    }
    return PeerInfo{};
  };
  const PeerInfo first = mallory();
  ASSERT_EQ(first.stage, PeerStage::setup);
  EXPECT_GT(first.sent_ticks, 0u);
  EXPECT_LT(first.sent_ticks, 500u);
  EXPECT_LE(first.bytes_out, 4u * 1024 + 4096);  // the burst, overshot by at most one sequence
  // Time alone refills the byte budget (8 KiB/s) up to the window, never past it.
  auto wait_ms = [&](int ms) {
    for (int i = 0; i < ms / 100; ++i) {
      s.advance_us(100'000);
      s.pump(1);
    }
  };
  wait_ms(1000);
  EXPECT_LT(mallory().sent_ticks, 500u);
  EXPECT_LE(mallory().bytes_out, first.bytes_out + 8u * 1024 + 4096);
  wait_ms(4000);
  EXPECT_EQ(mallory().sent_ticks, 500u);
  EXPECT_LT(mallory().bytes_out, history / 2);
  // Acknowledging opens the window; acknowledging what was never sent is a lie.
  ASSERT_TRUE(raw.send(1, Delivery::unreliable_sequenced, frame(Ack{400, 0})).has_value());
  wait_ms(4000);
  EXPECT_EQ(mallory().sent_ticks, 900u);
  ASSERT_TRUE(raw.send(1, Delivery::unreliable_sequenced, frame(Ack{2000, 0})).has_value());
  s.pump(1);
  ASSERT_EQ(s.server().departures().size(), 1u);
  EXPECT_EQ(s.server().departures()[0].reason, Reason::unexpected_message);
  // An honest late joiner catches up chunk by chunk and converges.
  Client& bob = s.add_client("bob");
  for (int i = 0; i < 2000 && bob.ticks() < s.server().ticks(); ++i) {
    s.advance_us(20'000);
    s.pump(1);
  }
  s.tick(3);
  EXPECT_EQ(bob.state(), ClientState::in_game);
  EXPECT_EQ(bob.live_tick(), 3000u);
  EXPECT_EQ(bob.ticks(), s.server().ticks());
  EXPECT_EQ(bob.replica()->state_hash(), s.server().replica().state_hash());
  EXPECT_EQ(alice.replica()->state_hash(), s.server().replica().state_hash());
  EXPECT_GT(s.server().stats().catch_up_bytes, 60'000u);
}

TEST(NetStress, a_crashed_client_is_transport_lost_and_a_leaving_one_left) {
  MemorySession s;
  Client& alice = s.add_client("alice");
  s.add_client("bob");
  s.pump();
  s.tick(3);
  alice.leave();
  s.crash(1);
  s.tick(2);
  const auto& d = s.server().departures();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].player, 2u);
  EXPECT_EQ(d[0].reason, Reason::left);
  EXPECT_EQ(d[1].player, 3u);
  EXPECT_EQ(d[1].reason, Reason::transport_lost);
  const std::vector<KillPlayer> kills = kills_in_log(s.server());
  ASSERT_EQ(kills.size(), 2u);
  EXPECT_EQ(kills[0].reason, Reason::left);
  EXPECT_EQ(kills[1].reason, Reason::transport_lost);
  EXPECT_EQ(s.server_trace().find(TraceChannel::resnet, {"disconnected", "player=3", "reason=transport_lost"}).size(),
            1u);
  EXPECT_EQ(
      s.server_trace().find(TraceChannel::netwatch, {"player_unbind", "player=3", "reason=transport_lost"}).size(), 1u);
}

TEST(NetStress, a_player_lost_after_the_last_tick_reaches_the_final_state_in_a_closing_tick) {
  ServerConfig config;
  config.leave_policy = OwnedObjectPolicy::remove;
  MemorySession s(net::test::small_setup(), config);
  Client& alice = s.add_client("alice");
  s.add_client("bob");
  s.pump();
  s.tick(2);
  const world::ObjectId unit{1, mission::class_ids::kTmaUnit, 2};
  ASSERT_TRUE(alice.take(unit).has_value());
  s.tick(3);
  const auto handle = s.server().world().lookup(unit);
  ASSERT_TRUE(handle.has_value());
  ASSERT_EQ(s.server().world().find(*handle)->ownership().owner, alice.player());
  const std::size_t before = s.server().world().live_count();
  // The last tick ran; then alice's process dies and bob leaves of his own accord.
  s.crash(0);
  s.client(1).leave();
  s.pump();
  ASSERT_EQ(s.server().departures().size(), 2u);
  EXPECT_EQ(s.server().departures()[0].reason, Reason::transport_lost);
  EXPECT_EQ(s.server().departures()[0].objects, 1u);
  ASSERT_TRUE(s.server().lost_since_last_tick());
  ASSERT_TRUE(s.server().run_tick().has_value());
  EXPECT_FALSE(s.server().lost_since_last_tick());
  EXPECT_FALSE(s.server().world().lookup(unit).has_value());
  EXPECT_EQ(s.server().world().live_count(), before - 1);
  EXPECT_TRUE(orphaned_objects(s.server().world(), {}).empty());
}

TEST(NetStress, a_player_who_left_after_following_to_the_end_needs_no_closing_tick) {
  MemorySession s;
  s.add_client("alice");
  s.pump();
  s.tick(3);
  s.client(0).leave();
  s.pump();
  ASSERT_EQ(s.server().departures().size(), 1u);
  EXPECT_EQ(s.server().departures()[0].reason, Reason::left);
  EXPECT_FALSE(s.server().lost_since_last_tick());
}

TEST(NetStress, behind_clients_are_dropped_when_the_session_ends) {
  MemorySession s;
  ClientConfig stop;
  stop.stop_after_ticks = 4;
  s.add_client("alice");
  s.add_client("bob", {}, {}, stop);
  s.pump();
  s.tick(8);
  EXPECT_FALSE(s.server().clients_caught_up(8));
  EXPECT_EQ(s.server().drop_behind(8), 1u);
  s.pump();
  ASSERT_EQ(s.server().departures().size(), 1u);
  EXPECT_EQ(s.server().departures()[0].player, 3u);
  EXPECT_EQ(s.server().departures()[0].reason, Reason::ack_timeout);
  EXPECT_TRUE(s.server().clients_caught_up(8));
  EXPECT_TRUE(s.server().lost_since_last_tick());
}

TEST(NetStress, server_counts_traffic_and_tick_times) {
  MemorySession s;
  Client& alice = s.add_client("alice");
  s.pump();
  s.tick(20);
  const ServerStats& st = s.server().stats();
  const PeerInfo peer = s.server().peers().at(0);
  EXPECT_EQ(st.bytes_out, peer.bytes_out);
  EXPECT_EQ(st.bytes_in, peer.bytes_in);
  EXPECT_EQ(st.messages_in, peer.messages_in);
  EXPECT_EQ(st.bytes_out, alice.stats().bytes_in);
  EXPECT_EQ(st.messages_out, alice.stats().messages_in);
  EXPECT_EQ(st.bytes_in, alice.stats().bytes_out);
  EXPECT_EQ(st.messages_in, alice.stats().messages_out);
  EXPECT_GT(alice.stats().acks_sent, 0u);
  EXPECT_EQ(st.tick_times.count(), 20u);
  EXPECT_GE(st.tick_times.quantile_us(0.99), st.tick_times.quantile_us(0.5));
  EXPECT_LE(st.tick_times.quantile_us(1.0), st.tick_times.max_us());
}

TEST(NetStress, tick_time_quantiles_come_from_ten_microsecond_buckets) {
  TickTimes t;
  EXPECT_EQ(t.quantile_us(0.99), 0u);
  for (std::uint64_t us = 1; us <= 100; ++us) t.add(us * 10);  // 10 .. 1000 us
  t.add(250'000);                                              // beyond the last bucket
  EXPECT_EQ(t.count(), 101u);
  EXPECT_EQ(t.max_us(), 250'000u);
  EXPECT_EQ(t.quantile_us(0.5), 520u);
  EXPECT_EQ(t.quantile_us(0.99), 1010u);
  EXPECT_EQ(t.quantile_us(1.0), 250'000u);
  EXPECT_NEAR(t.mean_us(), (50'500.0 + 250'000.0) / 101.0, 1e-9);
}

TEST(NetStress, a_failed_join_still_writes_its_trace_and_the_stream_so_far) {
  const fs::path dir = fs::path(::testing::TempDir()) / "sortie_failed_join";
  fs::remove_all(dir);
  fs::create_directories(dir);
  MemorySession s;
  auto transport = s.network().connect("server").value();
  JoinOptions o;
  o.name = "alice";
  o.record = true;
  o.trace_dir = dir / "traces";
  auto j = JoinSession::over(*transport, o, s.clock()).value();
  for (int i = 0; i < 3; ++i) {
    s.pump(1);
    ASSERT_TRUE(j->pump().has_value());
  }
  s.tick(5);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(j->pump().has_value());
  ASSERT_EQ(j->client().ticks(), 5u);
  ASSERT_TRUE(s.server().kick(2).has_value());
  s.pump(1);
  const auto hash = j->finish();
  ASSERT_FALSE(hash.has_value());
  EXPECT_EQ(hash.error().code, "net.session.rejected");
  ASSERT_TRUE(j->save(dir / "alice.snlg").has_value());
  const std::string resnet = core::read_text_file(dir / "traces" / "resnet.log").value();
  EXPECT_NE(resnet.find("join_failed code=net.session.rejected"), std::string::npos) << resnet;
  EXPECT_TRUE(fs::exists(dir / "traces" / "NetWatch.log"));
  const auto log = read_message_log(core::read_file(dir / "alice.snlg").value());
  ASSERT_TRUE(log.has_value());
  const auto replayed = replay_message_log(*log);
  ASSERT_TRUE(replayed.has_value()) << replayed.error().to_string();
  EXPECT_EQ(replayed->ticks, 5u);
  fs::remove_all(dir);
}
