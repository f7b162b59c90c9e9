// Mesh builders (box, grid plane, height field), Mesh::append, validate_mesh and the isometric
// tile/wall scene.
#include <gtest/gtest.h>

#include <cmath>

#include "sortie/render/iso_scene.hpp"
#include "sortie/render/mesh_builders.hpp"

namespace sortie::render {
namespace {

using core::Vec3;

Vec3 face_normal(const Mesh& m, std::size_t tri) {
  const Vec3 a = m.positions[m.indices[tri * 3]], b = m.positions[m.indices[tri * 3 + 1]],
             c = m.positions[m.indices[tri * 3 + 2]];
  return core::cross(b - a, c - a);
}

TEST(Scene, box_faces_point_outward_and_wind_counter_clockwise) {
  const core::Aabb box = core::Aabb::from_min_max({1, 2, 3}, {4, 6, 8});
  const Mesh m = make_box(box, {10, 20, 30, 255});
  ASSERT_EQ(m.positions.size(), 24u);
  ASSERT_EQ(m.indices.size(), 36u);
  EXPECT_EQ(m.bounds(), box);
  EXPECT_TRUE(validate_mesh(m.view()));
  for (std::size_t t = 0; t < 12; ++t) {
    const Vec3 n = face_normal(m, t);
    const Vec3 a = m.positions[m.indices[t * 3]];
    EXPECT_GT(core::dot(n, a - box.center()), 0.0f) << t;  // CCW seen from outside
    const Vec3 vn = m.normals[m.indices[t * 3]];
    EXPECT_NEAR(core::dot(core::normalize_or(n, {}), vn), 1.0f, 1e-6f) << t;
  }
  EXPECT_EQ(m.colors[5], (Rgba8{10, 20, 30, 255}));
  const Mesh top = make_box(box, kWhite, kBoxMaxZ | kBoxMinX);
  EXPECT_EQ(top.positions.size(), 8u);
  EXPECT_EQ(top.normals[0], (Vec3{-1, 0, 0}));
  EXPECT_EQ(top.normals[4], (Vec3{0, 0, 1}));
  EXPECT_TRUE(make_box(core::Aabb{}).positions.empty());
}

TEST(Scene, grid_plane_counts_and_orientation) {
  const auto m = make_grid_plane({1, 1, 0.5f}, {6, 3}, 3, 2, {2, 1});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->positions.size(), 12u);
  EXPECT_EQ(m->indices.size(), 36u);
  for (std::size_t t = 0; t < 12; ++t) EXPECT_GT(face_normal(*m, t).z, 0.0f);
  EXPECT_EQ(m->positions[11], (Vec3{7, 4, 0.5f}));
  EXPECT_EQ(m->uvs[0], (core::Vec2{0, 1}));   // (origin) bottom-left of the image
  EXPECT_EQ(m->uvs[11], (core::Vec2{2, 0}));  // far corner, uv repeated twice across x
  auto bad = make_grid_plane({0, 0, 0}, {1, 1}, 0, 2);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "render.mesh.grid");
  EXPECT_EQ(bad.error().expected, "1..4096 per side");
  EXPECT_EQ(bad.error().found, "0x2");
  bad = make_grid_plane({0, 0, 0}, {-1, 1}, 2, 2);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "render.mesh.grid");
  EXPECT_EQ(bad.error().found, "size -1x1");
}

TEST(Scene, height_field_normals_from_slopes) {
  // z = 0.5 x: normal (-0.5, 0, 1) / |.| = (-0.4472, 0, 0.8944) everywhere.
  std::vector<float> h(4 * 3);
  for (std::size_t j = 0; j < 3; ++j)
    for (std::size_t i = 0; i < 4; ++i) h[j * 4 + i] = 0.5f * static_cast<float>(i) * 2.0f;
  const auto m = make_height_field({0, 0, 0}, {2.0f, 1.0f}, 4, 3, h);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->positions.size(), 12u);
  EXPECT_EQ(m->indices.size(), 36u);
  for (const Vec3& n : m->normals) {
    EXPECT_NEAR(n.x, -0.4472136f, 1e-6f);
    EXPECT_NEAR(n.y, 0.0f, 1e-6f);
    EXPECT_NEAR(n.z, 0.8944272f, 1e-6f);
  }
  EXPECT_EQ(m->positions[7], (Vec3{6, 1, 3}));
  for (std::size_t t = 0; t < 12; ++t) EXPECT_GT(face_normal(*m, t).z, 0.0f);
  h[5] = std::nanf("");
  auto bad = make_height_field({0, 0, 0}, {1, 1}, 4, 3, h);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "render.mesh.grid");
  EXPECT_EQ(bad.error().field, "heights[5]");
  EXPECT_EQ(bad.error().found, "nan");
  bad = make_height_field({0, 0, 0}, {1, 1}, 4, 4, h);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "render.mesh.grid");
  EXPECT_EQ(bad.error().field, "heights");
  EXPECT_EQ(bad.error().expected, "16");
  EXPECT_EQ(bad.error().found, "12");
}

TEST(Scene, append_transforms_positions_and_normals) {
  Mesh a = make_box(core::Aabb::from_min_max({0, 0, 0}, {1, 1, 1}), kWhite, kBoxMaxZ);
  const Mesh b = a;
  a.append(b, core::Mat4::translation({10, 0, 0}) * core::Mat4::rotation_x(core::kPi));
  ASSERT_EQ(a.positions.size(), 8u);
  ASSERT_EQ(a.indices.size(), 12u);
  EXPECT_EQ(a.indices[6], 4u);
  EXPECT_NEAR(a.positions[4].x, 10.0f, 1e-6f);
  EXPECT_NEAR(a.positions[4].z, -1.0f, 1e-6f);
  EXPECT_NEAR(a.normals[4].z, -1.0f, 1e-6f);
  // Attributes one side lacks are filled so arrays stay parallel.
  Mesh bare;
  bare.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  a.append(bare);
  EXPECT_EQ(a.normals.size(), a.positions.size());
  EXPECT_EQ(a.colors.size(), a.positions.size());
  EXPECT_EQ(a.indices.back(), 10u);
  EXPECT_TRUE(validate_mesh(a.view()));
}

TEST(Scene, validate_mesh_names_the_bad_index) {
  const std::vector<Vec3> p(3);
  const std::vector<std::uint32_t> idx = {0, 1, 2, 0, 3, 1};
  MeshView v{p, {}, {}, {}, idx, Primitive::triangles};
  const auto s = validate_mesh(v);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "render.mesh.index_range");
  EXPECT_EQ(s.error().field, "indices[4]");
  v.indices = {};
  EXPECT_TRUE(validate_mesh(v));
  v.primitive = Primitive::lines;
  EXPECT_EQ(validate_mesh(v).error().code, "render.mesh.index_count");
}

TEST(Scene, iso_grid_from_rows_reads_cells_north_first) {
  const std::string_view rows[] = {"#.,", " :%"};
  const auto g = iso_grid_from_rows(rows);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->columns, 3u);
  EXPECT_EQ(g->rows, 2u);
  EXPECT_EQ(g->at(0, 1), (IsoCell{1, 1}));  // first text row is the northmost (r = 1)
  EXPECT_EQ(g->at(1, 1), (IsoCell{1, 0}));
  EXPECT_EQ(g->at(2, 1), (IsoCell{2, 0}));
  EXPECT_EQ(g->at(0, 0), (IsoCell{0, 0}));
  EXPECT_EQ(g->at(1, 0), (IsoCell{3, 0}));
  EXPECT_EQ(g->at(2, 0), (IsoCell{1, 2}));
  EXPECT_EQ(g->cell_center(2, 1), (Vec3{2.5f, 1.5f, 0.0f}));
  const std::string_view ragged[] = {"..", "..."};
  auto bad = iso_grid_from_rows(ragged);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "render.iso.grid");
  EXPECT_EQ(bad.error().field, "rows[1]");
  const std::string_view unknown[] = {"..x"};
  bad = iso_grid_from_rows(unknown);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "render.iso.cell");
  EXPECT_EQ(bad.error().field, "rows[0][2]");
  EXPECT_EQ(bad.error().found, "0x78");
  bad = iso_grid_from_rows({});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "render.iso.grid");
  EXPECT_EQ(bad.error().field, "rows");
  EXPECT_EQ(bad.error().found, "0");
}

TEST(Scene, iso_scene_skips_hidden_wall_faces) {
  // Two walls side by side and one floor cell: 2 tops + 3 + 3 sides = 8 faces, 1 floor quad.
  const std::string_view rows[] = {"##."};
  const auto g = iso_grid_from_rows(rows);
  ASSERT_TRUE(g);
  const auto s = build_iso_scene(*g);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->walls.positions.size(), 32u);
  EXPECT_EQ(s->walls.indices.size(), 48u);
  EXPECT_EQ(s->floors.positions.size(), 4u);
  EXPECT_EQ(s->floors.indices.size(), 6u);
  EXPECT_EQ(s->bounds, core::Aabb::from_min_max({0, 0, 0}, {3, 1, 1.5f}));
  EXPECT_EQ(s->draws().size(), 2u);
  for (const auto& d : s->draws()) EXPECT_TRUE(validate_mesh(d.mesh));
  // The camera frames the scene: every corner inside the viewport, some near the edge.
  const Camera cam = s->camera(2.0f);
  const Viewport vp{0, 0, 200, 100};
  float min_x = 1e9f, max_x = -1e9f, min_y = 1e9f, max_y = -1e9f;
  for (int i = 0; i < 8; ++i) {
    const Vec3 c{(i & 1) ? 3.0f : 0.0f, (i & 2) ? 1.0f : 0.0f, (i & 4) ? 1.5f : 0.0f};
    const auto p = cam.project(c, vp);
    ASSERT_TRUE(p);
    EXPECT_GE(p->depth, 0.0f);
    EXPECT_LE(p->depth, 1.0f);
    min_x = std::min(min_x, p->x), max_x = std::max(max_x, p->x);
    min_y = std::min(min_y, p->y), max_y = std::max(max_y, p->y);
  }
  EXPECT_GE(min_x, 0.0f);
  EXPECT_LE(max_x, 200.0f);
  EXPECT_GE(min_y, 0.0f);
  EXPECT_LE(max_y, 100.0f);
  EXPECT_TRUE(min_x < 12.0f || min_y < 7.0f);  // margin 5% + slack on the tight axis
}

TEST(Scene, iso_scene_rejects_palette_and_grid_errors) {
  IsoGrid g;
  g.columns = 2;
  g.rows = 1;
  g.cells = {{1, 0}, {0, 9}};
  auto s = build_iso_scene(g);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "render.iso.palette");
  EXPECT_EQ(s.error().field, "cells[1].wall");
  g.cells.pop_back();
  s = build_iso_scene(g);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "render.iso.grid");
  g.cells = {{1, 0}, {1, 0}};
  g.wall_height = std::nanf("");
  s = build_iso_scene(g);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "render.iso.grid");
  EXPECT_EQ(s.error().expected, "> 0");
}

}  // namespace
}  // namespace sortie::render
