#include "sortie/move/params.hpp"

#include <fmt/format.h>

#include <cmath>

namespace sortie::move {

core::Result<MoveParams> params_from_behavior_ini(const iron3d::BehaviorIni& ini) {
  MoveParams p;
  auto range_error = [](std::string_view key, double value, std::string_view range) {
    return core::fail(core::Diagnostic::error("move.params.range", fmt::format("{} is out of range", key))
                          .of("Behavior.ini")
                          .in(std::string(key))
                          .expect(std::string(range), fmt::format("{}", value)));
  };
  struct FloatKey {
    std::string_view key;
    float* value;
    double lo;
    double hi;
    bool lo_open;  // value must be > lo (else >= lo)
  };
  const FloatKey floats[] = {
      {"PathFind_BuildingHitDist", &p.building_hit_dist, 0.0, 1e6, false},
      {"PathFind_BuildingNearestDist", &p.building_nearest_dist, 0.0, 1e6, false},
      {"PathFind_NearBuildSpeedPercent", &p.near_build_speed_percent, 0.0, 100.0, false},
      {"PathFind_CorridorRadius", &p.corridor_radius, 0.0, 1e6, false},
      {"PathFind_NearDoorCoeff", &p.near_door_coeff, 0.0, 1e6, false},
      {"PathFind_fStepOffBuilding", &p.step_off_building, 0.0, 1e6, false},
      {"PathFind_MaxAccel", &p.max_accel, 0.0, 1e6, true},
      {"PathFind_MaxRotation", &p.max_rotation, 0.0, 1e6, true},
      {"PathFind_fStepDist", &p.step_dist, 0.0, 1e6, true},
  };
  for (const auto& f : floats) {
    const auto v = ini.number(f.key);
    if (!v) continue;
    if (!(f.lo_open ? *v > f.lo : *v >= f.lo) || *v > f.hi)
      return range_error(f.key, *v, fmt::format("{} {} .. {}", f.lo_open ? ">" : ">=", f.lo, f.hi));
    *f.value = static_cast<float>(*v);
    p.from_file.emplace_back(f.key);
  }
  if (const auto v = ini.number("PathFind_MinPointInTrajectory")) {
    if (*v < 1.0 || *v > 4096.0) return range_error("PathFind_MinPointInTrajectory", *v, "1 .. 4096");
    p.min_point_in_trajectory = static_cast<std::int32_t>(*v);
    p.from_file.emplace_back("PathFind_MinPointInTrajectory");
  }
  if (const auto v = ini.number("Network_ResourceTransferMaxDelay")) {
    if (*v < 0.0) return range_error("Network_ResourceTransferMaxDelay", *v, ">= 0");
    p.resource_transfer_max_delay = static_cast<std::int32_t>(*v);
    p.from_file.emplace_back("Network_ResourceTransferMaxDelay");
  }
  if (const auto v = ini.number("UseWizard")) {
    p.use_wizard = *v != 0.0;
    p.from_file.emplace_back("UseWizard");
  }
  return p;
}

}  // namespace sortie::move
