#pragma once
// The object classes of the squad area (world/class_registry.hpp). An assigned id never changes:
// it is in every ObjectId, so in command logs, network messages and state hashes. The table of
// all areas' ids is in docs/architecture.md ("Object classes").
#include <array>

#include "sortie/world/class_registry.hpp"

namespace sortie::squad {

namespace class_ids {
inline constexpr world::ClassId kSquadGame = 50;  // a squad-tactics game: its SquadSim (squad_world.hpp)
}  // namespace class_ids

// Registered with a world before the area creates objects in it (World::classes()).
inline constexpr std::array kClasses{
    world::ClassInfo{class_ids::kSquadGame, "squad_game", world::ClassRole::system, "squad"},
};

}  // namespace sortie::squad
