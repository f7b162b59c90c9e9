#include "sortie/game/squad_controls.hpp"

#include <cmath>

namespace sortie::game {

core::Vec2 screen_up_direction(float yaw) {
  // The camera looks toward (cos yaw, sin yaw) in render coordinates (Y north); squad y points
  // south, so the squad direction is (cos yaw, -sin yaw).
  return {std::cos(yaw), -std::sin(yaw)};
}

SquadControlOutput SquadControls::update(const SquadKeys& keys) {
  const auto pressed = [&](bool now, bool before) { return now && !before; };
  SquadControlOutput out;
  const core::Vec2 up = screen_up_direction(yaw_);
  const core::Vec2 right{-up.y, up.x};  // clockwise on screen from up, in squad coordinates (y south)
  core::Vec2 dir{};
  if (keys.up) dir = dir + up;
  if (keys.down) dir = dir - up;
  if (keys.right) dir = dir + right;
  if (keys.left) dir = dir - right;
  squad::InputFrame held = squad::InputFrame::moving_towards(dir);
  held.sprint = keys.sprint && held.moving();
  held.aim_left = keys.aim_left;
  held.aim_right = keys.aim_right;
  out.held = held;
  out.frame = held;
  out.frame.toggle_manual = pressed(keys.manual, previous_.manual);
  out.frame.cycle_target = pressed(keys.cycle, previous_.cycle);
  if (pressed(keys.wedge, previous_.wedge)) out.frame.formation = 1;
  if (pressed(keys.line, previous_.line)) out.frame.formation = 2;
  if (pressed(keys.ring, previous_.ring)) out.frame.formation = 3;
  out.toggle_overlay = pressed(keys.overlay, previous_.overlay);
  out.toggle_pause = pressed(keys.pause, previous_.pause);
  out.step_once = pressed(keys.step, previous_.step);
  out.restart = pressed(keys.restart, previous_.restart);
  previous_ = keys;
  return out;
}

}  // namespace sortie::game
