#pragma once
// The object classes of the move area (world/class_registry.hpp). An assigned id never changes:
// it is in every ObjectId, so in command logs, network messages and state hashes. The table of
// all areas' ids is in docs/architecture.md ("Object classes").
#include <array>

#include "sortie/world/class_registry.hpp"

namespace sortie::move {

namespace class_ids {
inline constexpr world::ClassId kDemoUnit = 1;     // synthetic unit of the demo world (demo_world.hpp)
inline constexpr world::ClassId kMoveSystem = 41;  // the movement system / collision manager (move_system.hpp)
}  // namespace class_ids

// Registered with a world before the area creates objects in it (World::classes()).
inline constexpr std::array kClasses{
    world::ClassInfo{class_ids::kDemoUnit, "demo_unit", world::ClassRole::unit, "move"},
    world::ClassInfo{class_ids::kMoveSystem, "move_system", world::ClassRole::system, "move"},
};

}  // namespace sortie::move
