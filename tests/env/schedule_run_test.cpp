// env::run_schedule (`sortie env run`): the happenings of a schedule in frame order, as JSON and
// as the text event list.
#include "sortie/env/schedule_run.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "parse_weather.hpp"

namespace sortie::env::test {
namespace {

constexpr std::string_view kStorm =
    "sortie-weather 1\nmaterial rain rain_drop\nsample rain atm_rain1.wav\nmaterial lightning bolt\n"
    "sample lightning sounds.lib/thunder.wav\nlightning_bounds 0 0 10 10 5\n"
    "key 0 rain 0.5 lightning\nkey 1 rain 1 lightning\nsky day 0.9 0.9 0.85 until 20\n";

ScheduleRunOptions options(double seconds, std::int64_t step_ms = 50) {
  ScheduleRunOptions o;
  o.seconds = seconds;
  o.step_ms = step_ms;
  o.seed = 4;
  o.camera = CameraFrame::look({0, 0, 0}, {1, 0, 0});
  return o;
}

TEST(ScheduleRun, lists_the_happenings_in_frame_order) {
  const auto run = run_schedule(parse(kStorm), "storm.weather", options(30));
  EXPECT_EQ(run.frames, 601u);  // 0, 50, ..., 30000 ms
  ASSERT_FALSE(run.happenings.empty());
  // The sky object is active from 0 and ends at 20 s.
  const auto* first = std::get_if<SkyChange>(&run.happenings.front());
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->time_ms, 0);
  ASSERT_TRUE(first->sky);
  EXPECT_EQ(first->sky->name, "day");
  std::int64_t last_time = 0;
  std::size_t strikes = 0, attempts = 0, sounds = 0, skies = 0;
  for (const auto& h : run.happenings) {
    const std::int64_t t = std::visit([](const auto& v) { return v.time_ms; }, h);
    if (std::holds_alternative<SkyChange>(h)) {
      ++skies;
      EXPECT_GE(t, last_time);  // a frame's time; attempts and strikes may carry earlier moments
      last_time = t;
    }
    strikes += std::holds_alternative<LightningStrike>(h);
    attempts += std::holds_alternative<LightningAttempt>(h);
    sounds += std::holds_alternative<SoundEvent>(h);
  }
  EXPECT_EQ(skies, 2u);  // day, then none at 20 s
  const auto* none =
      std::get_if<SkyChange>(&*std::find_if(run.happenings.rbegin(), run.happenings.rend(),
                                            [](const auto& h) { return std::holds_alternative<SkyChange>(h); }));
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->time_ms, 20000);
  EXPECT_FALSE(none->sky);
  EXPECT_GT(attempts, 0u);
  EXPECT_GT(sounds, 0u);  // at least the rain loop starting

  const auto j = run.to_json();
  EXPECT_EQ(j.at("schedule"), "storm.weather");
  EXPECT_EQ(j.at("seed"), 4);
  EXPECT_EQ(j.at("step_ms"), 50);
  EXPECT_EQ(j.at("events").size(), sounds);
  EXPECT_EQ(j.at("lightning_strikes").size(), strikes);
  EXPECT_EQ(j.at("lightning_attempts").size(), attempts);
  EXPECT_EQ(j.at("sky_changes").size(), 2u);
  EXPECT_EQ(j.at("sky_changes")[1].at("name"), nullptr);
  EXPECT_EQ(j.at("summary").at("frames"), 601);

  // No game here: the strikes run sortie's stand-in lightning, which the text says first.
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0].code, "weather.lightning_builtin");
  EXPECT_EQ(j.at("lightning_effect"), "built-in/lightning");
  EXPECT_EQ(j.at("effects").size(), strikes);
  const std::string text = run.to_text();
  EXPECT_EQ(text.rfind("warning: storm.weather: the schedule names no lightning effect", 0), 0u) << text;
  EXPECT_NE(text.find("\n     0.000 s  Sky           name=day rgb=(0.9, 0.9, 0.85) length="), std::string::npos)
      << text;
  EXPECT_NE(text.find("    20.000 s  Sky           none pool="), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("601 frames of 50 ms, {} sound events, {} lightning strikes, up to {} particles\n",
                                  sounds, strikes, run.max_particles)),
            std::string::npos)
      << text;
}

TEST(ScheduleRun, same_seed_same_run_and_the_step_sets_the_frames) {
  const auto a = run_schedule(parse(kStorm), "s", options(10));
  const auto b = run_schedule(parse(kStorm), "s", options(10));
  EXPECT_EQ(a.to_json(), b.to_json());
  EXPECT_EQ(run_schedule(parse(kStorm), "s", options(10, 1000)).frames, 11u);
}

TEST(ScheduleRun, reads_the_schedule_file_and_reports_its_errors) {
  const auto dir = std::filesystem::temp_directory_path() / ("sortie-schedule-run-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "storm.weather") << kStorm;
  std::ofstream(dir / "bad.weather") << "sortie-weather 9\n";
  auto run = run_schedule_file(dir / "storm.weather", options(2));
  ASSERT_TRUE(run.has_value()) << run.error().to_string();
  EXPECT_EQ(run->schedule, (dir / "storm.weather").string());
  EXPECT_EQ(run->to_json(), run_schedule(parse(kStorm), (dir / "storm.weather").string(), options(2)).to_json());
  auto bad = run_schedule_file(dir / "bad.weather", options(2));
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code.rfind("weather.", 0), 0u) << bad.error().code;
  auto absent = run_schedule_file(dir / "absent.weather", options(2));
  ASSERT_FALSE(absent.has_value());
  EXPECT_EQ(absent.error().code.rfind("io.", 0), 0u) << absent.error().code;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sortie::env::test
