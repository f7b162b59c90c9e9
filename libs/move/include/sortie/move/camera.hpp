#pragma once
// Cameras (seed 001 "Два camera interface", "Camera commands и порядок кадра"):
//
//   GameCamera    - the camera as game state (World3D stdSetCurrentCamera): mode, target object,
//                   centre, manual angles. CameraController implements it: the horizontal angle
//                   wraps, the vertical one is clamped, CMD_CAMERA_CENTER returns both smoothly
//                   to their defaults, and the centre glides to a followed target. It advances
//                   in fixed steps of game time (the remainder is carried), so the same game time
//                   gives the same camera at 30 or 144 frames per second.
//   RenderCamera  - the concrete camera the world renderer uses (Terrain stdSetCurrentCamera2):
//                   matrices, viewport, visibility.
//
// A CameraFrame is what one displayed frame uses. CameraFramePublisher hands the same frame to
// every sink in a fixed order (the renderer's RenderCamera and the sound listener) before the
// world is drawn. ViewerControls is the small API for a viewer: InputSnapshot in, CameraFrame out.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/env/camera.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/input.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::move {

enum class CameraMode : std::uint8_t { free, follow, external, mission };
std::string_view to_string(CameraMode mode);

struct CameraSettings {
  float yaw_rate = 1.5f;    // radians per second at full CMD_CAMERA_LEFT/RIGHT
  float pitch_rate = 1.0f;  // radians per second at full CMD_CAMERA_UP/DOWN
  float pitch_min = 0.15f;  // vertical angle limits (above the horizon), radians
  float pitch_max = 1.45f;
  float default_yaw = 0.0f;  // CMD_CAMERA_CENTER returns here
  float default_pitch = 0.7f;
  float center_time_ms = 250.0f;  // time constant of the return (game time)
  float follow_time_ms = 200.0f;  // time constant of the centre following its target
  float distance = 60.0f;         // from the centre
  float min_distance = 8.0f;
  float max_distance = 400.0f;
  float vertical_fov = 1.04f;  // radians (CBufferingCamera FOV field, spec §25.2)
  float near_plane = 0.5f;     // spec §25.2 observed values
  float far_plane = 700.0f;
  std::uint32_t viewport_width = 1024;
  std::uint32_t viewport_height = 768;
  std::uint32_t step_us = 16'000;  // fixed camera step (game time)
};

// The game camera's state (mode, target, angles, centre).
struct CameraState {
  CameraMode mode = CameraMode::free;
  world::ObjectId target{};
  core::Vec3 center{};
  core::Vec3 follow_point{};  // where the followed target is; the centre glides to it
  float yaw = 0.0f;
  float pitch = 0.7f;
  float distance = 60.0f;
  bool centering = false;
  std::uint64_t time_us = 0;       // game time consumed in whole steps
  std::uint64_t remainder_us = 0;  // game time waiting for the next whole step
  friend bool operator==(const CameraState&, const CameraState&) = default;
};

struct CameraFrame {
  std::uint64_t frame = 0;
  std::uint64_t game_time_us = 0;
  env::CameraFrame view;                            // position, orientation (forward, left, up), fov, aspect, viewport
  core::Mat4 view_matrix = core::Mat4::identity();  // world -> camera (right-handed, looking down -Z)
  core::Mat4 projection = core::Mat4::identity();
  float near_plane = 0.5f;
  float far_plane = 700.0f;
  CameraMode mode = CameraMode::free;
  world::ObjectId target{};
  float yaw = 0.0f;
  float pitch = 0.0f;
  friend bool operator==(const CameraFrame&, const CameraFrame&) = default;
};

class GameCamera {
 public:
  virtual ~GameCamera() = default;
  [[nodiscard]] virtual const CameraState& state() const = 0;
  virtual void set_mode(CameraMode mode) = 0;
  // Follow an object: its id and where it is now (from the world snapshot).
  virtual void follow(world::ObjectId target, core::Vec3 position) = 0;
};

class RenderCamera {
 public:
  virtual ~RenderCamera() = default;
  virtual void set_current(const CameraFrame& frame) = 0;
  [[nodiscard]] virtual const CameraFrame& current() const = 0;
};

// A RenderCamera that keeps the frame (what a renderer reads its matrices from).
class BasicRenderCamera final : public RenderCamera {
 public:
  void set_current(const CameraFrame& frame) override { frame_ = frame; }
  [[nodiscard]] const CameraFrame& current() const override { return frame_; }

 private:
  CameraFrame frame_;
};

class CameraController final : public GameCamera {
 public:
  explicit CameraController(CameraSettings settings = {});
  [[nodiscard]] const CameraState& state() const override { return state_; }
  void set_mode(CameraMode mode) override { state_.mode = mode; }
  void follow(world::ObjectId target, core::Vec3 position) override;
  void set_center(core::Vec3 center);
  // Looks along `yaw` (radians; the eye sits behind the centre): a piloted unit's heading.
  void set_yaw(float yaw);
  // Applies one batch of manual commands over `game_dt_us` of game time: mouse/joystick angles
  // and zoom once, rates and the centring per whole step.
  void update(const ManualState& manual, std::uint64_t game_dt_us);
  [[nodiscard]] CameraFrame frame(std::uint64_t frame_number) const;
  [[nodiscard]] const CameraSettings& settings() const { return settings_; }

 private:
  void step(const ManualState& manual, float dt);
  CameraSettings settings_;
  CameraState state_;
};

// Hands one frame to every sink, in registration order ("renderer", "listener", ...).
class CameraFramePublisher {
 public:
  using Sink = std::function<void(const CameraFrame&)>;
  void add_sink(std::string name, Sink sink);
  void publish(const CameraFrame& frame) const;
  [[nodiscard]] std::vector<std::string> sink_names() const;

 private:
  std::vector<std::pair<std::string, Sink>> sinks_;
};

// The viewer's input and camera in one call: snapshot -> manual commands -> camera -> frame.
class ViewerControls {
 public:
  explicit ViewerControls(CameraSettings settings = {},
                          std::vector<ManualBinding> bindings = ManualCommands::default_bindings());
  // `follow`: the followed object's current position, if any.
  CameraFrame update(const InputSnapshot& input, std::uint64_t game_dt_us,
                     std::optional<core::Vec3> follow = std::nullopt);
  [[nodiscard]] const ManualState& manual() const { return manual_; }
  [[nodiscard]] CameraController& camera() { return camera_; }
  [[nodiscard]] const CameraController& camera() const { return camera_; }
  // The move.drive order for `unit` from the W/A/S/D commands of the last update (forward/back
  // times max_speed, left/right times max_turn); nullopt when it equals the last one returned.
  std::optional<DriveCommand> drive(world::ObjectId unit, float max_speed, float max_turn);

 private:
  ManualCommands commands_;
  CameraController camera_;
  ManualState manual_;
  std::uint64_t frames_ = 0;
  std::optional<DriveCommand> last_drive_;
};

}  // namespace sortie::move
