#include "sortie/world/class_registry.hpp"

#include <gtest/gtest.h>

#include "sortie/world/world.hpp"

using namespace sortie::world;

namespace {

constexpr ClassInfo kCrate{7, "crate", ClassRole::thing, "test"};
constexpr ClassInfo kWalker{3, "walker", ClassRole::unit, "test"};

}  // namespace

TEST(ClassRegistryTest, rows_are_kept_in_id_order_and_found_both_ways) {
  ClassRegistry r;
  ASSERT_TRUE(r.add(kCrate));
  ASSERT_TRUE(r.add(kWalker));
  ASSERT_EQ(r.rows().size(), 2u);
  EXPECT_EQ(r.rows()[0].id, 3);
  EXPECT_EQ(r.rows()[1].id, 7);
  ASSERT_NE(r.find(ClassId{7}), nullptr);
  EXPECT_EQ(r.find(ClassId{7})->name, "crate");
  ASSERT_NE(r.find("walker"), nullptr);
  EXPECT_EQ(r.find("walker")->id, 3);
  EXPECT_EQ(r.find(ClassId{4}), nullptr);
  EXPECT_EQ(r.find("tank"), nullptr);
  EXPECT_TRUE(r.is_unit(3));
  EXPECT_FALSE(r.is_unit(7));
  EXPECT_FALSE(r.is_unit(4));
}

TEST(ClassRegistryTest, the_same_row_twice_is_accepted_a_conflict_is_refused) {
  ClassRegistry r;
  ASSERT_TRUE(r.add(kCrate));
  EXPECT_TRUE(r.add(kCrate));  // an area registers on every install
  EXPECT_EQ(r.rows().size(), 1u);

  auto id_taken = r.add(ClassInfo{7, "barrel", ClassRole::thing, "other"});
  ASSERT_FALSE(id_taken);
  EXPECT_EQ(id_taken.error().code, "world.class.id_taken");
  auto role_differs = r.add(ClassInfo{7, "crate", ClassRole::unit, "test"});
  ASSERT_FALSE(role_differs);
  EXPECT_EQ(role_differs.error().code, "world.class.id_taken");
  auto name_taken = r.add(ClassInfo{8, "crate", ClassRole::thing, "other"});
  ASSERT_FALSE(name_taken);
  EXPECT_EQ(name_taken.error().code, "world.class.name_taken");
  auto zero = r.add(ClassInfo{0, "nothing", ClassRole::thing, "other"});
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code, "world.class.id_zero");
  EXPECT_EQ(r.rows().size(), 1u);  // nothing of a refused row stays
}

TEST(ClassRegistryTest, a_world_keeps_the_rows_its_areas_registered) {
  World w;
  EXPECT_TRUE(w.classes().rows().empty());  // the world pins no class of its own
  ASSERT_TRUE(w.classes().add(kWalker));
  auto h = w.create_local_object(kWalker.id, "walker");
  ASSERT_TRUE(h);
  EXPECT_TRUE(w.classes().is_unit(w.find(*h)->class_id()));
  EXPECT_FALSE(w.classes().add(ClassInfo{3, "tank", ClassRole::unit, "other"}));
}
