#pragma once
// The sample game's Lua mission scripts (sample_lua.cpp): one MISSIONS/<m>/mission.lua per
// mission, written in sortie's own script API (docs/mission-scripts.md, libs/scenario).
#include <cstdint>
#include <string>

namespace sortie::assets::detail {

// Mission i's script: objectives, a depot zone, timers, a spawn, a removal, win and lose. It
// reads everything it needs (units, clans, the map) through the API, so it fits every seed and
// scale; the depot's distance and the time limit differ per mission.
std::string sample_mission_lua(std::uint32_t mission_index);

}  // namespace sortie::assets::detail
