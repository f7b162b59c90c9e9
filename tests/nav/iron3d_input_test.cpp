// Iron3D terrain as nav input (nav/iron3d_input.hpp): Land.msh -> TriangleSoup, Land.map -> ArealInput.
#include "sortie/nav/iron3d_input.hpp"

#include <gtest/gtest.h>

#include "sortie/iron3d/terrain_builder.hpp"

using namespace sortie;
using namespace sortie::nav;

namespace {

iron3d::TerrainFace28 face(std::uint16_t a, std::uint16_t b, std::uint16_t c, std::uint32_t mask) {
  iron3d::TerrainFace28 f;
  f.surface_mask = mask;
  f.material_tag = 0xFF01;
  f.vertices = {a, b, c};
  f.neighbours = {iron3d::kNoNeighbour, 1, iron3d::kNoNeighbour};
  return f;
}

iron3d::Areal areal(float x0, float y0, std::uint32_t class_id, std::uint32_t logic_flag) {
  iron3d::Areal a;
  a.anchor = {x0 + 1, y0 + 1, 7};
  a.normal = {0, 0, 1};
  a.class_id = class_id;
  a.logic_flag = logic_flag;
  a.vertices = {{x0, y0, 3}, {x0 + 2, y0, 4}, {x0 + 2, y0 + 2, 5}, {x0, y0 + 2, 6}};
  a.links.assign(4, iron3d::EdgeLink{});
  return a;
}

// Two 2 x 2 areals side by side over [-2, 2] x [1, 3], linked across x = 0, in a 2 x 1 grid
// whose left cell lists both (1 before 0) and whose right cell lists 1.
iron3d::LandMap two_areals() {
  iron3d::LandMap m;
  m.areals = {areal(-2, 1, 4, 0x80000001u), areal(0, 1, 5, 2)};
  m.areals[0].links[1] = {1, 3};
  m.areals[1].links[3] = {0, 1};
  m.grid.cells_x = 2;
  m.grid.cells_y = 1;
  const std::uint16_t left[] = {1, 0};
  const std::uint16_t right[] = {1};
  EXPECT_TRUE(m.grid.push_cell(left));
  EXPECT_TRUE(m.grid.push_cell(right));
  return m;
}

}  // namespace

TEST(Iron3dInput, triangle_soup_keeps_positions_face_order_and_full_masks) {
  iron3d::LandMsh msh;
  msh.positions = {{0, 0, 1}, {4, 0, 2}, {0, 4, 3}, {4, 4, 5}};
  msh.faces = {face(0, 1, 2, 0x00020001u), face(1, 3, 2, 0x80000000u)};
  const TriangleSoup soup = triangle_soup_from(msh);
  EXPECT_EQ(soup.positions, msh.positions);
  ASSERT_EQ(soup.faces.size(), 2u);
  EXPECT_EQ(soup.faces[0], (TriangleSoup::Face{{0, 1, 2}, 0x00020001u}));
  EXPECT_EQ(soup.faces[1], (TriangleSoup::Face{{1, 3, 2}, 0x80000000u}));
  // Through the soup: face 1 at (3, 3) is z = 5 - 0.25 * (5 - 3) - 0.25 * (5 - 2) = 3.75.
  auto w = terrain_world_from(msh);
  ASSERT_TRUE(w);
  auto s = w->sample_at(3.0f, 3.0f);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->face, 1u);
  EXPECT_FLOAT_EQ(s->z, 3.75f);
  EXPECT_FALSE(w->raycast({3, 3, 10}, {0, 0, -1}, 0x1));  // face 1 has only the top bit
}

TEST(Iron3dInput, areal_input_takes_xy_links_raw_words_and_the_vertex_box_as_grid_bounds) {
  const auto in = areal_input_from(two_areals());
  ASSERT_TRUE(in);
  ASSERT_EQ(in->areals.size(), 2u);
  const ArealPolygon& a = in->areals[0];
  EXPECT_EQ(a.anchor, (core::Vec2{-1, 2}));
  EXPECT_EQ(a.ring, (std::vector<core::Vec2>{{-2, 1}, {0, 1}, {0, 3}, {-2, 3}}));
  EXPECT_EQ(a.links, (std::vector<std::int32_t>{-1, 1, -1, -1}));
  EXPECT_EQ(a.class_id, 4u);
  EXPECT_EQ(a.logic_flag, 0x80000001u);
  EXPECT_EQ(in->areals[1].links, (std::vector<std::int32_t>{-1, -1, -1, 0}));
  ASSERT_TRUE(in->grid);
  EXPECT_EQ(in->grid->min, (core::Vec2{-2, 1}));
  EXPECT_EQ(in->grid->max, (core::Vec2{2, 3}));
  EXPECT_EQ(in->grid->cells_x, 2u);
  EXPECT_EQ(in->grid->cells_y, 1u);
  EXPECT_EQ(in->grid->cells, (std::vector<std::vector<std::uint32_t>>{{1, 0}, {1}}));

  auto m = areal_map_from(two_areals());
  ASSERT_TRUE(m);
  EXPECT_EQ(m->cell_of(0.0f, 2.0f), std::optional<std::size_t>(0));  // x = 0: upper edge of cell 0
  EXPECT_EQ(m->cell_of(0.5f, 2.0f), std::optional<std::size_t>(1));
  EXPECT_EQ(m->locate(-1.5f, 1.5f), std::optional<std::uint32_t>(0));
  EXPECT_EQ(m->locate(1.5f, 2.5f), std::optional<std::uint32_t>(1));
  EXPECT_EQ(m->corridor(Route{0, 1}, {-1, 2}, {1, 2}), (std::vector<core::Vec2>{{0, 2}, {1, 2}}));
  EXPECT_EQ(m->class_id(1), 5u);
}

TEST(Iron3dInput, polygon_block_links_stay_in_the_input) {
  auto map = two_areals();
  map.areals[0].polygons.push_back({1, core::Bytes(16, 0)});
  map.areals[0].links.insert(map.areals[0].links.end(), {{1, 0}, {-1, -1}, {1, 2}});
  const auto in = areal_input_from(map);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->areals[0].ring.size(), 4u);
  EXPECT_EQ(in->areals[0].links, (std::vector<std::int32_t>{-1, 1, -1, -1, 1, -1, 1}));
}

TEST(Iron3dInput, rejects_half_empty_link) {
  auto map = two_areals();
  map.areals[1].links[2] = {-1, 2};  // the reader's land_map.areal.link_pair
  const auto in = areal_input_from(map);
  ASSERT_FALSE(in);
  EXPECT_EQ(in.error().code, "nav.areal.link");
  EXPECT_EQ(in.error().field, "areals[1].links[2]");
  EXPECT_EQ(in.error().expected, "0..1");
  EXPECT_EQ(in.error().found, "-1");
  EXPECT_FALSE(areal_map_from(map));
}

TEST(Iron3dInput, builder_terrain_gives_the_same_answers_through_both_paths) {
  auto msh = iron3d::make_land_msh_from_heightfield(iron3d::make_sample_heightfield(17, 13, 5, 8.0f));
  ASSERT_TRUE(msh);
  auto map = iron3d::make_land_map_for(*msh, {4, 3, 16, 16});
  ASSERT_TRUE(map);
  auto w = TerrainWorld::build(triangle_soup_from(*msh));
  ASSERT_TRUE(w);
  ASSERT_EQ(w->face_count(), msh->faces.size());
  for (std::size_t i = 0; i < msh->faces.size(); i += 11) {
    const auto& f = msh->faces[i];
    const auto& a = msh->positions[f.vertices[0]];
    const auto& b = msh->positions[f.vertices[1]];
    const auto& c = msh->positions[f.vertices[2]];
    const float cx = (a.x + b.x + c.x) / 3.0f;
    const float cy = (a.y + b.y + c.y) / 3.0f;
    auto h = w->height_at(cx, cy);
    auto brute = iron3d::land_msh_height_at(*msh, cx, cy);
    ASSERT_TRUE(h && brute) << i;
    EXPECT_NEAR(*h, *brute, 1e-3f) << i;
  }
  auto m = areal_map_from(*map);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->areal_count(), 12u);
  for (std::uint32_t i = 0; i < 12; ++i) {
    EXPECT_EQ(m->locate(map->areals[i].anchor.x, map->areals[i].anchor.y), std::optional<std::uint32_t>(i));
    EXPECT_EQ(m->anchor(i), map->areals[i].anchor.xy());
  }
}
