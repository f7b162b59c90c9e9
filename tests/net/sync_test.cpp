// GMSG_SYNC_STATE: quantisation, per-object delta baselines, the byte budget, removal, and a
// receiver that never applies what it cannot decode.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sortie/core/rng.hpp"
#include "sortie/net/sync_state.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;

namespace {

world::ObjectId id(std::uint32_t i) {
  return world::ObjectId{1, 20, i};
}

QuantizedState at(std::int32_t x, std::int32_t y) {
  QuantizedState q;
  q.field[0] = x;
  q.field[1] = y;
  q.owner = 1;
  q.flags = 3;
  return q;
}

}  // namespace

TEST(SyncStateTest, quantises_to_nearest_with_halves_away_from_zero) {
  EXPECT_EQ(quantize_value(1.5f, kPositionScale), 48);
  EXPECT_EQ(quantize_value(-2.25f, kPositionScale), -72);
  EXPECT_EQ(quantize_value(1.0f / 64.0f, kPositionScale), 1);    // 0.5 quanta -> 1
  EXPECT_EQ(quantize_value(-1.0f / 64.0f, kPositionScale), -1);  // -0.5 quanta -> -1
  EXPECT_EQ(quantize_value(0.01f, kPositionScale), 0);           // 0.32 quanta
  EXPECT_EQ(quantize_value(3.0f, kOrientationScale), 3072);
  EXPECT_EQ(quantize_value(std::nanf(""), kPositionScale), 0);
  EXPECT_EQ(quantize_value(1e10f, kPositionScale), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(quantize_value(-1e10f, kPositionScale), std::numeric_limits<std::int32_t>::min());
}

TEST(SyncStateTest, quantises_a_world_object) {
  auto w = net::test::small_world(2);
  const SyncView view = quantize_world(*w);
  ASSERT_EQ(view.size(), 4u);
  // Object 2: position (22, 23, 0.5), orientation z 0.25.
  const QuantizedState& q = view.at(world::ObjectId{1, 20, 2});
  EXPECT_EQ(q.field[0], 22 * 32);
  EXPECT_EQ(q.field[1], 23 * 32);
  EXPECT_EQ(q.field[2], 16);
  EXPECT_EQ(q.field[5], 256);
  EXPECT_EQ(q.owner, 1);
  EXPECT_EQ(q.flags, 3);
}

TEST(SyncStateTest, deltas_against_the_acknowledged_baseline) {
  SyncSender sender;
  SyncReceiver receiver;
  SyncView v{{id(1), at(100, 200)}};
  SyncState m1 = sender.build(2, v);
  ASSERT_EQ(m1.entries.size(), 1u);
  EXPECT_EQ(m1.entries[0].age, 0u);  // nothing acknowledged: absolute
  EXPECT_EQ(m1.entries[0].delta[0], 100);
  ASSERT_TRUE(receiver.apply(m1).has_value());
  sender.acknowledge(2);
  v[id(1)] = at(108, 200);
  SyncState m2 = sender.build(4, v);
  ASSERT_EQ(m2.entries.size(), 1u);
  EXPECT_EQ(m2.entries[0].age, 2u);  // against tick 2
  EXPECT_EQ(m2.entries[0].mask, SyncEntry::kPosX);
  EXPECT_EQ(m2.entries[0].delta[0], 8);
  ASSERT_TRUE(receiver.apply(m2).has_value());
  EXPECT_EQ(receiver.view().at(id(1)), at(108, 200));
  // The same state again: nothing to send once acknowledged.
  sender.acknowledge(4);
  EXPECT_TRUE(sender.build(6, v).entries.empty());
  // The encoded entry is a few bytes: id step, age, mask, one zigzag delta.
  EXPECT_LE(net::test::frame(m2).size(), 3u + 8 + 2 + 12);
}

TEST(SyncStateTest, unacknowledged_messages_never_become_baselines) {
  SyncSender sender;
  SyncReceiver receiver;
  SyncView v{{id(1), at(0, 0)}};
  ASSERT_TRUE(receiver.apply(sender.build(1, v)).has_value());
  sender.acknowledge(1);
  v[id(1)] = at(5, 0);
  (void)sender.build(2, v);  // lost
  v[id(1)] = at(9, 0);
  SyncState m3 = sender.build(3, v);
  ASSERT_EQ(m3.entries.size(), 1u);
  EXPECT_EQ(m3.entries[0].age, 2u);  // still against tick 1, the acknowledged one
  EXPECT_EQ(m3.entries[0].delta[0], 9);
  ASSERT_TRUE(receiver.apply(m3).has_value());
  EXPECT_EQ(receiver.view().at(id(1)).field[0], 9);
}

TEST(SyncStateTest, removal_and_reappearance) {
  SyncSender sender;
  SyncReceiver receiver;
  SyncView v{{id(1), at(1, 1)}, {id(2), at(2, 2)}};
  ASSERT_TRUE(receiver.apply(sender.build(1, v)).has_value());
  sender.acknowledge(1);
  v.erase(id(1));
  SyncState m = sender.build(2, v);
  ASSERT_EQ(m.entries.size(), 1u);
  EXPECT_EQ(m.entries[0].mask, SyncEntry::kRemoved);
  ASSERT_TRUE(receiver.apply(m).has_value());
  EXPECT_EQ(receiver.view().count(id(1)), 0u);
  EXPECT_EQ(receiver.view().size(), 1u);
}

TEST(SyncStateTest, budget_bounds_every_message_and_priority_covers_everyone) {
  SyncOptions o;
  o.budget_bytes = 40;
  SyncSender sender(o);
  SyncReceiver receiver;
  SyncView v;
  for (std::uint32_t i = 1; i <= 30; ++i) v[id(i)] = at(static_cast<std::int32_t>(i * 1000), 7);
  for (std::uint64_t tick = 1; tick <= 40; ++tick) {
    SyncState m = sender.build(tick, v);
    const core::Bytes bytes = net::test::frame(m);
    EXPECT_LE(bytes.size(), 3u + 10 + 40 + 8) << tick;  // header + budget (+ the first id's extra bytes)
    ASSERT_TRUE(receiver.apply(m).has_value());
    sender.acknowledge(tick);
  }
  EXPECT_EQ(receiver.view(), v);
}

TEST(SyncStateTest, converges_under_loss_while_objects_move) {
  SyncSender sender;
  SyncReceiver receiver;
  core::Rng rng(5, 1);
  SyncView v;
  for (std::uint32_t i = 1; i <= 100; ++i) v[id(i)] = at(static_cast<std::int32_t>(i), 0);
  for (std::uint64_t tick = 1; tick <= 400; ++tick) {
    if (tick < 300) {
      for (auto& [key, q] : v) q.field[0] += 3;  // everyone moves 3 quanta a tick
    }
    SyncState m = sender.build(tick, v);
    if (rng.below(4) == 0) continue;  // a quarter of the messages are lost
    ASSERT_TRUE(receiver.apply(m).has_value()) << tick;
    if (rng.below(4) != 0) sender.acknowledge(tick);  // and some acknowledgements
  }
  EXPECT_EQ(receiver.view(), v);
}

TEST(SyncStateTest, receiver_refuses_stale_and_undecodable_messages) {
  SyncSender sender;
  SyncReceiver receiver;
  SyncView v{{id(1), at(1, 1)}};
  ASSERT_TRUE(receiver.apply(sender.build(5, v)).has_value());
  SyncState old = sender.build(5, v);
  EXPECT_EQ(receiver.apply(old).error().code, "net.sync.stale");
  SyncState bad;
  bad.tick = 9;
  SyncEntry e;
  e.id = id(1);
  e.age = 2;  // tick 7: never received
  e.mask = SyncEntry::kPosX;
  e.delta[0] = 1;
  bad.entries.push_back(e);
  EXPECT_EQ(receiver.apply(bad).error().code, "net.sync.baseline_missing");
  EXPECT_EQ(receiver.view().at(id(1)), at(1, 1));  // nothing applied
  SyncState gone;
  gone.tick = 10;
  SyncEntry r;
  r.id = id(2);
  r.mask = SyncEntry::kRemoved;
  gone.entries.push_back(r);
  EXPECT_EQ(receiver.apply(gone).error().code, "net.sync.removed_unknown");
}
