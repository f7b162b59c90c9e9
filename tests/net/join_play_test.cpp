// A joined player plays (net/join_play.hpp; issue #19 part 7), over the in-process transport and a
// manual clock: the demo sample's m01 served without its scenario, alice claims the Player clan's
// units and orders them to a point in formation with the mission game's rules; the server's world,
// alice's replica and a spectator's all show them arriving and end on the server's hash, which
// the server's message log replays to. An order for a unit alice does not own is refused by the
// server (`order_rejected why=not_owner`) and changes nothing.
#include "sortie/net/join_play.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "sortie/move/commands.hpp"
#include "sortie/move/components.hpp"
#include "sortie/net/message_log.hpp"
#include "sortie/net/session_report.hpp"
#include "sortie_test/demo_game.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;
using net::test::MemorySession;

namespace {

const world::WorldObject* live(const world::World& w, world::ObjectId id) {
  const auto h = w.lookup(id);
  return h ? w.find(*h) : nullptr;
}

class JoinPlayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto hosted = host_mission(context_, "m01", 1);
    ASSERT_TRUE(hosted) << hosted.error().to_string();
    session_ = std::make_unique<MemorySession>(hosted->setup);
    for (const world::Command& c : hosted->start) ASSERT_TRUE(session_->server().submit(c));
    alice_ = &session_->add_client("alice");
    bob_ = &session_->add_client("bob");  // a spectator
    session_->tick(3);
    ASSERT_EQ(alice_->state(), ClientState::in_game);
    ASSERT_EQ(bob_->state(), ClientState::in_game);
    auto play = JoinPlay::create(*alice_, *context_.current());
    ASSERT_TRUE(play) << play.error().to_string();
    play_ = std::move(*play);
  }

  // Server ticks with alice's game stepped after each (claims, follows).
  void run(std::uint64_t ticks) {
    for (std::uint64_t i = 0; i < ticks; ++i) {
      session_->tick();
      ASSERT_TRUE(play_->step());
    }
  }

  [[nodiscard]] const world::WorldObject* on_server(world::ObjectId id) { return live(session_->server().world(), id); }

  mission::GameContext context_ = sortie::test::game_over(sortie::test::demo_files());
  std::unique_ptr<MemorySession> session_;
  Client* alice_ = nullptr;
  Client* bob_ = nullptr;
  std::unique_ptr<JoinPlay> play_;
};

TEST_F(JoinPlayTest, a_player_claims_its_clan_and_its_formation_order_arrives_on_every_replica) {
  EXPECT_EQ(play_->player_clan_name(), "Player");
  EXPECT_TRUE(play_->player_units().empty());  // nothing before the claim
  run(3);
  ASSERT_TRUE(play_->claim_sent());
  const std::vector<world::ObjectId> units = play_->player_units();
  ASSERT_EQ(units.size(), play_->claimed());
  ASSERT_GE(units.size(), 2u);
  for (const auto& id : units) {
    const world::WorldObject* o = on_server(id);
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(o->ownership().owner, alice_->player());
    EXPECT_TRUE(o->is_mirror());  // a player's object is a mirror on every replica, and still moves
  }
  // The order: 30 units from the group's centre toward the map's centre.
  core::Vec2 from{};
  for (const auto& id : units) {
    from.x += on_server(id)->transform.position.x / static_cast<float>(units.size());
    from.y += on_server(id)->transform.position.y / static_cast<float>(units.size());
  }
  const auto bounds = mission::map_bounds(*context_.current()->data);
  const core::Vec2 centre{(bounds.min_x + bounds.max_x) / 2, (bounds.min_y + bounds.max_y) / 2};
  const float dx = centre.x - from.x, dy = centre.y - from.y, d = std::sqrt(dx * dx + dy * dy);
  ASSERT_GT(d, 1.0f);
  const core::Vec2 point{from.x + dx / d * 30.0f, from.y + dy / d * 30.0f};
  const std::uint64_t sent_before = play_->orders_sent();
  ASSERT_EQ(play_->go(units, point), units.size());
  EXPECT_EQ(play_->orders_sent() - sent_before, units.size());  // one move.goto per unit
  ASSERT_TRUE(play_->last_action().has_value());
  EXPECT_EQ(play_->last_action()->kind, mission::ActionKind::go);
  const auto goals = mission::formation_goals(point, from, units.size(), play_->options().spacing);
  run(1500);  // 24 s (the route goes around the base)
  // Every unit stands at a goal of the formation, on the server and on both replicas.
  for (const auto& id : units) {
    const world::WorldObject* o = on_server(id);
    ASSERT_NE(o, nullptr);
    float nearest = 1e9f;
    for (const auto& g : goals)
      nearest = std::min(nearest, std::hypot(o->transform.position.x - g.x, o->transform.position.y - g.y));
    const auto* b = o->components.get<move::BehaviorState>();
    EXPECT_LT(nearest, 2.0f) << id.to_string() << " at " << o->transform.position.x << "," << o->transform.position.y
                             << " from " << from.x << "," << from.y << " to " << point.x << "," << point.y << " mode "
                             << (b ? std::string(move::to_string(b->mode)) : "-") << " target " << (b ? b->target.x : 0)
                             << "," << (b ? b->target.y : 0);
    for (const Client* c : {alice_, bob_}) {
      const world::WorldObject* r = live(c->replica()->world(), id);
      ASSERT_NE(r, nullptr);
      EXPECT_EQ(r->transform.position, o->transform.position);
    }
  }
  const std::uint64_t hash = session_->server().replica().state_hash();
  for (const Client* c : {alice_, bob_}) {
    EXPECT_EQ(c->ticks(), session_->server().ticks());
    EXPECT_EQ(c->replica()->state_hash(), hash);
    EXPECT_EQ(c->stats().sync_mismatches, 0u);
  }
  EXPECT_EQ(session_->server().stats().orders_rejected, 0u);
  // The server's message log replays to the same world.
  const auto log = read_message_log(session_->server().message_log());
  ASSERT_TRUE(log) << log.error().to_string();
  const auto replayed = replay_message_log(*log);
  ASSERT_TRUE(replayed) << replayed.error().to_string();
  EXPECT_EQ(replayed->ticks, session_->server().ticks());
  EXPECT_EQ(replayed->final_hash, hash);
}

TEST_F(JoinPlayTest, an_order_for_a_unit_the_player_does_not_own_is_refused_by_the_server) {
  run(3);
  // A unit of another clan, still the authority's.
  const world::World& w = alice_->replica()->world();
  std::optional<world::ObjectId> theirs;
  for (const world::Handle h : w.queue()) {
    const world::WorldObject* o = w.find(h);
    if (o != nullptr && w.classes().is_unit(o->class_id()) && o->components.has<move::Body>() &&
        o->ownership().owner == w.local_player()) {
      theirs = o->id();
      break;
    }
  }
  ASSERT_TRUE(theirs.has_value());
  EXPECT_FALSE(play_->commandable(*theirs));
  EXPECT_EQ(play_->go(std::vector<world::ObjectId>{*theirs}, {10.0f, 10.0f}), 0u);  // the game does not send it
  // A client that sends it anyway: refused and traced, the unit stays where it is.
  const core::Vec3 before = on_server(*theirs)->transform.position;
  ASSERT_TRUE(alice_->order(world::make_command(0, move::GotoCommand{*theirs, {10.0f, 10.0f}, 6.0f})));
  run(120);
  EXPECT_EQ(session_->server().stats().orders_rejected, 1u);
  const auto lines = session_->server_trace().find(
      TraceChannel::netwatch, {"order_rejected", "player=2", "why=not_owner", theirs->to_string()});
  EXPECT_EQ(lines.size(), 1u);
  EXPECT_EQ(on_server(*theirs)->transform.position, before);
  EXPECT_EQ(alice_->replica()->state_hash(), session_->server().replica().state_hash());
}

TEST_F(JoinPlayTest, a_clan_the_mission_does_not_have_is_refused) {
  JoinPlayOptions o;
  o.clan = "Martians";
  const auto play = JoinPlay::create(*bob_, *context_.current(), o);
  ASSERT_FALSE(play);
  EXPECT_EQ(play.error().code, "join.clan");
}

}  // namespace
