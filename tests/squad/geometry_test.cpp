// Deterministic trigonometry, segment helpers, the wall grid and the body grid.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sortie/squad/det_math.hpp"
#include "sortie/squad/spatial.hpp"
#include "sortie/squad/walls.hpp"

namespace sortie::squad {
namespace {

using core::Vec2;

WallGrid grid(int w, int h, std::vector<std::pair<int, int>> walls) {
  std::vector<std::uint8_t> cells(static_cast<std::size_t>(w * h), 0);
  for (auto [x, y] : walls) cells[static_cast<std::size_t>(y * w + x)] = 1;
  return WallGrid(w, h, std::move(cells));
}

TEST(DetMath, sin_cos_of_known_angles) {
  const SinCos zero = det_sin_cos(0.0f);
  EXPECT_EQ(zero.sin, 0.0f);
  EXPECT_EQ(zero.cos, 1.0f);
  EXPECT_NEAR(det_sin_cos(core::kPi / 6.0f).sin, 0.5f, 1e-7f);
  EXPECT_NEAR(det_sin_cos(core::kPi / 3.0f).cos, 0.5f, 1e-7f);
  EXPECT_NEAR(det_sin_cos(core::kPi).cos, -1.0f, 1e-7f);
  EXPECT_NEAR(det_sin_cos(-core::kPi / 2.0f).sin, -1.0f, 1e-7f);
  EXPECT_NEAR(det_sin_cos_deg(30.0f).sin, 0.5f, 1e-7f);
}

TEST(DetMath, sin_cos_agree_with_libm_over_a_wide_range) {
  for (float x = -100.0f; x <= 100.0f; x += 0.37f) {
    const SinCos sc = det_sin_cos(x);
    EXPECT_NEAR(sc.sin, std::sin(x), 2e-6f) << x;
    EXPECT_NEAR(sc.cos, std::cos(x), 2e-6f) << x;
  }
}

TEST(DetMath, sin_cos_of_non_finite_is_zero_angle) {
  const SinCos sc = det_sin_cos(std::nanf(""));
  EXPECT_EQ(sc.sin, 0.0f);
  EXPECT_EQ(sc.cos, 1.0f);
}

TEST(DetMath, turn_toward_limits_the_step_and_snaps_within_it) {
  const Vec2 turned = turn_toward({1.0f, 0.0f}, {0.0f, 1.0f}, det_sin_cos_deg(30.0f));
  EXPECT_NEAR(turned.x, 0.8660254f, 1e-6f);
  EXPECT_NEAR(turned.y, 0.5f, 1e-6f);
  const Vec2 other_way = turn_toward({1.0f, 0.0f}, {0.0f, -1.0f}, det_sin_cos_deg(30.0f));
  EXPECT_NEAR(other_way.y, -0.5f, 1e-6f);
  const Vec2 snapped = turn_toward({1.0f, 0.0f}, {0.8660254f, 0.5f}, det_sin_cos_deg(45.0f));
  EXPECT_EQ(snapped, (Vec2{0.8660254f, 0.5f}));
}

TEST(DetMath, distance_to_a_segment_and_its_ends) {
  EXPECT_FLOAT_EQ(distance_point_segment({5.0f, 3.0f}, {0.0f, 0.0f}, {10.0f, 0.0f}), 3.0f);
  EXPECT_FLOAT_EQ(distance_point_segment({-3.0f, 4.0f}, {0.0f, 0.0f}, {10.0f, 0.0f}), 5.0f);
  EXPECT_FLOAT_EQ(distance_point_segment({1.0f, 1.0f}, {2.0f, 2.0f}, {2.0f, 2.0f}), std::sqrt(2.0f));
}

TEST(DetMath, first_hit_of_a_segment_on_a_circle) {
  EXPECT_FLOAT_EQ(*segment_circle_first_hit({0.0f, 0.0f}, {10.0f, 0.0f}, {5.0f, 0.0f}, 1.0f), 0.4f);
  EXPECT_EQ(*segment_circle_first_hit({5.2f, 0.0f}, {10.0f, 0.0f}, {5.0f, 0.0f}, 1.0f), 0.0f);  // starts inside
  EXPECT_FALSE(segment_circle_first_hit({0.0f, 2.0f}, {10.0f, 2.0f}, {5.0f, 0.0f}, 1.0f));      // passes by
  EXPECT_FALSE(segment_circle_first_hit({7.0f, 0.0f}, {10.0f, 0.0f}, {5.0f, 0.0f}, 1.0f));      // moves away
  EXPECT_FALSE(segment_circle_first_hit({0.0f, 0.0f}, {3.0f, 0.0f}, {5.0f, 0.0f}, 1.0f));       // stops short
}

TEST(WallGrid, raycast_reports_the_entry_into_the_first_wall) {
  const WallGrid w = grid(5, 3, {{2, 1}});
  EXPECT_EQ(*w.raycast({0.5f, 1.5f}, {4.5f, 1.5f}), 0.375f);  // enters x = 2 after 1.5 of 4
  EXPECT_FALSE(w.raycast({0.5f, 0.5f}, {4.5f, 0.5f}));
  EXPECT_EQ(*w.raycast({2.5f, 1.5f}, {4.5f, 1.5f}), 0.0f);  // starts in the wall
}

TEST(WallGrid, outside_the_grid_is_wall) {
  const WallGrid w = grid(5, 3, {});
  EXPECT_NEAR(*w.raycast({0.5f, 0.5f}, {-1.0f, 0.5f}), 1.0f / 3.0f, 1e-6f);
  EXPECT_TRUE(w.solid(-1, 0));
  EXPECT_TRUE(w.solid(5, 0));
  EXPECT_TRUE(w.solid_at({1.0f, 3.5f}));
}

TEST(WallGrid, a_ray_through_a_corner_between_diagonal_walls_is_blocked) {
  const WallGrid w = grid(3, 3, {{1, 0}});
  EXPECT_EQ(*w.raycast({0.5f, 0.5f}, {1.5f, 1.5f}), 0.5f);
  const WallGrid open = grid(3, 3, {});
  EXPECT_FALSE(open.raycast({0.5f, 0.5f}, {1.5f, 1.5f}));
}

TEST(WallGrid, thick_ray_sees_a_corner_the_centre_line_misses) {
  const WallGrid w = grid(5, 5, {{2, 2}});
  // The centre line passes 0.2 above the wall cell's top; a body of radius 0.28 does not.
  EXPECT_FALSE(w.blocked({0.5f, 1.8f}, {4.5f, 1.8f}));
  EXPECT_TRUE(w.blocked_thick({0.5f, 1.8f}, {4.5f, 1.8f}, 0.28f));
}

TEST(WallGrid, circle_overlap_and_resolution) {
  const WallGrid w = grid(5, 3, {{2, 1}});
  EXPECT_FALSE(w.circle_overlaps({1.7f, 1.5f}, 0.28f));  // 0.3 from the face
  EXPECT_TRUE(w.circle_overlaps({1.7f, 1.5f}, 0.31f));
  const Vec2 out = w.resolve_circle({1.9f, 1.5f}, 0.28f);
  EXPECT_NEAR(out.x, 1.72f, 1e-6f);
  EXPECT_EQ(out.y, 1.5f);
  // Centre inside the wall cell: out through the nearest open face (the left one, 0.2 away).
  const Vec2 buried = w.resolve_circle({2.2f, 1.5f}, 0.28f);
  EXPECT_NEAR(buried.x, 1.72f, 1e-6f);
  EXPECT_EQ(buried.y, 1.5f);
}

TEST(WallGrid, repulsion_points_away_weighted_by_the_gap) {
  const WallGrid w = grid(5, 3, {{2, 1}});
  // Gap from the body's edge to the wall: 0.5 - 0.28 = 0.22; weight 1 - 0.22/0.45.
  const Vec2 r = w.repulsion({1.5f, 1.5f}, 0.28f, 0.45f);
  EXPECT_NEAR(r.x, -(1.0f - 0.22f / 0.45f), 1e-6f);
  EXPECT_EQ(r.y, 0.0f);
  EXPECT_EQ(w.repulsion({0.5f, 0.5f}, 0.28f, 0.0f), (Vec2{}));
}

TEST(BodyGrid, circle_query_visits_every_body_inside_in_stable_order) {
  BodyGrid g;
  g.reset(10.0f, 10.0f, 1.0f);
  const std::vector<Vec2> pos{{5.0f, 5.0f}, {5.5f, 5.2f}, {8.0f, 8.0f}, {4.1f, 4.9f}, {5.2f, 5.0f}};
  g.build(pos.size(), [&](std::size_t i, Vec2& p) {
    p = pos[i];
    return i != 4;  // left out
  });
  std::vector<std::uint32_t> seen;
  g.for_each_in_circle({5.0f, 5.0f}, 1.0f, [&](const BodyGrid::Item& it) {
    if (core::distance(it.pos, {5.0f, 5.0f}) <= 1.0f) seen.push_back(it.index);
    return false;
  });
  // Cells in row order: (4,4) holds body 3, (5,5) holds bodies 0 and 1.
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{3, 0, 1}));
  bool stopped_early = g.for_each_in_circle({5.0f, 5.0f}, 1.0f, [](const BodyGrid::Item&) { return true; });
  EXPECT_TRUE(stopped_early);
}

TEST(BodyGrid, segment_query_covers_bodies_near_the_segment) {
  BodyGrid g;
  g.reset(20.0f, 10.0f, 2.0f);
  const std::vector<Vec2> pos{{1.0f, 5.0f}, {10.0f, 5.5f}, {19.0f, 5.0f}, {10.0f, 9.0f}};
  g.build(pos.size(), [&](std::size_t i, Vec2& p) {
    p = pos[i];
    return true;
  });
  std::vector<std::uint32_t> near;
  g.for_each_near_segment({0.0f, 5.0f}, {20.0f, 5.0f}, 0.6f, [&](const BodyGrid::Item& it) {
    if (distance_point_segment(it.pos, {0.0f, 5.0f}, {20.0f, 5.0f}) < 0.6f) near.push_back(it.index);
    return false;
  });
  std::sort(near.begin(), near.end());
  EXPECT_EQ(near, (std::vector<std::uint32_t>{0, 1, 2}));
}

}  // namespace
}  // namespace sortie::squad
