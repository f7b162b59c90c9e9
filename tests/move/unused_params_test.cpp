// Behavior.ini keys that sortie parses and keeps but no movement code reads
// (docs/behavior-ini.md): PathFind_BuildingHitDist and PathFind_NearDoorCoeff. Changing them
// must not change a single tick of a run; a key the stack does read (PathFind_fStepOffBuilding)
// changes the same run, so the scenario can tell. When one of them is wired, this test fails
// and the docs move the key to the "read by" table.
#include <gtest/gtest.h>

#include <vector>

#include "sortie/move/params.hpp"
#include "sortie_test/move_world.hpp"

using namespace sortie;
using namespace sortie::move_test;

namespace {

// A unit walking round a static body close to its line (the Wizard's detour), 400 ticks: the
// hash of every tick.
std::vector<std::uint64_t> run_past_a_body(const move::MoveParams& params) {
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f), params));
  const world::ObjectId u = t.unit(1, {6, 10});
  const world::ObjectId rock = t.unit(2, {24, 10.2f});
  t.enable(u);
  t.enable(rock, 2.0f, true);
  t.go(u, {44, 10});
  t.tick(400);
  return t.world->hash_history();
}

}  // namespace

TEST(UnusedBehaviorKeys, building_hit_dist_and_near_door_coeff_change_nothing) {
  const move::MoveParams defaults;
  const auto base = run_past_a_body(defaults);
  ASSERT_GE(base.size(), 400u);

  move::MoveParams odd = defaults;
  odd.building_hit_dist = 40.0f;  // would make every body within 40 units "hit"
  odd.near_door_coeff = 100.0f;
  EXPECT_EQ(run_past_a_body(odd), base);

  move::MoveParams used = defaults;
  used.step_off_building = 4.0f;  // read by the Wizard: the detour's clearance
  EXPECT_NE(run_past_a_body(used), base);
}

TEST(UnusedBehaviorKeys, are_still_parsed_range_checked_and_reported_as_from_file) {
  auto ini = iron3d::read_behavior_ini(
      core::as_bytes(std::string_view("PathFind_BuildingHitDist = 2.5\r\nPathFind_NearDoorCoeff = "
                                      "0.25\r\nNetwork_ResourceTransferMaxDelay = 1234\r\n")));
  ASSERT_TRUE(ini.has_value()) << ini.error().to_string();
  auto p = move::params_from_behavior_ini(*ini);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->building_hit_dist, 2.5f);
  EXPECT_EQ(p->near_door_coeff, 0.25f);
  // Kept in MoveParams only: the network layer has its own limit (ServerConfig/ClientConfig
  // resource_max_delay_us, 10 s; `sortie serve --resource-max-delay`).
  EXPECT_EQ(p->resource_transfer_max_delay, 1234);
  EXPECT_EQ(p->from_file, (std::vector<std::string>{"PathFind_BuildingHitDist", "PathFind_NearDoorCoeff",
                                                    "Network_ResourceTransferMaxDelay"}));
}
