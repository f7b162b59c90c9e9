#pragma once
// The anchor disc and its elastic leash (seed 002 §5a). `distance` is the distance from the disc
// to the farthest live agent of its squad.
//
//   urgency = clamp01((distance - anchorLeash*urgeStartFrac) / (anchorLeashMax - anchorLeash*urgeStartFrac))
//   squad speed = lerp(moveSpeed, moveSpeedFast, urgency)           (Shift: moveSpeedFast)
//   disc speed  = anchorSpeed x max(0.08, 1 - leashDrag x over)     (Shift: anchorSpeedFast)
//   over        = max(0, distance - anchorLeash) / anchorLeash
//
// Holding a direction, the faster disc pulls away until the drag slows it to the squad's speed.
// With the seed's numbers that equilibrium is at distance 3.40, urgency 0.55 and 2.27 units/s,
// below sprintAt 0.85: the squad walks fast and keeps firing. Past anchorLeashMax the disc does
// not go at all. (docs/squad-maps.md explains urgeStartFrac, which the seed leaves open, and
// `over`, whose reading in the seed's table — 25 % of the speed at the hard bound — cannot give
// the seed's own equilibrium; ours keeps 62.5 % there.)
#include "sortie/squad/tuning.hpp"

namespace sortie::squad {

float leash_urgency(float distance, const Tuning& t);
float leash_over(float distance, const Tuning& t);
float disc_speed(float distance, bool shift, const Tuning& t);
float squad_speed(float urgency, bool shift, const Tuning& t);

struct LeashEquilibrium {
  float distance = 0.0f;
  float urgency = 0.0f;
  float speed = 0.0f;
  bool at_hard_limit = false;  // the disc is held by anchorLeashMax (Shift with the seed's numbers)
};
// Where disc_speed(d) == squad_speed(urgency(d)) for a held direction (bisection; both sides are
// monotone in d).
LeashEquilibrium leash_equilibrium(const Tuning& t, bool shift);

}  // namespace sortie::squad
