#pragma once
// Formations (seed 002 §6): local coordinates x = forward, y = right, multiplied by the spacing
// and turned to the squad's heading. Agent i always takes slot i; the first meleeCount slots carry
// blades (in the wedge: the point and the left wing).
#include <cstdint>
#include <optional>
#include <string_view>

#include "sortie/core/math.hpp"

namespace sortie::squad {

enum class Formation : std::uint8_t { wedge = 1, line = 2, ring = 3 };

std::string_view to_string(Formation f);
std::optional<Formation> formation_from_string(std::string_view s);
Formation next_formation(Formation f);  // wedge -> line -> ring -> wedge

// Offset of slot `slot` of `count` (at most kSquadSizeMax = 5) in spacing units, local (forward,
// right):
//   wedge: slot 0 = (1, 0); slot 2k-1 = (1-k, -k) (left wing), slot 2k = (1-k, +k) (right wing)
//   line:  (0, slot - (count-1)/2)
//   ring:  radius 1.5, slot 0 in front, then clockwise (towards the right hand)
core::Vec2 formation_offset(Formation f, std::uint32_t slot, std::uint32_t count);

// The right-hand side of a heading (y grows downwards, so this is perp(heading)).
constexpr core::Vec2 right_of(core::Vec2 heading) {
  return core::perp(heading);
}
// World position of a slot around the disc.
core::Vec2 slot_world(core::Vec2 disc, core::Vec2 heading, core::Vec2 local_offset, float spacing);

}  // namespace sortie::squad
