#pragma once
// The one table of object class ids (ObjectId::class_id). A class id says what kind of thing an
// object is and which per-class index counter it draws from; it is part of every ObjectId, so
// of command logs, network messages and the state hash: an assigned value never changes.
// A new area adds its row here (and to kClassTable in class_ids.cpp).
#include <optional>
#include <span>
#include <string_view>

#include "sortie/world/ids.hpp"

namespace sortie::world {

namespace class_ids {
inline constexpr ClassId kDemoUnit = 1;       // synthetic unit of the demo world (libs/move demo_world.hpp)
inline constexpr ClassId kTmaStatic = 10;     // placed data.tma object with a direct prototype key
inline constexpr ClassId kTmaUnit = 20;       // placed data.tma unit (unit DAT with components)
inline constexpr ClassId kFomapCritter = 30;  // materialized FOnline critter
inline constexpr ClassId kFomapItem = 31;     // FOnline dynamic map item or attached child
inline constexpr ClassId kFomapStatic = 32;   // reserved: FOnline static grid items (never created)
inline constexpr ClassId kNetUnit = 40;       // unit created for a networked player (libs/net net.spawn_for)
inline constexpr ClassId kMoveSystem = 41;    // the movement system / collision manager (libs/move)
inline constexpr ClassId kScenario = 42;      // a mission's scenario: objectives, outcome (libs/scenario)
inline constexpr ClassId kScenarioUnit = 43;  // an object a scenario part spawned (libs/scenario scenario.spawn)
inline constexpr ClassId kSquadGame = 50;     // a squad-tactics game: its SquadSim (libs/squad squad_world.hpp)
}  // namespace class_ids

struct ClassInfo {
  ClassId id = 0;
  std::string_view name;  // stable snake_case name ("tma_unit")
};

// Every assigned class, ascending id.
std::span<const ClassInfo> class_table();
// Name of an assigned class; nullopt for an unassigned id.
std::optional<std::string_view> class_name(ClassId id);
// Inverse of class_name.
std::optional<ClassId> class_by_name(std::string_view name);

}  // namespace sortie::world
