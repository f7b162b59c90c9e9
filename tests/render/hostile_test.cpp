// Hostile inputs: degenerate, non-finite and huge coordinates, bad viewports, bad indices and
// attributes. Nothing wrong is drawn, nothing crashes, bad input is a diagnostic.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "render_fixtures.hpp"
#include "sortie/render/renderer.hpp"

namespace sortie::render {
namespace {

using core::Vec2;
using core::Vec3;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr Rgba8 kGrey{50, 50, 50, 255};

struct Input {
  std::vector<Vec3> p;
  std::vector<std::uint32_t> i;
  Material m;
  Input() { m.cull = Cull::none; }
  DrawCall draw(Primitive prim = Primitive::triangles) const {
    return {{p, {}, {}, {}, i, prim}, m, core::Mat4::identity()};
  }
};

Framebuffer fresh(std::uint32_t w = 32, std::uint32_t h = 32) {
  Framebuffer fb = Framebuffer::create(w, h).value();
  fb.clear(kGrey, 0.75f);
  return fb;
}

core::Status render(Framebuffer& fb, std::span<const DrawCall> draws, FrameStats* st = nullptr, unsigned threads = 1,
                    std::optional<Viewport> vp = std::nullopt, Camera cam = Camera::pixels(32, 32, 10.0f)) {
  Frame f;
  f.camera = cam;
  f.draws = draws;
  f.viewport = vp;
  f.clear_color = kBlack;
  return Renderer({threads}).render(f, fb, st);
}

std::size_t count_not(const Framebuffer& fb, Rgba8 c) {
  std::size_t n = 0;
  for (const std::uint32_t w : fb.color()) n += w != pack(c);
  return n;
}

TEST(Hostile, degenerate_triangles_draw_nothing) {
  Input s;
  s.p = {{5, 5, -1},   {5, 5, -1},     {5, 5, -1},     {1, 1, -1}, {9, 9, -1},
         {20, 20, -1}, {3.25f, 7, -1}, {3.25f, 7, -1}, {30, 2, -1}};
  s.i = {0, 1, 2, 3, 4, 5, 6, 7, 8};  // a point, a collinear triple, two equal vertices
  const DrawCall d = s.draw();
  Framebuffer fb = fresh();
  FrameStats st;
  ASSERT_TRUE(render(fb, {&d, 1}, &st));
  EXPECT_EQ(count_not(fb, kBlack), 0u);
  EXPECT_EQ(st.triangles_culled, 3u);
  EXPECT_EQ(st.triangles_setup, 0u);
}

TEST(Hostile, non_finite_vertices_draw_nothing) {
  for (const float bad : {kNaN, kInf, -kInf}) {
    Input s;
    s.p = {{bad, 5, -1}, {20, 5, -1}, {5, 20, -1}, {1, 1, -1}, {20, 1, bad},
           {1, 20, -1},  {1, 1, -1},  {3, 1, -1},  {1, 3, -1}};
    s.i = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    for (const Primitive prim : {Primitive::triangles, Primitive::lines, Primitive::points}) {
      Input t = s;
      if (prim == Primitive::lines) t.i = {0, 1, 3, 4};
      if (prim == Primitive::points) t.i = {0, 4};
      const DrawCall d = t.draw(prim);
      Framebuffer fb = fresh();
      FrameStats st;
      ASSERT_TRUE(render(fb, {&d, 1}, &st));
      if (prim == Primitive::triangles) {
        EXPECT_EQ(st.triangles_invalid, 2u) << bad;
        EXPECT_EQ(st.triangles_setup, 1u) << bad;  // the third, small one: pixel (1, 1) only
        EXPECT_EQ(count_not(fb, kBlack), 1u);
      } else {
        EXPECT_EQ(count_not(fb, kBlack), 0u) << bad;
      }
    }
  }
}

TEST(Hostile, nan_matrix_or_camera_draws_nothing) {
  Input s;
  s.p = {{1, 1, -1}, {30, 1, -1}, {1, 30, -1}};
  s.i = {0, 1, 2};
  DrawCall d = s.draw();
  d.model.m[0][0] = kNaN;
  Framebuffer fb = fresh();
  FrameStats st;
  ASSERT_TRUE(render(fb, {&d, 1}, &st));
  EXPECT_EQ(count_not(fb, kBlack), 0u);
  EXPECT_EQ(st.triangles_invalid, 1u);
  d.model = core::Mat4::identity();
  Camera cam = Camera::pixels(32, 32);
  cam.projection.m[3][3] = kNaN;
  ASSERT_TRUE(render(fb, {&d, 1}, &st, 1, std::nullopt, cam));
  EXPECT_EQ(count_not(fb, kBlack), 0u);
}

TEST(Hostile, huge_coordinates_are_clipped_not_overflowed) {
  // A triangle with vertices near 1e30 that contains the whole window covers every pixel.
  Input s;
  s.p = {{-1e30f, -1e30f, -1}, {3e30f, -1e30f, -1}, {-1e30f, 3e30f, -1}};
  s.i = {0, 1, 2};
  const DrawCall d = s.draw();
  for (unsigned threads : {1u, 3u}) {
    Framebuffer fb = fresh();
    ASSERT_TRUE(render(fb, {&d, 1}, nullptr, threads));
    EXPECT_EQ(count_not(fb, kWhite), 0u);
  }
  // Up to the largest float: only the triangle's colour or the clear colour, no crash.
  for (const float big : {1e37f, std::numeric_limits<float>::max()}) {
    Input t;
    t.p = {{-big, -big, -1}, {big, -big, -1}, {16, big, -1}, {16, 16, -big}, {17, 16, big}, {16, 18, -1}};
    t.i = {0, 1, 2, 3, 4, 5};
    const DrawCall e = t.draw();
    Framebuffer fb = fresh();
    ASSERT_TRUE(render(fb, {&e, 1}));
    for (const std::uint32_t w : fb.color()) EXPECT_TRUE(w == pack(kWhite) || w == pack(kBlack));
  }
  // Huge texture coordinates and colours of huge lines and points.
  Input u;
  u.p = {{1, 1, -1}, {30, 1, -1}, {1, 30, -1}};
  u.i = {0, 1, 2};
  const std::vector<Vec2> uv = {{1e20f, -1e20f}, {kNaN, 0}, {kInf, 3}};
  const Texture tex = test::checker_texture(8, 2, kWhite, kBlack);
  for (const Filter f : {Filter::nearest, Filter::bilinear, Filter::trilinear}) {
    DrawCall e = u.draw();
    e.mesh.uvs = uv;
    e.material.texture = tex.view();
    e.material.filter = f;
    Framebuffer fb = fresh();
    ASSERT_TRUE(render(fb, {&e, 1}));
  }
  Input l;
  l.p = {{-1e30f, 5, -1}, {1e30f, 6, -1}, {16, -1e30f, -1}, {16.5f, 1e30f, -1}};
  const DrawCall lines = l.draw(Primitive::lines);
  Framebuffer fb = fresh();
  ASSERT_TRUE(render(fb, {&lines, 1}));
  EXPECT_GT(count_not(fb, kBlack), 40u);  // a row and a column across the window
}

TEST(Hostile, zero_size_and_outside_viewports_draw_nothing) {
  Input s;
  s.p = {{-100, -100, -1}, {300, -100, -1}, {-100, 300, -1}};
  s.i = {0, 1, 2};
  const DrawCall d = s.draw();
  for (const Viewport vp :
       {Viewport{0, 0, 0, 0}, Viewport{5, 5, 0, 10}, Viewport{40, 40, 10, 10}, Viewport{-20, 0, 10, 32}}) {
    Framebuffer fb = fresh();
    FrameStats st;
    ASSERT_TRUE(render(fb, {&d, 1}, &st, 1, vp));
    EXPECT_EQ(count_not(fb, kGrey), 0u);  // not even cleared
    EXPECT_EQ(st.tiles, 0u);
  }
  // Partly outside: only the part inside the framebuffer is drawn (and cleared).
  Framebuffer fb = fresh();
  ASSERT_TRUE(render(fb, {&d, 1}, nullptr, 1, Viewport{-10, 20, 32, 32}));
  for (std::uint32_t y = 0; y < 32; ++y)
    for (std::uint32_t x = 0; x < 32; ++x)
      EXPECT_EQ(fb.pixel(x, y), (x < 22 && y >= 20) ? kWhite : kGrey) << x << "," << y;
  // An empty framebuffer.
  Framebuffer empty;
  ASSERT_TRUE(render(empty, {&d, 1}));
}

TEST(Hostile, rejects_viewport_out_of_range) {
  Input s;
  Framebuffer fb = fresh();
  const DrawCall d = s.draw();
  for (const Viewport vp : {Viewport{0, 0, 100000, 10}, Viewport{-100000, 0, 10, 10}, Viewport{0, 0, -1, 5}}) {
    const auto r = render(fb, {&d, 1}, nullptr, 1, vp);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "render.viewport");
    EXPECT_EQ(count_not(fb, kGrey), 0u);
  }
}

TEST(Hostile, rejects_index_out_of_range) {
  Input good, bad;
  good.p = bad.p = {{1, 1, -1}, {30, 1, -1}, {1, 30, -1}};
  good.i = {0, 1, 2};
  bad.i = {0, 1, 2, 2, 1, 7};
  const DrawCall draws[2] = {good.draw(), bad.draw()};
  Framebuffer fb = fresh();
  const auto r = render(fb, draws, nullptr, 2);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.mesh.index_range");
  EXPECT_EQ(r.error().field, "draws[1].mesh.indices[5]");
  EXPECT_EQ(r.error().expected, "< 3");
  EXPECT_EQ(r.error().found, "7");
  EXPECT_EQ(count_not(fb, kGrey), 0u);  // untouched
}

TEST(Hostile, rejects_index_count_not_a_multiple) {
  Input s;
  s.p = {{1, 1, -1}, {30, 1, -1}, {1, 30, -1}};
  s.i = {0, 1, 2, 0};
  const DrawCall d = s.draw();
  Framebuffer fb = fresh();
  const auto r = render(fb, {&d, 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.mesh.index_count");
  const DrawCall lines = s.draw(Primitive::lines);
  EXPECT_TRUE(render(fb, {&lines, 1}));  // 4 indices are 2 segments
}

TEST(Hostile, rejects_attribute_count_mismatch_and_missing_normals) {
  Input s;
  s.p = {{1, 1, -1}, {30, 1, -1}, {1, 30, -1}};
  const std::vector<Vec2> uv(2);
  const std::vector<Rgba8> colors(4);
  DrawCall d = s.draw();
  d.mesh.uvs = uv;
  Framebuffer fb = fresh();
  auto r = render(fb, {&d, 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.mesh.attribute_count");
  EXPECT_EQ(r.error().field, "draws[0].mesh.uvs");
  d.mesh.uvs = {};
  d.mesh.colors = colors;
  r = render(fb, {&d, 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.mesh.attribute_count");
  EXPECT_EQ(r.error().field, "draws[0].mesh.colors");
  d.mesh.colors = {};
  d.material.lit = true;
  r = render(fb, {&d, 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.mesh.normals");
}

TEST(Hostile, rejects_bad_texture_views_and_point_size) {
  Input s;
  s.p = {{1, 1, -1}, {30, 1, -1}, {1, 30, -1}};
  const std::uint32_t texels[4] = {};
  DrawCall d = s.draw();
  d.material.texture.level_count = 1;  // no texels
  d.material.texture.levels[0] = {2, 2, nullptr};
  Framebuffer fb = fresh();
  auto r = render(fb, {&d, 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.texture");
  EXPECT_EQ(r.error().field, "draws[0].material.texture.levels[0]");
  d.material.texture.level_count = 2;  // level 1 larger than level 0
  d.material.texture.levels[0] = {1, 1, texels};
  d.material.texture.levels[1] = {2, 2, texels};
  r = render(fb, {&d, 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.texture");
  EXPECT_EQ(r.error().field, "draws[0].material.texture.levels[1]");
  d.material.texture.level_count = 99;
  r = render(fb, {&d, 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.texture");
  d.material.texture = {};
  d.material.point_size = kNaN;
  r = render(fb, {&d, 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.material.point_size");
  EXPECT_EQ(count_not(fb, kGrey), 0u);
}

TEST(Hostile, labels_far_off_screen_or_not_finite_are_skipped) {
  std::vector<Label> labels(4);
  labels[0].text = "far";
  labels[0].space = Label::Space::screen;
  labels[0].position = {2e9f, -2e9f, 0};
  labels[1].text = "nan";
  labels[1].position = {kNaN, 0, 0};
  labels[2].text = std::string(5000, 'W');
  labels[2].space = Label::Space::screen;
  labels[2].position = {-29990.0f, 2.0f, 0};
  labels[2].scale = 1000;  // clamped to 8
  labels[3].text = "\x01\x7f\xff\n\n";
  labels[3].space = Label::Space::screen;
  Framebuffer fb = fresh();
  Frame f;
  f.camera = Camera::pixels(32, 32);
  f.labels = labels;
  ASSERT_TRUE(Renderer().render(f, fb));
  EXPECT_GT(count_not(fb, kBlack), 0u);  // the box glyphs of label 3
}

}  // namespace
}  // namespace sortie::render
