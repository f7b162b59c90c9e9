// Bad peers: garbage, oversize lengths, unknown ids, unexpected messages, floods and silence.
// Each is disconnected with a logged reason (and a NET_REJECT saying it); the server and the
// other clients go on, and nothing of the bad peer's stays in the world without an owner.
#include <gtest/gtest.h>

#include "sortie/core/rng.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/net/class_ids.hpp"
#include "sortie/net/net_commands.hpp"
#include "sortie/net/watcher.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;
using net::test::frame;
using net::test::MemorySession;

namespace {

const world::ObjectId kUnit3{1, mission::class_ids::kTmaUnit, 3};

struct Arena {
  MemorySession s;
  Client* alice = nullptr;
  Client* bob = nullptr;
  explicit Arena(ServerConfig config = {}) : s(net::test::small_setup(), config) {
    alice = &s.add_client("alice");
    bob = &s.add_client("bob");
    s.pump();
    s.tick(2);
  }
  // The reason the server gave the one departure of a bad peer (asserts there is one).
  Reason departed() {
    EXPECT_EQ(s.server().departures().size(), 1u);
    return s.server().departures().empty() ? Reason::none : s.server().departures().back().reason;
  }
  // The game goes on: good clients follow and agree with the server; no orphans.
  void goes_on() {
    ASSERT_TRUE(alice->order(world::make_command(0, move::GotoCommand{kUnit3, {50, 50}, 6.0f})).has_value());
    s.tick(5);
    EXPECT_EQ(alice->state(), ClientState::in_game);
    EXPECT_EQ(bob->state(), ClientState::in_game);
    EXPECT_EQ(alice->replica()->state_hash(), s.server().world().last_hash());
    EXPECT_EQ(bob->replica()->state_hash(), s.server().world().last_hash());
    EXPECT_TRUE(orphaned_objects(s.server().world(), {alice->player(), bob->player()}).empty());
  }
};

// What a raw peer got back: the REJECT's reason and the disconnect's reason.
std::pair<std::optional<Reason>, std::optional<std::uint32_t>> answer(Transport& raw) {
  std::vector<TransportEvent> events;
  std::optional<Reason> rejected;
  for (const Message& m : net::test::drain(raw, &events)) {
    if (const auto* r = std::get_if<Reject>(&m)) rejected = r->reason;
  }
  std::optional<std::uint32_t> disconnected;
  for (const auto& e : events) {
    if (e.type == TransportEvent::Type::disconnected) disconnected = e.reason;
  }
  return {rejected, disconnected};
}

void hello(Transport& raw, std::string name) {
  ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, frame(Hello{kApplicationGuid, kProtocolVersion, std::move(name)}))
                  .has_value());
}

}  // namespace

TEST(BadPeerTest, garbage_is_disconnected_as_malformed) {
  Arena a;
  Transport& raw = a.s.add_raw();
  a.s.pump();
  // A HELLO frame whose payload is five bytes: the GUID alone needs sixteen.
  ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, core::Bytes{0x20, 5, 0, 'x', 'y', 'z', 'z', 'y'}).has_value());
  a.s.pump();
  EXPECT_EQ(a.departed(), Reason::malformed);
  const auto [rejected, disconnected] = answer(raw);
  EXPECT_EQ(rejected, Reason::malformed);
  EXPECT_EQ(disconnected, static_cast<std::uint32_t>(Reason::malformed));
  EXPECT_EQ(a.s.server_trace().find(TraceChannel::resnet, {"disconnect", "reason=malformed", "net.message.eof"}).size(),
            1u);
  a.goes_on();
}

TEST(BadPeerTest, random_garbage_never_gets_in) {
  Arena a;
  core::Rng rng(42, 7);
  for (int i = 0; i < 40; ++i) {
    Transport& raw = a.s.add_raw();
    a.s.pump(1);
    core::Bytes junk(1 + rng.below(200));
    for (auto& b : junk) b = static_cast<std::uint8_t>(rng.below(256));
    ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, junk).has_value());
    a.s.pump(1);
  }
  // Every one of them is gone, each for a reason of the codec (or a HELLO it could not pass).
  ASSERT_EQ(a.s.server().departures().size(), 40u);
  for (const Departure& d : a.s.server().departures()) {
    EXPECT_EQ(d.player, 0) << to_string(d.reason);
    EXPECT_TRUE(d.reason == Reason::malformed || d.reason == Reason::oversize || d.reason == Reason::unknown_message ||
                d.reason == Reason::unexpected_message)
        << to_string(d.reason);
  }
  EXPECT_EQ(a.s.server().world().live_count(), 8u);
  a.goes_on();
}

TEST(BadPeerTest, oversize_length_is_disconnected_before_reading) {
  Arena a;
  Transport& raw = a.s.add_raw();
  a.s.pump();
  ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, core::Bytes{0x20, 0xff, 0xff}).has_value());
  a.s.pump();
  EXPECT_EQ(a.departed(), Reason::oversize);
  EXPECT_EQ(answer(raw).first, Reason::oversize);
  EXPECT_EQ(a.s.server_trace().find(TraceChannel::resnet, {"reason=oversize", "net.frame.oversize"}).size(), 1u);
  a.goes_on();
}

TEST(BadPeerTest, unknown_message_id_is_disconnected) {
  Arena a;
  Transport& raw = a.s.add_raw();
  a.s.pump();
  hello(raw, "mallory");
  ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, core::Bytes{0xc8, 0, 0}).has_value());
  a.s.pump();
  EXPECT_EQ(a.departed(), Reason::unknown_message);
  a.s.tick();
  // Mallory had joined: her player entered and left the session in the sequences.
  EXPECT_EQ(a.alice->replica()->players().size(), 3u);
  a.goes_on();
}

TEST(BadPeerTest, unexpected_messages_are_disconnected) {
  {
    Arena a;  // an order before the handshake
    Transport& raw = a.s.add_raw();
    a.s.pump();
    ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, frame(Order{1, {}})).has_value());
    a.s.pump();
    EXPECT_EQ(a.departed(), Reason::unexpected_message);
    a.goes_on();
  }
  {
    Arena a;  // a server's message from a client
    Transport& raw = a.s.add_raw();
    a.s.pump();
    hello(raw, "mallory");
    ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, frame(EndMessageSeq{0, 0, 0})).has_value());
    a.s.pump();
    EXPECT_EQ(a.departed(), Reason::unexpected_message);
    a.goes_on();
  }
  {
    Arena a;  // a reliable message on the unreliable channel
    Transport& raw = a.s.add_raw();
    a.s.pump();
    ASSERT_TRUE(raw.send(1, Delivery::unreliable_sequenced, frame(Hello{kApplicationGuid, kProtocolVersion, "mallory"}))
                    .has_value());
    a.s.pump();
    EXPECT_EQ(a.departed(), Reason::unexpected_message);
  }
  {
    Arena a;  // acknowledging ticks that never ran
    Transport& raw = a.s.add_raw();
    a.s.pump();
    hello(raw, "mallory");
    a.s.pump();
    ASSERT_TRUE(raw.send(1, Delivery::unreliable_sequenced, frame(Ack{1000, 0})).has_value());
    a.s.pump();
    EXPECT_EQ(a.departed(), Reason::unexpected_message);
    a.goes_on();
  }
}

TEST(BadPeerTest, wrong_application_version_or_name_is_refused) {
  Arena a;
  auto refused = [&](Hello h) {
    Transport& raw = a.s.add_raw();
    a.s.pump();
    EXPECT_TRUE(raw.send(1, Delivery::reliable_ordered, frame(h)).has_value());
    a.s.pump();
    return answer(raw).first;
  };
  Hello other_app{kApplicationGuid, kProtocolVersion, "eve"};
  other_app.guid[0] ^= 1;
  EXPECT_EQ(refused(other_app), Reason::guid_mismatch);
  EXPECT_EQ(refused(Hello{kApplicationGuid, kProtocolVersion + 1, "eve"}), Reason::version_mismatch);
  EXPECT_EQ(refused(Hello{kApplicationGuid, kProtocolVersion, "alice"}), Reason::name_invalid);  // taken
  EXPECT_EQ(refused(Hello{kApplicationGuid, kProtocolVersion, "host"}), Reason::name_invalid);   // the host's
  EXPECT_EQ(refused(Hello{kApplicationGuid, kProtocolVersion, "a b"}), Reason::name_invalid);
  EXPECT_EQ(a.s.server().departures().size(), 5u);
  a.goes_on();
}

TEST(BadPeerTest, session_full_is_refused) {
  ServerConfig config;
  config.max_players = 2;
  Arena a(config);
  Transport& raw = a.s.add_raw();
  a.s.pump();
  hello(raw, "carol");
  a.s.pump();
  EXPECT_EQ(answer(raw).first, Reason::session_full);
  a.goes_on();
}

TEST(BadPeerTest, flood_of_messages_is_disconnected) {
  Arena a;
  Transport& raw = a.s.add_raw();
  a.s.pump();
  hello(raw, "mallory");
  a.s.pump();
  PacketBuilder flood;
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(flood.add(TextForPlayer{4, 0, "spam"}).has_value());
  for (const core::Bytes& p : flood.take()) ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, p).has_value());
  a.s.pump();
  EXPECT_EQ(a.departed(), Reason::flood);
  EXPECT_EQ(a.s.server_trace().find(TraceChannel::resnet, {"reason=flood", "messages/s"}).size(), 1u);
  // The bursts before the limit reached the others; then nothing more.
  EXPECT_LE(a.alice->texts().size(), 1200u);
  a.goes_on();
}

TEST(BadPeerTest, flood_of_bytes_is_disconnected) {
  ServerConfig config;
  config.flood_byte_burst = 64 * 1024;
  Arena a(config);
  Transport& raw = a.s.add_raw();
  a.s.pump();
  hello(raw, "mallory");
  a.s.pump();
  const core::Bytes big = frame(TextForPlayer{4, 0, std::string(500, 'x')});
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, big).has_value());
  a.s.pump();
  EXPECT_EQ(a.departed(), Reason::flood);
  EXPECT_EQ(a.s.server_trace().find(TraceChannel::resnet, {"reason=flood", "bytes/s"}).size(), 1u);
  a.goes_on();
}

TEST(BadPeerTest, never_answering_peers_time_out) {
  ServerConfig config;
  config.handshake_timeout_us = 1'000'000;
  config.ack_timeout_us = 3'000'000;
  Arena a(config);
  // Connects and says nothing.
  Transport& mute = a.s.add_raw();
  a.s.pump();
  a.s.advance_us(1'000'001);
  a.s.pump();
  EXPECT_EQ(a.departed(), Reason::handshake_timeout);
  EXPECT_EQ(answer(mute).first, Reason::handshake_timeout);
  // Joins, acknowledges the setup once, then goes silent while the game runs.
  Transport& quiet = a.s.add_raw();
  a.s.pump();
  hello(quiet, "quiet");
  a.s.pump();
  ASSERT_TRUE(quiet.send(1, Delivery::unreliable_sequenced, frame(Ack{0, 0})).has_value());
  a.s.pump();
  for (int i = 0; i < 200; ++i) a.s.tick();  // 200 x 16 ms = 3.2 s; alice and bob keep acknowledging
  ASSERT_EQ(a.s.server().departures().size(), 2u);
  EXPECT_EQ(a.s.server().departures()[1].reason, Reason::ack_timeout);
  a.goes_on();
}

TEST(BadPeerTest, bad_peer_objects_get_an_owner) {
  for (const OwnedObjectPolicy policy : {OwnedObjectPolicy::transfer, OwnedObjectPolicy::remove}) {
    ServerConfig config;
    config.leave_policy = policy;
    Arena a(config);
    // Mallory joins properly, takes a unit, spawns one, then sends garbage.
    Transport& raw = a.s.add_raw();
    a.s.pump();
    hello(raw, "mallory");
    a.s.pump();
    ASSERT_TRUE(raw.send(1, Delivery::unreliable_sequenced, frame(Ack{0, 0})).has_value());
    const PlayerNumber m = 4;
    ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, frame(TakeObject{kUnit3})).has_value());
    ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered,
                         frame(Order{SpawnForCommand::kWireId,
                                     world::encode_payload(
                                         SpawnForCommand{m, net::class_ids::kNetUnit, "unit_tank.dat", {40, 40, 0}})}))
                    .has_value());
    a.s.pump();
    a.s.tick(2);
    ASSERT_EQ(a.s.server().watcher().routed_to(a.s.server().world(), m).size(), 2u);
    ASSERT_TRUE(raw.send(1, Delivery::reliable_ordered, core::Bytes{0x23, 2, 0, 0, 0}).has_value());  // ORDER kind 0
    a.s.pump();
    EXPECT_EQ(a.departed(), Reason::malformed);
    a.s.tick();
    EXPECT_TRUE(orphaned_objects(a.s.server().world(), {a.alice->player(), a.bob->player()}).empty());
    EXPECT_EQ(a.s.server().world().live_count(), policy == OwnedObjectPolicy::transfer ? 9u : 7u);
    EXPECT_EQ(a.s.server_trace().find(TraceChannel::netwatch, {"player_unbind", "player=4", "objects=2"}).size(), 1u);
    a.goes_on();
  }
}

TEST(BadPeerTest, orders_outside_the_policy_are_refused_not_applied) {
  Arena a;
  const PlayerNumber me = a.alice->player();
  auto refused = [&](const world::Command& c, std::string_view why) {
    const std::uint64_t before = a.s.server().stats().orders_rejected;
    ASSERT_TRUE(a.alice->order(c).has_value());
    a.s.pump();
    EXPECT_EQ(a.s.server().stats().orders_rejected, before + 1);
    EXPECT_FALSE(a.s.server_trace()
                     .find(TraceChannel::netwatch, {"order_rejected", std::string("why=") + std::string(why)})
                     .empty())
        << why;
  };
  refused(world::make_command(0, world::PauseCommand{true}), "kind_not_allowed");
  refused(world::make_command(0, move::GotoCommand{kUnit3, {1, 1}, 6.0f}), "not_owner");
  refused(
      world::make_command(
          0, SpawnForCommand{static_cast<PlayerNumber>(me + 1), net::class_ids::kNetUnit, "unit_tank.dat", {1, 1, 0}}),
      "spawn_not_allowed");
  refused(world::make_command(0, SpawnForCommand{me, net::class_ids::kNetUnit, "no_such_prototype", {1, 1, 0}}),
          "spawn_not_allowed");
  a.s.tick();
  EXPECT_FALSE(a.s.server().world().clock().paused);
  EXPECT_EQ(a.s.server().world().live_count(), 8u);
  a.goes_on();
}
