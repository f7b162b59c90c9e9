// LaneClearFrom thresholds and order, lane pushes and the lane registry (seed 002 §1, §4).
#include "sortie/squad/lanes.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace sortie::squad {
namespace {

using core::Vec2;

struct LaneWorld {
  WallGrid walls;
  BodyGrid allies;
  Tuning t;
  explicit LaneWorld(std::vector<Vec2> agents, std::vector<std::pair<int, int>> wall_cells = {}) {
    std::vector<std::uint8_t> cells(20 * 10, 0);
    for (auto [x, y] : wall_cells) cells[static_cast<std::size_t>(y * 20 + x)] = 1;
    walls = WallGrid(20, 10, std::move(cells));
    allies.reset(20.0f, 10.0f, 1.0f);
    allies.build(agents.size(), [&](std::size_t i, Vec2& p) {
      p = agents[i];
      return true;
    });
  }
  LaneCheck check(Vec2 from, Vec2 to, LaneDetail d = LaneDetail::first_failure) const {
    return lane_clear_from(walls, t, allies, 0, from, to, d);
  }
};

TEST(Lanes, thresholds_are_the_seeds_sums) {
  const Tuning t;
  EXPECT_FLOAT_EQ(lane_threshold(t), 0.53f);         // 0.28 + 0.10 + 0.15
  EXPECT_NEAR(reserve_threshold(t), 0.954f, 1e-6f);  // x 1.8
  EXPECT_FLOAT_EQ(hard_limit(t), 3.1f);
}

TEST(Lanes, muzzle_sits_0_3_towards_the_target) {
  const Vec2 m = muzzle_point({2.0f, 5.0f}, {2.0f, 9.0f}, 0.3f);
  EXPECT_EQ(m, (Vec2{2.0f, 5.3f}));
}

TEST(Lanes, ally_just_inside_the_threshold_blocks) {
  const LaneWorld w({{2.0f, 5.0f}, {5.0f, 5.52f}});
  const LaneCheck c = w.check({2.0f, 5.0f}, {9.0f, 5.0f});
  EXPECT_FALSE(c.clear);
  EXPECT_TRUE(c.blocked_by_ally);
  EXPECT_EQ(c.ally, 1);
}

TEST(Lanes, ally_just_outside_the_threshold_does_not_block) {
  const LaneWorld w({{2.0f, 5.0f}, {5.0f, 5.54f}});
  EXPECT_TRUE(w.check({2.0f, 5.0f}, {9.0f, 5.0f}).clear);
}

TEST(Lanes, the_shooter_itself_never_blocks) {
  const LaneWorld w({{2.0f, 5.0f}});
  EXPECT_TRUE(w.check({2.0f, 5.0f}, {9.0f, 5.0f}).clear);
}

TEST(Lanes, ally_behind_the_muzzle_does_not_block) {
  // 0.6 behind the shooter: 0.9 from the muzzle, the segment's start.
  const LaneWorld w({{2.0f, 5.0f}, {1.4f, 5.0f}});
  EXPECT_TRUE(w.check({2.0f, 5.0f}, {9.0f, 5.0f}).clear);
}

TEST(Lanes, a_wall_cell_on_the_segment_blocks) {
  const LaneWorld w({{2.0f, 5.0f}}, {{6, 5}});
  const LaneCheck c = w.check({2.0f, 5.5f}, {9.0f, 5.5f});
  EXPECT_FALSE(c.clear);
  EXPECT_TRUE(c.blocked_by_wall);
}

TEST(Lanes, range_is_measured_from_the_muzzle) {
  const LaneWorld w({{2.0f, 5.0f}});
  EXPECT_TRUE(w.check({2.0f, 5.0f}, {10.25f, 5.0f}).clear);     // 7.95 from the muzzle
  const LaneCheck far = w.check({2.0f, 5.0f}, {10.35f, 5.0f});  // 8.05
  EXPECT_FALSE(far.clear);
  EXPECT_TRUE(far.out_of_range);
}

TEST(Lanes, any_point_can_be_asked_not_only_the_shooters) {
  // The shooter (0) stands at (2,5) with an ally in its lane; from (2,7) the lane is clear.
  const LaneWorld w({{2.0f, 5.0f}, {5.0f, 5.0f}});
  EXPECT_FALSE(w.check({2.0f, 5.0f}, {9.0f, 5.0f}).clear);
  EXPECT_TRUE(w.check({2.0f, 7.0f}, {9.0f, 7.0f}).clear);
}

TEST(Lanes, all_reasons_reports_ally_wall_and_range_together) {
  const LaneWorld w({{2.0f, 5.5f}, {4.0f, 5.5f}}, {{6, 5}});
  const LaneCheck first = w.check({2.0f, 5.5f}, {12.0f, 5.5f});
  EXPECT_TRUE(first.out_of_range);  // the cheapest check first, then stop
  EXPECT_FALSE(first.blocked_by_wall);
  EXPECT_FALSE(first.blocked_by_ally);
  const LaneCheck all = w.check({2.0f, 5.5f}, {12.0f, 5.5f}, LaneDetail::all_reasons);
  EXPECT_TRUE(all.blocked_by_ally);
  EXPECT_TRUE(all.blocked_by_wall);
  EXPECT_TRUE(all.out_of_range);
}

TEST(LanePush, grows_towards_the_axis_and_saturates) {
  const Lane lane{1, 2, {0.0f, 0.0f}, {10.0f, 0.0f}, false};
  const Vec2 half = lane_push({5.0f, 0.477f}, lane, 0.954f, 1.0f);
  EXPECT_EQ(half.x, 0.0f);
  EXPECT_NEAR(half.y, 0.5f, 1e-6f);  // (1 - 0.477/0.954) x 1
  EXPECT_NEAR(lane_push({5.0f, -0.477f}, lane, 0.954f, 1.0f).y, -0.5f, 1e-6f);
  EXPECT_EQ(lane_push({5.0f, 0.477f}, lane, 0.954f, 3.0f).y, 1.0f);            // 1.5 saturates to 1
  EXPECT_EQ(lane_push({5.0f, 0.0f}, lane, 0.954f, 1.0f), (Vec2{0.0f, 1.0f}));  // on the axis: right
  EXPECT_EQ(lane_push({5.0f, 1.0f}, lane, 0.954f, 1.0f), (Vec2{}));            // outside the reserve
}

TEST(LaneRegistry, pushes_by_other_agents_lanes_only) {
  LaneRegistry r;
  r.reset(20.0f, 10.0f);
  r.add({7, 3, {0.0f, 5.0f}, {10.0f, 5.0f}, false});
  r.build(0.954f);
  EXPECT_NEAR(r.avoidance({5.0f, 5.477f}, 1, 1.0f).y, 0.5f, 1e-6f);
  EXPECT_EQ(r.avoidance({5.0f, 5.477f}, 7, 1.0f), (Vec2{}));  // its own lane
  EXPECT_EQ(r.count_blocked({5.0f, 5.5f}, 1, 0.53f), 1);
  EXPECT_EQ(r.count_blocked({5.0f, 5.6f}, 1, 0.53f), 0);
  EXPECT_EQ(r.count_blocked({5.0f, 5.5f}, 7, 0.53f), 0);
}

TEST(LaneRegistry, between_two_lanes_leaves_by_the_nearer_edge_of_the_bundle) {
  LaneRegistry r;
  r.reset(20.0f, 10.0f);
  r.add({1, 0, {0.0f, 3.0f}, {10.0f, 3.0f}, false});
  r.add({2, 0, {0.0f, 4.2f}, {10.0f, 4.2f}, true});
  r.build(0.954f);
  // At y = 3.5 the two pushes (up 0.476, down 0.266) oppose. Leaving upwards takes
  // 4.2 + 0.954 - 3.5 = 1.654, downwards 3.5 - 3 + 0.954 = 1.454: down, at full strength.
  const Vec2 push = r.avoidance({5.0f, 3.5f}, 9, 1.0f);
  EXPECT_NEAR(push.x, 0.0f, 1e-6f);
  EXPECT_NEAR(push.y, -1.0f, 1e-6f);
}

}  // namespace
}  // namespace sortie::squad
