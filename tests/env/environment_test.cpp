// Weather schedule, EnvironmentFrame loop events and lightning (seed 001).
#include "sortie/env/environment.hpp"

#include <gtest/gtest.h>

#include "parse_weather.hpp"

using namespace sortie;
using namespace sortie::env;
using sortie::env::test::parse;

namespace {

constexpr std::string_view kHeader =
    "sortie-weather 1\n"
    "material rain rain_drop\nmaterial snow snow_flake\nmaterial lightning env_lightning\n"
    "sample rain atm_rain1.wav\nsample snow sounds.lib/atm_snow.wav\nsample lightning sounds.lib/thunder.wav\n"
    "lightning_bounds 100 200 300 400 50\n";

}  // namespace

TEST(WeatherSchedule, text_form_reads_and_writes_back) {
  const std::string text =
      std::string(kHeader) + "key 0 rain 0.2  # light rain\nkey 10.5 rain 0.6 lightning\nkey 20 none 0\n";
  const auto s = parse(text);
  ASSERT_EQ(s.keys.size(), 3u);
  EXPECT_EQ(s.keys[1].time_ms, 10500);
  EXPECT_TRUE(s.keys[1].lightning);
  EXPECT_EQ(s.rain_sample, (SoundRef{"", "atm_rain1.wav"}));
  EXPECT_EQ(s.snow_sample, (SoundRef{"sounds.lib", "atm_snow.wav"}));
  EXPECT_EQ(s.lightning_bounds.max.y, 400.0f);
  EXPECT_EQ(s.lightning_bounds.z, 50.0f);
  EXPECT_EQ(parse(write_weather_text(s)), s);
  EXPECT_EQ(weather_text_reader().name(), "sortie-weather text v1");
}

TEST(WeatherSchedule, intensity_interpolates_within_one_kind_and_holds_across_kinds) {
  const auto s = parse(std::string(kHeader) + "key 2 rain 0.2\nkey 12 rain 0.6\nkey 20 snow 0.5\n");
  EXPECT_EQ(sample_weather(s, 0), WeatherState{});  // before the first key: clear
  EXPECT_EQ(sample_weather(s, 2000).intensity, 0.2f);
  // 7000 ms: 0.2 + (0.6 - 0.2) * (5000 / 10000) = 0.4
  EXPECT_FLOAT_EQ(sample_weather(s, 7000).intensity, 0.4f);
  EXPECT_EQ(sample_weather(s, 7000).kind, PrecipitationKind::rain);
  // 16000 ms: the next key is snow, so 0.6 is held
  EXPECT_EQ(sample_weather(s, 16000).intensity, 0.6f);
  EXPECT_EQ(sample_weather(s, 25000).kind, PrecipitationKind::snow);
}

TEST(WeatherSchedule, rejects_unknown_version_with_its_own_code) {
  auto s = read_weather_text(core::as_bytes(std::string_view("sortie-weather 2\n")));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "weather.version");
  s = read_weather_text(core::as_bytes(std::string_view("weather 1\n")));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "weather.magic");
}

TEST(WeatherSchedule, rejects_bad_keys) {
  auto code = [](std::string_view body) {
    auto s = read_weather_text(core::as_bytes(std::string(kHeader) + std::string(body)));
    return s ? std::string("ok") : s.error().code;
  };
  EXPECT_EQ(code("key 1 rain 1.5\n"), "weather.value");
  EXPECT_EQ(code("key -1 rain 0.5\n"), "weather.value");
  EXPECT_EQ(code("key 2 rain 0.5\nkey 2 rain 0.1\n"), "weather.order");
  EXPECT_EQ(code("key 2 hail 0.5\n"), "weather.syntax");
  EXPECT_EQ(code("fog 1\n"), "weather.syntax");
  EXPECT_EQ(code("sample rain again.wav\n"), "weather.duplicate");
  auto s = read_weather_text(core::as_bytes(std::string_view("sortie-weather 1\nkey 0 rain 0.5\n")));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "weather.missing");
}

TEST(Environment, loop_lifecycle_events) {
  Environment env(parse(std::string(kHeader) + "key 0 rain 0.2\nkey 10 rain 0.6\nkey 20 snow 0.5\nkey 30 none 0\n"), 1);
  const auto cam = CameraFrame::look({5, 6, 7}, {1, 0, 0});
  std::vector<SoundEvent> all;
  for (std::int64_t t = 0; t <= 31000; t += 1000) {
    const auto& f = env.update(t, cam);
    all.insert(all.end(), f.sounds.begin(), f.sounds.end());
  }
  ASSERT_GE(all.size(), 14u);
  // t = 0: StartLoop rain at the camera, volume 0.2, the schedule's sample (mission library).
  EXPECT_EQ(all[0].kind, SoundEventKind::start_loop);
  EXPECT_EQ(all[0].loop, "rain");
  EXPECT_EQ(all[0].sample, (SoundRef{"", "atm_rain1.wav"}));
  EXPECT_EQ(all[0].volume, 0.2f);
  EXPECT_EQ(all[0].position, (core::Vec3{5, 6, 7}));
  EXPECT_EQ(all[0].bus, Bus::ambient);
  // t = 1000 .. 10000: SetLoopVolume every frame, 0.2 + 0.4 * t / 10000 (1000: 0.24)
  for (int i = 1; i <= 10; ++i) {
    EXPECT_EQ(all[static_cast<std::size_t>(i)].kind, SoundEventKind::set_loop_volume) << i;
    EXPECT_EQ(all[static_cast<std::size_t>(i)].time_ms, i * 1000);
  }
  EXPECT_FLOAT_EQ(all[1].volume, 0.24f);
  EXPECT_FLOAT_EQ(all[10].volume, 0.6f);
  // 11000 .. 19000: held at 0.6, no events. t = 20000: StopLoop rain, StartLoop snow 0.5.
  EXPECT_EQ(all[11].kind, SoundEventKind::stop_loop);
  EXPECT_EQ(all[11].time_ms, 20000);
  EXPECT_EQ(all[11].loop, "rain");
  EXPECT_EQ(all[12].kind, SoundEventKind::start_loop);
  EXPECT_EQ(all[12].loop, "snow");
  EXPECT_EQ(all[12].sample, (SoundRef{"sounds.lib", "atm_snow.wav"}));
  EXPECT_EQ(all[12].volume, 0.5f);
  // t = 30000: StopLoop snow.
  EXPECT_EQ(all[13].kind, SoundEventKind::stop_loop);
  EXPECT_EQ(all[13].loop, "snow");
  EXPECT_EQ(all[13].time_ms, 30000);
  EXPECT_EQ(all.size(), 14u);
}

TEST(Environment, lightning_delay_formula) {
  // U = r / 32767. I = 0.5, r = 32767: (1 - 0.5) * 60000 * 1 = 30000
  EXPECT_EQ(lightning_delay_ms(0.5, 32767), 30000);
  // I capped at 0.95: (1 - 0.95) * 60000 = 3000
  EXPECT_EQ(lightning_delay_ms(1.0, 32767), 3000);
  EXPECT_EQ(lightning_delay_ms(0.95, 32767), 3000);
  EXPECT_EQ(lightning_delay_ms(0.7, 0), 0);
  // I = 0.2, r = 16384: 0.8 * 60000 * 16384 / 32767 = 48000 * 0.500015... = 24000.73 -> 24001
  EXPECT_EQ(lightning_delay_ms(0.2, 16384), 24001);
  // I = 0, r = 1: 60000 / 32767 = 1.83 -> 2
  EXPECT_EQ(lightning_delay_ms(0.0, 1), 2);
}

TEST(Environment, lightning_strike_geometry_sound_and_retry) {
  Environment env(parse(std::string(kHeader) + "key 0 none 0.5 lightning\n"), 42);
  const auto cam = CameraFrame::look({0, 0, 0}, {1, 0, 0});
  std::vector<LightningAttempt> attempts;
  std::vector<LightningStrike> strikes;
  std::vector<SoundEvent> sounds;
  for (std::int64_t t = 0; t <= 120000; t += 50) {
    const auto& f = env.update(t, cam);
    attempts.insert(attempts.end(), f.lightning_attempts.begin(), f.lightning_attempts.end());
    strikes.insert(strikes.end(), f.lightning.begin(), f.lightning.end());
    sounds.insert(sounds.end(), f.sounds.begin(), f.sounds.end());
  }
  ASSERT_GE(strikes.size(), 2u);
  ASSERT_EQ(sounds.size(), strikes.size());
  EXPECT_EQ(attempts[0].time_ms, 0);
  for (std::size_t i = 0; i < strikes.size(); ++i) {
    const auto& a = attempts[i];
    const auto& s = strikes[i];
    // delay = round_even((1 - 0.5) * 60000 * r / 32767), strike at attempt + delay
    EXPECT_EQ(a.delay_ms, static_cast<std::int64_t>(round_even(30000.0 * a.r15 / 32767.0)));
    EXPECT_EQ(s.time_ms, a.time_ms + a.delay_ms);
    if (i + 1 < attempts.size()) {
      EXPECT_EQ(attempts[i + 1].time_ms, s.time_ms + 6000);
    }
    // X, Y in the bounds from 15-bit draws, Z copied: x = 100 + 200 * rx / 32767
    EXPECT_FLOAT_EQ(s.position.x, 100.0f + 200.0f * static_cast<float>(s.r15_x) / 32767.0f);
    EXPECT_FLOAT_EQ(s.position.y, 200.0f + 200.0f * static_cast<float>(s.r15_y) / 32767.0f);
    EXPECT_EQ(s.position.z, 50.0f);
    // body [40, 40, 600] centred at z + 300 = 350; ends at 50 and 650
    EXPECT_EQ(s.body_size, (core::Vec3{40, 40, 600}));
    EXPECT_EQ(s.body_center.z, 350.0f);
    EXPECT_EQ(s.body_bottom, 50.0f);
    EXPECT_EQ(s.body_top, 650.0f);
    EXPECT_EQ(s.material, "env_lightning");
    // No effect named: sortie's stand-in (the seed's numbers) starts at the descriptor's centre.
    EXPECT_EQ(s.effect, "built-in/lightning");
    EXPECT_EQ(s.instance, i + 1);
    // The thunder is the effect's opcode 2: at the strike (300 below the origin), the seed's
    // distances and frequency ratio.
    const auto& e = sounds[i];
    EXPECT_EQ(e.kind, SoundEventKind::one_shot);
    EXPECT_EQ(e.time_ms, s.time_ms);
    EXPECT_EQ(e.sample, (SoundRef{"sounds.lib", "thunder.wav"}));
    EXPECT_TRUE(e.positional);
    EXPECT_EQ(e.position, s.position);
    EXPECT_EQ(e.min_distance, 100.0f);
    EXPECT_EQ(e.max_distance, 1500.0f);
    EXPECT_EQ(e.frequency_ratio, 1.0f);
  }
}

TEST(Environment, lightning_off_cancels_the_pending_strike) {
  Environment env(parse(std::string(kHeader) + "key 0 none 0 lightning\nkey 0.001 none 0\n"), 5);
  const auto cam = CameraFrame::look({0, 0, 0}, {1, 0, 0});
  const auto& f0 = env.update(0, cam);
  ASSERT_EQ(f0.lightning_attempts.size(), 1u);
  std::size_t strikes = f0.lightning.size();
  for (std::int64_t t = 50; t <= 70000; t += 50) strikes += env.update(t, cam).lightning.size();
  // a zero delay strikes at once (r = 0); anything later is cancelled
  EXPECT_EQ(strikes, f0.lightning_attempts[0].delay_ms == 0 ? 1u : 0u);
}

TEST(Environment, full_intensity_frame_at_1280x720) {
  Environment env(parse(std::string(kHeader) + "key 0 rain 1\n"), 9);
  auto cam = CameraFrame::look({0, 0, 10}, {1, 0, 0});
  const auto& f = env.update(0, cam);
  // 60 deg, 16:9: ratio 1.47 clamps to 1 -> 1000 drops; scalar 1280 / 1.59685 = 801.577; size 5.2103
  EXPECT_EQ(f.metrics.count, 1000u);
  EXPECT_EQ(f.particles.size(), 1000u);
  EXPECT_NEAR(f.metrics.point_size, 5.210253195771191, 1e-9);
  EXPECT_EQ(f.material, "rain_drop");
}

TEST(Environment, same_seed_gives_the_same_sound_events) {
  const auto sched = parse(std::string(kHeader) + "key 0 rain 0.3 lightning\nkey 60 rain 0.9 lightning\n");
  auto run = [&](std::uint64_t seed) {
    Environment env(sched, seed);
    std::vector<SoundEvent> events;
    auto cam = CameraFrame::look({0, 0, 0}, {1, 0, 0});
    for (std::int64_t t = 0; t <= 90000; t += 50) {
      cam.position.x = static_cast<float>(t) / 1000.0f;
      const auto& f = env.update(t, cam);
      events.insert(events.end(), f.sounds.begin(), f.sounds.end());
    }
    return events;
  };
  const auto a = run(11);
  EXPECT_EQ(a, run(11));
  EXPECT_NE(a, run(12));
}
