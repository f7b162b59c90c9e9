// ArealMap (spec §18) over Land.map data (nav::areal_map_from): locate through the grid, routes, corridors.
#include "sortie/nav/areal_map.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sortie/core/rng.hpp"
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/nav/iron3d_input.hpp"

using namespace sortie;
using namespace sortie::nav;

namespace {

iron3d::Areal square(float x0, float y0, std::size_t n_links = 4) {
  iron3d::Areal a;
  a.anchor = {x0 + 0.5f, y0 + 0.5f, 0};
  a.normal = {0, 0, 1};
  a.vertices = {{x0, y0, 0}, {x0 + 1, y0, 0}, {x0 + 1, y0 + 1, 0}, {x0, y0 + 1, 0}};
  a.links.assign(n_links, iron3d::EdgeLink{});
  return a;
}

// Two unit squares side by side, linked 0 <-> 1 across x = 1, grid 1 x 1 holding both.
iron3d::LandMap two_squares(bool linked = true) {
  iron3d::LandMap m;
  m.areals = {square(0, 0), square(1, 0)};
  if (linked) {
    m.areals[0].links[1] = {1, 3};
    m.areals[1].links[3] = {0, 1};
  }
  m.grid.cells_x = 1;
  m.grid.cells_y = 1;
  const std::uint16_t ids[] = {0, 1};
  EXPECT_TRUE(m.grid.push_cell(ids));
  return m;
}

// A row of `n` unit squares, each linked to the next.
iron3d::LandMap chain(std::uint32_t n) {
  iron3d::LandMap m;
  for (std::uint32_t i = 0; i < n; ++i) m.areals.push_back(square(static_cast<float>(i), 0));
  for (std::uint32_t i = 0; i + 1 < n; ++i) {
    m.areals[i].links[1] = {static_cast<std::int32_t>(i + 1), 3};
    m.areals[i + 1].links[3] = {static_cast<std::int32_t>(i), 1};
  }
  m.grid.cells_x = n;
  m.grid.cells_y = 1;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::vector<std::uint16_t> ids{static_cast<std::uint16_t>(i)};
    EXPECT_TRUE(m.grid.push_cell(ids));
  }
  return m;
}

iron3d::LandMap builder_map(std::uint32_t ax, std::uint32_t ay, iron3d::LandMsh* msh_out = nullptr) {
  auto msh = iron3d::make_land_msh_from_heightfield(iron3d::make_sample_heightfield(41, 37, 9, 8.0f));
  EXPECT_TRUE(msh);
  auto map = iron3d::make_land_map_for(*msh, {ax, ay, 64, 64});
  EXPECT_TRUE(map);
  if (msh_out) *msh_out = *msh;
  return *map;
}

}  // namespace

TEST(ArealMap, two_squares_locate_and_route) {
  auto m = areal_map_from(two_squares());
  ASSERT_TRUE(m);
  EXPECT_EQ(m->locate(0.25f, 0.25f), std::optional<std::uint32_t>(0));
  EXPECT_EQ(m->locate(1.75f, 0.25f), std::optional<std::uint32_t>(1));
  auto r = m->route(0, 1);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (Route{0, 1}));
  EXPECT_EQ(m->route(1, 1), (std::optional<Route>(Route{1})));
  ASSERT_EQ(m->neighbours(0).size(), 1u);
  EXPECT_EQ(m->neighbours(0)[0], 1u);
}

TEST(ArealMap, outside_start_is_an_explicit_miss_and_gives_no_route) {
  auto m = areal_map_from(two_squares());
  ASSERT_TRUE(m);
  auto start = m->locate(5.0f, 5.0f);
  EXPECT_FALSE(start);
  EXPECT_FALSE(m->route(7, 1));  // an id that is not an areal
  auto unlinked = areal_map_from(two_squares(false));
  ASSERT_TRUE(unlinked);
  EXPECT_FALSE(unlinked->route(0, 1));
  EXPECT_FALSE(unlinked->route_astar(0, 1));
}

TEST(ArealMap, edge_rule_and_interior_preference) {
  auto m = areal_map_from(two_squares());
  ASSERT_TRUE(m);
  // On the shared edge x = 1 both hold the point through the edge rule: the lower id wins.
  EXPECT_EQ(m->locate(1.0f, 0.5f), std::optional<std::uint32_t>(0));
  EXPECT_EQ(m->locate(1.00005f, 0.5f), std::optional<std::uint32_t>(0));
  EXPECT_EQ(m->locate(1.0002f, 0.5f), std::optional<std::uint32_t>(1));
  // 5e-5 outside the outer boundary still counts; 1e-3 does not.
  EXPECT_EQ(m->locate(-0.00005f, 0.5f), std::optional<std::uint32_t>(0));
  EXPECT_FALSE(m->locate(-0.001f, 0.5f));
  EXPECT_TRUE(m->contains(1, 2.0f, 1.0f));
  EXPECT_FALSE(m->contains(0, 1.5f, 0.5f));
}

TEST(ArealMap, strict_interior_beats_the_edge_tolerance) {
  auto map = two_squares();
  map.areals[1] = square(0.9995f, 0);  // overlaps areal 0 by 5e-4
  auto m = areal_map_from(map);
  ASSERT_TRUE(m);
  // Within 1e-4 of areal 0's edge x = 1, strictly inside areal 1: areal 1 wins.
  EXPECT_EQ(m->locate(1.00005f, 0.5f), std::optional<std::uint32_t>(1));
  // Strictly inside both: the lower id.
  EXPECT_EQ(m->locate(0.9997f, 0.5f), std::optional<std::uint32_t>(0));
}

TEST(ArealMap, falls_back_to_a_scan_when_the_grid_cell_lacks_the_areal) {
  auto map = two_squares();
  map.grid = {};
  map.grid.cells_x = 2;
  map.grid.cells_y = 1;
  const std::uint16_t none[] = {0};
  ASSERT_TRUE(map.grid.push_cell(std::span<const std::uint16_t>(none, 0)));  // left cell: empty
  ASSERT_TRUE(map.grid.push_cell(std::span<const std::uint16_t>(none, 1)));  // right cell lists 0 only
  auto m = areal_map_from(map);
  ASSERT_TRUE(m);
  auto left = m->locate_detail(0.25f, 0.25f);
  ASSERT_TRUE(left);
  EXPECT_EQ(left->areal, 0u);
  EXPECT_EQ(left->source, LocateSource::scan);
  auto right = m->locate_detail(1.75f, 0.25f);
  ASSERT_TRUE(right);
  EXPECT_EQ(right->areal, 1u);
  EXPECT_EQ(right->source, LocateSource::scan);
  // Grid cells: x = 1 lies on the inclusive upper edge of cell 0.
  EXPECT_EQ(m->cell_of(1.0f, 0.5f), std::optional<std::size_t>(0));
  EXPECT_EQ(m->cell_of(1.01f, 0.5f), std::optional<std::size_t>(1));
  EXPECT_FALSE(m->cell_of(2.5f, 0.5f));
}

TEST(ArealMap, rejects_links_and_grid_ids_out_of_range) {
  auto bad_link = two_squares();
  bad_link.areals[0].links[0] = {5, 0};
  auto a = areal_map_from(bad_link);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, "nav.areal.link");
  EXPECT_EQ(a.error().field, "areals[0].links[0]");
  auto bad_grid = two_squares();
  bad_grid.grid.pool[1] = 9;
  auto b = areal_map_from(bad_grid);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, "nav.areal.grid");
}

TEST(ArealMap, adjacency_is_deduplicated_and_sorted) {
  auto map = chain(3);
  map.areals[1].links[0] = {2, 0};  // a second link to 2
  map.areals[1].links[2] = {1, 0};  // a self link is dropped
  auto m = areal_map_from(map);
  ASSERT_TRUE(m);
  auto nb = m->neighbours(1);
  ASSERT_EQ(nb.size(), 2u);
  EXPECT_EQ(nb[0], 0u);
  EXPECT_EQ(nb[1], 2u);
}

TEST(ArealMap, astar_matches_bfs_on_a_chain_and_corridor_crosses_edge_midpoints) {
  auto m = areal_map_from(chain(6));
  ASSERT_TRUE(m);
  auto bfs = m->route(0, 5);
  auto astar = m->route_astar(0, 5);
  ASSERT_TRUE(bfs && astar);
  EXPECT_EQ(*bfs, (Route{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(*bfs, *astar);
  auto c = m->corridor(*bfs, {0.5f, 0.5f}, {5.25f, 0.75f});
  ASSERT_EQ(c.size(), 6u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(c[i], (core::Vec2{static_cast<float>(i + 1), 0.5f}));
  EXPECT_EQ(c.back(), (core::Vec2{5.25f, 0.75f}));
  EXPECT_EQ(m->corridor(Route{}, {0, 0}, {1, 1}).size(), 1u);
}

TEST(ArealMap, every_builder_anchor_locates_to_its_own_areal) {
  const auto map = builder_map(12, 10);
  auto m = areal_map_from(map);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->areal_count(), 120u);
  for (std::uint32_t i = 0; i < m->areal_count(); ++i) {
    auto r = m->locate_detail(map.areals[i].anchor.x, map.areals[i].anchor.y);
    ASSERT_TRUE(r) << i;
    EXPECT_EQ(r->areal, i);
    EXPECT_EQ(r->source, LocateSource::grid) << i;
  }
}

TEST(ArealMap, builder_routes_exist_are_contiguous_and_corridors_stay_inside) {
  const auto map = builder_map(15, 11);
  auto m = areal_map_from(map);
  ASSERT_TRUE(m);
  core::Rng rng(3, 2);
  const auto n = static_cast<std::uint32_t>(m->areal_count());
  for (int i = 0; i < 200; ++i) {
    const std::uint32_t a = rng.below(n);
    const std::uint32_t b = rng.below(n);
    auto r = m->route(a, b);
    ASSERT_TRUE(r) << a << "->" << b;
    EXPECT_EQ(r->front(), a);
    EXPECT_EQ(r->back(), b);
    for (std::size_t k = 0; k + 1 < r->size(); ++k) {
      auto nb = m->neighbours((*r)[k]);
      EXPECT_TRUE(std::binary_search(nb.begin(), nb.end(), (*r)[k + 1]));
    }
    // On a tiling of equal rectangles A* finds a route with the same number of areals.
    auto s = m->route_astar(a, b);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->size(), r->size());
    // Each corridor gate lies on the boundary of both areals it joins.
    const core::Vec2 from = m->anchor(a);
    const core::Vec2 to = m->anchor(b);
    auto c = m->corridor(*r, from, to);
    ASSERT_EQ(c.size(), r->size());
    for (std::size_t k = 0; k + 1 < r->size(); ++k) {
      EXPECT_TRUE(m->contains((*r)[k], c[k].x, c[k].y));
      EXPECT_TRUE(m->contains((*r)[k + 1], c[k].x, c[k].y));
    }
    EXPECT_EQ(c.back(), to);
  }
}

TEST(ArealMap, random_points_locate_to_an_areal_holding_them) {
  iron3d::LandMsh msh;
  const auto map = builder_map(9, 7, &msh);
  auto m = areal_map_from(map);
  ASSERT_TRUE(m);
  float min_x = 1e30f, min_y = 1e30f, max_x = -1e30f, max_y = -1e30f;
  for (const auto& p : msh.positions) {
    min_x = std::min(min_x, p.x);
    min_y = std::min(min_y, p.y);
    max_x = std::max(max_x, p.x);
    max_y = std::max(max_y, p.y);
  }
  core::Rng rng(8, 4);
  for (int i = 0; i < 500; ++i) {
    const float x = min_x + rng.unit_f32() * (max_x - min_x);
    const float y = min_y + rng.unit_f32() * (max_y - min_y);
    auto r = m->locate(x, y);
    ASSERT_TRUE(r) << x << "," << y;
    EXPECT_TRUE(m->contains(*r, x, y));
  }
}

TEST(ArealMap, sampled_boundary_vertices_locate_to_an_areal_holding_them) {
  const auto map = builder_map(25, 24);
  auto m = areal_map_from(map);
  ASSERT_TRUE(m);
  for (std::size_t i = 0; i < map.areals.size(); i += 7) {
    for (const auto& v : map.areals[i].vertices) {
      auto r = m->locate(v.x, v.y);
      ASSERT_TRUE(r) << i;
      EXPECT_TRUE(m->contains(*r, v.x, v.y));
      EXPECT_TRUE(m->contains(static_cast<std::uint32_t>(i), v.x, v.y));
    }
  }
}

// ---- An ArealInput built by hand (no Iron3D data) ----
namespace {

// 2 x 2 squares of side 10 over [0, 20]^2: id = row * 2 + col, ring counter-clockwise from the
// lower left, so edge 0 is the bottom, 1 the right, 2 the top, 3 the left side. Anchors are the
// centres; class_id = 10 + id, logic_flag = 0x100 * id. A 2 x 2 grid over the same box lists the
// areal of each cell (cell 0 also lists areal 2, unsorted).
ArealInput squares_2x2() {
  ArealInput in;
  const std::int32_t links[4][4] = {{-1, 1, 2, -1}, {-1, -1, 3, 0}, {0, 3, -1, -1}, {1, -1, -1, 2}};
  for (std::uint32_t id = 0; id < 4; ++id) {
    const float x0 = 10.0f * static_cast<float>(id % 2), y0 = 10.0f * static_cast<float>(id / 2);
    ArealPolygon p;
    p.anchor = {x0 + 5, y0 + 5};
    p.ring = {{x0, y0}, {x0 + 10, y0}, {x0 + 10, y0 + 10}, {x0, y0 + 10}};
    p.links.assign(std::begin(links[id]), std::end(links[id]));
    p.class_id = 10 + id;
    p.logic_flag = 0x100 * id;
    in.areals.push_back(std::move(p));
  }
  CandidateGrid g;
  g.min = {0, 0};
  g.max = {20, 20};
  g.cells_x = 2;
  g.cells_y = 2;
  g.cells = {{2, 0}, {1}, {2}, {3}};
  in.grid = std::move(g);
  return in;
}

}  // namespace

TEST(ArealInput, locates_through_the_hand_made_grid) {
  auto m = ArealMap::build(squares_2x2());
  ASSERT_TRUE(m);
  ASSERT_EQ(m->areal_count(), 4u);
  auto r = m->locate_detail(3.0f, 4.0f);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->areal, 0u);
  EXPECT_EQ(r->source, LocateSource::grid);
  EXPECT_EQ(m->locate(12.0f, 18.0f), std::optional<std::uint32_t>(3));
  EXPECT_EQ(m->locate(4.0f, 16.0f), std::optional<std::uint32_t>(2));
  // (10, 5) is on the edge shared by 0 and 1; x = 10 belongs to grid column 0, whose list holds 0.
  EXPECT_EQ(m->locate(10.0f, 5.0f), std::optional<std::uint32_t>(0));
  EXPECT_EQ(m->cell_of(10.0f, 10.0f), std::optional<std::size_t>(0));
  EXPECT_EQ(m->cell_of(10.5f, 10.0f), std::optional<std::size_t>(1));
  EXPECT_EQ(m->cell_of(20.0f, 20.0f), std::optional<std::size_t>(3));
  EXPECT_FALSE(m->cell_of(20.5f, 0.0f));
  EXPECT_FALSE(m->locate(25.0f, 5.0f));
  EXPECT_EQ(m->anchor(3), (core::Vec2{15, 15}));
  EXPECT_EQ(m->class_id(2), 12u);
  EXPECT_EQ(m->logic_flag(3), 0x300u);
}

TEST(ArealInput, routes_and_corridor_over_the_hand_made_links) {
  auto m = ArealMap::build(squares_2x2());
  ASSERT_TRUE(m);
  const auto nb0 = m->neighbours(0);
  EXPECT_EQ(std::vector<std::uint32_t>(nb0.begin(), nb0.end()), (std::vector<std::uint32_t>{1, 2}));
  const auto nb3 = m->neighbours(3);
  EXPECT_EQ(std::vector<std::uint32_t>(nb3.begin(), nb3.end()), (std::vector<std::uint32_t>{1, 2}));
  // BFS visits 1 before 2; A* ties at f = 20 (both ways are 10 + 10) and takes the lower id.
  EXPECT_EQ(m->route(0, 3), (std::optional<Route>(Route{0, 1, 3})));
  EXPECT_EQ(m->route_astar(0, 3), (std::optional<Route>(Route{0, 1, 3})));
  EXPECT_EQ(m->route(2, 1), (std::optional<Route>(Route{2, 0, 1})));
  // Gates: the right edge of 0 ((10,0)-(10,10)) and the top edge of 1 ((20,10)-(10,10)).
  const auto c = m->corridor(Route{0, 1, 3}, {3, 4}, {12, 18});
  EXPECT_EQ(c, (std::vector<core::Vec2>{{10, 5}, {15, 10}, {12, 18}}));
}

TEST(ArealInput, links_past_the_ring_add_adjacency_and_the_corridor_uses_the_anchor) {
  auto in = squares_2x2();
  in.areals[0].links.push_back(3);  // a fifth link on a four-edge ring (Land.map polygon block)
  in.areals[3].links.push_back(0);
  auto m = ArealMap::build(in);
  ASSERT_TRUE(m);
  const auto nb = m->neighbours(0);
  EXPECT_EQ(std::vector<std::uint32_t>(nb.begin(), nb.end()), (std::vector<std::uint32_t>{1, 2, 3}));
  EXPECT_EQ(m->route(0, 3), (std::optional<Route>(Route{0, 3})));
  // No ring edge of 0 names 3: the gate is 3's anchor.
  EXPECT_EQ(m->corridor(Route{0, 3}, {3, 4}, {12, 18}), (std::vector<core::Vec2>{{15, 15}, {12, 18}}));
}

TEST(ArealInput, without_a_grid_every_locate_scans) {
  auto in = squares_2x2();
  in.grid.reset();
  auto m = ArealMap::build(in);
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->cell_of(5.0f, 5.0f));
  auto r = m->locate_detail(15.0f, 5.0f);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->areal, 1u);
  EXPECT_EQ(r->source, LocateSource::scan);
}

TEST(ArealInput, rejects_link_to_a_missing_areal) {
  auto in = squares_2x2();
  in.areals[1].links[2] = 7;
  auto m = ArealMap::build(in);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "nav.areal.link");
  EXPECT_EQ(m.error().field, "areals[1].links[2]");
  EXPECT_EQ(m.error().expected, "0..3");
  EXPECT_EQ(m.error().found, "7");
  in.areals[1].links[2] = -2;  // only -1 means "no neighbour"
  m = ArealMap::build(in);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().found, "-2");
}

TEST(ArealInput, rejects_grid_id_out_of_range_and_cell_count_mismatch) {
  auto in = squares_2x2();
  in.grid->cells[3] = {3, 4};
  auto m = ArealMap::build(in);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "nav.areal.grid");
  EXPECT_EQ(m.error().field, "grid.cells[3]");
  EXPECT_EQ(m.error().found, "4");
  in = squares_2x2();
  in.grid->cells_x = 3;
  m = ArealMap::build(in);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "nav.areal.grid");
  EXPECT_EQ(m.error().field, "grid.cells");
  EXPECT_EQ(m.error().expected, "6");
  EXPECT_EQ(m.error().found, "4");
}
