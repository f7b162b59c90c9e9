// A mission's environment (sortie/env/ambience.hpp): THEME at open, weather loops and the
// variation one-shot reach the mixer with the listener at the camera; a missing sample is
// reported once; the backend is the factory's (a VoiceMixer here, the SDL2 device in the viewer).
#include "sortie/env/ambience.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "sortie/core/file_io.hpp"
#include "sortie/env/voice_mixer.hpp"
#include "sortie/iron3d/nres.hpp"

using namespace sortie;
using namespace sortie::env;
namespace fs = std::filesystem;

namespace {

core::Bytes tone(std::size_t frames, std::int16_t level) {
  std::vector<std::int16_t> s(frames);
  for (std::size_t i = 0; i < frames; ++i) s[i] = static_cast<std::int16_t>(i % 2 ? level : -level);
  return iron3d::write_wave(iron3d::make_pcm16_wave(22050, 1, s));
}

class AmbienceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("sortie_ambience_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
    auto lib = iron3d::NresBuilder()
                   .add(0, "THEME.WAV", tone(22050, 4000))
                   .add(0, "atm_rain1.wav", tone(11025, 2000))
                   .add(0, "VAR1.WAV", tone(2205, 3000))
                   .build();
    ASSERT_TRUE(lib);
    ASSERT_TRUE(core::write_file_atomic(dir_ / "snd.lib", *lib));
  }
  static env::WeatherSchedule weather(const std::string& sample) {
    const std::string text = "sortie-weather 1\nmaterial rain drop\nsample rain " + sample + "\nkey 0 rain 0.5\n";
    auto schedule = env::read_weather_text(core::as_bytes(text), "storm.weather");
    EXPECT_TRUE(schedule) << schedule.error().to_string();
    return schedule ? *schedule : env::WeatherSchedule{};
  }
  AmbienceOptions options(const std::string& rain_sample) {
    AmbienceOptions o;
    o.sounds = dir_ / "snd.lib";
    o.music.theme = env::SoundRef{"", "THEME.WAV"};
    o.music.default_pool = {"VAR1.WAV"};
    o.weather = weather(rain_sample);
    return o;
  }
  // A device: the PCM mixer at 22,050 Hz.
  static std::unique_ptr<AudioBackend> mixer_device(std::ostream&) { return std::make_unique<VoiceMixer>(22050); }
  fs::path dir_;
};

}  // namespace

TEST_F(AmbienceTest, theme_rain_loop_and_first_variation_play_with_the_camera_listener) {
  std::ostringstream warnings;
  auto a = Ambience::open(options("atm_rain1.wav"), nullptr, mixer_device, warnings);
  ASSERT_TRUE(a) << a.error().to_string();
  Ambience& amb = **a;
  EXPECT_TRUE(amb.has_weather());
  EXPECT_EQ(amb.backend().name(), "mix");  // the factory's device answered
  const auto camera = env::CameraFrame::look({10, 20, 30}, {0, 1, 0});
  const auto* frame = amb.update(0, camera);
  ASSERT_NE(frame, nullptr);
  EXPECT_EQ(frame->weather.kind, env::PrecipitationKind::rain);
  ASSERT_NE(amb.mixer().loop("theme"), nullptr);
  ASSERT_NE(amb.mixer().loop("rain"), nullptr);
  EXPECT_EQ(amb.mixer().loop("theme")->params.bus, env::Bus::music);
  EXPECT_FLOAT_EQ(amb.mixer().loop("rain")->params.volume, 0.5f);
  EXPECT_EQ(amb.mixer().listener().position, (core::Vec3{10, 20, 30}));
  EXPECT_EQ(amb.mixer().sources().size(), 2u);
  // The first positive tick plays the first variation (elapsed 0.016 > delay 0).
  amb.update(16, camera);
  EXPECT_EQ(amb.mixer().sources().size(), 3u);
  EXPECT_EQ(amb.mixer().sources().back().ref.name, "VAR1.WAV");
  // VAR1 is 0.1 s long: the mixer stops it once its time is played.
  for (std::int64_t t = 32; t <= 160; t += 16) amb.update(t, camera);
  EXPECT_EQ(amb.mixer().sources().size(), 2u);
  EXPECT_EQ(amb.mixer().time_ms(), 160);
  EXPECT_EQ(amb.problems(), 0u);
  EXPECT_EQ(amb.mixer().backend_unanswered(), 0u);
  EXPECT_TRUE(warnings.str().empty()) << warnings.str();
}

TEST_F(AmbienceTest, mute_and_pause_keep_the_sources) {
  std::ostringstream warnings;
  auto o = options("atm_rain1.wav");
  o.mute = true;
  auto a = Ambience::open(o, nullptr, mixer_device, warnings);
  ASSERT_TRUE(a);
  const auto camera = env::CameraFrame::look({0, 0, 0}, {1, 0, 0});
  (*a)->update(0, camera);
  (*a)->update(100, camera);
  EXPECT_TRUE((*a)->mixer().muted());
  EXPECT_EQ((*a)->mixer().time_ms(), 100);  // muted time runs on
  EXPECT_EQ((*a)->mixer().effective_gain(*(*a)->mixer().loop("theme")), 0.0f);
  (*a)->set_paused(true);
  (*a)->update(200, camera);
  EXPECT_EQ((*a)->mixer().time_ms(), 100);  // paused time stands
  EXPECT_EQ((*a)->mixer().loop("theme")->played_ms, 100);
  EXPECT_TRUE((*a)->music().paused());
}

TEST_F(AmbienceTest, a_missing_weather_sample_is_reported_once) {
  std::ostringstream warnings;
  auto a = Ambience::open(options("nope.wav"), nullptr, mixer_device, warnings);
  ASSERT_TRUE(a);
  const auto camera = env::CameraFrame::look({0, 0, 0}, {1, 0, 0});
  for (std::int64_t t = 0; t <= 1000; t += 50) (*a)->update(t, camera);
  EXPECT_EQ((*a)->problems(), 1u);
  const std::string text = warnings.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  EXPECT_NE(text.find("nope.wav"), std::string::npos);
  EXPECT_NE((*a)->mixer().loop("theme"), nullptr);  // the rest still plays
}

TEST_F(AmbienceTest, day_and_night_pools_follow_the_schedules_first_active_sky_object) {
  std::ostringstream warnings;
  auto o = options("atm_rain1.wav");
  // |(0.8, 0.8, 0.8)| = 1.386 > 1.1: day until 5 s; |(0.1, 0.1, 0.2)| = 0.245: night from 5 s.
  const std::string text = "sortie-weather 1\nsky day 0.8 0.8 0.8 until 5\nsky night 0.1 0.1 0.2 from 5\n";
  auto schedule = env::read_weather_text(core::as_bytes(text), "sky.weather");
  ASSERT_TRUE(schedule) << schedule.error().to_string();
  o.weather = *schedule;
  o.music.default_pool.clear();
  o.music.day_pool = {"VAR1.WAV"};
  o.music.night_pool = {"atm_rain1.wav"};
  auto a = Ambience::open(o, nullptr, mixer_device, warnings);
  ASSERT_TRUE(a) << a.error().to_string();
  const auto camera = env::CameraFrame::look({0, 0, 0}, {1, 0, 0});
  std::vector<std::pair<std::int64_t, std::string>> started;  // one-shots as they start
  std::size_t before = 0;
  for (std::int64_t t = 0; t <= 45000; t += 50) {
    (*a)->update(t, camera);
    const auto& sources = (*a)->mixer().sources();
    if (sources.size() > before && sources.back().ref.name != "THEME.WAV")
      started.emplace_back(t, sources.back().ref.name);
    before = sources.size();
  }
  // The first positive tick (50 ms, day) plays the day entry; the next attempts come 10..19 s
  // apart, all after 5 s, so from the night pool.
  ASSERT_GE(started.size(), 3u);
  EXPECT_EQ(started[0], (std::pair<std::int64_t, std::string>(50, "VAR1.WAV")));
  for (std::size_t i = 1; i < started.size(); ++i) {
    EXPECT_GT(started[i].first, 5000);
    EXPECT_EQ(started[i].second, "atm_rain1.wav") << "at " << started[i].first;
    EXPECT_GE(started[i].first - started[i - 1].first, 10000);
    EXPECT_LE(started[i].first - started[i - 1].first, 19050);
  }
  EXPECT_EQ((*a)->problems(), 0u);
  EXPECT_TRUE(warnings.str().empty()) << warnings.str();
}
