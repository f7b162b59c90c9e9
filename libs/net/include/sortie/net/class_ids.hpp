#pragma once
// The object classes of the net area (world/class_registry.hpp). An assigned id never changes:
// it is in every ObjectId, so in command logs, network messages and state hashes. The table of
// all areas' ids is in docs/architecture.md ("Object classes").
#include <array>

#include "sortie/world/class_registry.hpp"

namespace sortie::net {

namespace class_ids {
inline constexpr world::ClassId kNetUnit = 40;  // unit created for a networked player (net.spawn_for)
}  // namespace class_ids

// Registered with a world before the area creates objects in it (World::classes()).
inline constexpr std::array kClasses{
    world::ClassInfo{class_ids::kNetUnit, "net_unit", world::ClassRole::unit, "net"},
};

}  // namespace sortie::net
