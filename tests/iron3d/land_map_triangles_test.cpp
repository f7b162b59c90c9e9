// iron3d::make_triangulated_land_map: a jittered lattice of triangles over a Land.msh, blocked
// triangles left out as holes, links naming each other's edges, a strict read-back.
#include <gtest/gtest.h>

#include <cmath>

#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/terrain_builder.hpp"

namespace sortie::iron3d {
namespace {

LandMsh flat_mesh() {
  auto field = make_sample_heightfield(9, 9, 3, 8.0f);
  return *make_land_msh_from_heightfield(field);
}

TEST(TriangulatedLandMap, tiles_the_lattice_with_linked_triangles_that_read_back) {
  const LandMsh msh = flat_mesh();
  TriangulatedLandMapOptions o;
  o.cells_x = 4;
  o.cells_y = 4;
  o.seed = 7;
  auto map = make_triangulated_land_map(msh, o);
  ASSERT_TRUE(map) << map.error().to_string();
  ASSERT_EQ(map->areals.size(), 32u);
  bool jittered = false;
  for (std::size_t i = 0; i < map->areals.size(); ++i) {
    const Areal& a = map->areals[i];
    ASSERT_EQ(a.vertices.size(), 3u);
    ASSERT_EQ(a.links.size(), 3u);
    EXPECT_GT(a.normal.z, 0.0f);
    EXPECT_GT(a.area_metric, 0.0f);
    for (const auto& v : a.vertices) jittered = jittered || std::fmod(v.x, 16.0f) != 0.0f;
    for (std::size_t k = 0; k < 3; ++k) {
      const EdgeLink& l = a.links[k];
      if (l.is_none()) continue;
      const EdgeLink& back =
          map->areals[static_cast<std::size_t>(l.area_ref)].links[static_cast<std::size_t>(l.edge_ref)];
      EXPECT_EQ(back.area_ref, static_cast<std::int32_t>(i));
      EXPECT_EQ(back.edge_ref, static_cast<std::int32_t>(k));
    }
  }
  EXPECT_TRUE(jittered);
  auto bytes = write_land_map(*map);
  ASSERT_TRUE(bytes);
  auto back = read_land_map(*bytes, {core::Profile::strict, "Land.map"});
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, *map);
}

TEST(TriangulatedLandMap, blocked_triangles_are_holes_without_links_into_them) {
  const LandMsh msh = flat_mesh();
  TriangulatedLandMapOptions o;
  o.cells_x = 4;
  o.cells_y = 4;
  // A hole around the map's middle (32, 32).
  o.blocked = [](const std::array<core::Vec3, 3>& t) {
    const float cx = (t[0].x + t[1].x + t[2].x) / 3.0f, cy = (t[0].y + t[1].y + t[2].y) / 3.0f;
    return std::hypot(cx - 32.0f, cy - 32.0f) < 12.0f;
  };
  auto map = make_triangulated_land_map(msh, o);
  ASSERT_TRUE(map) << map.error().to_string();
  EXPECT_LT(map->areals.size(), 32u);
  EXPECT_GT(map->areals.size(), 24u);
  std::size_t open_edges = 0;
  for (const auto& a : map->areals)
    for (const auto& l : a.links) open_edges += l.is_none() ? 1 : 0;
  EXPECT_GT(open_edges, 16u);  // the map's rim (16 edges) plus the hole's rim
  o.blocked = [](const std::array<core::Vec3, 3>&) { return true; };
  auto none = make_triangulated_land_map(msh, o);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, "land_map.build.empty");
}

}  // namespace
}  // namespace sortie::iron3d
