#pragma once
// The viewer's input and camera through libs/move (issue #11 part 3): a mode hands every window
// event to on_event(), and once per frame step() turns the batch into one move::InputSnapshot,
// runs the free flight (sortie/move/free_flight.hpp) over the frame's game time and publishes the
// one CameraFrame to the sinks in order: "renderer" (the pose the scene is drawn with) and
// "listener" (a mode's sound and weather), before the world is drawn.
#include <cstdint>
#include <functional>
#include <optional>

#include "input.hpp"
#include "sortie/move/camera.hpp"
#include "sortie/move/free_flight.hpp"
#include "sortie/render/scene_camera.hpp"

namespace sortie::viewer {

// Set-1 scan code of a viewer key (0 for Key::none and Key::count).
move::ScanCode scan_code(Key key);

class FlightInput {
 public:
  FlightInput();
  // Key edges, mouse motion while the right button is held (mouse look), the wheel.
  void on_event(const InputEvent& event, const InputState& state);
  // The flight starts at `pose` (the first frame's default view, or --camera).
  void start(const render::CameraPose& pose, float speed, float vertical_fov);
  [[nodiscard]] bool started() const { return flight_.has_value(); }
  // One frame: the batch's snapshot over `game_dt_us`; publishes the frame (nothing before start).
  void step(std::uint64_t game_dt_us, std::uint32_t width, std::uint32_t height);
  // Sinks after "renderer" (which keeps pose()).
  void add_listener(std::function<void(const move::CameraFrame&)> sink);
  [[nodiscard]] const render::CameraPose& pose() const { return pose_; }
  [[nodiscard]] float speed() const { return flight_ ? flight_->speed() : 0.0f; }
  [[nodiscard]] const move::FreeFlight* flight() const { return flight_ ? &*flight_ : nullptr; }

 private:
  move::InputCollector collector_;
  std::optional<move::FreeFlight> flight_;
  move::CameraFramePublisher publisher_;
  render::CameraPose pose_;
};

}  // namespace sortie::viewer
