// The solver's candidates, score terms and hysteresis (seed 002 §3), the leash (§5a) and the
// formations (§6), each against numbers worked out by hand.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "sortie/squad/formation.hpp"
#include "sortie/squad/leash.hpp"
#include "sortie/squad/solver.hpp"

namespace sortie::squad {
namespace {

using core::Vec2;

TEST(Solver, thirty_seven_candidates_in_three_rings_of_twelve) {
  const Tuning t;
  const auto c = candidate_positions({10.0f, 10.0f}, t);
  ASSERT_EQ(c.size(), 37u);
  EXPECT_EQ(c[0], (Vec2{10.0f, 10.0f}));                   // the current position
  EXPECT_EQ(c[1], (Vec2{10.8f, 10.0f}));                   // ring 0.8, 0 degrees
  EXPECT_EQ(c[1 + 12 + 3], (Vec2{10.0f, 11.6f}));          // ring 1.6, 90 degrees
  EXPECT_NEAR(c[36].x, 10.0f + 2.4f * 0.8660254f, 1e-5f);  // ring 2.4, 330 degrees
  EXPECT_NEAR(c[36].y, 10.0f - 1.2f, 1e-5f);
  std::set<std::pair<float, float>> distinct;
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 12; ++k) {
      const Vec2 p = c[static_cast<std::size_t>(1 + 12 * r + k)];
      EXPECT_NEAR(core::distance(p, c[0]), (r + 1) * 0.8f, 1e-5f);
      distinct.insert({p.x, p.y});
    }
  }
  EXPECT_EQ(distinct.size(), 36u);
}

TEST(Solver, each_score_term) {
  const Tuning t;
  CandidateFacts f;
  f.lane_clear = true;
  f.clear_targets = 2;
  f.live_targets = 8;
  f.blocked_allies = 2;
  f.move_distance = 1.6f;
  f.anchor_distance = 2.5f;
  f.nearest_target_distance = 1.5f;
  const ScoreTerms s = score_candidate(f, t);
  EXPECT_EQ(s.lane, 100.0f);
  EXPECT_EQ(s.share, 6.25f);              // 25 x 2/8
  EXPECT_EQ(s.block, -70.0f);             // -35 x 2
  EXPECT_NEAR(s.move, -14.4f, 1e-5f);     // -9 x 1.6
  EXPECT_NEAR(s.cohesion, -9.6f, 1e-5f);  // -24 x (2.5 - 2.1)
  EXPECT_EQ(s.close, -60.0f);             // 1.5 < minEngageDist 1.6
  EXPECT_NEAR(s.total(), -47.75f, 1e-4f);
}

TEST(Solver, terms_switch_off_at_their_bounds) {
  const Tuning t;
  CandidateFacts f;
  f.anchor_distance = 2.1f;
  f.nearest_target_distance = 1.6f;
  const ScoreTerms s = score_candidate(f, t);
  EXPECT_EQ(s.lane, 0.0f);
  EXPECT_EQ(s.share, 0.0f);  // no live targets: no share
  EXPECT_EQ(s.cohesion, 0.0f);
  EXPECT_EQ(s.close, 0.0f);
  EXPECT_EQ(s.total(), 0.0f);
}

TEST(Solver, commits_only_when_better_by_more_than_fifteen) {
  const Tuning t;
  EXPECT_FALSE(should_commit(115.0f, 100.0f, t));
  EXPECT_TRUE(should_commit(115.01f, 100.0f, t));
  EXPECT_FALSE(should_commit(-40.0f, -50.0f, t));
  EXPECT_TRUE(should_commit(-34.0f, -50.0f, t));
}

TEST(Solver, hard_limit_is_cohesion_plus_post_leash) {
  const Tuning t;
  EXPECT_FALSE(beyond_hard_limit(3.1f, t));
  EXPECT_TRUE(beyond_hard_limit(3.11f, t));
}

TEST(Leash, urgency_rises_between_its_start_and_the_hard_bound) {
  const Tuning t;
  const float start = 2.4f * 1.315f;  // 3.156
  EXPECT_EQ(leash_urgency(2.4f, t), 0.0f);
  EXPECT_NEAR(leash_urgency(start, t), 0.0f, 1e-6f);
  EXPECT_NEAR(leash_urgency((start + 3.6f) * 0.5f, t), 0.5f, 1e-5f);
  EXPECT_EQ(leash_urgency(3.6f, t), 1.0f);
  EXPECT_EQ(leash_urgency(5.0f, t), 1.0f);
}

TEST(Leash, disc_speed_drags_beyond_the_soft_bound) {
  const Tuning t;
  EXPECT_EQ(disc_speed(2.0f, false, t), 3.3f);
  EXPECT_EQ(disc_speed(2.4f, false, t), 3.3f);
  EXPECT_NEAR(disc_speed(3.4f, false, t), 3.3f * (1.0f - 0.75f / 2.4f), 1e-5f);  // 2.26875
  EXPECT_EQ(disc_speed(2.0f, true, t), 4.8f);
  EXPECT_NEAR(squad_speed(0.55f, false, t), 2.2725f, 1e-5f);
  EXPECT_EQ(squad_speed(0.0f, true, t), 2.7f);
}

TEST(Leash, equilibrium_sits_at_3_4_and_urgency_0_55_below_sprint) {
  const Tuning t;
  const LeashEquilibrium eq = leash_equilibrium(t, false);
  // 3.3 (1 - 0.75 (d - 2.4)/2.4) = 1.75 + 0.95 (d - 3.156)/0.444  =>  d = 3.399, u = 0.547.
  EXPECT_NEAR(eq.distance, 3.40f, 0.01f);
  EXPECT_NEAR(eq.urgency, 0.55f, 0.01f);
  EXPECT_NEAR(eq.speed, 2.27f, 0.01f);
  EXPECT_LT(eq.urgency, t.sprint_at);
  EXPECT_FALSE(eq.at_hard_limit);
}

TEST(Leash, with_shift_the_disc_is_held_at_the_hard_bound) {
  const Tuning t;
  const LeashEquilibrium eq = leash_equilibrium(t, true);
  EXPECT_TRUE(eq.at_hard_limit);
  EXPECT_EQ(eq.distance, 3.6f);
  EXPECT_EQ(eq.speed, 2.7f);
}

TEST(Formation, wedge_line_and_ring_slots) {
  const Vec2 wedge[5] = {{1, 0}, {0, -1}, {0, 1}, {-1, -2}, {-1, 2}};
  const Vec2 line[5] = {{0, -2}, {0, -1}, {0, 0}, {0, 1}, {0, 2}};
  for (std::uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(formation_offset(Formation::wedge, i, 5), wedge[i]) << i;
    EXPECT_EQ(formation_offset(Formation::line, i, 5), line[i]) << i;
    EXPECT_NEAR(core::length(formation_offset(Formation::ring, i, 5)), 1.5f, 1e-6f);
  }
  EXPECT_EQ(formation_offset(Formation::ring, 0, 5), (Vec2{1.5f, 0.0f}));
  const Vec2 r1 = formation_offset(Formation::ring, 1, 5);  // 72 degrees
  EXPECT_NEAR(r1.x, 0.4635255f, 1e-6f);
  EXPECT_NEAR(r1.y, 1.4265848f, 1e-6f);
  EXPECT_EQ(formation_offset(Formation::line, 0, 3), (Vec2{0.0f, -1.0f}));
}

TEST(Formation, slots_turn_with_the_heading) {
  // Facing south (y grows downwards) the right hand points west.
  EXPECT_EQ(slot_world({10, 10}, {0, 1}, {1, 0}, 1.0f), (Vec2{10, 11}));
  EXPECT_EQ(slot_world({10, 10}, {0, 1}, {0, 1}, 1.0f), (Vec2{9, 10}));
  EXPECT_EQ(slot_world({10, 10}, {1, 0}, {-1, 2}, 0.5f), (Vec2{9.5f, 11.0f}));
}

TEST(Formation, names_and_cycle) {
  EXPECT_EQ(next_formation(Formation::wedge), Formation::line);
  EXPECT_EQ(next_formation(Formation::line), Formation::ring);
  EXPECT_EQ(next_formation(Formation::ring), Formation::wedge);
  EXPECT_EQ(formation_from_string("ring"), Formation::ring);
  EXPECT_FALSE(formation_from_string("square"));
  EXPECT_EQ(to_string(Formation::line), "line");
}

}  // namespace
}  // namespace sortie::squad
