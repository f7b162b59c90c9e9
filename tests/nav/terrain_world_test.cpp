// TerrainWorld (spec §18) over Land.msh data (nav::terrain_world_from): BVH, height_at, normal_at, raycast.
#include "sortie/nav/terrain_world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "sortie/core/rng.hpp"
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/nav/iron3d_input.hpp"

using namespace sortie;
using namespace sortie::nav;

namespace {

iron3d::TerrainFace28 face(std::uint16_t a, std::uint16_t b, std::uint16_t c, std::uint32_t mask = 1) {
  iron3d::TerrainFace28 f;
  f.surface_mask = mask;
  f.vertices = {a, b, c};
  f.neighbours = {iron3d::kNoNeighbour, iron3d::kNoNeighbour, iron3d::kNoNeighbour};
  return f;
}

// Unit square split along its diagonal, z = x + y: face 0 = (0,0)-(1,0)-(0,1), face 1 the other half.
iron3d::LandMsh two_face_mesh() {
  iron3d::LandMsh m;
  m.positions = {{0, 0, 0}, {1, 0, 1}, {0, 1, 1}, {1, 1, 2}};
  m.faces = {face(0, 1, 2), face(1, 3, 2)};
  return m;
}

}  // namespace

TEST(TerrainWorld, two_face_mesh_height_is_interpolated) {
  auto w = terrain_world_from(two_face_mesh());
  ASSERT_TRUE(w);
  auto h = w->height_at(0.25f, 0.25f);
  ASSERT_TRUE(h);
  EXPECT_FLOAT_EQ(*h, 0.5f);
  auto s = w->sample_at(0.25f, 0.25f);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->face, 0u);
  EXPECT_FLOAT_EQ(*w->height_at(0.75f, 0.75f), 1.5f);
  EXPECT_FLOAT_EQ(*w->height_at(1.0f, 1.0f), 2.0f);
}

TEST(TerrainWorld, height_outside_every_face_is_an_explicit_miss) {
  auto w = terrain_world_from(two_face_mesh());
  ASSERT_TRUE(w);
  EXPECT_FALSE(w->height_at(2.0f, 0.5f));
  EXPECT_FALSE(w->height_at(-0.01f, 0.5f));
  // Within the 1e-4 barycentric tolerance of the edge x = 0 still counts.
  EXPECT_TRUE(w->height_at(-0.00005f, 0.5f));
}

TEST(TerrainWorld, height_takes_the_highest_overlapping_face) {
  iron3d::LandMsh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 3}, {1, 0, 3}, {0, 1, 3}};
  m.faces = {face(0, 1, 2), face(3, 4, 5)};
  auto w = terrain_world_from(m);
  ASSERT_TRUE(w);
  auto s = w->sample_at(0.2f, 0.2f);
  ASSERT_TRUE(s);
  EXPECT_FLOAT_EQ(s->z, 3.0f);
  EXPECT_EQ(s->face, 1u);
}

TEST(TerrainWorld, normal_is_unit_and_points_up) {
  auto w = terrain_world_from(two_face_mesh());
  ASSERT_TRUE(w);
  auto n = w->normal_at(0.25f, 0.25f);
  ASSERT_TRUE(n);
  const float k = 1.0f / std::sqrt(3.0f);
  EXPECT_NEAR(n->x, -k, 1e-6f);
  EXPECT_NEAR(n->y, -k, 1e-6f);
  EXPECT_NEAR(n->z, k, 1e-6f);
  EXPECT_FALSE(w->normal_at(5.0f, 5.0f));
}

TEST(TerrainWorld, ray_straight_down_hits_face_zero_at_one_and_a_half) {
  auto w = terrain_world_from(two_face_mesh());
  ASSERT_TRUE(w);
  auto hit = w->raycast({0.25f, 0.25f, 2.0f}, {0, 0, -1}, 0);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->face, 0u);
  EXPECT_FLOAT_EQ(hit->distance, 1.5f);
  EXPECT_FLOAT_EQ(hit->point.z, 0.5f);
}

TEST(TerrainWorld, ray_with_a_disjoint_mask_misses) {
  auto w = terrain_world_from(two_face_mesh());
  ASSERT_TRUE(w);
  EXPECT_FALSE(w->raycast({0.25f, 0.25f, 2.0f}, {0, 0, -1}, 0x80000000u));
  EXPECT_TRUE(w->raycast({0.25f, 0.25f, 2.0f}, {0, 0, -1}, 0x00000001u));
}

TEST(TerrainWorld, ray_pointing_away_or_parallel_misses) {
  auto w = terrain_world_from(two_face_mesh());
  ASSERT_TRUE(w);
  EXPECT_FALSE(w->raycast({0.25f, 0.25f, 2.0f}, {0, 0, 1}, 0));  // distance would be negative
  EXPECT_FALSE(w->raycast({0.25f, 0.25f, 2.0f}, {1, 0, 0}, 0));  // never reaches the surface
}

TEST(TerrainWorld, ray_tie_keeps_the_lower_face_index) {
  iron3d::LandMsh m;
  m.positions = {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
  m.faces = {face(0, 1, 2, 2), face(0, 1, 2, 1)};  // two identical faces
  auto w = terrain_world_from(m);
  ASSERT_TRUE(w);
  auto hit = w->raycast({0.2f, 0.2f, 5.0f}, {0, 0, -1}, 0);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->face, 0u);
  auto masked = w->raycast({0.2f, 0.2f, 5.0f}, {0, 0, -1}, 1);
  ASSERT_TRUE(masked);
  EXPECT_EQ(masked->face, 1u);
}

TEST(TerrainWorld, sixteen_separated_faces_give_small_candidate_sets) {
  iron3d::LandMsh m;
  for (std::uint16_t i = 0; i < 16; ++i) {
    const float x = static_cast<float>(i) * 10.0f;
    const auto b = static_cast<std::uint16_t>(m.positions.size());
    m.positions.push_back({x, 0, 0});
    m.positions.push_back({x + 1, 0, 0});
    m.positions.push_back({x, 1, 0});
    m.faces.push_back(face(b, static_cast<std::uint16_t>(b + 1), static_cast<std::uint16_t>(b + 2)));
  }
  auto w = terrain_world_from(m);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->nodes().size(), 3u);  // root + two leaves of 8
  for (std::uint32_t i = 0; i < 16; ++i) {
    const float cx = static_cast<float>(i) * 10.0f + 1.0f / 3.0f;
    auto c = w->candidates_at(cx, 1.0f / 3.0f);
    EXPECT_LT(c.size(), 16u);
    EXPECT_TRUE(std::binary_search(c.begin(), c.end(), i));
    auto s = w->sample_at(cx, 1.0f / 3.0f);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->face, i);
  }
  // Leaves split at the median along X: faces 0..7 and 8..15.
  EXPECT_EQ(w->nodes()[1].count, 8u);
  EXPECT_EQ(w->leaf_order()[0], 0u);
  EXPECT_EQ(w->leaf_order()[8], 8u);
}

TEST(TerrainWorld, rejects_face_with_missing_vertex) {
  iron3d::LandMsh m = two_face_mesh();
  m.faces[1].vertices[2] = 9;
  auto w = terrain_world_from(m);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, "nav.terrain.vertex");
  EXPECT_EQ(w.error().field, "faces[1].vertices[2]");
}

TEST(TerrainWorld, builder_terrain_heights_match_the_heightfield_at_vertices) {
  const auto field = iron3d::make_sample_heightfield(33, 29, 7, 8.0f);
  auto msh = iron3d::make_land_msh_from_heightfield(field);
  ASSERT_TRUE(msh);
  auto w = terrain_world_from(*msh);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->face_count(), std::size_t{2} * 32 * 28);
  for (std::uint32_t y = 0; y < field.rows; ++y) {
    for (std::uint32_t x = 0; x < field.columns; ++x) {
      const float wx = field.origin.x + static_cast<float>(x) * field.cell_size;
      const float wy = field.origin.y + static_cast<float>(y) * field.cell_size;
      auto h = w->height_at(wx, wy);
      ASSERT_TRUE(h) << x << "," << y;
      EXPECT_NEAR(*h, field.origin.z + field.heights[y * field.columns + x], 1e-3f) << x << "," << y;
    }
  }
}

TEST(TerrainWorld, builder_terrain_matches_brute_force_and_raycast_agrees) {
  const auto field = iron3d::make_sample_heightfield(40, 40, 11, 8.0f);
  auto msh = iron3d::make_land_msh_from_heightfield(field);
  ASSERT_TRUE(msh);
  auto w = terrain_world_from(*msh);
  ASSERT_TRUE(w);
  const auto b = w->bounds();
  core::Rng rng(5, 1);
  for (int i = 0; i < 300; ++i) {
    const float x = b.min.x + rng.unit_f32() * (b.max.x - b.min.x);
    const float y = b.min.y + rng.unit_f32() * (b.max.y - b.min.y);
    auto h = w->height_at(x, y);
    auto brute = iron3d::land_msh_height_at(*msh, x, y);
    ASSERT_TRUE(h);
    ASSERT_TRUE(brute);
    EXPECT_NEAR(*h, *brute, 1e-3f);
    EXPECT_LT(w->candidates_at(x, y).size(), w->face_count());
    auto hit = w->raycast({x, y, b.max.z + 10.0f}, {0, 0, -1}, 0);
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->point.z, *h, 1e-2f);
    auto n = w->normal_at(x, y);
    ASSERT_TRUE(n);
    EXPECT_GT(n->z, 0.0f);
  }
}

// sample_at (answered from the leaf grid) equals, bit for bit, the highest face among the BVH
// walk's candidates (lowest index on equal heights), the heights worked out here with the same
// barycentric formula: two overlapping copies of a heightfield, points on vertices, on edges,
// inside faces and just outside the map.
TEST(TerrainWorld, sample_is_the_best_walk_candidate_bit_for_bit) {
  const auto field = iron3d::make_sample_heightfield(24, 24, 3, 8.0f);
  auto msh = iron3d::make_land_msh_from_heightfield(field);
  ASSERT_TRUE(msh);
  TriangleSoup soup = triangle_soup_from(*msh);
  const std::size_t base = soup.positions.size();
  for (std::size_t i = 0; i < base; ++i) {
    const core::Vec3 p = soup.positions[i];
    soup.positions.push_back({p.x + 3.3f, p.y + 1.7f, p.z + 0.5f});
  }
  const std::size_t faces = soup.faces.size();
  for (std::size_t i = 0; i < faces; ++i) {
    TriangleSoup::Face f = soup.faces[i];
    for (auto& v : f.vertices) v += static_cast<std::uint32_t>(base);
    soup.faces.push_back(f);
  }
  auto w = TerrainWorld::build(soup);
  ASSERT_TRUE(w);
  auto expected = [&](float x, float y) {
    std::optional<HeightSample> best;
    for (std::uint32_t i : w->candidates_at(x, y)) {
      const core::Vec3 a = soup.positions[soup.faces[i].vertices[0]];
      const core::Vec3 b = soup.positions[soup.faces[i].vertices[1]];
      const core::Vec3 c = soup.positions[soup.faces[i].vertices[2]];
      const float d = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y);
      if (std::fabs(d) <= kDegenerateArea) continue;
      const float w0 = ((b.y - c.y) * (x - c.x) + (c.x - b.x) * (y - c.y)) / d;
      const float w1 = ((c.y - a.y) * (x - c.x) + (a.x - c.x) * (y - c.y)) / d;
      const float w2 = 1.0f - w0 - w1;
      const float lo = -kBarycentricEpsilon, hi = 1.0f + kBarycentricEpsilon;
      if (w0 < lo || w0 > hi || w1 < lo || w1 > hi || w2 < lo || w2 > hi) continue;
      const float z = w0 * a.z + w1 * b.z + w2 * c.z;
      if (!best || z > best->z) best = HeightSample{z, i};  // ascending index: ties keep the first
    }
    return best;
  };
  std::vector<core::Vec2> points;
  for (std::size_t i = 0; i < soup.positions.size(); i += 7) points.push_back(soup.positions[i].xy());
  const auto b = w->bounds();
  core::Rng rng(21, 4);
  for (int i = 0; i < 2000; ++i) {
    const float x = b.min.x - 2.0f + rng.unit_f32() * (b.max.x - b.min.x + 4.0f);
    const float y = b.min.y - 2.0f + rng.unit_f32() * (b.max.y - b.min.y + 4.0f);
    points.push_back({x, y});
    points.push_back({std::round(x / 8.0f) * 8.0f, y});  // on a grid line of the first copy
  }
  points.push_back({b.min.x - 5e-5f, b.min.y});
  points.push_back({b.max.x + 5e-5f, b.max.y + 5e-5f});
  std::size_t hits = 0;
  for (const core::Vec2 p : points) {
    const auto got = w->sample_at(p.x, p.y);
    const auto want = expected(p.x, p.y);
    ASSERT_EQ(got.has_value(), want.has_value()) << p.x << "," << p.y;
    if (!got) continue;
    ++hits;
    EXPECT_EQ(got->face, want->face) << p.x << "," << p.y;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(got->z), std::bit_cast<std::uint32_t>(want->z)) << p.x << "," << p.y;
  }
  EXPECT_GT(hits, points.size() / 2);
}

TEST(TerrainWorld, build_is_deterministic) {
  const auto field = iron3d::make_sample_heightfield(20, 20, 3, 8.0f);
  auto msh = iron3d::make_land_msh_from_heightfield(field);
  ASSERT_TRUE(msh);
  auto a = terrain_world_from(*msh);
  auto b = terrain_world_from(*msh);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->leaf_order(), b->leaf_order());
  ASSERT_EQ(a->nodes().size(), b->nodes().size());
  for (std::size_t i = 0; i < a->nodes().size(); ++i) {
    EXPECT_EQ(a->nodes()[i].box, b->nodes()[i].box);
    EXPECT_LE(a->nodes()[i].count, kBvhLeafFaces);
  }
}

TEST(TerrainWorld, first_face_centroid_query_includes_it_with_fewer_candidates) {
  auto msh = iron3d::make_land_msh_from_heightfield(iron3d::make_sample_heightfield(78, 78, 2026));
  ASSERT_TRUE(msh);
  auto w = terrain_world_from(*msh);
  ASSERT_TRUE(w);
  ASSERT_GT(w->face_count(), kBvhLeafFaces);
  const auto& f = msh->faces[0];
  const auto& a = msh->positions[f.vertices[0]];
  const auto& b = msh->positions[f.vertices[1]];
  const auto& c = msh->positions[f.vertices[2]];
  const float cx = (a.x + b.x + c.x) / 3.0f;
  const float cy = (a.y + b.y + c.y) / 3.0f;
  auto cand = w->candidates_at(cx, cy);
  EXPECT_TRUE(std::binary_search(cand.begin(), cand.end(), 0u));
  EXPECT_LT(cand.size(), w->face_count());
  EXPECT_LE(cand.size(), 4 * kBvhLeafFaces);
  auto s = w->sample_at(cx, cy);
  ASSERT_TRUE(s);
  EXPECT_NEAR(s->z, (a.z + b.z + c.z) / 3.0f, 1e-3f);
}

// ---- A TriangleSoup built by hand (no Iron3D data) ----
namespace {

// 3 x 3 vertices 10 apart over [0, 20]^2 (vertex row * 3 + col), heights
//   row 2:  6  7  9
//   row 1:  3  5  4
//   row 0:  0  1  2
// Cell (col, row) = faces 2 * (row * 2 + col) and + 1: the lower triangle (a, b, d) with mask 0x1
// and the upper one (b, c, d) with mask 0x2, where a..d are the corners counter-clockwise from
// the lower left (diagonal b-d).
TriangleSoup soup_2x2() {
  TriangleSoup s;
  const float z[9] = {0, 1, 2, 3, 5, 4, 6, 7, 9};
  for (std::uint32_t r = 0; r < 3; ++r)
    for (std::uint32_t c = 0; c < 3; ++c)
      s.positions.push_back({10.0f * static_cast<float>(c), 10.0f * static_cast<float>(r), z[r * 3 + c]});
  for (std::uint32_t r = 0; r < 2; ++r) {
    for (std::uint32_t c = 0; c < 2; ++c) {
      const std::uint32_t a = r * 3 + c, b = a + 1, cc = a + 4, d = a + 3;
      s.faces.push_back({{a, b, d}, 0x1});
      s.faces.push_back({{b, cc, d}, 0x2});
    }
  }
  return s;
}

}  // namespace

TEST(TerrainWorldSoup, heights_are_the_planes_of_the_hand_made_faces) {
  auto w = TerrainWorld::build(soup_2x2());
  ASSERT_TRUE(w);
  EXPECT_EQ(w->face_count(), 8u);
  // Cell (0, 0), lower face 0 at (u, v) = (0.5, 0.25): 0 + 0.5 * 1 + 0.25 * 3 = 1.25.
  auto s = w->sample_at(5.0f, 2.5f);
  ASSERT_TRUE(s);
  EXPECT_FLOAT_EQ(s->z, 1.25f);
  EXPECT_EQ(s->face, 0u);
  // Cell (1, 1), upper face 7 at (u, v) = (0.75, 0.5): 9 + 0.25 * (7 - 9) + 0.5 * (4 - 9) = 6.
  s = w->sample_at(17.5f, 15.0f);
  ASSERT_TRUE(s);
  EXPECT_FLOAT_EQ(s->z, 6.0f);
  EXPECT_EQ(s->face, 7u);
  // The centre vertex (z 5) lies on faces 1..6: equal heights keep the lowest index.
  s = w->sample_at(10.0f, 10.0f);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->z, 5.0f);
  EXPECT_EQ(s->face, 1u);
  EXPECT_FALSE(w->height_at(25.0f, 5.0f));
  const core::Aabb b = w->bounds();
  EXPECT_EQ(b.min, (core::Vec3{0, 0, 0}));
  EXPECT_EQ(b.max, (core::Vec3{20, 20, 9}));
}

TEST(TerrainWorldSoup, normal_and_ray_of_the_upper_right_face) {
  auto w = TerrainWorld::build(soup_2x2());
  ASSERT_TRUE(w);
  // Face 7 rises 0.2 per unit of x and 0.5 per unit of y: normal (-0.2, -0.5, 1) / sqrt(1.29).
  auto n = w->normal_at(17.5f, 15.0f);
  ASSERT_TRUE(n);
  const float len = std::sqrt(1.29f);
  EXPECT_NEAR(n->x, -0.2f / len, 1e-6f);
  EXPECT_NEAR(n->y, -0.5f / len, 1e-6f);
  EXPECT_NEAR(n->z, 1.0f / len, 1e-6f);
  // Straight down from z 100: t = 94; (17.5, 15) = b + 0.25 (c - b) + 0.25 (d - b).
  auto hit = w->raycast({17.5f, 15.0f, 100.0f}, {0, 0, -1});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->face, 7u);
  EXPECT_FLOAT_EQ(hit->distance, 94.0f);
  EXPECT_FLOAT_EQ(hit->u, 0.25f);
  EXPECT_FLOAT_EQ(hit->v, 0.25f);
  EXPECT_FLOAT_EQ(hit->point.z, 6.0f);
  // Face 7 carries mask 0x2: a ray asking for 0x1 only passes through it.
  EXPECT_FALSE(w->raycast({17.5f, 15.0f, 100.0f}, {0, 0, -1}, 0x1));
  auto masked = w->raycast({17.5f, 15.0f, 100.0f}, {0, 0, -1}, 0x3);
  ASSERT_TRUE(masked);
  EXPECT_EQ(masked->face, 7u);
}

TEST(TerrainWorldSoup, rejects_face_index_past_the_positions) {
  auto s = soup_2x2();
  s.faces[5].vertices[1] = 9;
  auto w = TerrainWorld::build(s);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, "nav.terrain.vertex");
  EXPECT_EQ(w.error().field, "faces[5].vertices[1]");
  EXPECT_EQ(w.error().expected, "< 9");
  EXPECT_EQ(w.error().found, "9");
}

TEST(TerrainWorldSoup, empty_soup_has_no_surface_and_an_empty_box) {
  auto w = TerrainWorld::build(TriangleSoup{});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->face_count(), 0u);
  EXPECT_FALSE(w->height_at(0.0f, 0.0f));
  EXPECT_FALSE(w->raycast({0, 0, 1}, {0, 0, -1}));
  EXPECT_TRUE(w->bounds().empty());
}
