#pragma once
// Behavior (seed 001 "Behavior", "Wizard"): the state of one unit's order. It plans a global
// path (areal ids, nav::ArealMap A*) and turns it into a local path (the funnel-smoothed
// trajectory through the corridor's portals), then follows it point by point, asking Control
// for a direction and a speed. It watches the areal the unit is in: leaving the global path
// re-plans (a new path revision); re-planning again and again without reaching a trajectory
// point is the "path generator in an infinite cycle" condition. The failures are diagnostics
// (MoveFailure), never a teleport.
#include <cstdint>

#include "sortie/core/math.hpp"
#include "sortie/move/components.hpp"
#include "sortie/move/environment.hpp"

namespace sortie::move {

// Re-plans in a row without reaching a trajectory point before the unit gives up (path_cycle).
inline constexpr std::uint32_t kMaxReplansWithoutProgress = 8;

// Forgets the paths (target and mode stay).
void clear_paths(BehaviorState& state);

// Plans state.target from `position` (z: the unit's height, the locate preference). On success
// the state is `following` with a fresh path revision; on failure it is `failed` with the
// reason (no_terrain, no_areal_map, not_in_areal, non_walkable, goal_off_map,
// goal_not_walkable, unreachable) and no path.
MoveFailure plan_path(BehaviorState& state, core::Vec3 position, const MoveEnvironment& env,
                      nav::PathWorkspace& workspace);

// What the unit's areal says about the path: still on it (route_index moves forward when the
// unit entered a later areal of it), off it (re-plan), or the re-plan budget is spent.
enum class PathCheck : std::uint8_t { on_path, off_path, cycle };
PathCheck observe_areal(BehaviorState& state, std::uint32_t areal);

inline constexpr float kArriveDistance = 0.1f;  // the target (and a path corner) is reached this close

struct BehaviorIntent {
  core::Vec2 direction{};  // unit vector toward the current trajectory point (zero when none)
  float speed = 0.0f;      // asked for: the order's speed, capped by the body and the braking rule
  bool arrived = false;    // the unit is at the target
};

// One step of following. A corner of the trajectory (where the funnel bends round a blocked
// boundary) is passed within kArriveDistance or once the unit has crossed the line through it
// square to the incoming segment: turning any earlier would cut the corner into the obstacle.
// A point on a straight stretch (PathFind_MinPointInTrajectory subdivisions) is passed within
// step_dist or once the unit is nearer to the following point than that point is. Progress
// resets the re-plan budget. Arrival: within kArriveDistance of the target, or within the body
// radius while `obstructed` (the last step touched a body or the terrain stopped it: someone else
// stands on the target). Otherwise the intent points at the next point with a speed that lets
// the unit stop at the target: min(order, body max, sqrt(2 * max_accel * remaining path)).
BehaviorIntent follow_path(BehaviorState& state, core::Vec2 position, const Body& body, const MoveParams& params,
                           bool obstructed);

}  // namespace sortie::move
