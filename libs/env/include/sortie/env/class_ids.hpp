#pragma once
// The object classes of the env area (world/class_registry.hpp). An assigned id never changes:
// it is in every ObjectId, so in command logs, network messages and state hashes. The table of
// all areas' ids is in docs/architecture.md ("Object classes").
#include <array>

#include "sortie/world/class_registry.hpp"

namespace sortie::env {

namespace class_ids {
inline constexpr world::ClassId kEffects = 44;  // a world's live effects (fx.start; effect_world.hpp)
}  // namespace class_ids

// Registered with a world before the area creates objects in it (World::classes()).
inline constexpr std::array kClasses{
    world::ClassInfo{class_ids::kEffects, "effects", world::ClassRole::system, "env"},
};

}  // namespace sortie::env
