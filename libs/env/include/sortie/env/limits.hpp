#pragma once
// Every absolute limit of the env readers (issue #21 part 4): the weather schedule's text form
// (docs/weather-schedule.md, ours; the game's binary sky.ske/sky.wea are not read, and no spec sets
// these numbers). Waves and sound archives are read by iron3d (iron3d/limits.hpp). Exceeding a
// limit gives weather.limit (weather.value for a time); tests/env/limits_test.cpp feeds each limit
// and limit + 1.
#include <cstddef>
#include <cstdint>

namespace sortie::env {

// A weather schedule: 16 MiB, thousands of times a hand-written or converted schedule (a few KiB);
// checked by read_weather_text and used as the read limit of its callers.
inline constexpr std::uint64_t kWeatherFileMax = std::uint64_t{16} * 1024 * 1024;
// One line, comment included: 4096 bytes (a directive is a handful of short tokens); checked
// before the line is split into tokens.
inline constexpr std::size_t kWeatherLineMax = 4096;
// Precipitation keys: 65536 (a key a minute for 45 days); checked before a key is added.
inline constexpr std::size_t kWeatherKeysMax = 65536;
// Sky objects: 1024 (a day/night cycle uses two); their names are compared pairwise, so the count
// also bounds that work.
inline constexpr std::size_t kSkyObjectsMax = 1024;
// A time in seconds (key, sky from/until): 1e9 s (31 years) keeps milliseconds exact in a double
// and far inside int64; weather.value.
inline constexpr double kWeatherSecondsMax = 1e9;

}  // namespace sortie::env
