#pragma once
// The runtime parameters of the movement stack: the PathFind_* and Network_* keys of
// Behavior.ini (spec §21.1, seed 001 "Параметры Behavior.ini") plus UseWizard. The original
// compiled defaults are unknown (the demo file does not set these keys), so the defaults below
// are sortie's own, in world units, seconds and radians (docs/decisions/0010-movement-stack.md).
// A key present in Behavior.ini replaces its default; an absent key keeps it (never 0).
#include <cstdint>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/behavior_ini.hpp"

namespace sortie::move {

struct MoveParams {
  float building_hit_dist = 0.5f;            // PathFind_BuildingHitDist: kept; read by nothing (docs/behavior-ini.md)
  float building_nearest_dist = 6.0f;        // PathFind_BuildingNearestDist: a static body this close slows
  float near_build_speed_percent = 60.0f;    // PathFind_NearBuildSpeedPercent: speed there, 0..100
  float corridor_radius = 4.0f;              // PathFind_CorridorRadius: how far a detour may leave the path
  float near_door_coeff = 1.0f;              // PathFind_NearDoorCoeff: kept; read by nothing (no door model)
  float step_off_building = 1.0f;            // PathFind_fStepOffBuilding: clearance of a detour past a body
  float max_accel = 24.0f;                   // PathFind_MaxAccel: units per second^2
  float max_rotation = 6.2831853f;           // PathFind_MaxRotation: radians per second
  float step_dist = 2.0f;                    // PathFind_fStepDist: a trajectory point this close is passed
  std::int32_t min_point_in_trajectory = 2;  // PathFind_MinPointInTrajectory: points per trajectory
  std::int32_t resource_transfer_max_delay =
      30000;               // Network_ResourceTransferMaxDelay (ms): kept; net uses its own 10 s
  bool use_wizard = true;  // UseWizard
  // sortie's own (no Behavior.ini key): the steepest walkable ground, as the minimum z of the
  // unit surface normal (0.5 = 60 degrees).
  float min_ground_normal_z = 0.5f;

  // Which keys came from the file (the rest are defaults), in key order.
  std::vector<std::string> from_file;
};

// The parameters with every key Behavior.ini sets. Errors: move.params.range (a value outside
// its range: negative distances, a percent outside 0..100, a non-positive acceleration, rotation
// or step, fewer than 1 trajectory point, a negative delay) naming the key.
core::Result<MoveParams> params_from_behavior_ini(const iron3d::BehaviorIni& ini);

}  // namespace sortie::move
