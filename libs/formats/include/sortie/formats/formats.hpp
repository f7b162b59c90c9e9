#pragma once
// The format table: every file family sortie reads, one row each, for `sortie inspect`,
// `check`, `roundtrip` and `formats`. The rows are FormatInfo adapters (the contract and its
// template are in sortie/iron3d/format.hpp, where 19 of the rows are defined); this area adds
// the rows of the families that are not Iron3D formats, so no reader area links another
// family's reader just to be listed:
//   fomap            FOnline map containers (libs/fomap)
//   weather          the weather schedule text (libs/env, docs/weather-schedule.md)
//   sample_manifest  the `sortie-sample.json` manifest `sortie sample` writes beside the game
//   mission_script   sortie's own Lua mission scripts (MISSIONS/<m>/mission.lua; checked as text)
#include <span>
#include <string_view>

#include "sortie/iron3d/format.hpp"

namespace sortie::formats {

using iron3d::CheckReport;
using iron3d::FormatInfo;
using iron3d::kDetectContainer;
using iron3d::kDetectContent;
using iron3d::kDetectName;
using iron3d::kDetectNone;
using iron3d::ReadOptions;

// `.fomap` maps: inspect and the lint gate; no roundtrip (a map's text is its own model).
FormatInfo fomap_format_info();
// MISSIONS/<m>/sky.weather: the schedule's model, written back byte for byte.
FormatInfo weather_format_info();
// sortie-sample.json: the sample generator's manifest (canonical JSON).
FormatInfo sample_manifest_format_info();
// MISSIONS/<m>/mission.lua: source text kept byte for byte (compiling it is the loader's).
FormatInfo mission_script_format_info();

// Every row: the Iron3D formats in their table order, then fomap, weather, sample_manifest,
// mission_script.
std::span<const FormatInfo> all_formats();
const FormatInfo* find_format(std::string_view name);
// Best match by content, then file name; nullptr when nothing matches.
const FormatInfo* detect_format(core::ByteView data, std::string_view file_name);

}  // namespace sortie::formats
