#include "sortie/move/components.hpp"

#include <string>

namespace sortie::move {
namespace {

void put(world::StateWriter& w, core::Vec2 v) {
  w.f32(v.x);
  w.f32(v.y);
}

}  // namespace

std::string_view to_string(BehaviorMode mode) {
  switch (mode) {
    case BehaviorMode::idle:
      return "idle";
    case BehaviorMode::planning:
      return "planning";
    case BehaviorMode::following:
      return "following";
    case BehaviorMode::arrived:
      return "arrived";
    case BehaviorMode::failed:
      return "failed";
    case BehaviorMode::manual:
      return "manual";
  }
  return "idle";
}

std::string_view to_string(MoveFailure failure) {
  switch (failure) {
    case MoveFailure::none:
      return "none";
    case MoveFailure::no_terrain:
      return "no_terrain";
    case MoveFailure::no_areal_map:
      return "no_areal_map";
    case MoveFailure::not_in_areal:
      return "not_in_areal";
    case MoveFailure::non_walkable:
      return "non_walkable";
    case MoveFailure::goal_off_map:
      return "goal_off_map";
    case MoveFailure::goal_not_walkable:
      return "goal_not_walkable";
    case MoveFailure::unreachable:
      return "unreachable";
    case MoveFailure::path_cycle:
      return "path_cycle";
  }
  return "none";
}

std::string diagnostic_code(MoveFailure failure) {
  return "move.behavior." + std::string(to_string(failure));
}

void BehaviorState::encode(world::StateWriter& out) const {
  out.u8(static_cast<std::uint8_t>(mode));
  out.u8(static_cast<std::uint8_t>(failure));
  put(out, target);
  out.f32(speed);
  out.u32(path_revision);
  out.u32(static_cast<std::uint32_t>(global_path.size()));
  for (std::uint32_t a : global_path) out.u32(a);
  out.u32(route_index);
  out.u32(current_areal);
  put(out, origin);
  out.u32(static_cast<std::uint32_t>(local_path.size()));
  for (core::Vec2 p : local_path) put(out, p);
  out.u32(next_point);
  out.u32(replans_without_progress);
}

void WizardState::encode(world::StateWriter& out) const {
  out.u32(static_cast<std::uint32_t>(path.size()));
  for (core::Vec2 p : path) put(out, p);
  out.u64(avoiding.raw());
  put(out, requested);
  put(out, corrected);
  out.u32(clears);
}

void ControlState::encode(world::StateWriter& out) const {
  out.f32(speed);
  out.f32(heading);
  out.f32(requested_speed);
  out.f32(requested_turn);
  out.f32(linear_velocity.x);
  out.f32(linear_velocity.y);
  out.f32(linear_velocity.z);
  out.f32(angular_velocity);
  out.u32(flags);
  out.f32(manual_speed);
  out.f32(manual_turn);
}

void CollisionProxy::encode(world::StateWriter& out) const {
  out.u8(static_cast<std::uint8_t>(shape));
  out.f32(radius);
  out.f32(height);
  out.u32(category);
  out.u32(collides_with);
  out.u8(is_static ? 1 : 0);
  out.u32(body_revision);
  out.u64(model_key);
  out.u32(rebuilds);
}

}  // namespace sortie::move
