#include "sortie/move/v1_movers.hpp"

#include <fmt/format.h>

#include "sortie/world/event.hpp"
#include "sortie/world/object.hpp"
#include "sortie/world/world.hpp"

namespace sortie::move {

using core::Diagnostic;
using core::fail;
using core::Transform;
using core::Vec2;
using core::Vec3;
using world::Event;
using world::EventType;
using world::HeightField;
using world::StateWriter;
using world::UpdateContext;

core::Result<bool> advance_reference_movement(Transform& transform, Vec2 target, float max_step,
                                              const HeightField* ground) {
  if (!core::is_finite(target) || !core::is_finite(max_step)) {
    return fail(Diagnostic::error("world.move.not_finite", "movement target and step must be finite"));
  }
  if (!(max_step > 0.0f)) {
    return fail(
        Diagnostic::error("world.move.step", "movement step must be > 0").expect("> 0", fmt::format("{}", max_step)));
  }
  const Vec3 goal{target.x, target.y, transform.position.z};
  const float distance = core::distance_xy(transform.position, goal);
  Vec3 next = transform.position;
  bool reached = false;
  if (distance <= max_step) {
    next.x = target.x;
    next.y = target.y;
    reached = true;
  } else {
    const float k = max_step / distance;
    next.x = transform.position.x + (target.x - transform.position.x) * k;
    next.y = transform.position.y + (target.y - transform.position.y) * k;
  }
  if (ground != nullptr) {
    const std::optional<float> z = ground->height_at(next.x, next.y);
    if (!z) {
      return fail(Diagnostic::error("world.move.no_surface", "no ground surface under the new position")
                      .expect("a surface", fmt::format("x={} y={}", next.x, next.y)));
    }
    next.z = *z;
  }
  transform.position = next;
  return reached;
}

namespace {

void encode_vec2(StateWriter& out, Vec2 v) {
  out.f32(v.x);
  out.f32(v.y);
}

}  // namespace

void MoveController::order(Vec2 target, float speed) {
  target_ = target;
  speed_ = speed;
  moving_ = true;
}

void MoveController::update(UpdateContext& ctx) {
  if (!moving_) return;
  const float step = speed_ * ctx.clock.dt_seconds();
  if (!(step > 0.0f)) return;  // paused: the game clock did not move
  auto reached = advance_reference_movement(ctx.self.transform, target_, step, ground_.get());
  if (!reached) {
    moving_ = false;
    ctx.world.post(Event{0, EventType::arrived, ctx.self.handle(), {}, 0, 1});
    return;
  }
  if (*reached) {
    moving_ = false;
    ctx.world.post(Event{0, EventType::arrived, ctx.self.handle(), {}, 0, 0});
  }
}

void MoveController::encode(StateWriter& out) const {
  encode_vec2(out, target_);
  out.f32(speed_);
  out.u8(moving_ ? 1 : 0);
}

void RouteController::update(UpdateContext& ctx) {
  if (done()) return;
  float budget = speed_ * ctx.clock.dt_seconds();
  // A step may pass several close waypoints; the leftover distance carries on to the next.
  while (budget > 0.0f && !done()) {
    const Vec3 before = ctx.self.transform.position;
    auto reached = advance_reference_movement(ctx.self.transform, waypoints_[next_], budget, ground_.get());
    if (!reached) {
      next_ = waypoints_.size();
      ctx.world.post(Event{0, EventType::arrived, ctx.self.handle(), {}, static_cast<std::int64_t>(next_), 1});
      return;
    }
    if (!*reached) break;
    budget = budget - core::distance_xy(before, ctx.self.transform.position);
    ++next_;
    if (done()) {
      ctx.world.post(Event{0, EventType::arrived, ctx.self.handle(), {}, static_cast<std::int64_t>(next_), 0});
    }
  }
}

void RouteController::encode(StateWriter& out) const {
  out.f32(speed_);
  out.u32(static_cast<std::uint32_t>(next_));
  out.u32(static_cast<std::uint32_t>(waypoints_.size()));
  for (const Vec2& w : waypoints_) encode_vec2(out, w);
}

}  // namespace sortie::move
