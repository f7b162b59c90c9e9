#include "sortie/world/class_ids.hpp"

#include <gtest/gtest.h>

using namespace sortie::world;

TEST(ClassIdsTest, assigned_ids_never_change) {
  EXPECT_EQ(class_ids::kDemoUnit, 1);
  EXPECT_EQ(class_ids::kTmaStatic, 10);
  EXPECT_EQ(class_ids::kTmaUnit, 20);
  EXPECT_EQ(class_ids::kFomapCritter, 30);
  EXPECT_EQ(class_ids::kFomapItem, 31);
  EXPECT_EQ(class_ids::kFomapStatic, 32);
  EXPECT_EQ(class_ids::kNetUnit, 40);
  EXPECT_EQ(class_ids::kMoveSystem, 41);
  EXPECT_EQ(class_ids::kScenario, 42);
  EXPECT_EQ(class_ids::kScenarioUnit, 43);
  EXPECT_EQ(class_ids::kSquadGame, 50);
  EXPECT_EQ(class_table().size(), 11u);
}

TEST(ClassIdsTest, names_and_ids_map_both_ways) {
  for (const ClassInfo& c : class_table()) {
    EXPECT_EQ(class_name(c.id), c.name);
    EXPECT_EQ(class_by_name(c.name), c.id);
  }
  EXPECT_EQ(class_name(class_ids::kTmaUnit), "tma_unit");
  EXPECT_EQ(class_by_name("fomap_critter"), class_ids::kFomapCritter);
  EXPECT_FALSE(class_name(2).has_value());
  EXPECT_FALSE(class_by_name("tank").has_value());
}
