#pragma once
// Diagnostics shared by ArealMap::build and areal_input_from (one wording for one fault), and
// the f64 geometry of the route and the convex split.
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"

namespace sortie::nav::detail {

// nav.areal.link: areals[areal].links[link] names `found`, which is not an areal of `count`.
inline core::Diagnostic missing_areal_link(std::size_t areal, std::size_t link, std::size_t count, std::int64_t found) {
  return core::Diagnostic::error("nav.areal.link", "link names a missing areal")
      .in(fmt::format("areals[{}].links[{}]", areal, link))
      .expect(fmt::format("0..{}", count == 0 ? 0 : count - 1), std::to_string(found));
}

// Twice the signed area of (a, b, c): > 0 when c is left of a -> b. f64 of f32 inputs.
inline double cross3(core::Vec2 a, core::Vec2 b, core::Vec2 c) {
  const double abx = static_cast<double>(b.x) - static_cast<double>(a.x);
  const double aby = static_cast<double>(b.y) - static_cast<double>(a.y);
  const double acx = static_cast<double>(c.x) - static_cast<double>(a.x);
  const double acy = static_cast<double>(c.y) - static_cast<double>(a.y);
  return abx * acy - aby * acx;
}

inline bool same_point(core::Vec2 a, core::Vec2 b) {
  return a.x == b.x && a.y == b.y;
}

// Squared f64 distance from p to the segment a-b.
inline double segment_distance_sq(core::Vec2 p, core::Vec2 a, core::Vec2 b) {
  const double dx = static_cast<double>(b.x) - static_cast<double>(a.x);
  const double dy = static_cast<double>(b.y) - static_cast<double>(a.y);
  const double px = static_cast<double>(p.x) - static_cast<double>(a.x);
  const double py = static_cast<double>(p.y) - static_cast<double>(a.y);
  const double len_sq = dx * dx + dy * dy;
  const double t = len_sq > 0.0 ? std::clamp((px * dx + py * dy) / len_sq, 0.0, 1.0) : 0.0;
  const double ex = px - t * dx;
  const double ey = py - t * dy;
  return ex * ex + ey * ey;
}

}  // namespace sortie::nav::detail
