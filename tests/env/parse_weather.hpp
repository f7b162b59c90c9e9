#pragma once
// A weather schedule of the text form for tests: the parse is expected to succeed (a failure is
// reported by the test that asked and an empty schedule comes back).
#include <gtest/gtest.h>

#include <string_view>

#include "sortie/env/weather_schedule.hpp"

namespace sortie::env::test {

inline WeatherSchedule parse(std::string_view text, std::string_view file = "test.weather") {
  auto s = read_weather_text(core::as_bytes(text), file);
  EXPECT_TRUE(s) << s.error().to_string();
  return s ? *s : WeatherSchedule{};
}

}  // namespace sortie::env::test
