// Sky objects of the weather schedule and the DAY/NIGHT pools of the ambient music they drive.
#include <gtest/gtest.h>

#include "parse_weather.hpp"
#include "sortie/env/ambient_music.hpp"
#include "sortie/env/environment.hpp"

using namespace sortie;
using namespace sortie::env;
using sortie::env::test::parse;

namespace {

std::string code(std::string_view body) {
  auto s = read_weather_text(core::as_bytes("sortie-weather 1\n" + std::string(body)), "sky.weather");
  return s ? std::string("ok") : s.error().code;
}

// Day until 60 s, then night (0.9^2 * 3 = 2.43, length 1.5588 > 1.1; night 0.1, 0.2, 0.4:
// length sqrt(0.21) = 0.4583).
constexpr std::string_view kDayNight =
    "sortie-weather 1\n"
    "sky day 0.9 0.9 0.9 until 60\n"
    "sky night 0.1 0.2 0.4\n";

}  // namespace

TEST(Sky, objects_read_in_declaration_order_with_their_windows) {
  const auto s = parse(
      "sortie-weather 1\n"
      "sky noon 1 0.95 0.9 from 10 until 20.5  # first\n"
      "sky dusk 0.5 0.4 0.3 until 30\n"
      "sky night 0.05 0.05 0.1 from 25\n");
  ASSERT_EQ(s.sky.size(), 3u);
  EXPECT_EQ(s.sky[0].name, "noon");
  EXPECT_EQ(s.sky[0].base_rgb, (core::Vec3{1.0f, 0.95f, 0.9f}));
  EXPECT_EQ(s.sky[0].from_ms, 10000);
  EXPECT_EQ(s.sky[0].until_ms, 20500);
  EXPECT_EQ(s.sky[1].from_ms, 0);
  EXPECT_EQ(s.sky[1].until_ms, 30000);
  EXPECT_EQ(s.sky[2].from_ms, 25000);
  EXPECT_FALSE(s.sky[2].until_ms);
  // The first active object in declaration order: dusk before 10 s, noon in [10, 20.5), dusk
  // again to 30 s (night is active from 25 s but comes later), then night.
  EXPECT_EQ(sample_sky(s, 0), (core::Vec3{0.5f, 0.4f, 0.3f}));
  EXPECT_EQ(sample_sky(s, 9999), (core::Vec3{0.5f, 0.4f, 0.3f}));
  EXPECT_EQ(sample_sky(s, 10000), (core::Vec3{1.0f, 0.95f, 0.9f}));
  EXPECT_EQ(sample_sky(s, 20499), (core::Vec3{1.0f, 0.95f, 0.9f}));
  EXPECT_EQ(sample_sky(s, 20500), (core::Vec3{0.5f, 0.4f, 0.3f}));
  EXPECT_EQ(sample_sky(s, 29999), (core::Vec3{0.5f, 0.4f, 0.3f}));
  EXPECT_EQ(sample_sky(s, 30000), (core::Vec3{0.05f, 0.05f, 0.1f}));
  EXPECT_EQ(active_sky(s, 30000)->name, "night");
  EXPECT_EQ(parse(write_weather_text(s)), s);
  // The written form: from only when not 0, until only when given, times in whole ms.
  const std::string w = write_weather_text(s);
  EXPECT_NE(w.find("sky noon 1 0.95 0.9 from 10.000 until 20.500\n"), std::string::npos) << w;
  EXPECT_NE(w.find("sky dusk 0.5 0.4 0.3 until 30.000\n"), std::string::npos) << w;
  EXPECT_NE(w.find("sky night 0.05 0.05 0.1 from 25.000\n"), std::string::npos) << w;
  const auto j = weather_schedule_json(s);
  ASSERT_EQ(j.at("sky").size(), 3u);
  EXPECT_EQ(j.at("sky")[0].at("name"), "noon");
  EXPECT_EQ(j.at("sky")[0].at("until_ms"), 20500);
  EXPECT_TRUE(j.at("sky")[2].at("until_ms").is_null());
  EXPECT_EQ(j.at("sky")[2].at("from_ms"), 25000);
}

TEST(Sky, no_sky_object_or_none_active_gives_nothing) {
  EXPECT_FALSE(sample_sky(parse("sortie-weather 1\n"), 0));
  const auto s = parse("sortie-weather 1\nsky late 1 1 1 from 5\n");
  EXPECT_FALSE(sample_sky(s, 4999));
  EXPECT_TRUE(sample_sky(s, 5000));
  EXPECT_EQ(active_sky(s, 0), nullptr);
  // from 0 is the default: it is not written, the model is the same.
  EXPECT_EQ(parse("sortie-weather 1\nsky a 1 1 1 from 0\n"), parse("sortie-weather 1\nsky a 1 1 1\n"));
}

TEST(Sky, rejects_bad_sky_lines) {
  EXPECT_EQ(code("sky a 1 1 1\nsky b 1 1 1 until 1 from 0.5\n"), "ok");  // options in either order
  EXPECT_EQ(code("sky a 1 1\n"), "weather.syntax");
  EXPECT_EQ(code("sky a 1 1 1 from\n"), "weather.syntax");
  EXPECT_EQ(code("sky a 1 1 1 since 3\n"), "weather.syntax");
  EXPECT_EQ(code("sky a 1 1 1 from 1 from 2\n"), "weather.syntax");
  EXPECT_EQ(code("sky a 1 1 1 until 1 until 2\n"), "weather.syntax");
  EXPECT_EQ(code("sky a 1 1 1 from 1 until 2 x\n"), "weather.syntax");
  EXPECT_EQ(code("sky a 1 1 -0.1\n"), "weather.value");
  EXPECT_EQ(code("sky a 1 16.5 1\n"), "weather.value");
  EXPECT_EQ(code("sky a 1 nan 1\n"), "weather.value");
  EXPECT_EQ(code("sky a 1 1 1 from -1\n"), "weather.value");
  EXPECT_EQ(code("sky a 1 1 1 until 1e10\n"), "weather.value");
  EXPECT_EQ(code("sky a 1 1 1 from 5 until 5\n"), "weather.value");    // empty window
  EXPECT_EQ(code("sky a 1 1 1 from 5 until 4.9\n"), "weather.value");  // until before from
  EXPECT_EQ(code("sky a 1 1 1 until 0\n"), "weather.value");           // [0, 0) is empty
  EXPECT_EQ(code("sky a 1 1 1\nsky a 0 0 0\n"), "weather.duplicate");
  auto s = read_weather_text(core::as_bytes(std::string_view("sortie-weather 1\n\nsky a 1 1 1 from 3 until 2\n")),
                             "x.weather");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().field, "line 3");
  EXPECT_EQ(s.error().offset, 18u);
}

TEST(Sky, environment_frame_carries_the_first_active_sky_colour) {
  Environment env(parse(kDayNight), 1);
  const auto cam = CameraFrame::look({0, 0, 0}, {1, 0, 0});
  EXPECT_EQ(env.update(0, cam).sky_base_rgb, (core::Vec3{0.9f, 0.9f, 0.9f}));
  EXPECT_EQ(env.update(59999, cam).sky_base_rgb, (core::Vec3{0.9f, 0.9f, 0.9f}));
  EXPECT_EQ(env.update(60000, cam).sky_base_rgb, (core::Vec3{0.1f, 0.2f, 0.4f}));
  const auto j = environment_frame_json(env.frame());
  EXPECT_FLOAT_EQ(j.at("sky_base_rgb")[2].get<float>(), 0.4f);
  Environment clear(parse("sortie-weather 1\n"), 1);
  EXPECT_FALSE(clear.update(0, cam).sky_base_rgb);
  EXPECT_TRUE(environment_frame_json(clear.frame()).at("sky_base_rgb").is_null());
}

TEST(Sky, sky_pool_rule_alone) {
  EXPECT_EQ(sky_pool(core::Vec3{0.9f, 0.9f, 0.9f}), VariationPool::day);
  EXPECT_EQ(sky_pool(core::Vec3{0.1f, 0.2f, 0.4f}), VariationPool::night);
  EXPECT_EQ(sky_pool(std::nullopt), VariationPool::night);
}

TEST(Sky, music_plays_day_entries_before_60_s_and_night_entries_after) {
  // The environment's sky drives the pool; the index of the last variation survives the switch.
  Environment env(parse(kDayNight), 1);
  AmbientMusicConfig cfg;
  cfg.theme = {"music.lib", "THEME.WAV"};
  cfg.day_pool = {"D0.WAV", "D1.WAV", "D2.WAV"};
  cfg.night_pool = {"N0.WAV", "N1.WAV", "N2.WAV"};
  cfg.state_a = 1;
  cfg.state_b = 3;
  AmbientMusic music(cfg, 5);
  const auto cam = CameraFrame::look({0, 0, 0}, {1, 0, 0});
  std::vector<VariationChoice> choices;
  std::vector<SoundEvent> out;
  std::int64_t last = 0;
  for (std::int64_t t = 0; t <= 120000; t += 500) {
    const auto& f = env.update(t, cam);
    if (auto c = music.tick(static_cast<double>(t - last) / 1000.0, f.sky_base_rgb, t, out)) choices.push_back(*c);
    last = t;
  }
  // Times: the first positive tick (0.5 s) plays; the seed-5 stream then draws delays of 14,
  // 16, 15, 14, 14, 18, 10 s, and a variation plays at the first 0.5 s step past each
  // (0.5 + 14.5 = 15, 15 + 16.5 = 31.5, 31.5 + 15.5 = 47, 47 + 14.5 = 61.5, ...).
  // Generator a = 1, b = 3 (a = (a << 1) ^ b, b = (b >> 1) ^ a):
  //   a 1, b 0; a 2, b 2; a 6, b 7; a 11, b 8; a 30, b 26; a 38, b 43; a 103, b 114;
  //   a 188, b 133; a 509, b 447
  // Indices b % 3 with the last index redrawn away:
  //   0 -> 0; 2 -> 2; 7 -> 1; 8 -> 2 (day ends with index 2);
  //   26 -> 2 = the last day index, redrawn: 43 -> 1 (night); 114 -> 0; 133 -> 1; 447 -> 0.
  const std::vector<std::int64_t> times = {500, 15000, 31500, 47000, 61500, 76000, 94500, 105000};
  const std::vector<int> indices = {0, 2, 1, 2, 1, 0, 1, 0};
  const std::vector<int> draws = {1, 1, 1, 1, 2, 1, 1, 1};
  const std::vector<std::string> samples = {"D0.WAV", "D2.WAV", "D1.WAV", "D2.WAV",
                                            "N1.WAV", "N0.WAV", "N1.WAV", "N0.WAV"};
  ASSERT_EQ(choices.size(), times.size());
  ASSERT_EQ(out.size(), times.size());
  for (std::size_t i = 0; i < choices.size(); ++i) {
    EXPECT_EQ(choices[i].time_ms, times[i]) << i;
    EXPECT_EQ(choices[i].pool, times[i] < 60000 ? VariationPool::day : VariationPool::night) << i;
    EXPECT_EQ(choices[i].index, indices[i]) << i;
    EXPECT_EQ(choices[i].draws, draws[i]) << i;
    EXPECT_EQ(out[i].sample, (SoundRef{"music.lib", samples[i]})) << i;
  }
}

TEST(WeatherSchedule, rejects_lightning_bound_beyond_float_range) {
  // 1e39 is a finite double but no float: it would be written back as "inf".
  EXPECT_EQ(code("lightning_bounds 0 0 1e39 1 0\n"), "weather.value");
  EXPECT_EQ(code("lightning_bounds 0 0 3e38 1 -3e38\n"), "ok");
}
