#include "sortie/move/camera.hpp"

#include <algorithm>
#include <cmath>

#include "sortie/core/det_math.hpp"

namespace sortie::move {

using core::det_cos;
using core::det_sin;
using core::det_wrap;

std::string_view to_string(CameraMode mode) {
  switch (mode) {
    case CameraMode::free:
      return "free";
    case CameraMode::follow:
      return "follow";
    case CameraMode::external:
      return "external";
    case CameraMode::mission:
      return "mission";
  }
  return "free";
}

CameraController::CameraController(CameraSettings settings) : settings_(settings) {
  state_.yaw = det_wrap(settings_.default_yaw);
  state_.pitch = core::clamp(settings_.default_pitch, settings_.pitch_min, settings_.pitch_max);
  state_.distance = core::clamp(settings_.distance, settings_.min_distance, settings_.max_distance);
}

void CameraController::follow(world::ObjectId target, core::Vec3 position) {
  if (state_.mode != CameraMode::follow || state_.target != target) state_.center = position;  // a new target: jump
  state_.mode = CameraMode::follow;
  state_.target = target;
  state_.follow_point = position;
}

void CameraController::set_center(core::Vec3 center) {
  state_.center = center;
  state_.follow_point = center;
}

void CameraController::update(const ManualState& manual, std::uint64_t game_dt_us) {
  // Amounts (mouse motion, wheel) apply once per batch; they are not rates.
  const float ax = manual[ManualCommand::camera_angle_x];
  const float ay = manual[ManualCommand::camera_angle_y];
  if (ax != 0.0f) {
    state_.yaw =
        manual.wrap_of(ManualCommand::camera_angle_x) == WrapMode::wrap ? det_wrap(state_.yaw + ax) : state_.yaw + ax;
    state_.centering = false;
  }
  if (ay != 0.0f) {
    const float p = state_.pitch + ay;
    state_.pitch = manual.wrap_of(ManualCommand::camera_angle_y) == WrapMode::wrap
                       ? det_wrap(p)
                       : core::clamp(p, settings_.pitch_min, settings_.pitch_max);
    state_.centering = false;
  }
  const float zoom = manual[ManualCommand::camera_zoom];
  if (zoom != 0.0f) {
    state_.distance = core::clamp(state_.distance * (1.0f - zoom), settings_.min_distance, settings_.max_distance);
  }
  if (manual.triggered(ManualCommand::camera_center)) state_.centering = true;
  // Rates and smoothing: whole fixed steps of game time only.
  state_.remainder_us += game_dt_us;
  const std::uint64_t step = std::max<std::uint32_t>(1, settings_.step_us);
  const float dt = static_cast<float>(step) / 1e6f;
  while (state_.remainder_us >= step) {
    state_.remainder_us -= step;
    state_.time_us += step;
    this->step(manual, dt);
  }
}

void CameraController::step(const ManualState& manual, float dt) {
  const float turn = manual[ManualCommand::camera_right] - manual[ManualCommand::camera_left];
  const float tilt = manual[ManualCommand::camera_up] - manual[ManualCommand::camera_down];
  if (turn != 0.0f || tilt != 0.0f) state_.centering = false;
  // Horizontal: wraps (MAN_WRAP); vertical: clamped (MAN_NOTWRAP).
  state_.yaw = det_wrap(state_.yaw + turn * settings_.yaw_rate * dt);
  state_.pitch = core::clamp(state_.pitch + tilt * settings_.pitch_rate * dt, settings_.pitch_min, settings_.pitch_max);
  if (state_.centering) {
    // Exponential return with a game-time constant: k = dt / (tau + dt) per step.
    const float tau = settings_.center_time_ms / 1000.0f;
    const float k = dt / (tau + dt);
    const float dyaw = det_wrap(settings_.default_yaw - state_.yaw);
    const float dpitch = settings_.default_pitch - state_.pitch;
    if (std::fabs(dyaw) < 1e-4f && std::fabs(dpitch) < 1e-4f) {
      state_.yaw = det_wrap(settings_.default_yaw);
      state_.pitch = core::clamp(settings_.default_pitch, settings_.pitch_min, settings_.pitch_max);
      state_.centering = false;
    } else {
      state_.yaw = det_wrap(state_.yaw + dyaw * k);
      state_.pitch = core::clamp(state_.pitch + dpitch * k, settings_.pitch_min, settings_.pitch_max);
    }
  }
  if (state_.mode == CameraMode::follow) {
    const float tau = settings_.follow_time_ms / 1000.0f;
    const float k = dt / (tau + dt);
    state_.center = state_.center + (state_.follow_point - state_.center) * k;
  }
}

CameraFrame CameraController::frame(std::uint64_t frame_number) const {
  CameraFrame f;
  f.frame = frame_number;
  f.game_time_us = state_.time_us;
  f.mode = state_.mode;
  f.target = state_.target;
  f.yaw = state_.yaw;
  f.pitch = state_.pitch;
  f.near_plane = settings_.near_plane;
  f.far_plane = settings_.far_plane;
  // The eye sits behind the centre along -yaw, raised by the pitch; it looks at the centre.
  const float cp = det_cos(state_.pitch);
  const core::Vec3 back{-cp * det_cos(state_.yaw), -cp * det_sin(state_.yaw), det_sin(state_.pitch)};
  const core::Vec3 eye = state_.center + back * state_.distance;
  const core::Vec3 forward = -back;
  f.view = env::CameraFrame::look(eye, forward, {0.0f, 0.0f, 1.0f});
  f.view.vertical_fov = static_cast<double>(settings_.vertical_fov);
  f.view.viewport_width = settings_.viewport_width;
  f.view.viewport_height = settings_.viewport_height;
  f.view.aspect = settings_.viewport_height > 0
                      ? static_cast<double>(settings_.viewport_width) / static_cast<double>(settings_.viewport_height)
                      : 1.0;
  f.view_matrix = core::Mat4::look_at(eye, state_.center, {0.0f, 0.0f, 1.0f});
  f.projection = core::Mat4::perspective(settings_.vertical_fov, static_cast<float>(f.view.aspect),
                                         settings_.near_plane, settings_.far_plane);
  return f;
}

void CameraFramePublisher::add_sink(std::string name, Sink sink) {
  sinks_.emplace_back(std::move(name), std::move(sink));
}

void CameraFramePublisher::publish(const CameraFrame& frame) const {
  for (const auto& [name, sink] : sinks_) sink(frame);
}

std::vector<std::string> CameraFramePublisher::sink_names() const {
  std::vector<std::string> out;
  for (const auto& s : sinks_) out.push_back(s.first);
  return out;
}

void CameraController::set_yaw(float yaw) {
  state_.yaw = det_wrap(yaw);
}

ViewerControls::ViewerControls(CameraSettings settings, std::vector<ManualBinding> bindings)
    : commands_(std::move(bindings)), camera_(settings) {}

CameraFrame ViewerControls::update(const InputSnapshot& input, std::uint64_t game_dt_us,
                                   std::optional<core::Vec3> follow) {
  manual_ = commands_.update(input, game_dt_us);
  if (follow) camera_.follow(camera_.state().target, *follow);
  camera_.update(manual_, game_dt_us);
  return camera_.frame(++frames_);
}

std::optional<DriveCommand> ViewerControls::drive(world::ObjectId unit, float max_speed, float max_turn) {
  const float forward = manual_[ManualCommand::unit_forward] - manual_[ManualCommand::unit_back];
  const float turn = manual_[ManualCommand::unit_left] - manual_[ManualCommand::unit_right];
  DriveCommand d{unit, core::clamp(forward, -1.0f, 1.0f) * max_speed, core::clamp(turn, -1.0f, 1.0f) * max_turn};
  if (last_drive_ && *last_drive_ == d) return std::nullopt;
  last_drive_ = d;
  return d;
}

}  // namespace sortie::move
