#pragma once
// Free flight (issue #11 part 3; the viewer's camera): the window's events become one
// InputSnapshot per displayed frame (InputCollector), the manual commands and the camera
// controller turn it into a CameraFrame, and the viewer hands that one frame to every sink (the
// renderer's pose and the sound listener) through a CameraFramePublisher.
//
//   look    the controller's angles: the horizontal angle wraps (MAN_WRAP), the vertical one is
//           clamped to +-kPitchLimit; arrows turn at the controller's rates in its fixed steps of
//           game time, mouse motion (right button held) turns by 0.005 rad per pixel (moving the
//           mouse right turns right), Home returns smoothly to the start angles;
//   move    the eye is the flight's state, the controller's centre kEyeDistance ahead: W/S/A/D
//           (CMD unit_forward/back/left/right), Q/E down/up, Shift x4, by `speed` units per
//           second of game time (dt of the batch, never the frame count); the wheel scales the
//           speed by 1.25 per notch.
// Pitch here is the viewer's pose convention: positive looks up (the controller's is positive
// down, above the horizon).
#include <cstdint>
#include <vector>

#include "sortie/move/camera.hpp"
#include "sortie/move/input.hpp"

namespace sortie::move {

inline constexpr float kEyeDistance = 1.0f;
inline constexpr float kPitchLimit = 1.55f;

// The flight's keys beside the default bindings' (input.hpp), set 1.
namespace scan {
inline constexpr ScanCode kQ = 0x10, kE = 0x12, kShift = 0x2A;
}  // namespace scan

struct FlightStart {
  core::Vec3 eye{};
  float yaw = 0.0f;    // compass direction of the view (0 = +X, pi/2 = +Y)
  float pitch = 0.0f;  // up positive
  float speed = 10.0f;
  float vertical_fov = 1.0471976f;  // 60 degrees
};

// The bindings of the viewer: libs/move's defaults with the mouse's X and the Left/Right arrows
// turning the way they point (libs/move's yaw grows counter-clockwise), without the wheel zoom
// (the wheel sets the flight speed).
std::vector<ManualBinding> free_flight_bindings();

class FreeFlight {
 public:
  explicit FreeFlight(const FlightStart& start);
  // One batch over `game_dt_us` of game time; the frame sized to the viewport.
  const CameraFrame& update(const InputSnapshot& input, std::uint64_t game_dt_us, std::uint32_t width,
                            std::uint32_t height);
  [[nodiscard]] const CameraFrame& frame() const { return frame_; }
  [[nodiscard]] core::Vec3 eye() const { return eye_; }
  [[nodiscard]] float yaw() const { return controls_.camera().state().yaw; }
  [[nodiscard]] float pitch() const { return -controls_.camera().state().pitch; }
  [[nodiscard]] float speed() const { return speed_; }
  [[nodiscard]] const ManualState& manual() const { return controls_.manual(); }

 private:
  void place(std::uint32_t width, std::uint32_t height);
  ViewerControls controls_;
  core::Vec3 eye_;
  CameraFrame frame_;
  float speed_;
  float vertical_fov_;
  std::uint64_t frames_ = 0;
};

}  // namespace sortie::move
