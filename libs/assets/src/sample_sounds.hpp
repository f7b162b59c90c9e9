#pragma once
// The sample game's sound content (sample_sounds.cpp): sounds.lib and music.lib (NRes, entries
// of type SWAV, 22,050 Hz mono RIFF/WAVE, MS ADPCM or PCM like retail) with synthesised music,
// weather loops and thunder, and per mission a mission.cfg naming the music and a sky.weather
// schedule (docs/weather-schedule.md).
#include <cstdint>
#include <string>

#include "sortie/assets/game_builder.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"

namespace sortie::assets::detail {

// Mission i's sky: clear (DEFAULT music pool), rain with lightning (DAY/NIGHT pools), snow
// (DEFAULT pool from music.lib), in turn.
enum class SampleSky : std::uint8_t { clear, rain, snow };
SampleSky sample_sky(std::uint32_t mission_index);

// Synthesises and encodes every sound once and adds sounds.lib and music.lib to `game`. The
// sounds do not depend on the sample's seed.
core::Status add_sample_sound_libraries(GameBuilder& game);

std::string sample_mission_cfg(SampleSky sky);
// `min`/`max`: the map's ground rectangle (lightning strikes), `ground_z` its lowest height.
std::string sample_sky_weather(SampleSky sky, core::Vec2 min, core::Vec2 max, float ground_z);

}  // namespace sortie::assets::detail
