// Exact rasterizer behaviour on small pictures, with values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <utility>

#include "render_fixtures.hpp"
#include "sortie/render/font.hpp"
#include "sortie/render/renderer.hpp"

namespace sortie::render {
namespace {

using core::Vec2;
using core::Vec3;
using PixelSet = std::set<std::pair<int, int>>;

// Renders `draws` through the pixel camera (world x, y = window pixels, z = -depth).
Framebuffer draw_pixels(int w, int h, std::span<const DrawCall> draws, Rgba8 clear = kBlack,
                        std::span<const Label> labels = {}, FrameStats* stats = nullptr) {
  Framebuffer fb = Framebuffer::create(static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h)).value();
  Frame f;
  f.camera = Camera::pixels(w, h, 10.0f);
  f.draws = draws;
  f.labels = labels;
  f.clear_color = clear;
  Renderer r;
  const auto s = r.render(f, fb, stats);
  EXPECT_TRUE(s) << (s ? "" : s.error().to_string());
  return fb;
}

PixelSet lit_pixels(const Framebuffer& fb, Rgba8 background = kBlack) {
  PixelSet out;
  for (std::uint32_t y = 0; y < fb.height(); ++y)
    for (std::uint32_t x = 0; x < fb.width(); ++x)
      if (fb.pixel(x, y) != background) out.insert({static_cast<int>(x), static_cast<int>(y)});
  return out;
}

Material flat(Rgba8 c) {
  Material m;
  m.cull = Cull::none;
  m.color = to_vec4(c);
  return m;
}

struct Tri {
  std::vector<Vec3> p;
  std::vector<std::uint32_t> i;
  MeshView view() const { return {p, {}, {}, {}, i, Primitive::triangles}; }
};

TEST(Raster, covers_pixel_centres_inside_with_top_left_rule) {
  // Right triangle (0,0) (4,0) (0,4): centres with x + y + 1 < 4 are inside; the four centres
  // on the hypotenuse (x + y = 3) lie on a bottom-right edge and are left out.
  const Tri t{{{0, 0, -1}, {4, 0, -1}, {0, 4, -1}}, {0, 1, 2}};
  const DrawCall d{t.view(), flat(kWhite), core::Mat4::identity()};
  const Framebuffer fb = draw_pixels(8, 8, {&d, 1});
  EXPECT_EQ(lit_pixels(fb), (PixelSet{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {0, 2}}));
  // The other half of the square owns the hypotenuse centres (a left edge for it).
  const Tri u{{{4, 0, -1}, {4, 4, -1}, {0, 4, -1}}, {0, 1, 2}};
  const DrawCall e{u.view(), flat(kWhite), core::Mat4::identity()};
  const PixelSet other = lit_pixels(draw_pixels(8, 8, {&e, 1}));
  EXPECT_EQ(other.size(), 10u);
  for (const auto& p : other) EXPECT_GE(p.first + p.second, 3);
}

TEST(Raster, shared_edges_write_each_pixel_once) {
  // A 12 x 9 grid of quads whose inner vertices sit on pixel centres, on pixel corners and at
  // sixteenths in between, drawn additively with value 1: every centre inside the outer
  // rectangle is written exactly once.
  Tri mesh;
  constexpr int kCols = 12, kRows = 9;
  const float x0 = 3.3f, y0 = 2.6f, cw = 6.0f, ch = 7.0f;
  for (int j = 0; j <= kRows; ++j)
    for (int i = 0; i <= kCols; ++i) {
      float x = x0 + cw * static_cast<float>(i), y = y0 + ch * static_cast<float>(j);
      if (i > 0 && i < kCols && j > 0 && j < kRows) {
        const int k = (i * 7 + j * 3) % 4;
        x = std::floor(x) + (k == 0 ? 0.5f : k == 1 ? 0.0f : k == 2 ? 0.3125f : 0.8125f);
        y = std::floor(y) + (k == 0 ? 0.5f : k == 1 ? 0.0f : k == 2 ? 0.6875f : 0.1875f);
      }
      mesh.p.push_back({x, y, -1.0f});
    }
  for (std::uint32_t j = 0; j < kRows; ++j)
    for (std::uint32_t i = 0; i < kCols; ++i) {
      const std::uint32_t a = j * (kCols + 1) + i, b = a + 1, c = a + kCols + 1, d = c + 1;
      if ((i + j) % 2)
        mesh.i.insert(mesh.i.end(), {a, b, d, a, d, c});
      else
        mesh.i.insert(mesh.i.end(), {a, b, c, b, d, c});
    }
  Material m = flat({1, 1, 1, 255});
  m.blend = Blend::additive;
  m.depth_test = false;
  const DrawCall d{mesh.view(), m, core::Mat4::identity()};
  const Framebuffer fb = draw_pixels(80, 72, {&d, 1});
  const float x1 = x0 + cw * kCols, y1 = y0 + ch * kRows;
  int inside = 0;
  for (std::uint32_t y = 0; y < fb.height(); ++y)
    for (std::uint32_t x = 0; x < fb.width(); ++x) {
      const float cx = static_cast<float>(x) + 0.5f, cy = static_cast<float>(y) + 0.5f;
      const bool in = cx > x0 && cx < x1 && cy > y0 && cy < y1;
      inside += in;
      EXPECT_EQ(fb.pixel(x, y).r, in ? 1 : 0) << x << "," << y;
    }
  EXPECT_EQ(inside, 72 * 63);
}

TEST(Raster, nearer_surface_wins_in_either_order_and_depth_is_stored) {
  const Tri near_q{{{2, 2, -2}, {10, 2, -2}, {10, 10, -2}, {2, 10, -2}}, {0, 1, 2, 0, 2, 3}};
  const Tri far_q{{{6, 6, -5}, {14, 6, -5}, {14, 14, -5}, {6, 14, -5}}, {0, 1, 2, 0, 2, 3}};
  const Rgba8 red{255, 0, 0, 255}, blue{0, 0, 255, 255};
  const DrawCall a[2] = {{near_q.view(), flat(red), core::Mat4::identity()},
                         {far_q.view(), flat(blue), core::Mat4::identity()}};
  const DrawCall b[2] = {a[1], a[0]};
  for (const auto* draws : {a, b}) {
    const Framebuffer fb = draw_pixels(16, 16, {draws, 2});
    EXPECT_EQ(fb.pixel(8, 8), red);  // overlap
    EXPECT_EQ(fb.pixel(12, 12), blue);
    EXPECT_EQ(fb.pixel(3, 3), red);
    EXPECT_EQ(fb.pixel(0, 0), kBlack);
    // Pixel camera: depth = distance / 10.
    EXPECT_FLOAT_EQ(fb.depth_at(8, 8), 0.2f);
    EXPECT_FLOAT_EQ(fb.depth_at(12, 12), 0.5f);
    EXPECT_FLOAT_EQ(fb.depth_at(0, 0), 1.0f);
  }
}

TEST(Raster, back_faces_are_culled_by_mode) {
  // Counter-clockwise seen from the camera (on screen) is front-facing.
  Framebuffer fb = Framebuffer::create(32, 32).value();
  const Camera cam = Camera::perspective({0, -5, 0}, {0, 0, 0}, {0, 0, 1}, 1.0f, 1.0f, 0.1f, 10.0f);
  const Tri ccw{{{-1, 0, -1}, {1, 0, -1}, {0, 0, 1}}, {0, 1, 2}};
  const Tri cw{{{-1, 0, -1}, {1, 0, -1}, {0, 0, 1}}, {0, 2, 1}};
  auto drawn = [&](const Tri& t, Cull cull) {
    Material m;
    m.cull = cull;
    const DrawCall d{t.view(), m, core::Mat4::identity()};
    Frame f;
    f.camera = cam;
    f.draws = {&d, 1};
    EXPECT_TRUE(Renderer().render(f, fb));
    return fb.pixel(16, 16) == kWhite;
  };
  EXPECT_TRUE(drawn(ccw, Cull::back));
  EXPECT_FALSE(drawn(cw, Cull::back));
  EXPECT_FALSE(drawn(ccw, Cull::front));
  EXPECT_TRUE(drawn(cw, Cull::front));
  EXPECT_TRUE(drawn(cw, Cull::none));
  EXPECT_TRUE(drawn(ccw, Cull::none));
}

TEST(Raster, vertex_light_is_ambient_plus_diffuse) {
  // Normal +Z; light from 60 degrees off the normal: 0.25 + 0.4 * cos 60 = 0.45 -> 114.75 -> 115.
  Tri t{{{0, 0, -1}, {8, 0, -1}, {8, 8, -1}, {0, 8, -1}}, {0, 1, 2, 0, 2, 3}};
  const std::vector<Vec3> normals(4, Vec3{0, 0, 1});
  MeshView v = t.view();
  v.normals = normals;
  Material m = flat(kWhite);
  m.lit = true;
  const DrawCall d{v, m, core::Mat4::identity()};
  Framebuffer fb = Framebuffer::create(8, 8).value();
  Frame f;
  f.camera = Camera::pixels(8, 8, 10.0f);
  f.draws = {&d, 1};
  const float a = core::degrees_to_radians(60.0f);
  f.light.direction = {std::sin(a), 0.0f, -std::cos(a)};
  f.light.color = {0.4f, 0.4f, 0.4f};
  f.light.ambient = {0.25f, 0.25f, 0.25f};
  ASSERT_TRUE(Renderer().render(f, fb));
  EXPECT_EQ(fb.pixel(4, 4), (Rgba8{115, 115, 115, 255}));
  // Light from behind the surface: ambient only, 0.25 -> 63.75 -> 64.
  f.light.direction = {0.0f, 0.0f, 1.0f};
  ASSERT_TRUE(Renderer().render(f, fb));
  EXPECT_EQ(fb.pixel(4, 4), (Rgba8{64, 64, 64, 255}));
}

// A rectangle at z = -1 from (x0, y0) to (x1, y1), texture coordinates (0, 0) to (u1, v1); it
// owns its vertices.
struct TexturedRect {
  std::vector<Vec3> p;
  std::vector<Vec2> uv;
  std::vector<std::uint32_t> idx = {0, 1, 2, 0, 2, 3};
  TexturedRect(float x0, float y0, float x1, float y1, float u1 = 1.0f, float v1 = 1.0f)
      : p{{x0, y0, -1}, {x1, y0, -1}, {x1, y1, -1}, {x0, y1, -1}}, uv{{0, 0}, {u1, 0}, {u1, v1}, {0, v1}} {}
  [[nodiscard]] MeshView view() const { return {p, {}, uv, {}, idx, Primitive::triangles}; }
};

// White, sampling `tex` with `filter`.
Material textured(const Texture& tex, Filter filter) {
  Material m = flat(kWhite);
  m.texture = tex.view();
  m.filter = filter;
  return m;
}

TEST(Raster, bilinear_blends_neighbouring_texels) {
  // 2 x 1 texels black | white over 4 pixels with clamp: texel coordinate at pixel x is
  // x / 2 - 0.25 -> weights 0, 0.25, 0.75, 1 -> 0, 63, 191, 255 (8-bit weights, truncated).
  const std::uint32_t texels[2] = {pack(kBlack), pack(kWhite)};
  const Texture tex = Texture::from_packed(2, 1, texels, MipChain::none).value();
  const TexturedRect rect(0, 0, 4, 1);
  Material m = textured(tex, Filter::bilinear);
  m.wrap = Wrap::clamp;
  const DrawCall d{rect.view(), m, core::Mat4::identity()};
  const Framebuffer fb = draw_pixels(4, 1, {&d, 1});
  EXPECT_EQ(fb.pixel(0, 0).r, 0);
  EXPECT_EQ(fb.pixel(1, 0).r, 63);
  EXPECT_EQ(fb.pixel(2, 0).r, 191);
  EXPECT_EQ(fb.pixel(3, 0).r, 255);
  // Nearest takes the texel under the centre: 0, 0, 255, 255.
  m.filter = Filter::nearest;
  const DrawCall n{d.mesh, m, core::Mat4::identity()};
  const Framebuffer fn = draw_pixels(4, 1, {&n, 1});
  EXPECT_EQ(fn.pixel(1, 0).r, 0);
  EXPECT_EQ(fn.pixel(2, 0).r, 255);
  // Repeat wraps the right neighbour of the last texel to the first: at x = 3 the coordinate
  // is 1.25 -> texels 1 and 0 with weight 0.25 on texel 0: 255 * 192 >> 8 = 191.
  m.filter = Filter::bilinear;
  m.wrap = Wrap::repeat;
  const DrawCall r{d.mesh, m, core::Mat4::identity()};
  EXPECT_EQ(draw_pixels(4, 1, {&r, 1}).pixel(3, 0).r, 191);
}

TEST(Raster, trilinear_selects_level_by_texel_footprint) {
  // A 128-texel texture on 32 pixels: 4 texels per pixel, LOD exactly 2, the colour of level 2;
  // on 64 pixels: LOD 1. Same with per-quad LOD.
  const Texture tex = test::level_colored_texture(128);
  for (const LodMode lod : {LodMode::per_pixel, LodMode::per_quad}) {
    for (const auto& [size, level] : {std::pair{32.0f, 2u}, std::pair{64.0f, 1u}}) {
      const TexturedRect rect(0, 0, size, size);
      Material m = textured(tex, Filter::trilinear);
      m.lod = lod;
      const DrawCall d{rect.view(), m, core::Mat4::identity()};
      const Framebuffer fb = draw_pixels(64, 64, {&d, 1});
      const std::uint32_t expected = tex.level(level)[0];
      EXPECT_EQ(pack(fb.pixel(5, 7)), expected) << "size " << size;
      EXPECT_EQ(pack(fb.pixel(static_cast<std::uint32_t>(size) - 3, 2)), expected) << "size " << size;
    }
  }
}

TEST(Raster, texture_coordinates_are_perspective_correct) {
  // Ground plane z = 0 with u = x / 8, v = y / 8 on a 256 x 256 texture whose texel (x, y)
  // stores (x, y): the colour at a pixel must equal the texel hit by the pixel's ray.
  std::vector<std::uint32_t> texels(256 * 256);
  for (std::uint32_t y = 0; y < 256; ++y)
    for (std::uint32_t x = 0; x < 256; ++x)
      texels[y * 256 + x] = pack({static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y), 0, 255});
  const Texture tex = Texture::from_packed(256, 256, texels, MipChain::none).value();
  std::vector<Vec3> p = {{0, 0, 0}, {8, 0, 0}, {8, 8, 0}, {0, 8, 0}};
  std::vector<Vec2> uv = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  std::vector<std::uint32_t> idx = {0, 1, 2, 0, 2, 3};
  Material m;
  m.texture = tex.view();
  m.filter = Filter::nearest;
  m.cull = Cull::none;
  const DrawCall d{{p, {}, uv, {}, idx, Primitive::triangles}, m, core::Mat4::identity()};
  Framebuffer fb = Framebuffer::create(64, 64).value();
  Frame f;
  f.camera = Camera::perspective({4, -2, 3}, {4, 4, 0}, {0, 0, 1}, 1.2f, 1.0f, 0.1f, 50.0f);
  f.draws = {&d, 1};
  ASSERT_TRUE(Renderer().render(f, fb));
  const Viewport vp{0, 0, 64, 64};
  // Texel hit by the ray through window point (x, y).
  auto texel_at = [&](float x, float y) {
    const auto a = f.camera.unproject(x, y, 0.0f, vp);
    const auto b = f.camera.unproject(x, y, 1.0f, vp);
    EXPECT_TRUE(a && b);
    const float t = a->z / (a->z - b->z);
    return (*a + (*b - *a) * t) * (256.0f / 8.0f);
  };
  int checked = 0;
  for (std::uint32_t y = 0; y < 64; y += 3)
    for (std::uint32_t x = 0; x < 64; x += 3) {
      const float cx = static_cast<float>(x) + 0.5f, cy = static_cast<float>(y) + 0.5f;
      const Vec3 hit = texel_at(cx, cy);
      if (!(hit.x > 3.0f && hit.x < 253.0f && hit.y > 3.0f && hit.y < 253.0f)) continue;
      // Vertices are snapped to 1/16 pixel, so allow the texel plus 1/8 of a pixel's footprint.
      const float footprint =
          std::max(core::length(texel_at(cx + 1.0f, cy) - hit), core::length(texel_at(cx, cy + 1.0f) - hit));
      const float tolerance = 1.0f + footprint / 8.0f;
      const Rgba8 c = fb.pixel(x, y);
      EXPECT_NEAR(c.r, hit.x, tolerance) << x << "," << y;
      EXPECT_NEAR(c.g, hit.y, tolerance) << x << "," << y;
      ++checked;
    }
  EXPECT_GT(checked, 150);
}

TEST(Raster, alpha_test_discards_fragments_below_reference) {
  const std::uint32_t texels[2] = {pack({255, 0, 0, 100}), pack({0, 255, 0, 200})};
  const Texture tex = Texture::from_packed(2, 1, texels, MipChain::none).value();
  const TexturedRect rect(0, 0, 4, 2);
  Material m = textured(tex, Filter::nearest);
  m.alpha_ref = 150;
  const DrawCall d{rect.view(), m, core::Mat4::identity()};
  const Framebuffer fb = draw_pixels(4, 2, {&d, 1}, {0, 0, 255, 255});
  EXPECT_EQ(fb.pixel(0, 0), (Rgba8{0, 0, 255, 255}));  // alpha 100 < 150: background stays
  EXPECT_EQ(fb.pixel(1, 1), (Rgba8{0, 0, 255, 255}));
  EXPECT_EQ(fb.pixel(2, 0), (Rgba8{0, 255, 0, 200}));  // alpha 200 passes
  EXPECT_FLOAT_EQ(fb.depth_at(0, 0), 1.0f);            // discarded: no depth write
  EXPECT_FLOAT_EQ(fb.depth_at(3, 1), 0.1f);
}

TEST(Raster, alpha_blend_mixes_by_source_alpha) {
  // (255, 0, 0, 128) over (0, 0, 255): R = round(255 * 128 / 255) = 128, B = round(255 * 127 / 255) = 127.
  const Tri t{{{0, 0, -1}, {4, 0, -1}, {4, 4, -1}, {0, 4, -1}}, {0, 1, 2, 0, 2, 3}};
  Material m = flat({255, 0, 0, 128});
  m.blend = Blend::alpha;
  const DrawCall d{t.view(), m, core::Mat4::identity()};
  const Framebuffer fb = draw_pixels(4, 4, {&d, 1}, {0, 0, 255, 255});
  const Rgba8 c = fb.pixel(1, 1);
  EXPECT_EQ(c.r, 128);
  EXPECT_EQ(c.g, 0);
  EXPECT_EQ(c.b, 127);
}

TEST(Raster, blended_draws_are_sorted_back_to_front) {
  const Tri near_q{{{0, 0, -1}, {4, 0, -1}, {4, 4, -1}, {0, 4, -1}}, {0, 1, 2, 0, 2, 3}};
  const Tri far_q{{{0, 0, -3}, {4, 0, -3}, {4, 4, -3}, {0, 4, -3}}, {0, 1, 2, 0, 2, 3}};
  Material red = flat({255, 0, 0, 128}), green = flat({0, 255, 0, 128});
  red.blend = green.blend = Blend::alpha;
  red.depth_write = green.depth_write = false;
  const DrawCall draws[2] = {{near_q.view(), red, core::Mat4::identity()},
                             {far_q.view(), green, core::Mat4::identity()}};
  Framebuffer fb = Framebuffer::create(4, 4).value();
  Frame f;
  f.camera = Camera::pixels(4, 4, 10.0f);
  f.draws = draws;
  // Sorted: green first (0, 128, 0), then red: R = 128, G = round(128 * 127 / 255) = 64.
  ASSERT_TRUE(Renderer().render(f, fb));
  // Alpha: 255 -> round(128 * 128 / 255 + 255 * 127 / 255) = 191 -> 159.
  EXPECT_EQ(fb.pixel(2, 2), (Rgba8{128, 64, 0, 159}));
  // Submission order: red first (128, 0, 0), then green: R = 64, G = 128.
  Renderer unsorted({1, false});
  ASSERT_TRUE(unsorted.render(f, fb));
  EXPECT_EQ(fb.pixel(2, 2).r, 64);
  EXPECT_EQ(fb.pixel(2, 2).g, 128);
}

TEST(Raster, ground_crossing_near_plane_fills_every_row_below_horizon) {
  // Eye 1 above an 100 x 100 ground quad that reaches behind it, looking level: the near plane
  // cuts both triangles; every pixel below the horizon row is covered, none above.
  const Tri ground{{{-50, -50, 0}, {50, -50, 0}, {50, 50, 0}, {-50, 50, 0}}, {0, 1, 2, 0, 2, 3}};
  Material m;
  m.cull = Cull::none;
  const DrawCall d{ground.view(), m, core::Mat4::identity()};
  Framebuffer fb = Framebuffer::create(64, 64).value();
  Frame f;
  f.camera = Camera::perspective({0, 0, 1}, {0, 10, 1}, {0, 0, 1}, core::kPi / 2.0f, 1.0f, 0.5f, 1000.0f);
  f.draws = {&d, 1};
  FrameStats st;
  ASSERT_TRUE(Renderer().render(f, fb, &st));
  EXPECT_EQ(st.triangles_clipped, 2u);
  for (std::uint32_t y = 0; y < 64; ++y) {
    int covered = 0;
    for (std::uint32_t x = 0; x < 64; ++x) covered += fb.pixel(x, y) == kWhite;
    if (y < 32) {
      EXPECT_EQ(covered, 0) << "row " << y;
    } else if (y >= 33) {
      EXPECT_EQ(covered, 64) << "row " << y;
    }
  }
}

TEST(Raster, lines_cover_half_open_major_range) {
  std::vector<Vec3> p = {{2.5f, 3.5f, -1}, {10.5f, 3.5f, -1}, {0.5f, 8.75f, -1}, {8.5f, 12.75f, -1}};
  Material m = flat(kWhite);
  const DrawCall d{{p, {}, {}, {}, {}, Primitive::lines}, m, core::Mat4::identity()};
  const PixelSet px = lit_pixels(draw_pixels(16, 16, {&d, 1}));
  PixelSet expected;
  for (int x = 2; x < 10; ++x) expected.insert({x, 3});
  // x-major diagonal: y at centre i + 0.5 is 8.75 + i / 2 -> rows 8, 9, 9, 10, 10, 11, 11, 12.
  const int rows[8] = {8, 9, 9, 10, 10, 11, 11, 12};
  for (int i = 0; i < 8; ++i) expected.insert({i, rows[i]});
  EXPECT_EQ(px, expected);
}

TEST(Raster, points_are_squares_of_point_size) {
  std::vector<Vec3> p = {{5.5f, 5.5f, -1}, {12.0f, 2.0f, -1}};
  Material m = flat(kWhite);
  m.point_size = 3.0f;
  const DrawCall d{{p, {}, {}, {}, {}, Primitive::points}, m, core::Mat4::identity()};
  const PixelSet px = lit_pixels(draw_pixels(16, 16, {&d, 1}));
  PixelSet expected;
  for (int y = 4; y <= 6; ++y)
    for (int x = 4; x <= 6; ++x) expected.insert({x, y});
  // (12, 2): centres in [10.5, 13.5) -> pixels 10..12 (x) and 0..2 (y)... centre 0.5 < 0.5? no:
  // [0.5, 3.5) holds centres 0.5, 1.5, 2.5 -> rows 0..2.
  for (int y = 0; y <= 2; ++y)
    for (int x = 10; x <= 12; ++x) expected.insert({x, y});
  EXPECT_EQ(px, expected);
}

TEST(Raster, screen_label_draws_font_glyph) {
  Label l;
  l.space = Label::Space::screen;
  l.text = "H";
  l.position = {2.0f, 1.0f, 0.0f};
  l.shadow.reset();
  const Framebuffer fb = draw_pixels(12, 12, {}, kBlack, {&l, 1});
  const GlyphRows& g = glyph('H');
  for (int r = 0; r < kGlyphHeight; ++r)
    for (int c = 0; c < kGlyphWidth; ++c) {
      const bool on = g[static_cast<std::size_t>(r)] & (1u << (kGlyphWidth - 1 - c));
      EXPECT_EQ(fb.pixel(static_cast<std::uint32_t>(2 + c), static_cast<std::uint32_t>(1 + r)) == kWhite, on)
          << r << "," << c;
    }
  EXPECT_EQ(lit_pixels(fb).size(), 17u);  // 'H': two columns of 7 and a bar of 3 between
}

TEST(Raster, stats_count_what_happened) {
  // Three triangles: one front, one back-facing (culled), one degenerate (culled).
  const Tri t{{{0, 0, -1}, {4, 0, -1}, {0, 4, -1}, {8, 8, -1}}, {0, 2, 1, 0, 1, 2, 3, 3, 3}};
  Material m;
  m.cull = Cull::back;
  const DrawCall d{t.view(), m, core::Mat4::identity()};
  FrameStats st;
  (void)draw_pixels(16, 16, {&d, 1}, kBlack, {}, &st);
  EXPECT_EQ(st.draws, 1u);
  EXPECT_EQ(st.vertices, 4u);
  EXPECT_EQ(st.triangles, 3u);
  EXPECT_EQ(st.triangles_setup, 1u);
  EXPECT_EQ(st.triangles_culled, 2u);
  EXPECT_EQ(st.tiles, 1u);
  EXPECT_EQ(st.bin_entries, 1u);
}

}  // namespace
}  // namespace sortie::render
