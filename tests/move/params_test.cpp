// Behavior.ini -> the movement parameters: present keys replace sortie's defaults, absent keys
// keep them, out-of-range values are diagnostics naming the key.
#include "sortie/move/params.hpp"

#include <gtest/gtest.h>

using namespace sortie;
using namespace sortie::move;

namespace {

iron3d::BehaviorIni ini(const std::vector<std::pair<std::string, std::string>>& values) {
  auto r = iron3d::build_behavior_ini(values);
  EXPECT_TRUE(r) << (r ? "" : r.error().to_string());
  return *r;
}

}  // namespace

TEST(MoveParams, present_keys_replace_defaults) {
  auto p = params_from_behavior_ini(ini({{"PathFind_MaxAccel", "12.5"},
                                         {"PathFind_MaxRotation", "3"},
                                         {"PathFind_CorridorRadius", "6"},
                                         {"PathFind_NearBuildSpeedPercent", "40"},
                                         {"PathFind_MinPointInTrajectory", "5"},
                                         {"Network_ResourceTransferMaxDelay", "15000"},
                                         {"UseWizard", "0"},
                                         {"LogFile", "b.log"}}));
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(p->max_accel, 12.5f);
  EXPECT_EQ(p->max_rotation, 3.0f);
  EXPECT_EQ(p->corridor_radius, 6.0f);
  EXPECT_EQ(p->near_build_speed_percent, 40.0f);
  EXPECT_EQ(p->min_point_in_trajectory, 5);
  EXPECT_EQ(p->resource_transfer_max_delay, 15000);
  EXPECT_FALSE(p->use_wizard);
  const MoveParams d;
  EXPECT_EQ(p->step_dist, d.step_dist);  // absent: the default
  EXPECT_EQ(p->from_file,
            (std::vector<std::string>{"PathFind_NearBuildSpeedPercent", "PathFind_CorridorRadius", "PathFind_MaxAccel",
                                      "PathFind_MaxRotation", "PathFind_MinPointInTrajectory",
                                      "Network_ResourceTransferMaxDelay", "UseWizard"}));
}

TEST(MoveParams, rejects_out_of_range_values_naming_the_key) {
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"PathFind_MaxAccel", "0"},
                                                        {"PathFind_MaxRotation", "-1"},
                                                        {"PathFind_NearBuildSpeedPercent", "150"},
                                                        {"PathFind_BuildingHitDist", "-0.5"},
                                                        {"PathFind_fStepDist", "0"},
                                                        {"PathFind_MinPointInTrajectory", "0"},
                                                        {"Network_ResourceTransferMaxDelay", "-1"}}) {
    auto p = params_from_behavior_ini(ini({{key, value}}));
    ASSERT_FALSE(p) << key;
    EXPECT_EQ(p.error().code, "move.params.range");
    EXPECT_EQ(p.error().field, key);
  }
}
