#include "sortie/squad/leash.hpp"

#include <algorithm>

#include "sortie/core/math.hpp"

namespace sortie::squad {

float leash_urgency(float distance, const Tuning& t) {
  const float start = t.anchor_leash * t.urge_start_frac;
  const float span = t.anchor_leash_max - start;
  if (!(span > 0.0f)) return distance >= t.anchor_leash_max ? 1.0f : 0.0f;
  return core::clamp((distance - start) / span, 0.0f, 1.0f);
}

float leash_over(float distance, const Tuning& t) {
  return std::max(0.0f, distance - t.anchor_leash) / t.anchor_leash;
}

float disc_speed(float distance, bool shift, const Tuning& t) {
  const float base = shift ? t.anchor_speed_fast : t.anchor_speed;
  return base * std::max(0.08f, 1.0f - t.leash_drag * leash_over(distance, t));
}

float squad_speed(float urgency, bool shift, const Tuning& t) {
  if (shift) return t.move_speed_fast;
  return t.move_speed + (t.move_speed_fast - t.move_speed) * urgency;
}

LeashEquilibrium leash_equilibrium(const Tuning& t, bool shift) {
  const auto gap = [&](float d) { return disc_speed(d, shift, t) - squad_speed(leash_urgency(d, t), shift, t); };
  LeashEquilibrium out;
  if (gap(t.anchor_leash_max) > 0.0f) {
    // The disc is still faster at the hard bound: it stops there and the squad sets the pace.
    out.distance = t.anchor_leash_max;
    out.urgency = leash_urgency(out.distance, t);
    out.speed = squad_speed(out.urgency, shift, t);
    out.at_hard_limit = true;
    return out;
  }
  float lo = 0.0f;
  float hi = t.anchor_leash_max;
  for (int i = 0; i < 60; ++i) {
    const float mid = 0.5f * (lo + hi);
    if (gap(mid) > 0.0f) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  out.distance = 0.5f * (lo + hi);
  out.urgency = leash_urgency(out.distance, t);
  out.speed = squad_speed(out.urgency, shift, t);
  return out;
}

}  // namespace sortie::squad
