// Point lights (draw.hpp, PointLight): per-vertex contribution of lit draws, the smooth window
// to zero at the radius, validation, and thread-count independence.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "sortie/render/draw.hpp"
#include "sortie/render/renderer.hpp"

namespace sortie::render {
namespace {

using core::Vec3;

constexpr int kSize = 201;
// Grid lines at pixel centres: the sampled vertices (25, 100, 175) are interior vertices, so the
// pixel there is drawn with the vertex's own colour.
constexpr std::array<float, 5> kLines = {0.5f, 25.5f, 100.5f, 175.5f, 200.5f};

// A lit white grid over the whole picture in the plane z = -1 of Camera::pixels (x right,
// y down, z toward the eye), normals +Z (toward the eye).
Mesh grid() {
  Mesh m;
  for (float y : kLines)
    for (float x : kLines) {
      m.positions.push_back({x, y, -1.0f});
      m.normals.push_back({0.0f, 0.0f, 1.0f});
    }
  const std::uint32_t n = kLines.size();
  for (std::uint32_t j = 0; j + 1 < n; ++j)
    for (std::uint32_t i = 0; i + 1 < n; ++i) {
      const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      m.indices.insert(m.indices.end(), {a, b, d, a, d, c});
    }
  return m;
}

struct LitScene {
  Mesh mesh = grid();
  DrawCall call;
  Frame frame;
  LitScene() {
    call.mesh = mesh.view();
    call.material.lit = true;
    call.material.cull = Cull::none;
    frame.camera = Camera::pixels(kSize, kSize, 1000.0f);
    frame.draws = {&call, 1};
    frame.light.color = {0.0f, 0.0f, 0.0f};  // ambient 0.2 only: 0.2 * 255 = 51
    frame.light.ambient = {0.2f, 0.2f, 0.2f};
  }
  Framebuffer render(unsigned threads = 1) {
    Framebuffer fb = Framebuffer::create(kSize, kSize).value();
    RendererOptions o;
    o.threads = threads;
    EXPECT_TRUE(Renderer(o).render(frame, fb));
    return fb;
  }
};

// 75 units above the grid's centre (100.5, 100.5, -1), radius 150, size 75.
PointLight centre_light(Vec3 color) {
  PointLight l;
  l.position = {100.5f, 100.5f, 74.0f};
  l.color = color;
  l.radius = 150.0f;
  l.size = 75.0f;
  return l;
}

// The grid lit by `light` (and the ambient) alone.
Framebuffer render_lit_by(const PointLight& light) {
  LitScene s;
  s.frame.point_lights = {&light, 1};
  return s.render();
}

Rgba8 at(const Framebuffer& fb, int x, int y) {
  return fb.pixel(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
}

}  // namespace

TEST(PointLight, brighter_at_the_centre_than_at_the_corners_by_the_worked_amounts) {
  const Framebuffer fb = render_lit_by(centre_light({1.0f, 0.6f, 0.3f}));
  // k = dot(n, l) * size^2 / (size^2 + d^2) * (1 - (d / radius)^4)^2, lit = 0.2 + color * k.
  // Centre (100, 100): d = 75, dot 1, 5625 / 11250 = 0.5, (d/R)^2 = 0.25, (1 - 0.0625)^2 =
  //   0.87890625: k = 0.439453125.
  //   r 0.639453 * 255 = 163.06 -> 163; g 0.2 + 0.6k = 0.463672 -> 118.24 -> 118;
  //   b 0.2 + 0.3k = 0.331836 -> 84.62 -> 85.
  EXPECT_EQ(at(fb, 100, 100), (Rgba8{163, 118, 85, 255}));
  // Corners of the lit square (25 / 175, 25 / 175): 75 across in x and y, 75 up: d^2 = 16875,
  //   dot = 75 / sqrt(16875) = 0.57735, 5625 / 22500 = 0.25, (d/R)^2 = 0.75,
  //   (1 - 0.5625)^2 = 0.19140625: k = 0.0276267.
  //   r 0.227627 -> 58.04 -> 58; g 0.216576 -> 55.23 -> 55; b 0.208288 -> 53.11 -> 53.
  for (const auto& [x, y] : {std::pair{25, 25}, {175, 25}, {25, 175}, {175, 175}})
    EXPECT_EQ(at(fb, x, y), (Rgba8{58, 55, 53, 255})) << x << "," << y;
  // Edge middles (100, 25) ...: 75 across, 75 up: d^2 = 11250, dot = 0.70711, 5625 / 16875 =
  //   1/3, (d/R)^2 = 0.5, (1 - 0.25)^2 = 0.5625: k = 0.132583.
  //   r 0.332583 -> 84.81 -> 85; g 0.279550 -> 71.28 -> 71; b 0.239775 -> 61.14 -> 61.
  for (const auto& [x, y] : {std::pair{100, 25}, {25, 100}, {175, 100}, {100, 175}})
    EXPECT_EQ(at(fb, x, y), (Rgba8{85, 71, 61, 255})) << x << "," << y;
  // The picture's corner vertex (0, 0): 100 and 100 across, 75 up, d^2 = 25625 > 150^2: ambient.
  EXPECT_EQ(at(fb, 0, 0), (Rgba8{51, 51, 51, 255}));
}

TEST(PointLight, grey_light_takes_the_single_channel_path_with_the_same_numbers) {
  const Framebuffer fb = render_lit_by(centre_light({1.0f, 1.0f, 1.0f}));
  EXPECT_EQ(at(fb, 100, 100), (Rgba8{163, 163, 163, 255}));
  EXPECT_EQ(at(fb, 25, 175), (Rgba8{58, 58, 58, 255}));
  EXPECT_EQ(at(fb, 175, 100), (Rgba8{85, 85, 85, 255}));
}

TEST(PointLight, nothing_changes_outside_the_radius_behind_the_surface_or_without_lights) {
  LitScene s;
  const Framebuffer plain = s.render();
  EXPECT_EQ(at(plain, 100, 100), (Rgba8{51, 51, 51, 255}));
  // Radius 74.9 below the height 75: every vertex is outside.
  PointLight short_reach = centre_light({4.0f, 4.0f, 4.0f});
  short_reach.radius = 74.9f;
  // Below the surface: dot(n, l) < 0 everywhere.
  PointLight behind = centre_light({4.0f, 4.0f, 4.0f});
  behind.position.z = -76.0f;
  for (const PointLight* l : {&short_reach, &behind}) {
    s.frame.point_lights = {l, 1};
    const Framebuffer fb = s.render();
    EXPECT_TRUE(std::equal(fb.color().begin(), fb.color().end(), plain.color().begin()));
  }
  // An unlit draw ignores lights, even one that lights the lit grid.
  const PointLight bright = centre_light({4.0f, 4.0f, 4.0f});
  s.frame.point_lights = {&bright, 1};
  EXPECT_NE(at(s.render(), 100, 100), at(plain, 100, 100));
  s.call.material.lit = false;
  const Framebuffer unlit = s.render();
  s.frame.point_lights = {};
  const Framebuffer unlit_plain = s.render();
  EXPECT_TRUE(std::equal(unlit.color().begin(), unlit.color().end(), unlit_plain.color().begin()));
}

TEST(PointLight, lights_add_up_and_saturate) {
  LitScene s;
  const std::array<PointLight, 2> lights = {centre_light({1.0f, 0.0f, 0.0f}), centre_light({0.0f, 0.0f, 4.0f})};
  s.frame.point_lights = lights;
  const Framebuffer fb = s.render();
  // Centre: r 0.2 + k = 163, g 51, b 0.2 + 4k = 1.958 -> saturated 255.
  EXPECT_EQ(at(fb, 100, 100), (Rgba8{163, 51, 255, 255}));
}

TEST(PointLight, threads_1_and_2_draw_the_same_pixels) {
  LitScene s;
  std::vector<PointLight> lights;
  for (int i = 0; i < 5; ++i) {
    PointLight l;
    l.position = {20.0f + 37.0f * static_cast<float>(i), 180.0f - 29.0f * static_cast<float>(i), 30.0f};
    l.color = {0.3f * static_cast<float>(i % 3), 0.5f, 1.0f - 0.15f * static_cast<float>(i)};
    l.radius = 90.0f + 10.0f * static_cast<float>(i);
    l.size = 20.0f;
    lights.push_back(l);
  }
  s.frame.point_lights = lights;
  const Framebuffer one = s.render(1);
  const Framebuffer two = s.render(2);
  EXPECT_TRUE(std::equal(one.color().begin(), one.color().end(), two.color().begin()));
  EXPECT_NE(at(one, 100, 100), (Rgba8{51, 51, 51, 255}));
}

TEST(PointLight, rejects_a_light_out_of_range) {
  LitScene s;
  auto code_for = [&](PointLight l, std::string& field) {
    s.frame.point_lights = {&l, 1};
    Framebuffer fb = Framebuffer::create(kSize, kSize).value();
    auto r = Renderer().render(s.frame, fb);
    field = r ? std::string() : r.error().field;
    return r ? std::string("ok") : r.error().code;
  };
  std::string field;
  PointLight l = centre_light({1, 1, 1});
  l.radius = 0.0f;
  EXPECT_EQ(code_for(l, field), "render.light.point");
  EXPECT_EQ(field, "point_lights[0].radius");
  l = centre_light({1, 1, 1});
  l.size = -1.0f;
  EXPECT_EQ(code_for(l, field), "render.light.point");
  EXPECT_EQ(field, "point_lights[0].size");
  l = centre_light({1, -0.5f, 1});
  EXPECT_EQ(code_for(l, field), "render.light.point");
  EXPECT_EQ(field, "point_lights[0].color");
  l = centre_light({1, 1, 1});
  l.position.x = std::nanf("");
  EXPECT_EQ(code_for(l, field), "render.light.point");
  EXPECT_EQ(field, "point_lights[0].position");
  l = centre_light({1, 1, 1});
  l.radius = std::numeric_limits<float>::infinity();
  EXPECT_EQ(code_for(l, field), "render.light.point");
  EXPECT_EQ(code_for(centre_light({1, 1, 1}), field), "ok");
}

}  // namespace sortie::render
