#pragma once
// The v1 movers: the reference movement controller of the world before the movement stack
// (spec §26.3): straight-line XY movement toward a target, at most one step per call, Z snapped
// to the height field when there is one. No route, collision or acceleration. Kept only so that
// command logs written before the movement stack (kinds `move` and `route`, v1_commands.hpp)
// and the synthetic demo world (demo_world.hpp) replay to their recorded hashes; no client
// orders units with them (docs/decisions/0014-one-movement-story.md): units move with the
// stack (commands.hpp).
#include <memory>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/world/controller.hpp"

namespace sortie::move {

// Moves `transform` toward `target` by at most `max_step`; reaches it exactly when the
// distance is <= max_step. Z becomes height_at(x, y) when `ground` is given. Orientation and
// scale bits are kept. Returns whether the target was reached. Errors (transform untouched):
// `world.move.not_finite` (target or step), `world.move.step` (step <= 0),
// `world.move.no_surface` (no ground under the new XY).
core::Result<bool> advance_reference_movement(core::Transform& transform, core::Vec2 target, float max_step,
                                              const world::HeightField* ground);

// Move order: walk to `target` at `speed` units per game second; posts EventType::arrived on
// the tick it arrives and then stays idle. A failed step (no surface) stops the order and
// posts arrived with b = 1.
class MoveController final : public world::Controller {
 public:
  MoveController(core::Vec2 target, float speed, std::shared_ptr<const world::HeightField> ground = nullptr)
      : target_(target), speed_(speed), ground_(std::move(ground)) {}
  std::string_view kind() const override { return "move"; }
  void update(world::UpdateContext& ctx) override;
  void encode(world::StateWriter& out) const override;
  std::unique_ptr<world::Controller> clone() const override { return std::make_unique<MoveController>(*this); }

  void order(core::Vec2 target, float speed);
  [[nodiscard]] core::Vec2 target() const { return target_; }
  [[nodiscard]] float speed() const { return speed_; }
  [[nodiscard]] bool moving() const { return moving_; }

 private:
  core::Vec2 target_;
  float speed_;
  std::shared_ptr<const world::HeightField> ground_;
  bool moving_ = true;
};

// Follows a list of waypoints (e.g. an areal-map corridor from libs/nav) with the same step
// rule; posts arrived (a = waypoint count) after the last one.
class RouteController final : public world::Controller {
 public:
  RouteController(std::vector<core::Vec2> waypoints, float speed,
                  std::shared_ptr<const world::HeightField> ground = nullptr)
      : waypoints_(std::move(waypoints)), speed_(speed), ground_(std::move(ground)) {}
  std::string_view kind() const override { return "route"; }
  void update(world::UpdateContext& ctx) override;
  void encode(world::StateWriter& out) const override;
  std::unique_ptr<world::Controller> clone() const override { return std::make_unique<RouteController>(*this); }
  [[nodiscard]] std::size_t next_waypoint() const { return next_; }
  [[nodiscard]] bool done() const { return next_ >= waypoints_.size(); }

 private:
  std::vector<core::Vec2> waypoints_;
  float speed_;
  std::shared_ptr<const world::HeightField> ground_;
  std::size_t next_ = 0;
};

}  // namespace sortie::move
