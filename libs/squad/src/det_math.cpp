#include "sortie/squad/det_math.hpp"

#include <cmath>

namespace sortie::squad {

SinCos det_sin_cos(float radians) {
  if (!std::isfinite(radians)) return {};
  // Reduction to r in [-pi/4, pi/4] with a two-part pi/2 (Cody-Waite), then Taylor series in r.
  constexpr double kPio2Hi = 1.5707963267341256e+00;  // first 33 bits of pi/2
  constexpr double kPio2Lo = 6.0771005065061922e-11;  // pi/2 - kPio2Hi
  constexpr double kTwoOverPi = 6.3661977236758138e-01;
  const double x = static_cast<double>(radians);
  const double k = std::nearbyint(x * kTwoOverPi);
  const double r = (x - k * kPio2Hi) - k * kPio2Lo;
  const double r2 = r * r;
  // sin r = r (1 - r^2/3! + r^4/5! - ... - r^12/13!), cos r = 1 - r^2/2! + ... + r^14/14!.
  const double s =
      r * (1.0 +
           r2 * (-1.0 / 6.0 +
                 r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 + r2 * (1.0 / 362880.0 + r2 * (-1.0 / 39916800.0 +
                                                                                        r2 * (1.0 / 6227020800.0)))))));
  const double c =
      1.0 +
      r2 * (-0.5 + r2 * (1.0 / 24.0 +
                         r2 * (-1.0 / 720.0 +
                               r2 * (1.0 / 40320.0 + r2 * (-1.0 / 3628800.0 +
                                                           r2 * (1.0 / 479001600.0 + r2 * (-1.0 / 87178291200.0)))))));
  const auto quadrant = static_cast<long long>(k) & 3;
  switch (quadrant) {
    case 0:
      return {static_cast<float>(s), static_cast<float>(c)};
    case 1:
      return {static_cast<float>(c), static_cast<float>(-s)};
    case 2:
      return {static_cast<float>(-s), static_cast<float>(-c)};
    default:
      return {static_cast<float>(-c), static_cast<float>(s)};
  }
}

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
