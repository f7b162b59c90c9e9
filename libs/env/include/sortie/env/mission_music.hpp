#pragma once
// The ambient music of a mission from its mission.cfg (seed 001 "Ambient variations и переход
// день/ночь"; spec §21.5, §24). sortie's reading (docs/mission-cfg.md), the schema being unknown:
//
//   - The loop block is the first object whose name or `desc` is `ambient_music_loop`
//     (case-insensitive). Its `THEME` field names the theme entry; its `library` field the loop
//     library (absent: the mission's default library, an empty SoundRef archive).
//   - The variation block is the first object whose name or `desc` is `ambient_music_variation`.
//     `DEFAULT_VARIATION<n>`, `DAY_VARIATION<n>`, `NIGHT_VARIATION<n>` fill the three pools,
//     n = 1, 2, 3 ... in order; the first missing (or empty) number ends a pool, and keys past it
//     are ignored with a warning. `LIBRARY` (any case) is the variation library; absent, the
//     loop's library (seed: "если поле отсутствует, используется библиотека loop").
//   - A repeated key counts once (the first, as in MissionCfgObject::find).
// Values are taken without one pair of surrounding double quotes.
#include <optional>
#include <string_view>

#include "sortie/assets/mission_data.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/env/ambient_music.hpp"
#include "sortie/iron3d/mission_cfg.hpp"

namespace sortie::env {

inline constexpr std::string_view kAmbientMusicLoopBlock = "ambient_music_loop";
inline constexpr std::string_view kAmbientMusicVariationBlock = "ambient_music_variation";

struct MissionAmbientMusic {
  AmbientMusicConfig config;    // theme, pools and variation library (generator states: defaults)
  bool has_loop = false;        // a loop block was found
  bool has_variations = false;  // a variation block was found
  // Warnings (the config is usable regardless), each with the file, the line's byte offset and
  // the field path "objects[i].lines[j]":
  //   ambient_music.loop_duplicate       a second loop block (ignored; the first counts)
  //   ambient_music.variation_duplicate  a second variation block (ignored)
  //   ambient_music.theme_missing        a loop block without THEME (or with an empty one)
  //   ambient_music.loop_missing         a variation block but no loop block
  //   ambient_music.variation_gap        pool keys past a missing or empty number (ignored)
  //   ambient_music.variation_key        a pool key whose number is not 1, 2, 3 ... (e.g. 0,
  //                                      07, DAY_VARIATIONX; ignored)
  //   ambient_music.variation_repeated   a pool number given twice (the first counts)
  core::Diagnostics warnings;
};

// `file` names the mission.cfg in the warnings.
MissionAmbientMusic ambient_music_from_mission_cfg(const iron3d::MissionConfig& config,
                                                   std::string_view file = "mission.cfg");

// The music of a prepared mission (assets::prepare_mission, mission::MissionSession): nullopt
// when the mission has no decoded mission.cfg (none in its directory, or a failed edge).
std::optional<MissionAmbientMusic> ambient_music_from_mission(const assets::MissionData& mission);

}  // namespace sortie::env
