#include "sortie/move/wizard.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace sortie::move {

void clear_wizard_path(WizardState& s) {
  if (!s.path.empty() || s.avoiding != world::ObjectId{}) s.clears += 1;
  s.path.clear();
  s.avoiding = {};
}

WizardResult wizard_correct(WizardState& s, world::ObjectId self, core::Vec2 position, float radius,
                            core::Vec2 requested, std::span<const Neighbour> near, const MoveParams& params,
                            const nav::ArealMap* areals) {
  WizardResult out;
  out.direction = requested;
  s.requested = requested;
  // Speed near buildings.
  for (const Neighbour& n : near) {
    if (!n.is_static) continue;
    const float gap = core::distance(position, n.xy) - radius - n.radius;
    if (gap <= params.building_nearest_dist) {
      out.speed_factor = params.near_build_speed_percent / 100.0f;
      break;
    }
  }
  if (!params.use_wizard || (requested.x == 0.0f && requested.y == 0.0f)) {
    clear_wizard_path(s);
    s.corrected = out.direction;
    return out;
  }
  // A detour in progress: keep it until the unit is level with its point.
  if (!s.path.empty()) {
    const core::Vec2 w = s.path.front();
    const core::Vec2 to_w = w - position;
    if (core::dot(to_w, requested) > 0.0f && core::length(to_w) > params.step_dist * 0.5f) {
      out.direction = core::normalize_or(to_w, requested);
      s.corrected = out.direction;
      return out;
    }
    clear_wizard_path(s);
  }
  // The nearest body in the way.
  const Neighbour* obstacle = nullptr;
  float obstacle_along = 0.0f;
  float obstacle_lateral = 0.0f;
  for (const Neighbour& n : near) {
    const core::Vec2 rel = n.xy - position;
    const float along = core::dot(rel, requested);
    const float lateral = core::cross(requested, rel);  // > 0: the body is to the left
    const float clear = radius + n.radius + params.step_off_building;
    if (!(along > 0.0f) || along > params.building_nearest_dist + radius + n.radius) continue;
    if (std::fabs(lateral) >= clear) continue;
    if (obstacle == nullptr || along < obstacle_along) {
      obstacle = &n;
      obstacle_along = along;
      obstacle_lateral = lateral;
    }
  }
  if (obstacle == nullptr) {
    s.corrected = out.direction;
    return out;
  }
  const core::Vec2 left = core::perp(requested);
  float side = obstacle_lateral > 0.0f ? -1.0f : 1.0f;  // away from the body
  if (obstacle_lateral == 0.0f) side = self < obstacle->id ? 1.0f : -1.0f;
  const float clear = radius + obstacle->radius + params.step_off_building;
  auto detour = [&](float sd) -> std::optional<core::Vec2> {
    // Beside the obstacle, `clear` from its centre across the requested line, capped by the
    // corridor radius measured from the unit's line.
    float offset = sd * clear + obstacle_lateral;  // lateral offset from the unit's line
    offset = core::clamp(offset, -params.corridor_radius, params.corridor_radius);
    const core::Vec2 w = position + requested * obstacle_along + left * offset;
    if (areals != nullptr && !areals->locate_areal(w, nav::LocateOptions{true, std::nullopt})) return std::nullopt;
    return w;
  };
  auto w = detour(side);
  if (!w) w = detour(-side);
  if (!w) {
    s.corrected = out.direction;
    return out;
  }
  s.path = {*w};
  s.avoiding = obstacle->id;
  out.direction = core::normalize_or(*w - position, requested);
  s.corrected = out.direction;
  return out;
}

}  // namespace sortie::move
