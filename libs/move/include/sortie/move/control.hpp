#pragma once
// Control (seed 001 "Control, физика и коллизии", "Terrain queries и movement handoff"): turns
// the requested speed and turn into a physically allowed step over one calculation step. Speed
// changes by at most PathFind_MaxAccel * dt, the heading by at most PathFind_MaxRotation * dt;
// on a slope the horizontal step shrinks so that the distance along the surface is speed * dt;
// the final height is the terrain's and the orientation follows the terrain normal. All
// trigonometry is core/det_math.hpp (hashed state).
#include "sortie/core/math.hpp"
#include "sortie/move/components.hpp"
#include "sortie/move/params.hpp"

namespace sortie::move {

// Requested speed and turn rate for a unit that should move along `direction` (unit, or zero
// to stop) at `speed`: the turn closes the heading error within one step when it can; the
// speed is scaled by cos(heading error) (no forward motion while facing more than 90 degrees
// away).
void steer(ControlState& state, core::Vec2 direction, float speed, float dt, const MoveParams& params);
// Manual driving (move.drive): the requested speed and turn are the command's.
void steer_manual(ControlState& state);

// Integrates one step: speed and heading under the limits, then the candidate XY from
// `position` along the new heading on a ground with unit normal `normal`.
core::Vec2 integrate(ControlState& state, core::Vec2 position, core::Vec3 normal, float dt, const MoveParams& params);

// The TMA orientation words (x roll, y pitch, z yaw; R = Rz(z) Ry(y) Rx(x), spec §25.1) that put
// the body's up axis on `normal` with heading `heading`.
core::Vec3 ground_orientation(float heading, core::Vec3 normal);

}  // namespace sortie::move
