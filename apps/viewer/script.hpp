#pragma once
// Scripted input for tests and demos (--script FILE): one event per line, "FRAME EVENT ARGS",
// FRAME counted from 0; '#' starts a comment.
//   12 key_down w | 40 key_up w         keys: w a s d q e shift space f12 escape tab
//                                       left right up down home 1..9 o p n r
//                                       ctrl enter f f5 f9 plus minus
//   13 mouse_move DX DY                  relative motion (mouse look while the right button is held)
//   14 mouse_down X Y BUTTON | mouse_up X Y BUTTON   (1 left, 2 middle, 3 right)
//   15 click X Y                         left button down and up at (X, Y)
//   16 wheel N
// Errors: viewer.script (file, line, what is wrong).
#include <cstdint>
#include <string_view>
#include <vector>

#include "input.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::viewer {

struct ScriptedEvent {
  std::uint64_t frame = 0;
  InputEvent event;
};

core::Result<std::vector<ScriptedEvent>> parse_script(std::string_view text, std::string_view file = "script");

}  // namespace sortie::viewer
