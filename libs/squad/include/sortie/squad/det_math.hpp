#pragma once
// Deterministic geometry helpers of the squad simulation. The state hash covers positions and
// facings, so nothing here calls libm trigonometry (it differs between libm versions): sine and
// cosine are core's deterministic trigonometry (core/det_math.hpp), the same bits on gcc and
// clang.
#include <optional>

#include "sortie/core/det_math.hpp"
#include "sortie/core/math.hpp"

namespace sortie::squad {

using core::det_sin_cos;
using core::SinCos;

inline SinCos det_sin_cos_deg(float degrees) {
  return det_sin_cos(core::degrees_to_radians(degrees));
}

// Rotates by the angle whose sine and cosine are given (x towards y: counter-clockwise with y up,
// clockwise on a screen whose y points down).
constexpr core::Vec2 rotate(core::Vec2 v, SinCos r) {
  return {v.x * r.cos - v.y * r.sin, v.x * r.sin + v.y * r.cos};
}

// Turns the unit vector `from` towards the unit vector `to` by at most the angle of `step`
// (whose cosine is step.cos); returns `to` when it is within the step. Result is unit length.
core::Vec2 turn_toward(core::Vec2 from, core::Vec2 to, SinCos step);

// Distance from p to the segment a-b (a == b: the distance to a).
float distance_point_segment(core::Vec2 p, core::Vec2 a, core::Vec2 b);
// Parameter in [0, 1] of the point of a-b closest to p.
float closest_param_on_segment(core::Vec2 p, core::Vec2 a, core::Vec2 b);

// First parameter t in [0, 1] at which the segment a-b comes within `radius` of `centre`
// (0 when a already is); nullopt when it never does.
std::optional<float> segment_circle_first_hit(core::Vec2 a, core::Vec2 b, core::Vec2 centre, float radius);

}  // namespace sortie::squad
