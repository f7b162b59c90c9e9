#include "sortie/world/class_ids.hpp"

#include <array>

namespace sortie::world {

namespace {

constexpr std::array kClassTable{
    ClassInfo{class_ids::kDemoUnit, "demo_unit"},   ClassInfo{class_ids::kTmaStatic, "tma_static"},
    ClassInfo{class_ids::kTmaUnit, "tma_unit"},     ClassInfo{class_ids::kFomapCritter, "fomap_critter"},
    ClassInfo{class_ids::kFomapItem, "fomap_item"}, ClassInfo{class_ids::kFomapStatic, "fomap_static"},
    ClassInfo{class_ids::kNetUnit, "net_unit"},     ClassInfo{class_ids::kMoveSystem, "move_system"},
    ClassInfo{class_ids::kScenario, "scenario"},    ClassInfo{class_ids::kScenarioUnit, "scenario_unit"},
    ClassInfo{class_ids::kSquadGame, "squad_game"},
};

constexpr bool ascending_unique() {
  for (std::size_t i = 1; i < kClassTable.size(); ++i) {
    if (!(kClassTable[i - 1].id < kClassTable[i].id)) return false;
  }
  return true;
}
static_assert(ascending_unique(), "class table must be sorted by id without duplicates");

}  // namespace

std::span<const ClassInfo> class_table() {
  return kClassTable;
}

std::optional<std::string_view> class_name(ClassId id) {
  for (const ClassInfo& c : kClassTable) {
    if (c.id == id) return c.name;
  }
  return std::nullopt;
}

std::optional<ClassId> class_by_name(std::string_view name) {
  for (const ClassInfo& c : kClassTable) {
    if (c.name == name) return c.id;
  }
  return std::nullopt;
}

}  // namespace sortie::world
