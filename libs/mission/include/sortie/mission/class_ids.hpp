#pragma once
// The object classes of the mission area (world/class_registry.hpp). An assigned id never changes:
// it is in every ObjectId, so in command logs, network messages and state hashes. The table of
// all areas' ids is in docs/architecture.md ("Object classes").
#include <array>

#include "sortie/world/class_registry.hpp"

namespace sortie::mission {

namespace class_ids {
inline constexpr world::ClassId kTmaStatic = 10;     // placed data.tma object with a direct prototype key
inline constexpr world::ClassId kTmaUnit = 20;       // placed data.tma unit (unit DAT with components)
inline constexpr world::ClassId kFomapCritter = 30;  // materialized FOnline critter (fomap_instance.hpp)
inline constexpr world::ClassId kFomapItem = 31;     // FOnline dynamic map item or attached child
inline constexpr world::ClassId kFomapStatic = 32;   // reserved: FOnline static grid items (never created)
}  // namespace class_ids

// Registered with a world before the area creates objects in it (World::classes()).
inline constexpr std::array kClasses{
    world::ClassInfo{class_ids::kTmaStatic, "tma_static", world::ClassRole::thing, "mission"},
    world::ClassInfo{class_ids::kTmaUnit, "tma_unit", world::ClassRole::unit, "mission"},
    world::ClassInfo{class_ids::kFomapCritter, "fomap_critter", world::ClassRole::thing, "mission"},
    world::ClassInfo{class_ids::kFomapItem, "fomap_item", world::ClassRole::thing, "mission"},
    world::ClassInfo{class_ids::kFomapStatic, "fomap_static", world::ClassRole::thing, "mission"},
};

}  // namespace sortie::mission
