// Sky and distance fog (draw.hpp, Atmosphere): the sky gradient by view elevation, fog by view
// distance recovered from window depth, unfogged sky pixels, the weather's sky rule, and thread
// invariance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "sortie/render/draw.hpp"
#include "sortie/render/renderer.hpp"

namespace sortie::render {
namespace {

constexpr int kW = 160, kH = 120;

int distance(Rgba8 a, Rgba8 b) {
  return std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b);
}

Rgba8 pixel(const Framebuffer& fb, int x, int y) {
  return unpack(fb.color()[static_cast<std::size_t>(y) * kW + static_cast<std::size_t>(x)]);
}

// Looking along +X from 10 units up, the horizon across the middle of the picture.
Camera level_camera() {
  return Camera::perspective({0, 0, 10}, {100, 0, 10}, {0, 0, 1}, 0.9f, float{kW} / float{kH}, 1.0f, 1000.0f);
}

// A grey wall facing the eye at x = `at`, covering the whole view.
struct Wall {
  Mesh mesh;
  DrawCall call;
  explicit Wall(float at) {
    mesh.positions = {{at, -1000, -1000}, {at, 1000, -1000}, {at, 1000, 1000}, {at, -1000, 1000}};
    mesh.indices = {0, 1, 2, 0, 2, 3};
    call.mesh = mesh.view();
    call.material.lit = false;
    call.material.cull = Cull::none;
    call.material.color = {100.0f / 255.0f, 100.0f / 255.0f, 100.0f / 255.0f, 1.0f};
  }
};

Framebuffer render(const Frame& frame, unsigned threads = 1) {
  Framebuffer fb = Framebuffer::create(kW, kH).value();
  RendererOptions o;
  o.threads = threads;
  EXPECT_TRUE(Renderer(o).render(frame, fb).has_value());
  return fb;
}

TEST(Atmosphere, the_sky_runs_from_ground_through_the_horizon_to_the_zenith) {
  Frame f;
  f.camera = level_camera();
  Atmosphere at;
  f.atmosphere = at;
  const Framebuffer fb = render(f);
  const Rgba8 top = pixel(fb, kW / 2, 0), middle = pixel(fb, kW / 2, kH / 2), bottom = pixel(fb, kW / 2, kH - 1);
  EXPECT_LT(distance(top, at.zenith), distance(top, at.horizon));
  EXPECT_LE(distance(middle, at.horizon), 12);
  EXPECT_LT(distance(bottom, at.ground), distance(bottom, at.horizon));
  // One colour per row: the row's centre decides.
  for (int y = 0; y < kH; y += 7) EXPECT_EQ(pixel(fb, 0, y), pixel(fb, kW - 1, y)) << y;
  // Brighter toward the horizon from above: the rows change monotonically in blue-ness.
  for (int y = 1; y <= kH / 2; ++y) EXPECT_GE(pixel(fb, 0, y).r, pixel(fb, 0, y - 1).r) << y;
}

TEST(Atmosphere, fog_blends_toward_the_horizon_by_view_distance) {
  Atmosphere at;
  at.horizon = {200, 220, 240, 255};
  at.fog_start = 0.0f;
  at.fog_end = 400.0f;
  at.fog_max = 1.0f;
  const auto wall_colour = [&](float x) {
    Wall wall(x);
    Frame f;
    f.camera = level_camera();
    f.draws = {&wall.call, 1};
    f.atmosphere = at;
    return pixel(render(f), kW / 2, kH / 2);
  };
  // At 200 of 400 units: halfway from the wall's grey (100) to the horizon colour.
  const Rgba8 half = wall_colour(200.0f);
  EXPECT_NEAR(half.r, 150, 1);
  EXPECT_NEAR(half.g, 160, 1);
  EXPECT_NEAR(half.b, 170, 1);
  // Nearer is clearer; at fog_end and beyond, all horizon (fog_max 1).
  EXPECT_LT(distance(wall_colour(50.0f), Rgba8{100, 100, 100, 255}), distance(half, Rgba8{100, 100, 100, 255}));
  EXPECT_LE(distance(wall_colour(600.0f), at.horizon), 3);
  // fog_max caps it.
  at.fog_max = 0.5f;
  const Rgba8 capped = wall_colour(900.0f);
  EXPECT_NEAR(capped.r, 150, 1);
  // No fog range: the wall's own colour.
  at.fog_end = at.fog_start;
  EXPECT_EQ(wall_colour(300.0f), (Rgba8{100, 100, 100, 255}));
}

TEST(Atmosphere, sky_pixels_are_not_fogged_and_threads_do_not_change_a_bit) {
  Wall wall(300.0f);
  wall.mesh.positions = {{300, -20, 0}, {300, 20, 0}, {300, 20, 40}, {300, -20, 40}};  // a patch, sky around
  wall.call.mesh = wall.mesh.view();
  Frame f;
  f.camera = level_camera();
  f.draws = {&wall.call, 1};
  Atmosphere at;
  at.fog_end = 500.0f;
  f.atmosphere = at;
  const Framebuffer one = render(f, 1), two = render(f, 2);
  EXPECT_TRUE(std::equal(one.color().begin(), one.color().end(), two.color().begin()));
  Frame sky_only;
  sky_only.camera = f.camera;
  sky_only.atmosphere = at;
  const Framebuffer sky = render(sky_only);
  EXPECT_EQ(pixel(one, 0, 0), pixel(sky, 0, 0));  // the corner is sky in both
  EXPECT_NE(pixel(one, kW / 2, kH / 2 - 10), pixel(sky, kW / 2, kH / 2 - 10));
}

TEST(Atmosphere, under_a_weather_sky_the_horizon_is_the_sky_and_the_zenith_a_deeper_shade) {
  Atmosphere base;
  base.fog_start = 3.0f;
  const Atmosphere a = atmosphere_under_sky(base, {200, 100, 50, 255});
  EXPECT_EQ(a.horizon, (Rgba8{200, 100, 50, 255}));
  EXPECT_EQ(a.zenith, (Rgba8{124, 75, 46, 255}));
  EXPECT_EQ(a.fog_start, 3.0f);
  EXPECT_EQ(a.ground, base.ground);
}

}  // namespace
}  // namespace sortie::render
