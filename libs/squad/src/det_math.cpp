#include "sortie/squad/det_math.hpp"

#include <cmath>

namespace sortie::squad {

core::Vec2 turn_toward(core::Vec2 from, core::Vec2 to, SinCos step) {
  if (core::dot(from, to) >= step.cos) return to;
  // Rotate towards `to` on the shorter side; exactly opposite turns counter-clockwise (y up).
  const float side = core::cross(from, to) >= 0.0f ? 1.0f : -1.0f;
  const core::Vec2 turned = rotate(from, SinCos{step.sin * side, step.cos});
  return core::normalize_or(turned, to);
}

float closest_param_on_segment(core::Vec2 p, core::Vec2 a, core::Vec2 b) {
  const core::Vec2 ab = b - a;
  const float len2 = core::length_squared(ab);
  if (!(len2 > 0.0f)) return 0.0f;
  return core::clamp(core::dot(p - a, ab) / len2, 0.0f, 1.0f);
}

float distance_point_segment(core::Vec2 p, core::Vec2 a, core::Vec2 b) {
  const float t = closest_param_on_segment(p, a, b);
  return core::distance(p, a + (b - a) * t);
}

std::optional<float> segment_circle_first_hit(core::Vec2 a, core::Vec2 b, core::Vec2 centre, float radius) {
  const core::Vec2 f = a - centre;
  const float c = core::dot(f, f) - radius * radius;
  if (c <= 0.0f) return 0.0f;
  const core::Vec2 d = b - a;
  const float aa = core::dot(d, d);
  if (!(aa > 0.0f)) return std::nullopt;
  const float half_b = core::dot(f, d);
  if (half_b >= 0.0f) return std::nullopt;  // moving away
  const float disc = half_b * half_b - aa * c;
  if (disc < 0.0f) return std::nullopt;
  const float t = (-half_b - std::sqrt(disc)) / aa;
  if (t < 0.0f || t > 1.0f) return std::nullopt;
  return t;
}

}  // namespace sortie::squad
