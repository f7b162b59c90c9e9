#pragma once
// The viewer's input vocabulary, independent of the window library: events (from the window or
// from a --script file) and the held-key state a mode reads each frame. sdl_window.cpp is the
// only place that knows SDL's codes.
#include <array>
#include <cstdint>

namespace sortie::viewer {

// clang-format off
enum class Key : std::uint8_t {
  none, w, a, s, d, q, e, shift, space, f12, escape, tab,
  left, right, up, down, home,                      // flight and camera
  digit1, digit2, digit3, o, p, n, r,               // the squad mode
  digit4, digit5, digit6, digit7, digit8, digit9,  // groups (mission mode)
  ctrl, enter, f, f5, f9, plus, minus,              // the mission game
  count
};
// clang-format on

struct InputEvent {
  enum class Type : std::uint8_t { key_down, key_up, mouse_move, mouse_down, mouse_up, wheel, resize, quit };
  Type type = Type::quit;
  Key key = Key::none;
  int x = 0, y = 0;    // cursor (mouse events), new size (resize)
  int dx = 0, dy = 0;  // relative motion (mouse_move)
  int button = 0;      // 1 left, 2 middle, 3 right
  int wheel = 0;       // +1 away from the user
};

struct InputState {
  std::array<bool, static_cast<std::size_t>(Key::count)> held{};
  std::array<bool, 4> buttons{};  // [1] left, [2] middle, [3] right
  int mouse_x = 0, mouse_y = 0;
  [[nodiscard]] bool down(Key k) const { return held[static_cast<std::size_t>(k)]; }
  void apply(const InputEvent& e);
};

}  // namespace sortie::viewer
