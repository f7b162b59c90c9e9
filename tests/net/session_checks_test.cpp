// Seed 001 "Проверки сети", one test per item, named after it (the length check is in
// codec_test.cpp: NetCodecTest.messages_check_length_before_reading_payload):
//   no queue with an active network and player id 0;
//   session/player operations before enable/setup return an error;
//   sequence/end markers are processed in a stable order;
//   a duplicate create mirror does not create a second instance;
//   an ownership change updates routing atomically;
//   pause/time messages apply at one simulation boundary;
//   resource transfer has the Network_ResourceTransferMaxDelay timeout;
//   a disconnect leaves no objects with a missing owner;
//   replaying the recorded message log gives the same World3D state.
#include <gtest/gtest.h>

#include "sortie/mission/class_ids.hpp"
#include "sortie/net/class_ids.hpp"
#include "sortie/net/message_log.hpp"
#include "sortie/net/net_commands.hpp"
#include "sortie/net/watcher.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;
using net::test::MemorySession;
using net::test::welcome_for;

namespace {

const world::ObjectId kUnit1{1, mission::class_ids::kTmaUnit, 1};
const world::ObjectId kUnit2{1, mission::class_ids::kTmaUnit, 2};

world::Command walk(world::ObjectId unit, float x, float y) {
  return world::make_command(0, move::GotoCommand{unit, {x, y}, 6.0f});
}

const world::WorldObject& object(const world::World& w, world::ObjectId id) {
  return *w.find(*w.lookup(id));
}

// A listener that plays a server by hand.
struct FakeServer {
  world::ManualPlatformClock clock;
  MemoryNetwork network{clock};
  std::unique_ptr<Transport> listener = network.listen("fake").value();
  std::unique_ptr<Transport> link = network.connect("fake").value();
  void send(const Message& m) {
    ASSERT_TRUE(listener->send(1, spec_of(id_of(m)).delivery, net::test::frame(m)).has_value());
  }
};

}  // namespace

TEST(NetChecksTest, no_queue_with_active_network_and_player_zero) {
  // A replica (the world queue of a networked session) for authority 0.
  Welcome w;
  w.authority = 0;
  w.step_us = 16000;
  EXPECT_EQ(Replica::create(w).error().code, "net.session.player_zero");
  // A session set up from a world whose local player is 0.
  world::WorldConfig config;
  config.local_player = 0;
  world::World zero(config);
  EXPECT_EQ(capture_setup(zero, 0, "m", std::nullopt).error().code, "net.session.player_zero");
  SessionSetup setup = net::test::small_setup();
  setup.authority = 0;
  world::ManualPlatformClock clock;
  MemoryNetwork network(clock);
  auto t = network.listen("s").value();
  EXPECT_EQ(Server::host(*t, setup, {}, clock).error().code, "net.session.player_zero");
  // A client the server numbers 0 refuses to build its queue.
  FakeServer fake;
  auto client = Client::join(*fake.link, ClientConfig{"alice"}, fake.clock).value();
  ASSERT_TRUE(client->poll().has_value());  // connected: HELLO goes out
  EXPECT_EQ(client->state(), ClientState::joining);
  fake.send(welcome_for(net::test::small_setup(), 99));
  fake.send(SetPlayerNumber{0});
  auto st = client->poll();
  ASSERT_FALSE(st.has_value());
  EXPECT_EQ(st.error().code, "net.session.player_zero");
  EXPECT_EQ(client->state(), ClientState::closed);
  EXPECT_EQ(client->replica()->world().live_count(), 0u);
}

TEST(NetChecksTest, session_operations_before_setup_return_errors) {
  FakeServer fake;
  auto client = Client::join(*fake.link, ClientConfig{"alice"}, fake.clock).value();
  // Not even connected.
  EXPECT_EQ(client->order(walk(kUnit1, 1, 1)).error().code, "net.session.not_setup");
  ASSERT_TRUE(client->poll().has_value());
  // Connected, HELLO sent, no welcome: still no player number and no world.
  EXPECT_EQ(client->state(), ClientState::joining);
  EXPECT_EQ(client->take(kUnit1).error().code, "net.session.not_setup");
  EXPECT_EQ(client->request_pause(true).error().code, "net.session.not_setup");
  EXPECT_EQ(client->say(0, "hi").error().code, "net.session.not_setup");
  EXPECT_EQ(client->set_player_data({1}).error().code, "net.session.not_setup");
  // During the setup.
  fake.send(welcome_for(net::test::small_setup(), 99));
  fake.send(SetPlayerNumber{2});
  ASSERT_TRUE(client->poll().has_value());
  EXPECT_EQ(client->state(), ClientState::setup);
  EXPECT_EQ(client->order(walk(kUnit1, 1, 1)).error().code, "net.session.not_setup");
  // After the session: closed.
  client->leave();
  EXPECT_EQ(client->order(walk(kUnit1, 1, 1)).error().code, "net.session.closed");
  // The replica refuses a tick before its setup; the server refuses to kick a stranger.
  Welcome w = welcome_for(net::test::small_setup(), 5);
  auto replica = Replica::create(w).value();
  EXPECT_EQ(replica->run_tick({}).error().code, "net.replica.unexpected");
  MemorySession session;
  EXPECT_EQ(session.server().kick(7).error().code, "net.player.unknown");
}

TEST(NetChecksTest, sequence_end_markers_processed_in_stable_order) {
  const SessionSetup setup = net::test::small_setup();
  const std::vector<Message> messages = setup_messages(setup).value();
  auto fresh = [&] {
    auto r = Replica::create(welcome_for(setup, static_cast<std::uint32_t>(messages.size()))).value();
    for (const Message& m : messages) EXPECT_TRUE(r->feed(m).has_value());
    return r;
  };
  // A message of tick 1 while tick 0 is open, and an end marker of tick 1 first: refused.
  auto r = fresh();
  EXPECT_EQ(r->feed(TickCommand{1, 1, world::encode_payload(world::StopCommand{kUnit1})}).error().code,
            "net.sequence.tick");
  EXPECT_EQ(r->feed(EndMessageSeq{1, 0, 0}).error().code, "net.sequence.tick");
  // An end marker that counts another number of messages than arrived: refused.
  ASSERT_TRUE(r->feed(TickCommand{0, 2, world::encode_payload(world::StopCommand{kUnit1})}).has_value());
  EXPECT_EQ(r->feed(EndMessageSeq{0, 2, 0}).error().code, "net.sequence.count");
  // The messages of a tick apply in their order: halt then go leaves the unit walking, go then
  // halt leaves it standing. Two replicas fed the same stream agree on every hash.
  auto a = fresh();
  auto b = fresh();
  move::EnableCommand body;
  body.target = kUnit1;
  auto enable = TickCommand{0, move::EnableCommand::kWireId, world::encode_payload(body)};
  auto halt = TickCommand{0, move::HaltCommand::kWireId, world::encode_payload(move::HaltCommand{kUnit1})};
  auto go = TickCommand{0, move::GotoCommand::kWireId, world::encode_payload(move::GotoCommand{kUnit1, {90, 90}, 6})};
  const std::uint64_t ha = a->run_tick(std::vector<Message>{enable, halt, go}).value();
  ASSERT_TRUE(b->feed(enable).has_value());
  ASSERT_TRUE(b->feed(halt).has_value());
  ASSERT_TRUE(b->feed(go).has_value());
  ASSERT_TRUE(b->feed(EndMessageSeq{0, 3, ha}).has_value());
  EXPECT_EQ(b->state_hash(), ha);
  const auto* walking = object(a->world(), kUnit1).components.get<move::BehaviorState>();
  ASSERT_NE(walking, nullptr);
  EXPECT_NE(walking->mode, move::BehaviorMode::idle);
  auto c = fresh();
  c->run_tick(std::vector<Message>{enable, go, halt}).value();
  const auto* standing = object(c->world(), kUnit1).components.get<move::BehaviorState>();
  ASSERT_NE(standing, nullptr);
  EXPECT_EQ(standing->mode, move::BehaviorMode::idle);
  EXPECT_NE(c->state_hash(), ha);
  // The world's log keeps the stream's order.
  ASSERT_EQ(a->world().command_log().commands.size(), 3u);
  EXPECT_EQ(a->world().command_log().commands[1].kind, move::HaltCommand::kWireId);
  // A wrong hash at the end marker is a desync naming the tick.
  auto d = fresh();
  ASSERT_TRUE(d->feed(go).has_value());
  auto st = d->feed(EndMessageSeq{0, 1, ha ^ 1});
  ASSERT_FALSE(st.has_value());
  EXPECT_EQ(st.error().code, "net.replica.desync");
  EXPECT_EQ(st.error().field, "ticks[0]");
}

TEST(NetChecksTest, duplicate_create_mirror_makes_no_second_instance) {
  const SessionSetup setup = net::test::small_setup();
  std::vector<Message> messages = setup_messages(setup).value();
  const CreateMirror first = std::get<CreateMirror>(messages.back());
  // Within the setup: the repeated create is counted as a setup message and ignored.
  std::vector<Message> with_dup = messages;
  with_dup.insert(with_dup.end() - 1, first);  // the last mirror arrives twice
  auto r = Replica::create(welcome_for(setup, static_cast<std::uint32_t>(with_dup.size()))).value();
  for (const Message& m : with_dup) ASSERT_TRUE(r->feed(m).has_value());
  EXPECT_TRUE(r->setup_complete());
  EXPECT_EQ(r->world().live_count(), setup.objects.size());
  EXPECT_EQ(r->mirrors_created(), setup.objects.size());
  EXPECT_EQ(r->duplicates_ignored(), 1u);
  // After the setup and a few ticks (the object moved since): still one instance, unchanged.
  ASSERT_TRUE(r->run_tick({}).has_value());
  const std::uint64_t hash = r->state_hash();
  ASSERT_TRUE(r->feed(first).has_value());
  EXPECT_EQ(r->world().live_count(), setup.objects.size());
  EXPECT_EQ(r->duplicates_ignored(), 2u);
  EXPECT_EQ(r->world().compute_state_hash(), hash);
  // The same id with another prototype is a conflict, not a second object.
  CreateMirror other = first;
  other.prototype = "unit_tank.dat";
  if (other.prototype == first.prototype) other.prototype = "static_tower";
  EXPECT_EQ(r->feed(other).error().code, "net.mirror.conflict");
  EXPECT_EQ(r->world().live_count(), setup.objects.size());
  // A brand-new object after the setup never comes as a create (objects arrive as commands).
  CreateMirror fresh = first;
  fresh.id = world::ObjectId{1, mission::class_ids::kTmaUnit, 999};
  EXPECT_EQ(r->feed(fresh).error().code, "net.replica.unexpected");
}

TEST(NetChecksTest, ownership_change_updates_routing_atomically) {
  MemorySession s;
  Client& alice = s.add_client("alice");
  Client& bob = s.add_client("bob");
  s.pump();
  s.tick(2);
  ASSERT_EQ(alice.state(), ClientState::in_game);
  ASSERT_EQ(bob.state(), ClientState::in_game);
  const PlayerNumber a = alice.player();
  const Watcher& watcher = s.server().watcher();
  EXPECT_EQ(watcher.route(s.server().world(), kUnit1), 1);
  // Alice takes unit 1: routing changes at once, the world at the start of the next tick.
  ASSERT_TRUE(alice.take(kUnit1).has_value());
  ASSERT_TRUE(alice.order(walk(kUnit1, 60, 60)).has_value());  // accepted: routed to alice already
  ASSERT_TRUE(bob.order(walk(kUnit1, 5, 5)).has_value());      // refused: not bob's
  s.pump();
  EXPECT_EQ(watcher.route(s.server().world(), kUnit1), a);
  EXPECT_EQ(object(s.server().world(), kUnit1).ownership().owner, 1);  // not yet
  EXPECT_EQ(s.server().stats().orders_accepted, 1u);
  EXPECT_EQ(s.server().stats().orders_rejected, 1u);
  EXPECT_EQ(s.server_trace().find(TraceChannel::netwatch, {"order_rejected", "why=not_owner"}).size(), 1u);
  // The host may no longer route orders to it either (its bot checks routing).
  const std::uint64_t change_tick = s.server().ticks();
  s.tick();
  // Server and both replicas flip at the same tick; the change came before alice's order in the
  // sequence, so her order applied to her own unit.
  for (const world::World* w : std::initializer_list<const world::World*>{
           &s.server().world(), &alice.replica()->world(), &bob.replica()->world()}) {
    EXPECT_EQ(object(*w, kUnit1).ownership().owner, a);
    EXPECT_TRUE(object(*w, kUnit1).is_mirror());
    ASSERT_GE(w->command_log().commands.size(), 2u);
    const auto& log = w->command_log().commands;
    EXPECT_EQ(log[log.size() - 2].kind, ChangeOwnerCommand::kWireId);
    EXPECT_EQ(log[log.size() - 2].tick, change_tick);
    EXPECT_EQ(log.back().kind, move::GotoCommand::kWireId);
  }
  EXPECT_EQ(watcher.pending_changes(), 0u);
  EXPECT_EQ(watcher.route(s.server().world(), kUnit1), a);
  EXPECT_EQ(s.server().world().last_hash(), alice.replica()->state_hash());
  EXPECT_EQ(s.server().world().last_hash(), bob.replica()->state_hash());
  // Taking an object another player owns is refused.
  ASSERT_TRUE(bob.take(kUnit1).has_value());
  s.pump();
  EXPECT_EQ(s.server_trace().find(TraceChannel::netwatch, {"take_rejected"}).size(), 1u);
}

TEST(NetChecksTest, pause_and_time_messages_apply_at_one_simulation_boundary) {
  MemorySession s;
  Client& alice = s.add_client("alice");
  Client& bob = s.add_client("bob");
  s.pump();
  s.tick(3);
  ASSERT_TRUE(alice.request_pause(true).has_value());
  s.pump();
  const std::uint64_t pause_tick = s.server().ticks();
  const std::uint64_t time_before = s.server().world().clock().time_us;
  s.tick(3);
  // Every replica stopped at the same boundary: the game time did not move from that tick on.
  for (const world::World* w : std::initializer_list<const world::World*>{
           &s.server().world(), &alice.replica()->world(), &bob.replica()->world()}) {
    EXPECT_TRUE(w->clock().paused);
    EXPECT_EQ(w->clock().time_us, time_before);
    EXPECT_EQ(w->clock().tick, pause_tick + 3);
  }
  // Resume at double speed: both messages land in one sequence, one boundary.
  s.server().pause(false);
  ASSERT_TRUE(s.server().set_speed(2000).has_value());
  EXPECT_EQ(s.server().set_speed(0).error().code, "net.session.time_scale");
  s.tick();
  for (const world::World* w : std::initializer_list<const world::World*>{
           &s.server().world(), &alice.replica()->world(), &bob.replica()->world()}) {
    EXPECT_FALSE(w->clock().paused);
    EXPECT_EQ(w->clock().scale_permille, 2000u);
    EXPECT_EQ(w->clock().time_us, time_before + 2 * world::kDefaultStepUs);
  }
  EXPECT_EQ(alice.replica()->state_hash(), s.server().world().last_hash());
  EXPECT_EQ(bob.replica()->state_hash(), s.server().world().last_hash());
}

TEST(NetChecksTest, resource_transfer_times_out_after_network_resource_transfer_max_delay) {
  // Client side: a server that stops in the middle of a resource.
  FakeServer fake;
  ClientConfig config{"alice"};
  config.resource_max_delay_us = 2'000'000;
  auto client = Client::join(*fake.link, config, fake.clock).value();
  ASSERT_TRUE(client->poll().has_value());
  const core::Bytes blob(3000, 0x5a);
  const auto chunks = resource_chunks(9, ResourceKind::blob, "big", blob);
  ASSERT_EQ(chunks.size(), 3u);
  fake.send(welcome_for(net::test::small_setup(), 10));
  fake.send(SetPlayerNumber{2});
  fake.send(chunks[0]);
  ASSERT_TRUE(client->poll().has_value());
  fake.clock.advance(2'000'000);  // exactly the limit: still waiting
  ASSERT_TRUE(client->poll().has_value());
  EXPECT_EQ(client->state(), ClientState::setup);
  fake.clock.advance(1);
  auto st = client->poll();
  ASSERT_FALSE(st.has_value());
  EXPECT_EQ(st.error().code, "net.resource.timeout");
  EXPECT_EQ(client->closed_reason(), Reason::resource_timeout);
  // The server learns which resource was dropped.
  bool removed = false;
  for (const Message& m : net::test::drain(*fake.listener)) {
    if (const auto* r = std::get_if<RemoveResource>(&m))
      removed = r->resource == 9 && r->reason == Reason::resource_timeout;
  }
  EXPECT_TRUE(removed);

  // Server side: a client that never confirms its setup is dropped after the same delay.
  ServerConfig sc;
  sc.resource_max_delay_us = 2'000'000;
  MemorySession s(net::test::small_setup(), sc);
  Transport& raw = s.add_raw();
  s.pump();
  ASSERT_TRUE(
      raw.send(1, Delivery::reliable_ordered, net::test::frame(Hello{kApplicationGuid, kProtocolVersion, "mute"}))
          .has_value());
  s.pump();
  s.advance_us(2'000'000);
  s.pump();
  EXPECT_TRUE(s.server().departures().empty());
  s.advance_us(1);
  s.pump();
  ASSERT_EQ(s.server().departures().size(), 1u);
  EXPECT_EQ(s.server().departures()[0].reason, Reason::resource_timeout);
  EXPECT_EQ(s.server_trace().find(TraceChannel::resnet, {"disconnect", "reason=resource_timeout"}).size(), 1u);
}

TEST(NetChecksTest, disconnect_leaves_no_object_with_missing_owner) {
  for (const OwnedObjectPolicy policy : {OwnedObjectPolicy::transfer, OwnedObjectPolicy::remove}) {
    ServerConfig config;
    config.leave_policy = policy;
    MemorySession s(net::test::small_setup(), config);
    Client& alice = s.add_client("alice");
    Client& bob = s.add_client("bob");
    s.pump();
    s.tick(2);
    const PlayerNumber a = alice.player();
    ASSERT_TRUE(alice.take(kUnit2).has_value());
    ASSERT_TRUE(
        alice.order(world::make_command(0, SpawnForCommand{a, net::class_ids::kNetUnit, "unit_tank.dat", {30, 30, 0}}))
            .has_value());
    s.pump();
    s.tick(2);
    const world::World& w = s.server().world();
    ASSERT_EQ(s.server().watcher().routed_to(w, a).size(), 2u);
    const std::size_t before = w.live_count();
    // Alice vanishes in the middle of the game: nothing in the world changes inside the
    // receive path...
    alice.leave();
    s.pump();
    EXPECT_EQ(w.live_count(), before);
    EXPECT_EQ(s.server().decided(), 1u);  // the KILL_PLAYER waits for the next tick
    // ...and the next tick transfers or removes her objects on every replica at once.
    s.tick();
    const std::vector<PlayerNumber> players{bob.player()};
    EXPECT_TRUE(orphaned_objects(w, players).empty());
    EXPECT_TRUE(orphaned_objects(bob.replica()->world(), players).empty());
    EXPECT_TRUE(s.server().watcher().routed_to(w, a).empty());
    if (policy == OwnedObjectPolicy::transfer) {
      EXPECT_EQ(w.live_count(), before);
      EXPECT_EQ(object(w, kUnit2).ownership().owner, 1);
    } else {
      EXPECT_EQ(w.live_count(), before - 2);
      EXPECT_FALSE(w.lookup(kUnit2).has_value());
    }
    EXPECT_EQ(bob.replica()->state_hash(), w.last_hash());
    EXPECT_EQ(bob.replica()->players().count(a), 0u);
    ASSERT_EQ(s.server().departures().size(), 1u);
    EXPECT_EQ(s.server().departures()[0].objects, 2u);
  }
}

TEST(NetChecksTest, replay_of_recorded_message_log_gives_same_world_state) {
  MemorySession s;
  Client& alice = s.add_client("alice");
  s.pump();
  s.tick(3);
  ASSERT_TRUE(alice.take(kUnit1).has_value());
  ASSERT_TRUE(alice.order(walk(kUnit1, 70, 40)).has_value());
  ASSERT_TRUE(s.server().submit(walk(kUnit2, 20, 100)).has_value());
  s.tick(5);
  s.server().pause(true);
  s.tick(2);
  Client& bob = s.add_client("bob");  // a late joiner
  s.pump();
  s.tick(20);
  alice.leave();
  s.tick(10);
  ASSERT_EQ(bob.replica()->state_hash(), s.server().world().last_hash());
  const core::Bytes bytes = s.server().message_log();
  auto log = read_message_log(bytes);
  ASSERT_TRUE(log.has_value()) << log.error().to_string();
  EXPECT_EQ(write_message_log(*log).value(), bytes);  // lossless
  auto outcome = replay_message_log(*log);
  ASSERT_TRUE(outcome.has_value()) << outcome.error().to_string();
  EXPECT_EQ(outcome->ticks, s.server().ticks());
  EXPECT_EQ(outcome->final_hash, s.server().world().last_hash());
  EXPECT_EQ(outcome->objects, s.server().world().live_count());
  EXPECT_EQ(outcome->players, 2u);  // the host and bob
  EXPECT_EQ(outcome->mission_path, "MISSIONS/test/data.tma");
  // The last tick carried no message: without its END the log replays one tick less.
  core::Bytes cut = bytes;
  cut.resize(cut.size() - 21);
  EXPECT_EQ(replay_message_log(read_message_log(cut).value()).value().ticks, s.server().ticks() - 1);
  // A frame cut short does not read; a sequence without its END does not replay.
  cut.pop_back();
  EXPECT_EQ(read_message_log(cut).error().code, "net.frame.truncated");
  core::Bytes open = bytes;
  const core::Bytes extra = net::test::frame(
      TickCommand{s.server().ticks(), world::StopCommand::kWireId, world::encode_payload(world::StopCommand{kUnit1})});
  open.insert(open.end(), extra.begin(), extra.end());
  EXPECT_EQ(replay_message_log(read_message_log(open).value()).error().code, "net_log.truncated");
}
