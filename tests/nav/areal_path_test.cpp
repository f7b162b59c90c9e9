// ArealMap completion (seed 000 "Поиск области", "Маршрут"): the choice among overlapping
// candidates, explicit misses, nearest, portals, the funnel, find_path, route validity on
// generated maps, and routes that do not depend on the terrain's triangle density.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sortie/core/rng.hpp"
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/nav/terrain_world.hpp"
#include "sortie_test/brick_map.hpp"

using namespace sortie;
using namespace sortie::nav;
using core::Vec2;

namespace {

double dist(Vec2 a, Vec2 b) {
  return std::hypot(static_cast<double>(b.x) - static_cast<double>(a.x),
                    static_cast<double>(b.y) - static_cast<double>(a.y));
}

ArealPolygon rect(float x0, float y0, float x1, float y1, bool ccw = true) {
  ArealPolygon p;
  p.anchor = {(x0 + x1) * 0.5f, (y0 + y1) * 0.5f};
  p.ring = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  if (!ccw) std::reverse(p.ring.begin(), p.ring.end());
  p.links.assign(4, -1);
  return p;
}

// Links edge `ea` of areal a and edge `eb` of areal b to each other (with edge_ref).
void join(ArealInput& in, std::uint32_t a, std::size_t ea, std::uint32_t b, std::size_t eb) {
  auto& pa = in.areals[a];
  auto& pb = in.areals[b];
  pa.links[ea] = static_cast<std::int32_t>(b);
  pb.links[eb] = static_cast<std::int32_t>(a);
  pa.link_edges.resize(pa.links.size(), -1);
  pb.link_edges.resize(pb.links.size(), -1);
  pa.link_edges[ea] = static_cast<std::int32_t>(eb);
  pb.link_edges[eb] = static_cast<std::int32_t>(ea);
}

// The L of the funnel tests: A = [0,1]^2, B = [1,2]x[0,1], C = [1,2]x[1,2]; A-B across x = 1,
// B-C across y = 1. Counter-clockwise rings: edge 0 bottom, 1 right, 2 top, 3 left.
ArealInput l_shape() {
  ArealInput in;
  in.areals = {rect(0, 0, 1, 1), rect(1, 0, 2, 1), rect(1, 1, 2, 2)};
  join(in, 0, 1, 1, 3);
  join(in, 1, 2, 2, 0);
  return in;
}

ArealMap build(const ArealInput& in, const ArealPolicy& policy = {}) {
  auto m = ArealMap::build(in, policy);
  EXPECT_TRUE(m) << (m ? "" : m.error().to_string());
  return m ? std::move(*m) : ArealMap{};
}

}  // namespace

TEST(ArealLocate, overlapping_candidates_prefer_the_larger_clearance) {
  // A 10 x 10 square and a 2 x 2 square inside it near its corner: (1.5, 1.5) is strictly
  // inside both; clearance 1.5 in the big one, 0.5 in the small one -> the big one (id 1)
  // even though the small one has the lower id. At (1.1, 8.0) only the big one holds it.
  ArealInput in;
  in.areals = {rect(1, 1, 3, 3), rect(0, 0, 10, 10)};
  const ArealMap m = build(in);
  EXPECT_EQ(m.locate(1.5f, 1.5f), std::optional<std::uint32_t>(1));
  // (2, 2) is at the small square's centre: clearance 1 there, 2 in the big one -> big.
  EXPECT_EQ(m.locate(2.0f, 2.0f), std::optional<std::uint32_t>(1));
  // A small square in the middle of the big one, as a platform 10 units up: at (5, 5) the big
  // square's clearance (5) wins over the small one's (1); a height preference picks the plane.
  in.areals[0] = rect(4, 4, 6, 6);
  in.areals[0].anchor_z = 10.0f;
  const ArealMap m2 = build(in);
  EXPECT_EQ(m2.locate_areal({5, 5})->areal, 1u);
  EXPECT_EQ(m2.locate_areal({5, 5}, {.walkable_only = false, .z = 9.5f})->areal, 0u);
  EXPECT_EQ(m2.locate_areal({5, 5}, {.walkable_only = false, .z = 0.5f})->areal, 1u);
}

TEST(ArealLocate, walkable_beats_blocked_and_a_blocked_only_point_is_an_explicit_miss) {
  ArealInput in;
  in.areals = {rect(0, 0, 10, 10), rect(4, 4, 6, 6), rect(20, 0, 30, 10)};
  in.areals[0].logic_flag = 0x4;  // blocked by the policy below
  in.areals[2].class_id = 77;     // blocked by class
  ArealPolicy policy;
  policy.blocked_logic_mask = 0x4;
  policy.blocked_classes = {77};
  const ArealMap m = build(in, policy);
  EXPECT_FALSE(m.walkable(0));
  EXPECT_TRUE(m.walkable(1));
  EXPECT_FALSE(m.walkable(2));
  // (5, 5): both 0 and 1 hold it; 0 has the larger clearance but is blocked -> 1.
  auto r = m.locate_areal({5, 5});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->areal, 1u);
  EXPECT_TRUE(r->walkable);
  // (1, 1): only the blocked areal 0. Without walkable_only it answers (walkable = false);
  // with it, the miss says why.
  r = m.locate_areal({1, 1});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->areal, 0u);
  EXPECT_FALSE(r->walkable);
  auto miss = m.locate_areal({1, 1}, {.walkable_only = true, .z = std::nullopt});
  ASSERT_FALSE(miss);
  EXPECT_EQ(miss.error(), LocateMiss::not_walkable);
  auto outside = m.locate_areal({15, 5}, {.walkable_only = true, .z = std::nullopt});
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error(), LocateMiss::no_areal);
  EXPECT_EQ(to_string(outside.error()), "no_areal");
}

TEST(ArealLocate, nearest_is_a_separate_call_with_the_boundary_point) {
  ArealInput in;
  in.areals = {rect(0, 0, 1, 1), rect(3, 0, 4, 1)};
  const ArealMap m = build(in);
  // Inside: distance 0 and the point itself.
  auto in0 = m.nearest({0.5f, 0.5f}, 10.0f);
  ASSERT_TRUE(in0);
  EXPECT_EQ(in0->areal, 0u);
  EXPECT_EQ(in0->distance, 0.0f);
  EXPECT_EQ(in0->point, (Vec2{0.5f, 0.5f}));
  // (1.75, 0.5): 0.75 from areal 0's right edge, 1.25 from areal 1's left edge.
  EXPECT_FALSE(m.locate(1.75f, 0.5f));
  auto n = m.nearest({1.75f, 0.5f}, 10.0f);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->areal, 0u);
  EXPECT_EQ(n->point, (Vec2{1.0f, 0.5f}));
  EXPECT_FLOAT_EQ(n->distance, 0.75f);
  EXPECT_TRUE(m.contains(n->areal, n->point.x, n->point.y));
  // Beyond max_distance: nothing. Equidistant (2, 0.5): the lower id.
  EXPECT_FALSE(m.nearest({1.75f, 0.5f}, 0.5f));
  EXPECT_EQ(m.nearest({2.0f, 0.5f}, 10.0f)->areal, 0u);
  // Corner distance: (5, 3) to areal 1's corner (4, 1) is sqrt(1 + 4).
  auto c = m.nearest({5.0f, 3.0f}, 10.0f);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->areal, 1u);
  EXPECT_EQ(c->point, (Vec2{4.0f, 1.0f}));
  EXPECT_FLOAT_EQ(c->distance, std::sqrt(5.0f));
  // walkable_only skips blocked areals.
  in.areals[0].logic_flag = 1;
  const ArealMap b = build(in, ArealPolicy{1, {}});
  EXPECT_EQ(b.nearest({1.75f, 0.5f}, 10.0f, {.walkable_only = true, .z = std::nullopt})->areal, 1u);
}

TEST(ArealCorridor, portals_are_oriented_for_the_mover_whatever_the_winding) {
  const ArealMap m = build(l_shape());
  // A -> B crosses x = 1 heading +x: left is (1, 1), right is (1, 0).
  // B -> C crosses y = 1 heading +y: left is (1, 1), right is (2, 1).
  const Route r{0, 1, 2};
  EXPECT_EQ(m.portals(r), (std::vector<Portal>{{{1, 1}, {1, 0}, 0, 1}, {{1, 1}, {2, 1}, 1, 2}}));
  // Clockwise rings give the same portals (edges renumbered: reversed rings).
  ArealInput cw;
  cw.areals = {rect(0, 0, 1, 1, false), rect(1, 0, 2, 1, false), rect(1, 1, 2, 2, false)};
  // Reversed ring {(0,1),(1,1),(1,0),(0,0)}: edge 0 top, 1 right, 2 bottom, 3 left.
  join(cw, 0, 1, 1, 3);
  join(cw, 1, 0, 2, 2);
  const ArealMap mc = build(cw);
  EXPECT_EQ(mc.portals(r), m.portals(r));
  // The way back swaps the sides.
  EXPECT_EQ(m.portals(Route{2, 1, 0}), (std::vector<Portal>{{{2, 1}, {1, 1}, 2, 1}, {{1, 0}, {1, 1}, 1, 0}}));
}

TEST(ArealCorridor, portal_is_clipped_to_the_facing_edge_at_a_t_junction) {
  // A = [0,4]x[0,1] below B = [1,2]x[1,2]: A's top edge (4,1)->(0,1) faces B's bottom edge
  // (1,1)->(2,1) only over x in [1, 2].
  ArealInput in;
  in.areals = {rect(0, 0, 4, 1), rect(1, 1, 2, 2)};
  join(in, 0, 2, 1, 0);
  const ArealMap m = build(in);
  // Heading +y out of A: left is the smaller x.
  EXPECT_EQ(m.portals(Route{0, 1}), (std::vector<Portal>{{{1, 1}, {2, 1}, 0, 1}}));
  // Without edge_ref the whole edge is the portal.
  in.areals[0].link_edges.clear();
  const ArealMap whole = build(in);
  EXPECT_EQ(whole.portals(Route{0, 1}), (std::vector<Portal>{{{0, 1}, {4, 1}, 0, 1}}));
  // A link past the ring (no edge names the next areal) is a point portal at its anchor.
  in.areals[0].links = {-1, -1, -1, -1, 1};
  const ArealMap past = build(in);
  EXPECT_EQ(past.portals(Route{0, 1}), (std::vector<Portal>{{{1.5f, 1.5f}, {1.5f, 1.5f}, 0, 1}}));
}

TEST(ArealFunnel, straight_line_when_it_fits_the_corridor) {
  const ArealMap m = build(l_shape());
  const auto p = m.find_path({0.5f, 0.5f}, {1.5f, 0.25f});
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(p->areals, (Route{0, 1}));
  EXPECT_EQ(p->points, (std::vector<Vec2>{{0.5f, 0.5f}, {1.5f, 0.25f}}));
  EXPECT_DOUBLE_EQ(p->length, std::sqrt(1.0 + 0.0625));
}

TEST(ArealFunnel, bends_once_at_the_inner_corner_of_an_l) {
  // From (0.2, 0.8) in A to (1.8, 1.8) in C: the straight line leaves A through its top, so
  // the path bends at the inner corner (1, 1).
  const ArealMap m = build(l_shape());
  const auto p = m.find_path({0.2f, 0.8f}, {1.8f, 1.8f});
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(p->areals, (Route{0, 1, 2}));
  EXPECT_EQ(p->points, (std::vector<Vec2>{{0.2f, 0.8f}, {1.0f, 1.0f}, {1.8f, 1.8f}}));
  const double a = std::hypot(0.8, 0.2);
  const double b = std::hypot(0.8, 0.8);
  EXPECT_NEAR(p->length, a + b, 1e-6);
  EXPECT_EQ(p->start.areal, 0u);
  EXPECT_EQ(p->goal.areal, 2u);
}

TEST(ArealFunnel, u_turn_bends_at_both_inner_corners) {
  // A U of five unit squares: (0,0) (1,0) (2,0) up to (2,1), then... use a U opening upward:
  // 0=[0,1]x[1,2], 1=[0,1]x[0,1], 2=[1,2]x[0,1], 3=[2,3]x[0,1], 4=[2,3]x[1,2]; walking from
  // the top of the left arm to the top of the right arm hugs the corners (1,1) and (2,1).
  ArealInput in;
  in.areals = {rect(0, 1, 1, 2), rect(0, 0, 1, 1), rect(1, 0, 2, 1), rect(2, 0, 3, 1), rect(2, 1, 3, 2)};
  join(in, 0, 0, 1, 2);
  join(in, 1, 1, 2, 3);
  join(in, 2, 1, 3, 3);
  join(in, 3, 2, 4, 0);
  const ArealMap m = build(in);
  const auto p = m.find_path({0.5f, 1.5f}, {2.5f, 1.5f});
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(p->areals, (Route{0, 1, 2, 3, 4}));
  EXPECT_EQ(p->points, (std::vector<Vec2>{{0.5f, 1.5f}, {1.0f, 1.0f}, {2.0f, 1.0f}, {2.5f, 1.5f}}));
}

TEST(ArealFunnel, start_on_a_shared_edge_goes_straight) {
  // A = [0,1]x[1,2], B = [1,2]x[1,2], C = [1,2]x[0,1]. (1, 1.5) lies on the A-B edge: locate
  // gives A (lowest id, on the edge), the route is A -> B -> C and the first portal passes
  // through the start. The straight line to (1.2, 0.2) stays in B and C. Before the funnel
  // skipped a portal through its apex, the path ran up to (1, 2), the far end of that portal.
  ArealInput in;
  in.areals = {rect(0, 1, 1, 2), rect(1, 1, 2, 2), rect(1, 0, 2, 1)};
  join(in, 0, 1, 1, 3);
  join(in, 1, 0, 2, 2);
  const ArealMap m = build(in);
  const auto p = m.find_path({1.0f, 1.5f}, {1.2f, 0.2f});
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(p->start.areal, 0u);
  EXPECT_TRUE(p->start.on_edge);
  EXPECT_EQ(p->areals, (Route{0, 1, 2}));
  EXPECT_EQ(p->points, (std::vector<Vec2>{{1.0f, 1.5f}, {1.2f, 0.2f}}));
  EXPECT_NEAR(p->length, std::hypot(0.2, 1.3), 1e-6);
  // The funnel alone, with the start at a portal's end (a shared corner) and inside it.
  const std::vector<Portal> corridor = m.portals(p->areals);
  EXPECT_EQ(funnel(corridor, {1.0f, 1.0f}, {1.5f, 0.5f}), (std::vector<Vec2>{{1.0f, 1.0f}, {1.5f, 0.5f}}));
  EXPECT_EQ(funnel(corridor, {1.0f, 1.9f}, {1.9f, 0.1f}), (std::vector<Vec2>{{1.0f, 1.9f}, {1.9f, 0.1f}}));
  // Reversed: the goal on the edge was always straight.
  const auto back = m.find_path({1.2f, 0.2f}, {1.0f, 1.5f});
  ASSERT_TRUE(back);
  EXPECT_EQ(back->points, (std::vector<Vec2>{{1.2f, 0.2f}, {1.0f, 1.5f}}));
}

TEST(ArealFunnel, starts_on_grid_lines_of_a_rectangle_of_areals_go_straight) {
  // A Land.map of 12 x 10 rectangles tiles one rectangle: its union is convex, so every
  // shortest path is the straight segment. Starts and goals are snapped to the areal grid lines
  // (shared edges and shared corners), where locate answers through the edge rule.
  auto msh = iron3d::make_land_msh_from_heightfield(iron3d::make_sample_heightfield(33, 33, 4, 16.0f));
  ASSERT_TRUE(msh);
  auto map = iron3d::make_land_map_for(*msh, {12, 10, 32, 32});
  ASSERT_TRUE(map);
  auto m = areal_map_from(*map);
  ASSERT_TRUE(m);
  core::Rng rng(81, 23);
  PathWorkspace ws;
  int on_edge_starts = 0;
  for (int i = 0; i < 600; ++i) {
    auto snap = [&](int mode) {
      Vec2 p{rng.unit_f32() * 512.0f, rng.unit_f32() * 512.0f};
      const float gx = map->areals[rng.below(12)].vertices[1].x;       // a column boundary
      const float gy = map->areals[12 * rng.below(10)].vertices[2].y;  // a row boundary
      if (mode & 1) p.x = gx;
      if (mode & 2) p.y = gy;
      return p;
    };
    const Vec2 from = snap(1 + static_cast<int>(rng.below(3)));
    const Vec2 to = snap(static_cast<int>(rng.below(4)));
    const auto p = m->find_path(from, to, {}, &ws);
    ASSERT_TRUE(p) << p.error().to_string();
    on_edge_starts += p->start.on_edge ? 1 : 0;
    EXPECT_NEAR(p->length, dist(from, to), 1e-3)
        << "pair " << i << " (" << from.x << ", " << from.y << ") -> (" << to.x << ", " << to.y << ")";
  }
  EXPECT_GT(on_edge_starts, 500);
}

TEST(ArealFunnel, funnel_of_no_portals_is_the_segment_and_a_point_portal_is_touched) {
  EXPECT_EQ(funnel({}, {0, 0}, {3, 4}), (std::vector<Vec2>{{0, 0}, {3, 4}}));
  EXPECT_EQ(funnel({}, {1, 1}, {1, 1}), (std::vector<Vec2>{{1, 1}}));
  const Portal point{{2, 5}, {2, 5}, 0, 1};
  EXPECT_EQ(funnel(std::span<const Portal>(&point, 1), {0, 0}, {4, 0}), (std::vector<Vec2>{{0, 0}, {2, 5}, {4, 0}}));
}

TEST(ArealPath, errors_name_off_map_blocked_and_unreachable) {
  ArealInput in;
  in.areals = {rect(0, 0, 1, 1), rect(5, 0, 6, 1), rect(1, 0, 2, 1)};
  in.areals[2].logic_flag = 2;
  join(in, 0, 1, 2, 3);
  const ArealMap m = build(in, ArealPolicy{2, {}});
  auto off = m.find_path({-3, 0.5f}, {0.5f, 0.5f});
  ASSERT_FALSE(off);
  EXPECT_EQ(off.error().code, "nav.path.off_map");
  EXPECT_EQ(off.error().field, "start");
  auto off_goal = m.find_path({0.5f, 0.5f}, {3.5f, 0.5f});
  ASSERT_FALSE(off_goal);
  EXPECT_EQ(off_goal.error().code, "nav.path.off_map");
  EXPECT_EQ(off_goal.error().field, "goal");
  auto blocked = m.find_path({0.5f, 0.5f}, {1.5f, 0.5f});
  ASSERT_FALSE(blocked);
  EXPECT_EQ(blocked.error().code, "nav.path.not_walkable");
  auto unreachable = m.find_path({0.5f, 0.5f}, {5.5f, 0.5f});
  ASSERT_FALSE(unreachable);
  EXPECT_EQ(unreachable.error().code, "nav.path.unreachable");
  // Routing through the blocked areal is refused too (walkable_only), allowed without it.
  EXPECT_FALSE(m.route_astar(0, 2, nullptr, true));
  EXPECT_EQ(m.route_astar(0, 2), (std::optional<Route>(Route{0, 2})));
}

TEST(ArealPath, workspace_reuse_gives_the_same_routes_as_fresh_searches) {
  test::BrickMapOptions o;
  o.rows = 12;
  o.max_columns = 6;
  o.blocked_share = 0.2f;
  o.seed = 5;
  const auto brick = test::make_brick_map(o);
  const ArealMap m = build(brick.input, ArealPolicy{test::kBlockedLogic, {}});
  PathWorkspace ws;
  core::Rng rng(3, 1);
  const auto n = static_cast<std::uint32_t>(m.areal_count());
  for (int i = 0; i < 300; ++i) {
    const std::uint32_t a = rng.below(n), b = rng.below(n);
    EXPECT_EQ(m.route_astar(a, b, &ws, true), m.route_astar(a, b, nullptr, true)) << a << " -> " << b;
  }
}

// Route validity on generated maps of several sizes (holes, T-junctions): every answer is either
// a valid path or the right error.
class ArealPathValidity : public ::testing::TestWithParam<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>> {};

TEST_P(ArealPathValidity, routes_are_linked_walkable_and_end_where_locate_puts_the_endpoints) {
  const auto [rows, cols, seed] = GetParam();
  test::BrickMapOptions o;
  o.rows = rows;
  o.max_columns = cols;
  o.width = 64.0f * static_cast<float>(cols);
  o.height = 48.0f * static_cast<float>(rows);
  o.seed = seed;
  o.blocked_share = 0.18f;
  const auto brick = test::make_brick_map(o);
  const ArealMap m = build(brick.input, ArealPolicy{test::kBlockedLogic, {}});
  core::Rng rng(seed, 2);
  PathWorkspace ws;
  int ok = 0, unreachable = 0, blocked = 0;
  for (int i = 0; i < 400; ++i) {
    const Vec2 from{rng.unit_f32() * o.width, rng.unit_f32() * o.height};
    const Vec2 to{rng.unit_f32() * o.width, rng.unit_f32() * o.height};
    const auto start = m.locate_areal(from, {.walkable_only = true, .z = std::nullopt});
    const auto goal = m.locate_areal(to, {.walkable_only = true, .z = std::nullopt});
    const auto p = m.find_path(from, to, {}, &ws);
    if (!start || !goal) {
      ASSERT_FALSE(p);
      EXPECT_EQ(p.error().code, "nav.path.not_walkable");
      ++blocked;
      continue;
    }
    if (!p) {
      EXPECT_EQ(p.error().code, "nav.path.unreachable");
      // Really unreachable: no route over walkable areals (BFS over the walkable subgraph).
      std::vector<bool> seen(m.areal_count(), false);
      std::vector<std::uint32_t> stack{start->areal};
      seen[start->areal] = true;
      while (!stack.empty()) {
        const std::uint32_t a = stack.back();
        stack.pop_back();
        for (std::uint32_t b : m.neighbours(a))
          if (!seen[b] && m.walkable(b)) {
            seen[b] = true;
            stack.push_back(b);
          }
      }
      EXPECT_FALSE(seen[goal->areal]);
      ++unreachable;
      continue;
    }
    ++ok;
    ASSERT_FALSE(p->areals.empty());
    EXPECT_EQ(p->areals.front(), start->areal);
    EXPECT_EQ(p->areals.back(), goal->areal);
    EXPECT_TRUE(m.contains(p->areals.front(), from.x, from.y));
    EXPECT_TRUE(m.contains(p->areals.back(), to.x, to.y));
    for (std::size_t k = 0; k < p->areals.size(); ++k) {
      EXPECT_TRUE(m.walkable(p->areals[k]));
      if (k + 1 < p->areals.size()) {
        const auto nb = m.neighbours(p->areals[k]);
        EXPECT_TRUE(std::binary_search(nb.begin(), nb.end(), p->areals[k + 1]));
      }
    }
    ASSERT_EQ(p->corridor.size(), p->areals.size() - 1);
    ASSERT_GE(p->points.size(), 1u);
    EXPECT_EQ(p->points.front(), from);
    EXPECT_EQ(p->points.back(), to);
    double len = 0.0;
    for (std::size_t k = 0; k + 1 < p->points.size(); ++k) {
      const Vec2 a = p->points[k], b = p->points[k + 1];
      len += dist(a, b);
      // The smoothed line stays inside the corridor's areals.
      for (int s = 0; s <= 16; ++s) {
        const Vec2 q = core::lerp(a, b, static_cast<float>(s) / 16.0f);
        const bool inside =
            std::any_of(p->areals.begin(), p->areals.end(), [&](std::uint32_t id) { return m.contains(id, q.x, q.y); });
        EXPECT_TRUE(inside) << "segment " << k << " sample " << s << " (" << q.x << ", " << q.y << ")";
      }
    }
    EXPECT_NEAR(p->length, len, 1e-6 * std::max(1.0, len));
    // Never longer than the chain through the portal midpoints (the funnel shortens).
    double chain = 0.0;
    Vec2 prev = from;
    for (const Portal& g : p->corridor) {
      const Vec2 mid = (g.left + g.right) * 0.5f;
      chain += dist(prev, mid);
      prev = mid;
    }
    chain += dist(prev, to);
    EXPECT_LE(p->length, chain + 1e-3);
  }
  EXPECT_GT(ok, 0);
  // The holes are real: some endpoints fall into blocked areals on every size.
  EXPECT_GT(blocked + unreachable, 0);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ArealPathValidity,
                         ::testing::Values(std::make_tuple(3u, 3u, 11u), std::make_tuple(8u, 6u, 12u),
                                           std::make_tuple(25u, 24u, 13u), std::make_tuple(40u, 30u, 14u)));

TEST(ArealPath, terrain_triangle_density_never_changes_a_high_level_route) {
  // The same 512 x 512 ground as 17 x 17, 33 x 33 and 65 x 65 vertex heightfields (different
  // heights, 512 to 8192 faces), each with a 12 x 10 Land.map built over it: routes and the
  // smoothed points of 300 random endpoint pairs are identical on all three.
  struct Variant {
    std::uint32_t vertices;
    float cell;
  };
  const Variant variants[] = {{17, 32.0f}, {33, 16.0f}, {65, 8.0f}};
  std::vector<ArealMap> maps;
  std::vector<std::size_t> faces;
  std::vector<float> heights;
  for (const auto& v : variants) {
    auto msh =
        iron3d::make_land_msh_from_heightfield(iron3d::make_sample_heightfield(v.vertices, v.vertices, 4, v.cell));
    ASSERT_TRUE(msh);
    auto map = iron3d::make_land_map_for(*msh, {12, 10, 32, 32});
    ASSERT_TRUE(map);
    auto m = areal_map_from(*map);
    ASSERT_TRUE(m);
    maps.push_back(std::move(*m));
    faces.push_back(msh->faces.size());
    heights.push_back(iron3d::land_msh_height_at(*msh, 100.0f, 100.0f).value_or(-1.0f));
  }
  // The terrain really differs.
  EXPECT_EQ(faces, (std::vector<std::size_t>{512, 2048, 8192}));
  EXPECT_NE(heights[0], heights[2]);
  core::Rng rng(17, 4);
  PathWorkspace ws;
  for (int i = 0; i < 300; ++i) {
    const Vec2 from{rng.unit_f32() * 512.0f, rng.unit_f32() * 512.0f};
    const Vec2 to{rng.unit_f32() * 512.0f, rng.unit_f32() * 512.0f};
    const auto base = maps[0].find_path(from, to, {}, &ws);
    ASSERT_TRUE(base) << base.error().to_string();
    const auto bfs = maps[0].route(base->start.areal, base->goal.areal);
    for (std::size_t k = 1; k < maps.size(); ++k) {
      const auto other = maps[k].find_path(from, to, {}, &ws);
      ASSERT_TRUE(other);
      EXPECT_EQ(other->areals, base->areals) << "pair " << i << " variant " << k;
      EXPECT_EQ(other->points, base->points) << "pair " << i << " variant " << k;
      EXPECT_EQ(maps[k].route(other->start.areal, other->goal.areal), bfs);
    }
  }
}
