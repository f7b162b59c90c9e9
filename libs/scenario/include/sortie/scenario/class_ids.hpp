#pragma once
// The object classes of the scenario area (world/class_registry.hpp). An assigned id never changes:
// it is in every ObjectId, so in command logs, network messages and state hashes. The table of
// all areas' ids is in docs/architecture.md ("Object classes").
#include <array>

#include "sortie/world/class_registry.hpp"

namespace sortie::scenario {

namespace class_ids {
inline constexpr world::ClassId kScenario = 42;      // a mission's scenario: objectives, outcome
inline constexpr world::ClassId kScenarioUnit = 43;  // an object a scenario part spawned (scenario.spawn)
}  // namespace class_ids

// Registered with a world before the area creates objects in it (World::classes()).
inline constexpr std::array kClasses{
    world::ClassInfo{class_ids::kScenario, "scenario", world::ClassRole::system, "scenario"},
    world::ClassInfo{class_ids::kScenarioUnit, "scenario_unit", world::ClassRole::unit, "scenario"},
};

}  // namespace sortie::scenario
