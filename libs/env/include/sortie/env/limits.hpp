#pragma once
// Every absolute limit of the env readers (issue #21 part 4): the weather schedule's text form
// (docs/weather-schedule.md, ours; the game's binary sky.ske/sky.wea are not read, and no spec sets
// these numbers). Waves and sound archives are read by iron3d (iron3d/limits.hpp). Exceeding a
// limit gives weather.limit (weather.value for a time); tests/env/limits_test.cpp feeds each limit
// and limit + 1. The effects' world state (effect_world.hpp) is bounded here too.
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

// ---- effects in the world (effect_world.hpp)
// An fx.start's effect name: 128 bytes ("archive/name" of two 31-byte references is at most 63);
// world.command.invalid beyond.
inline constexpr std::size_t kEffectNameMax = 128;
// An fx.start's lifetime: one hour in milliseconds (assets::kMaxEffectSeconds, the longest
// lifetime an effect prepares with); world.command.invalid beyond, and below 1 ms.
inline constexpr std::uint32_t kEffectLifetimeMaxMs = 3'600'000;
// Effects alive at once in one world: 1024 (a storm strikes every few seconds, a script's effects
// last seconds); an fx.start beyond is skipped (counted by the world, the state unchanged).
inline constexpr std::size_t kLiveEffectsMax = 1024;

}  // namespace sortie::env
