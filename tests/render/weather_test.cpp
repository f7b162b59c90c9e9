// Weather in the picture (libs/render/weather.hpp): rain streaks, snow points and lightning of an
// env::EnvironmentFrame drawn through the renderer.
#include "sortie/render/weather.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string_view>

#include "render_fixtures.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/env/environment.hpp"
#include "sortie/render/image_io.hpp"
#include "sortie/render/renderer.hpp"

namespace sortie::render::test {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kWidth = 320;
constexpr std::uint32_t kHeight = 180;
constexpr Rgba8 kSky{40, 44, 52, 255};

env::WeatherSchedule schedule(std::string_view text) {
  auto s = env::read_weather_text(core::ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  EXPECT_TRUE(s) << s.error().to_string();
  return *s;
}

env::WeatherSchedule rain(float intensity) {
  return schedule(std::string("sortie-weather 1\nmaterial rain rain_drop\nsample rain atm_rain1.wav\nkey 0 rain ") +
                  std::to_string(intensity) + "\n");
}

// A level camera at (0, 0, 10) looking north, 60 degrees vertical, 320 x 180.
env::CameraFrame camera() {
  auto c = env::CameraFrame::look({0, 0, 10}, {0, 1, 0});
  c.vertical_fov = 1.0471975511965976;
  c.aspect = static_cast<double>(kWidth) / kHeight;
  c.viewport_width = kWidth;
  c.viewport_height = kHeight;
  return c;
}

// Environment at 0 ms, then the frame at `ms` (rain tails are one frame long).
const env::EnvironmentFrame& run(env::Environment& e, std::int64_t ms) {
  e.update(0, camera());
  return e.update(ms, camera());
}

Framebuffer draw(const WeatherDrawing& w, const env::CameraFrame& cam) {
  auto fb = Framebuffer::create(kWidth, kHeight);
  EXPECT_TRUE(fb);
  Frame f;
  f.camera = camera_from_env(cam);
  f.point_lights = w.point_lights();
  f.draws = w.draws();
  f.clear_color = kSky;
  Renderer r;
  EXPECT_TRUE(r.render(f, *fb));
  return std::move(*fb);
}

std::size_t changed(const Framebuffer& fb) {
  std::size_t n = 0;
  for (const auto px : fb.color()) n += px != pack(kSky) ? 1 : 0;
  return n;
}

// The pixels the frame's streaks cross, walked independently of the rasterizer (one sample per
// pixel step along each projected segment, clipped to the picture).
std::size_t streak_pixels(const env::EnvironmentFrame& frame) {
  const Camera cam = camera_from_env(frame.camera);
  const Viewport vp{0, 0, static_cast<int>(kWidth), static_cast<int>(kHeight)};
  std::set<std::size_t> covered;
  for (const auto& p : frame.particles) {
    const auto a = cam.project(p.previous, vp);
    const auto b = cam.project(p.position, vp);
    if (!a || !b) continue;
    const float dx = b->x - a->x, dy = b->y - a->y;
    const int steps = std::max(1, static_cast<int>(std::ceil(std::max(std::abs(dx), std::abs(dy)))));
    for (int i = 0; i <= steps; ++i) {
      const float t = static_cast<float>(i) / static_cast<float>(steps);
      const float x = std::floor(a->x + dx * t), y = std::floor(a->y + dy * t);
      if (x >= 0 && y >= 0 && x < kWidth && y < kHeight)
        covered.insert(static_cast<std::size_t>(y) * kWidth + static_cast<std::size_t>(x));
    }
  }
  return covered.size();
}

}  // namespace

TEST(Weather, snow_point_pixels_is_point_size_over_depth_clamped) {
  EXPECT_EQ(snow_point_pixels(13.6, 2.0), 7.0f);    // round(6.8)
  EXPECT_EQ(snow_point_pixels(13.6, 50.0), 1.0f);   // round(0.272) = 0 -> 1
  EXPECT_EQ(snow_point_pixels(400.0, 2.0), 64.0f);  // 200 -> 64
  EXPECT_EQ(snow_point_pixels(13.6, 0.0), 1.0f);
}

TEST(Weather, camera_from_env_puts_the_view_direction_at_the_centre) {
  const auto c = camera();
  const auto p = camera_from_env(c).project({0, 100, 10}, {0, 0, static_cast<int>(kWidth), static_cast<int>(kHeight)});
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->x, kWidth / 2.0f, 1e-3f);
  EXPECT_NEAR(p->y, kHeight / 2.0f, 1e-3f);
  // Up in the world is up in the picture (smaller y).
  const auto q = camera_from_env(c).project({0, 100, 20}, {0, 0, static_cast<int>(kWidth), static_cast<int>(kHeight)});
  EXPECT_LT(q->y, p->y);
}

TEST(Weather, rain_at_a_fixed_seed_draws_its_streaks) {
  env::Environment e(rain(1.0f), 7);
  const auto& frame = run(e, 100);
  // 320 x 180 at 60 degrees: the volume ratio exceeds 1, so N = 1000 at intensity 1.
  ASSERT_EQ(frame.particles.size(), 1000u);
  WeatherDrawing w;
  w.update(frame);
  EXPECT_EQ(w.rain_lines(), 1000u);
  ASSERT_EQ(w.draws().size(), 1u);
  EXPECT_EQ(w.draws()[0].mesh.primitive, Primitive::lines);
  EXPECT_EQ(w.draws()[0].material.blend, Blend::alpha);
  EXPECT_FALSE(w.draws()[0].material.depth_write);
  const Framebuffer fb = draw(w, frame.camera);
  const std::size_t n = changed(fb);
  const std::size_t walked = streak_pixels(frame);
  // A streak 6 units long (60 units/s for 100 ms) is 935/d pixels at depth d; about a third
  // of the box is inside the picture, so thousands of pixels, far from the whole picture.
  EXPECT_GT(walked, 3000u);
  EXPECT_LT(walked, kWidth * kHeight / 2);
  EXPECT_GE(n, walked * 85 / 100) << "walked " << walked;
  EXPECT_LE(n, walked * 115 / 100) << "walked " << walked;

  // Same seed, same picture; another seed, another picture.
  env::Environment again(rain(1.0f), 7);
  WeatherDrawing w2;
  w2.update(run(again, 100));
  EXPECT_TRUE(std::equal(fb.color().begin(), fb.color().end(), draw(w2, frame.camera).color().begin()));
  env::Environment other(rain(1.0f), 8);
  WeatherDrawing w3;
  w3.update(run(other, 100));
  EXPECT_FALSE(std::equal(fb.color().begin(), fb.color().end(), draw(w3, frame.camera).color().begin()));
}

TEST(Weather, rain_at_intensity_zero_draws_nothing) {
  env::Environment e(rain(0.0f), 7);
  const auto& frame = run(e, 100);
  EXPECT_EQ(frame.particles.size(), 0u);
  WeatherDrawing w;
  w.update(frame);
  EXPECT_TRUE(w.draws().empty());
  EXPECT_EQ(changed(draw(w, frame.camera)), 0u);
}

TEST(Weather, half_intensity_rain_draws_about_half_the_streaks) {
  env::Environment full(rain(1.0f), 7);
  env::Environment half(rain(0.5f), 7);
  WeatherDrawing a, b;
  a.update(run(full, 100));
  b.update(run(half, 100));
  EXPECT_EQ(b.rain_lines(), 500u);
  const double ratio =
      static_cast<double>(changed(draw(b, camera()))) / static_cast<double>(changed(draw(a, camera())));
  EXPECT_GT(ratio, 0.35);  // overlaps make the full picture less than twice the half one
  EXPECT_LT(ratio, 0.7);
}

TEST(Weather, snow_is_points_grouped_by_pixel_size) {
  env::Environment e(schedule("sortie-weather 1\nmaterial snow flake\nsample snow s.wav\nkey 0 snow 1\n"), 3);
  const auto& frame = run(e, 100);
  // size_scalar = 320 / (2 atan(tan(30 deg) * 16/9)) = 200.40; point size * 0.0195 = 3.908:
  // 2 pixels nearer than depth 2.6 (round(3.908 / d) = 2), 1 pixel beyond.
  EXPECT_NEAR(frame.metrics.point_size, 3.908, 1e-3);
  WeatherDrawing w;
  w.update(frame);
  EXPECT_EQ(w.snow_points(), frame.particles.size());
  ASSERT_GE(w.draws().size(), 1u);
  ASSERT_LE(w.draws().size(), 2u);
  std::size_t two = 0;
  for (const auto& p : frame.particles)
    two += static_cast<double>(frame.camera.to_local(p.position).z) < 3.908 / 1.5 ? 1 : 0;
  for (const auto& d : w.draws()) {
    EXPECT_EQ(d.mesh.primitive, Primitive::points);
    if (d.material.point_size == 2.0f) {
      EXPECT_EQ(d.mesh.positions.size(), two);
    }
  }
  EXPECT_EQ(w.draws()[0].material.point_size, 1.0f);  // sizes ascending
  EXPECT_GT(changed(draw(w, frame.camera)), 100u);
}

// A strike is the lightning effect (docs/effects.md): without an effect in the schedule, sortie's
// stand-in with the seed's numbers. Its light and bolt come from the FX fields and the header's
// 250 ms lifetime (time_mode 3: the value falls 1 -> 0), not from the drawing.
TEST(Weather, lightning_is_the_effects_light_and_body_for_its_lifetime) {
  env::Environment e(schedule("sortie-weather 1\nmaterial lightning bolt\nsample lightning t.wav\n"
                              "lightning_bounds -500 -500 500 500 0\nkey 0 none 1 lightning\n"),
                     11);
  auto cam = env::CameraFrame::look({0, -2000, 300}, {0, 1, 0});
  cam.aspect = static_cast<double>(kWidth) / kHeight, cam.viewport_width = kWidth, cam.viewport_height = kHeight;
  WeatherDrawing w;
  std::int64_t t = 0;
  // The first attempt waits at most (1 - 0.95) * 60000 = 3000 ms.
  for (; t <= 3100; t += 50) {
    const auto& frame = e.update(t, cam);
    ASSERT_TRUE(w.update(frame));
    if (!frame.lightning.empty()) break;
  }
  ASSERT_LE(t, 3100);
  const auto& strike = e.frame().lightning.back();
  const float value = 1.0f - static_cast<float>(t - strike.time_ms) / 250.0f;
  EXPECT_EQ(w.live_effects(), 1u);
  // Opcode 1: the light at the effect's origin (the descriptor's centre), colour (0.85, 0.9, 1) *
  // strength 2 * value, radius 2000; the renderer's knee is a fifth of it.
  ASSERT_EQ(w.point_lights().size(), 1u);
  const PointLight& l = w.point_lights()[0];
  EXPECT_EQ(l.position, strike.body_center);
  EXPECT_FLOAT_EQ(l.color.x, 0.85f * 2.0f * value);
  EXPECT_FLOAT_EQ(l.color.y, 0.9f * 2.0f * value);
  EXPECT_FLOAT_EQ(l.color.z, 2.0f * value);
  EXPECT_EQ(l.radius, 2000.0f);
  EXPECT_EQ(l.size, 400.0f);
  // Opcode 3: one quad, [40, 40, 600] centred at z + 300, alpha = value, no depth write.
  ASSERT_EQ(w.draws().size(), 1u);
  const DrawCall& bolt = w.draws()[0];
  EXPECT_EQ(bolt.mesh.primitive, Primitive::triangles);
  ASSERT_EQ(bolt.mesh.positions.size(), 4u);
  float lo = 1e9f, hi = -1e9f;
  for (const auto& p : bolt.mesh.positions) lo = std::min(lo, p.z), hi = std::max(hi, p.z);
  EXPECT_EQ(lo, strike.body_bottom);
  EXPECT_EQ(hi, strike.body_top);
  EXPECT_NEAR(core::distance(bolt.mesh.positions[0], bolt.mesh.positions[1]), 40.0f, 1e-3f);
  EXPECT_FLOAT_EQ(bolt.material.color.w, value);
  EXPECT_FALSE(bolt.material.depth_write);
  // Every picture row the bolt spans is lit.
  const Viewport vp{0, 0, static_cast<int>(kWidth), static_cast<int>(kHeight)};
  const auto top = camera_from_env(cam).project({strike.position.x, strike.position.y, strike.body_top}, vp);
  const auto bottom = camera_from_env(cam).project(strike.position, vp);
  ASSERT_TRUE(top && bottom);
  const auto rows = static_cast<std::size_t>(std::floor(bottom->y) - std::floor(top->y));
  EXPECT_GT(rows, 30u);  // 600 units at 2,000..3,000 units: 31..47 rows
  EXPECT_GE(changed(draw(w, cam)), rows);
  // Half-way through the lifetime the light has half its colour.
  ASSERT_TRUE(w.update(e.update(strike.time_ms + 125, cam)));
  ASSERT_EQ(w.point_lights().size(), 1u);
  EXPECT_FLOAT_EQ(w.point_lights()[0].color.z, 1.0f);
  // 249 ms after the strike it still lives; at 250 ms it is over: no body, no light.
  ASSERT_TRUE(w.update(e.update(strike.time_ms + 249, cam)));
  EXPECT_EQ(w.point_lights().size(), 1u);
  ASSERT_TRUE(w.update(e.update(strike.time_ms + 250, cam)));
  EXPECT_EQ(w.live_effects(), 0u);
  EXPECT_TRUE(w.draws().empty());
  EXPECT_TRUE(w.point_lights().empty());
}

TEST(Weather, sky_colour_is_the_active_sky_object_clamped) {
  env::Environment e(schedule("sortie-weather 1\nsky day 0.5 1.5 0.2 until 10\nsky night 0.04 0.05 0.1\n"), 1);
  WeatherDrawing w;
  w.update(e.update(0, camera()));
  // 0.5 * 255 + 0.5 = 128; 1.5 clamps to 255; 0.2 * 255 + 0.5 = 51.5 -> 51.
  EXPECT_EQ(w.sky_color(), (Rgba8{128, 255, 51, 255}));
  w.update(e.update(10000, camera()));
  // 0.04 * 255 = 10.2 -> 10; 0.05 * 255 = 12.75 -> 13; 0.1 * 255 = 25.5 -> 26.
  EXPECT_EQ(w.sky_color(), (Rgba8{10, 13, 26, 255}));
  env::Environment clear(rain(0.5f), 1);
  w.update(clear.update(0, camera()));
  EXPECT_FALSE(w.sky_color());
}

TEST(Weather, rain_golden_image) {
  env::Environment e(rain(0.8f), 5);
  WeatherDrawing w;
  w.update(run(e, 100));
  const Framebuffer fb = draw(w, camera());
  SORTIE_EXPECT_GOLDEN_IMAGE(fb, fs::path(SORTIE_TEST_DATA_DIR) / "golden" / "weather_rain" / "expected.png",
                             "rain streaks over the clear colour");
}

}  // namespace sortie::render::test
