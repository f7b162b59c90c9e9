// Every area's object classes fit in one registry: no two areas claim an id or a name, and an
// assigned id never changes (it is in every ObjectId, command log, network message and state hash).
// docs/architecture.md ("Object classes") shows the same table.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sortie/env/class_ids.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/move/class_ids.hpp"
#include "sortie/net/class_ids.hpp"
#include "sortie/net/net_commands.hpp"
#include "sortie/scenario/class_ids.hpp"
#include "sortie/squad/class_ids.hpp"

using namespace sortie;

TEST(ClassTableTest, every_areas_rows_fit_together_and_ids_never_change) {
  world::ClassRegistry all;
  ASSERT_TRUE(all.add(move::kClasses));
  ASSERT_TRUE(all.add(mission::kClasses));
  ASSERT_TRUE(all.add(net::kClasses));
  ASSERT_TRUE(all.add(scenario::kClasses));
  ASSERT_TRUE(all.add(squad::kClasses));
  ASSERT_TRUE(all.add(env::kClasses));
  std::vector<std::string> table;
  for (const world::ClassInfo& c : all.rows()) table.push_back(std::to_string(c.id) + " " + std::string(c.name));
  const std::vector<std::string> assigned{"1 demo_unit",   "10 tma_static",    "20 tma_unit", "30 fomap_critter",
                                          "31 fomap_item", "32 fomap_static",  "40 net_unit", "41 move_system",
                                          "42 scenario",   "43 scenario_unit", "44 effects",  "50 squad_game"};
  EXPECT_EQ(table, assigned);
  // Every row names the area that declares it.
  for (const world::ClassInfo& c : move::kClasses) EXPECT_EQ(c.area, "move");
  for (const world::ClassInfo& c : mission::kClasses) EXPECT_EQ(c.area, "mission");
  for (const world::ClassInfo& c : squad::kClasses) EXPECT_EQ(c.area, "squad");
  for (const world::ClassInfo& c : env::kClasses) EXPECT_EQ(c.area, "env");
}

TEST(ClassTableTest, units_are_the_classes_that_take_movement_orders) {
  world::ClassRegistry all;
  ASSERT_TRUE(net::register_session_classes(all));
  std::vector<world::ClassId> units;
  for (const world::ClassInfo& c : all.rows()) {
    if (all.is_unit(c.id)) units.push_back(c.id);
  }
  EXPECT_EQ(units, (std::vector<world::ClassId>{move::class_ids::kDemoUnit, mission::class_ids::kTmaUnit,
                                                net::class_ids::kNetUnit, scenario::class_ids::kScenarioUnit}));
  // A session holds no squad game.
  EXPECT_EQ(all.find(squad::class_ids::kSquadGame), nullptr);
}
