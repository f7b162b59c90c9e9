// The collision manager's phases: the uniform grid gives every near pair once in ObjectId
// order; the narrow phase between discs and vertical capsules.
#include "sortie/move/collision.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sortie/core/rng.hpp"

using namespace sortie;
using namespace sortie::move;

TEST(UniformGrid, pairs_are_every_close_pair_once_ascending) {
  core::Rng rng(5, 1);
  std::vector<core::Vec2> pts(300);
  for (auto& p : pts) p = {rng.unit_f32() * 100.0f - 50.0f, rng.unit_f32() * 100.0f - 50.0f};
  UniformGrid g;
  g.build(pts, 4.0f);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  g.pairs(pairs);
  EXPECT_TRUE(std::is_sorted(pairs.begin(), pairs.end()));
  EXPECT_EQ(std::adjacent_find(pairs.begin(), pairs.end()), pairs.end());
  // Every pair closer than the cell size is there (brute force).
  std::size_t close = 0;
  for (std::uint32_t i = 0; i < pts.size(); ++i)
    for (std::uint32_t j = i + 1; j < pts.size(); ++j)
      if (core::distance(pts[i], pts[j]) < 4.0f) {
        ++close;
        EXPECT_TRUE(std::binary_search(pairs.begin(), pairs.end(), std::make_pair(i, j))) << i << "," << j;
      }
  EXPECT_GT(close, 0u);
  // A query returns ascending indices including every point within r.
  std::vector<std::uint32_t> near;
  g.query({0, 0}, 10.0f, near);
  EXPECT_TRUE(std::is_sorted(near.begin(), near.end()));
  for (std::uint32_t i = 0; i < pts.size(); ++i)
    if (core::length(pts[i]) < 10.0f) {
      EXPECT_TRUE(std::binary_search(near.begin(), near.end(), i));
    }
}

// One body a million units away makes the occupied cells' box too large for the dense table:
// the row search answers exactly as the dense table does for the same bodies.
TEST(UniformGrid, far_outlier_answers_as_the_dense_table) {
  core::Rng rng(9, 2);
  std::vector<core::Vec2> pts(200);
  for (auto& p : pts) p = {rng.unit_f32() * 60.0f - 30.0f, rng.unit_f32() * 60.0f - 30.0f};
  UniformGrid dense;
  dense.build(pts, 3.0f);
  pts.push_back({1.0e6f, -1.0e6f});
  UniformGrid sparse;
  sparse.build(pts, 3.0f);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> a, b;
  dense.pairs(a);
  sparse.pairs(b);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  std::vector<std::uint32_t> qa, qb;
  for (const core::Vec2 p : {core::Vec2{0, 0}, core::Vec2{-29, 28}, core::Vec2{45, 0}, core::Vec2{-100, -100}}) {
    dense.query(p, 7.0f, qa);
    sparse.query(p, 7.0f, qb);
    EXPECT_EQ(qa, qb) << p.x << "," << p.y;
  }
  sparse.query({1.0e6f, -1.0e6f}, 1.0f, qb);
  EXPECT_EQ(qb, std::vector<std::uint32_t>{200});
  dense.query({0, 0}, 7.0f, qa);
  EXPECT_FALSE(qa.empty());
}

TEST(NarrowPhase, discs_and_capsules) {
  ProxyView a{{0, 0}, 0.0f, Shape::circle, 1.0f, 0.0f, 1, ~0u, false};
  ProxyView b{{1.5f, 0}, 100.0f, Shape::circle, 1.0f, 0.0f, 1, ~0u, false};
  auto c = narrow_phase(a, b);  // discs ignore heights
  ASSERT_TRUE(c);
  EXPECT_EQ(c->normal, (core::Vec2{1, 0}));
  EXPECT_FLOAT_EQ(c->depth, 0.5f);
  b.xy = {2.0f, 0.0f};  // touching exactly: no contact
  EXPECT_FALSE(narrow_phase(a, b));
  // Capsules: a from z 0 (segment 1..1, height 2), b standing 2.5 higher (segment 3.5..3.5):
  // vertical gap 2.5 > 2 radii: no contact whatever the XY.
  ProxyView ca{{0, 0}, 0.0f, Shape::capsule, 1.0f, 2.0f, 1, ~0u, false};
  ProxyView cb{{0.5f, 0}, 2.5f, Shape::capsule, 1.0f, 2.0f, 1, ~0u, false};
  EXPECT_FALSE(narrow_phase(ca, cb));
  // 1.2 higher: gap 1.2; XY must be below sqrt(4 - 1.44) = 1.6 for a contact; at 1.0 the depth
  // is 0.6.
  cb.z = 1.2f;
  cb.xy = {1.0f, 0.0f};
  c = narrow_phase(ca, cb);
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->depth, 0.6f, 1e-6f);
  cb.xy = {1.7f, 0.0f};
  EXPECT_FALSE(narrow_phase(ca, cb));
  // Coincident centres push along +X from a to b.
  cb.xy = {0, 0};
  cb.z = 0.0f;
  c = narrow_phase(ca, cb);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->normal, (core::Vec2{1, 0}));
  EXPECT_EQ(c->depth, 2.0f);
}

TEST(NarrowPhase, categories_and_static_pairs) {
  ProxyView unit{{0, 0}, 0.0f, Shape::circle, 1.0f, 0.0f, kCategoryUnit, ~0u, false};
  ProxyView ghost{{0.5f, 0}, 0.0f, Shape::circle, 1.0f, 0.0f, kCategoryUnit, kCategoryBuilding, false};
  EXPECT_FALSE(narrow_phase(unit, ghost));  // the ghost only collides with buildings
  ProxyView house{{0.5f, 0}, 0.0f, Shape::circle, 1.0f, 0.0f, kCategoryBuilding, ~0u, true};
  EXPECT_TRUE(narrow_phase(unit, house));
  ProxyView house2 = house;
  EXPECT_FALSE(narrow_phase(house, house2));  // two static bodies never collide
}
