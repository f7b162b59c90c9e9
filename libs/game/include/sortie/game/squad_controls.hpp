#pragma once
// Key state to squad input, without a window: the viewer's squad mode reads its keyboard into
// SquadKeys once per displayed frame and gets the InputFrame of each simulation tick plus the
// viewer's own toggles. Movement is relative to the screen: W moves up the picture whatever the
// camera's yaw.
#include <cstdint>

#include "sortie/core/math.hpp"
#include "sortie/squad/input.hpp"

namespace sortie::game {

struct SquadKeys {
  bool up = false;         // W
  bool left = false;       // A
  bool down = false;       // S
  bool right = false;      // D
  bool sprint = false;     // Shift
  bool manual = false;     // Space: toggles manual aim
  bool aim_left = false;   // Left arrow: rotates the aim (held)
  bool aim_right = false;  // Right arrow
  bool cycle = false;      // Tab: next target in the aim cone
  bool wedge = false;      // 1
  bool line = false;       // 2
  bool ring = false;       // 3
  bool overlay = false;    // O: debug overlay on/off
  bool pause = false;      // P
  bool step = false;       // N: one tick while paused
  bool restart = false;    // R: restart with a new seed
  friend constexpr bool operator==(const SquadKeys&, const SquadKeys&) = default;
};

struct SquadControlOutput {
  squad::InputFrame frame;  // for the first tick of this displayed frame (pressed buttons once)
  squad::InputFrame held;   // for the following ticks of the same frame (held state only)
  bool toggle_overlay = false;
  bool toggle_pause = false;
  bool step_once = false;
  bool restart = false;
};

// The horizontal world direction (squad coordinates: x east, y south) of "up the screen" for an
// isometric camera of `yaw` (render coordinates, see squad_view.hpp).
core::Vec2 screen_up_direction(float yaw);

class SquadControls {
 public:
  explicit SquadControls(float camera_yaw = core::kPi / 4.0f) : yaw_(camera_yaw) {}
  // Pressed = down now and not in the previous call.
  SquadControlOutput update(const SquadKeys& keys);
  void reset() { previous_ = {}; }

 private:
  float yaw_;
  SquadKeys previous_;
};

}  // namespace sortie::game
