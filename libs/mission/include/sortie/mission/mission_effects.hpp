#pragma once
// The effects a mission needs, resolved at load (seed 000 step 7 "FXID dependencies";
// docs/effects.md): its weather schedule (MISSIONS/<m>/sky.weather, the mission_to_weather edge)
// and the FXID effects named by it (`effect lightning NAME`: weather_to_effect) and by the
// literals of its Lua script (`effect("name", ...)`: lua_script_to_effect), each with its bodies'
// materials (effect_to_material, material_to_texture). The visual store prepares them
// (assets::VisualStore::effects()); the loaded mission runs them (LoadedMission::effects).
#include <optional>
#include <string>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/prototype_resolver.hpp"
#include "sortie/env/weather_schedule.hpp"

namespace sortie::mission {

struct MissionWeather {
  std::string path;  // game path of the schedule ("MISSIONS/m02/sky.weather")
  env::WeatherSchedule schedule;
};

// Reads the mission's sky.weather (absent: no edge, nullopt; unreadable or invalid: a failed
// mission_to_weather edge, load.weather_invalid with the reader's weather.* code in the message,
// or under --compatible a warning and no weather), then resolves every effect the schedule and
// mission.lua name into `md` (graph edges, md.effects). A missing or bad FXID is a failed edge
// (load.effect_missing, load.effect_invalid) or, under --compatible, a warning.
std::optional<MissionWeather> resolve_mission_effects(const assets::Vfs& vfs, assets::PrototypeResolver& resolver,
                                                      assets::MissionData& md, core::Profile profile);

}  // namespace sortie::mission
