// Non-convex areals (docs/navigation.md): nothing in Land.map says an areal is convex, so a ring
// that is not convex is split into triangles when the map is built and the path crosses the
// diagonals between them. Every path stays inside the union of the areals, and inside one
// areal it is the shortest path (checked against a visibility graph over the ring's vertices).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sortie/core/rng.hpp"
#include "sortie/nav/areal_map.hpp"

using namespace sortie;
using namespace sortie::nav;
using core::Vec2;

namespace {

double dist(Vec2 a, Vec2 b) {
  return std::hypot(static_cast<double>(b.x) - static_cast<double>(a.x),
                    static_cast<double>(b.y) - static_cast<double>(a.y));
}

ArealPolygon polygon(std::vector<Vec2> ring, bool ccw = true) {
  ArealPolygon p;
  if (!ccw) std::reverse(ring.begin(), ring.end());
  p.ring = std::move(ring);
  Vec2 sum{0, 0};
  for (Vec2 v : p.ring) sum = sum + v;
  p.anchor = sum * (1.0f / static_cast<float>(p.ring.size()));
  p.links.assign(p.ring.size(), -1);
  return p;
}

// Shapes on a lattice, counter-clockwise; the U and the comb repeat points along straight
// edges (collinear vertices, as Land.map rings split at their neighbours' corners).
std::vector<Vec2> u_shape() {
  return {{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 2}, {2, 1}, {1, 1}, {1, 3}, {0.5f, 3}, {0, 3}};
}
std::vector<Vec2> l_shape() {
  return {{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 4}, {0, 4}};
}
std::vector<Vec2> s_shape() {
  // (2, 2) twice: a repeated point.
  return {{0, 0}, {3, 0}, {3, 3}, {1, 3}, {1, 4}, {3, 4}, {3, 5}, {0, 5}, {0, 2}, {2, 2}, {2, 2}, {2, 1}, {0, 1}};
}
std::vector<Vec2> comb() {
  // A base [0,7]x[0,1] with teeth [0,1], [2,3], [4,5], [6,7] up to y = 4.
  return {{0, 0}, {3.5f, 0}, {7, 0}, {7, 4}, {6, 4}, {6, 1}, {5, 1}, {5, 4}, {4, 4},
          {4, 1}, {3, 1},    {3, 4}, {2, 4}, {2, 1}, {1, 1}, {1, 4}, {0, 4}};
}

// Segment a-b inside the closed ring: it crosses no edge properly and its midpoint (and a few
// samples) are inside or on the ring.
bool point_in_ring(const std::vector<Vec2>& ring, Vec2 p) {
  bool inside = false;
  const std::size_t n = ring.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const auto xi = static_cast<double>(ring[i].x), yi = static_cast<double>(ring[i].y);
    const auto xj = static_cast<double>(ring[j].x), yj = static_cast<double>(ring[j].y);
    const auto px = static_cast<double>(p.x), py = static_cast<double>(p.y);
    // On the edge counts as inside.
    const double cr = (xj - xi) * (py - yi) - (yj - yi) * (px - xi);
    if (std::fabs(cr) < 1e-9 && px >= std::min(xi, xj) - 1e-9 && px <= std::max(xi, xj) + 1e-9 &&
        py >= std::min(yi, yj) - 1e-9 && py <= std::max(yi, yj) + 1e-9)
      return true;
    if ((yi > py) != (yj > py) && px < xj + (py - yj) * (xi - xj) / (yi - yj)) inside = !inside;
  }
  return inside;
}

double orient(Vec2 a, Vec2 b, Vec2 c) {
  const auto ax = static_cast<double>(a.x), ay = static_cast<double>(a.y);
  return (static_cast<double>(b.x) - ax) * (static_cast<double>(c.y) - ay) -
         (static_cast<double>(b.y) - ay) * (static_cast<double>(c.x) - ax);
}

bool segment_in_ring(const std::vector<Vec2>& ring, Vec2 a, Vec2 b) {
  const std::size_t n = ring.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 c = ring[i], d = ring[(i + 1) % n];
    const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return false;
  }
  for (int s = 1; s < 64; ++s) {
    if (!point_in_ring(ring, core::lerp(a, b, static_cast<float>(s) / 64.0f))) return false;
  }
  return true;
}

// Shortest path inside one ring: Dijkstra over the visibility graph of from, to and the vertices.
double shortest_in_ring(const std::vector<Vec2>& ring, Vec2 from, Vec2 to) {
  std::vector<Vec2> nodes{from, to};
  nodes.insert(nodes.end(), ring.begin(), ring.end());
  const std::size_t n = nodes.size();
  std::vector<double> d(n, std::numeric_limits<double>::infinity());
  std::vector<std::uint8_t> done(n, 0);
  d.at(0) = 0.0;
  for (std::size_t it = 0; it < n; ++it) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!done[i] && (u == n || d[i] < d[u])) u = i;
    if (u == n || d[u] == std::numeric_limits<double>::infinity()) break;
    done[u] = 1;
    for (std::size_t w = 0; w < n; ++w)
      if (!done[w] && segment_in_ring(ring, nodes[u], nodes[w])) d[w] = std::min(d[w], d[u] + dist(nodes[u], nodes[w]));
  }
  return d[1];
}

ArealMap build(const ArealInput& in) {
  auto m = ArealMap::build(in);
  EXPECT_TRUE(m) << (m ? "" : m.error().to_string());
  return m ? std::move(*m) : ArealMap{};
}

}  // namespace

TEST(ArealNonConvex, u_shape_path_bends_at_both_inner_corners) {
  for (const bool ccw : {true, false}) {
    ArealInput in;
    in.areals = {polygon(u_shape(), ccw)};
    const ArealMap m = build(in);
    const auto p = m.find_path({0.5f, 2.5f}, {2.5f, 2.5f});
    ASSERT_TRUE(p) << p.error().to_string();
    EXPECT_EQ(p->areals, (Route{0}));
    // Without the split this was the straight line through the notch (1..2 x 1..3).
    EXPECT_EQ(p->points, (std::vector<Vec2>{{0.5f, 2.5f}, {1, 1}, {2, 1}, {2.5f, 2.5f}})) << "ccw " << ccw;
    EXPECT_NEAR(p->length, 2.0 * std::hypot(0.5, 1.5) + 1.0, 1e-6);
    // The corridor holds the inner portals (from == to == the areal), and the funnel over it
    // gives the points.
    ASSERT_FALSE(p->corridor.empty());
    for (const Portal& g : p->corridor) {
      EXPECT_EQ(g.from, 0u);
      EXPECT_EQ(g.to, 0u);
    }
    EXPECT_EQ(funnel(p->corridor, {0.5f, 2.5f}, {2.5f, 2.5f}), p->points);
  }
}

TEST(ArealNonConvex, a_convex_ring_with_straight_vertices_is_not_split) {
  // A square with extra points along its edges: convex, so its corridor is empty.
  ArealInput in;
  in.areals = {polygon({{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {0, 2}, {0, 1}})};
  const ArealMap m = build(in);
  const auto p = m.find_path({0.1f, 0.1f}, {1.9f, 1.9f});
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->corridor.empty());
  EXPECT_EQ(p->points.size(), 2u);
}

TEST(ArealNonConvex, a_self_intersecting_ring_keeps_its_ring) {
  // A bow tie has no ear: it is kept as one piece (the path is the funnel over the areal portals).
  ArealInput in;
  in.areals = {polygon({{0, 0}, {2, 2}, {2, 0}, {0, 2}})};
  const ArealMap m = build(in);
  const auto p = m.find_path({0.1f, 0.5f}, {0.1f, 1.5f});  // both in the left lobe
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->corridor.empty());
}

TEST(ArealNonConvex, paths_inside_one_shape_are_shortest_and_stay_inside) {
  const std::vector<std::vector<Vec2>> shapes{u_shape(), l_shape(), s_shape(), comb()};
  for (std::size_t si = 0; si < shapes.size(); ++si) {
    for (const bool ccw : {true, false}) {
      ArealInput in;
      in.areals = {polygon(shapes[si], ccw)};
      const ArealMap m = build(in);
      const auto& ring = shapes[si];
      float hi_x = 0, hi_y = 0;
      for (Vec2 v : ring) {
        hi_x = std::max(hi_x, v.x);
        hi_y = std::max(hi_y, v.y);
      }
      core::Rng rng(40 + si, ccw ? 1 : 2);
      PathWorkspace ws;
      int checked = 0;
      while (checked < 150) {
        const Vec2 from{rng.unit_f32() * hi_x, rng.unit_f32() * hi_y};
        const Vec2 to{rng.unit_f32() * hi_x, rng.unit_f32() * hi_y};
        if (!point_in_ring(ring, from) || !point_in_ring(ring, to)) continue;
        ++checked;
        const auto p = m.find_path(from, to, {}, &ws);
        ASSERT_TRUE(p) << p.error().to_string();
        for (std::size_t k = 0; k + 1 < p->points.size(); ++k)
          EXPECT_TRUE(segment_in_ring(ring, p->points[k], p->points[k + 1]))
              << "shape " << si << " segment " << k << " (" << p->points[k].x << ", " << p->points[k].y << ") -> ("
              << p->points[k + 1].x << ", " << p->points[k + 1].y << ")";
        EXPECT_NEAR(p->length, shortest_in_ring(ring, from, to), 1e-4) << "shape " << si;
      }
    }
  }
}

TEST(ArealNonConvex, a_route_through_an_l_between_two_squares_stays_in_the_union) {
  // Square A = [-1,0]x[3,4] left of the L's upright, the L = l_shape(), square B = [4,5]x[0,1]
  // right of its foot. From A to B the path turns round the L's inner corner (1, 1).
  ArealInput in;
  in.areals = {polygon({{-1, 3}, {0, 3}, {0, 4}, {-1, 4}}), polygon(l_shape()),
               polygon({{4, 0}, {5, 0}, {5, 1}, {4, 1}})};
  // A's edge 1 (x = 0) is the L's edge 5 ((0,4) -> (0,0)) over y in [3,4]; the L's edge 1
  // (x = 4) is B's edge 3.
  in.areals[0].links[1] = 1;
  in.areals[1].links[5] = 0;
  in.areals[1].links[1] = 2;
  in.areals[2].links[3] = 1;
  in.areals[0].link_edges = {-1, 5, -1, -1};
  in.areals[1].link_edges = {-1, 3, -1, -1, -1, 1};
  in.areals[2].link_edges = {-1, -1, -1, 1};
  const ArealMap m = build(in);
  const auto p = m.find_path({-0.5f, 3.5f}, {4.5f, 0.5f});
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(p->areals, (Route{0, 1, 2}));
  EXPECT_EQ(p->points, (std::vector<Vec2>{{-0.5f, 3.5f}, {0, 3}, {1, 1}, {4.5f, 0.5f}}));
  // Portals: A -> L, L's inner diagonals, L -> B.
  ASSERT_GE(p->corridor.size(), 3u);
  EXPECT_EQ(p->corridor.front().from, 0u);
  EXPECT_EQ(p->corridor.back().to, 2u);
  for (std::size_t k = 1; k + 1 < p->corridor.size(); ++k) EXPECT_EQ(p->corridor[k].from, 1u);
}
