// Every limit of env/limits.hpp, fed at the limit (accepted) and one above (refused with
// weather.limit, or weather.value for a time).
#include "sortie/env/limits.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "sortie/env/effect_world.hpp"
#include "sortie/env/weather_schedule.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/world.hpp"

namespace sortie::env {
namespace {

core::Result<WeatherSchedule> read(const std::string& text) {
  return read_weather_text(core::as_bytes(text), "t.weather");
}

void expect_code(const std::string& text, std::string_view code) {
  const auto s = read(text);
  ASSERT_FALSE(s.has_value()) << "accepted, expected " << code;
  EXPECT_EQ(s.error().code, code) << s.error().to_string();
}

constexpr std::string_view kHead = "sortie-weather 1\n";

}  // namespace

TEST(EnvLimits, weather_file_size) {
  // The header, then comment lines of 4000 bytes, the last one cut to reach the size.
  auto padded = [](std::size_t size) {
    std::string text(kHead);
    while (text.size() < size) {
      const std::size_t line = std::min<std::size_t>(4000, size - text.size());
      text += '#';
      text += std::string(line - 1, 'c');
      text.back() = '\n';
    }
    return text;
  };
  const std::string at = padded(kWeatherFileMax);
  ASSERT_EQ(at.size(), kWeatherFileMax);
  const auto s = read(at);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  expect_code(padded(kWeatherFileMax + 1), "weather.limit");
}

TEST(EnvLimits, weather_line) {
  auto with_line = [](std::size_t bytes) {
    std::string line = "key 1 none 0 #";
    line += std::string(bytes - line.size(), 'c');
    return std::string(kHead) + line + "\n";
  };
  const auto s = read(with_line(kWeatherLineMax));
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->keys.size(), 1u);
  expect_code(with_line(kWeatherLineMax + 1), "weather.limit");
  // The last line, without its newline, is measured too.
  std::string last = std::string(kHead) + "#" + std::string(kWeatherLineMax, 'c');
  expect_code(last, "weather.limit");
}

TEST(EnvLimits, weather_keys) {
  auto keys = [](std::size_t n) {
    std::string text(kHead);
    for (std::size_t i = 0; i < n; ++i) text += "key " + std::to_string(i) + " none 0\n";
    return text;
  };
  const auto s = read(keys(kWeatherKeysMax));
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->keys.size(), kWeatherKeysMax);
  expect_code(keys(kWeatherKeysMax + 1), "weather.limit");
}

TEST(EnvLimits, sky_objects) {
  auto skies = [](std::size_t n) {
    std::string text(kHead);
    for (std::size_t i = 0; i < n; ++i) text += "sky s" + std::to_string(i) + " 1 1 1\n";
    return text;
  };
  const auto s = read(skies(kSkyObjectsMax));
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->sky.size(), kSkyObjectsMax);
  expect_code(skies(kSkyObjectsMax + 1), "weather.limit");
}

TEST(EnvLimits, weather_seconds) {
  const auto s = read(std::string(kHead) + "key 1000000000 none 0\nsky a 1 1 1 from 0 until 1000000000\n");
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->keys.at(0).time_ms, 1'000'000'000'000);
  EXPECT_EQ(s->sky.at(0).until_ms, 1'000'000'000'000);
  static_assert(kWeatherSecondsMax == 1e9);
  expect_code(std::string(kHead) + "key 1000000000.001 none 0\n", "weather.value");
  expect_code(std::string(kHead) + "sky a 1 1 1 until 1000000000.001\n", "weather.value");
}

namespace {

world::World effect_world() {
  world::CommandRegistry r = world::CommandRegistry::standard();
  EXPECT_TRUE(register_effect_commands(r).has_value());
  world::WorldConfig c;
  c.commands = std::make_shared<const world::CommandRegistry>(std::move(r));
  return world::World(c);
}

core::Status submit_start(world::World& w, std::string name, std::uint32_t lifetime_ms) {
  StartEffectCommand c;
  c.name = std::move(name);
  c.lifetime_ms = lifetime_ms;
  return w.submit(world::make_command(w.clock().tick, c));
}

}  // namespace

TEST(EnvLimits, effect_name_and_lifetime_of_an_fx_start) {
  world::World w = effect_world();
  EXPECT_TRUE(submit_start(w, std::string(kEffectNameMax, 'x'), 1).has_value());
  auto long_name = submit_start(w, std::string(kEffectNameMax + 1, 'x'), 1);
  ASSERT_FALSE(long_name.has_value());
  EXPECT_EQ(long_name.error().code.rfind("world.command.payload", 0), 0u) << long_name.error().to_string();
  EXPECT_TRUE(submit_start(w, "a", kEffectLifetimeMaxMs).has_value());
  auto long_life = submit_start(w, "a", kEffectLifetimeMaxMs + 1);
  ASSERT_FALSE(long_life.has_value());
  EXPECT_EQ(long_life.error().code, "world.command.invalid");
}

TEST(EnvLimits, live_effects_of_one_world) {
  world::World w = effect_world();
  for (std::size_t i = 0; i < kLiveEffectsMax; ++i) ASSERT_TRUE(submit_start(w, "a", 60'000).has_value());
  ASSERT_TRUE(w.tick());
  ASSERT_NE(find_effects_state(w), nullptr);
  EXPECT_EQ(find_effects_state(w)->live.size(), kLiveEffectsMax);
  EXPECT_EQ(w.commands_skipped(), 0u);
  ASSERT_TRUE(submit_start(w, "a", 60'000).has_value());  // valid, but no room: skipped when applied
  ASSERT_TRUE(w.tick());
  EXPECT_EQ(find_effects_state(w)->live.size(), kLiveEffectsMax);
  EXPECT_EQ(w.commands_skipped(), 1u);
}

}  // namespace sortie::env
