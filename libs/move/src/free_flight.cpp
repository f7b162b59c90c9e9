#include "sortie/move/free_flight.hpp"

#include <algorithm>
#include <cmath>

namespace sortie::move {

std::vector<ManualBinding> free_flight_bindings() {
  std::vector<ManualBinding> out;
  for (auto b : ManualCommands::default_bindings()) {
    if (b.command == ManualCommand::camera_zoom) continue;
    if (b.kind == BindingKind::axis && b.axis == Axis::mouse_x) b.coefficient = -b.coefficient;
    // libs/move's yaw grows counter-clockwise (toward the left): Right turns right.
    if (b.key == scan::kLeft) {
      b.key = scan::kRight;
    } else if (b.key == scan::kRight) {
      b.key = scan::kLeft;
    }
    out.push_back(b);
  }
  return out;
}

namespace {

CameraSettings settings_for(const FlightStart& s) {
  CameraSettings c;
  c.default_yaw = s.yaw;
  c.default_pitch = -s.pitch;
  c.pitch_min = -kPitchLimit;
  c.pitch_max = kPitchLimit;
  c.distance = c.min_distance = c.max_distance = kEyeDistance;
  c.vertical_fov = s.vertical_fov;
  return c;
}

core::Vec3 view_forward(float yaw, float pitch_down) {
  const float cp = std::cos(pitch_down);
  return {cp * std::cos(yaw), cp * std::sin(yaw), -std::sin(pitch_down)};
}

}  // namespace

FreeFlight::FreeFlight(const FlightStart& start)
    : controls_(settings_for(start), free_flight_bindings()),
      eye_(start.eye),
      speed_(start.speed),
      vertical_fov_(start.vertical_fov) {
  place(0, 0);
}

void FreeFlight::place(std::uint32_t width, std::uint32_t height) {
  const auto& st = controls_.camera().state();
  const core::Vec3 forward = view_forward(st.yaw, st.pitch);
  controls_.camera().set_center(eye_ + forward * kEyeDistance);
  frame_ = controls_.camera().frame(frames_);
  // The eye is the flight's own state (exact), the controller's centre one unit ahead of it.
  frame_.view = env::CameraFrame::look(eye_, forward, {0.0f, 0.0f, 1.0f});
  frame_.view_matrix = core::Mat4::look_at(eye_, eye_ + forward, {0.0f, 0.0f, 1.0f});
  frame_.view.vertical_fov = static_cast<double>(vertical_fov_);
  frame_.view.viewport_width = width;
  frame_.view.viewport_height = height;
  frame_.view.aspect = height > 0 ? static_cast<double>(width) / static_cast<double>(height) : 1.0;
}

const CameraFrame& FreeFlight::update(const InputSnapshot& input, std::uint64_t game_dt_us, std::uint32_t width,
                                      std::uint32_t height) {
  controls_.update(input, game_dt_us);
  ++frames_;
  const auto& m = controls_.manual();
  const float wheel = input.axis(Axis::mouse_wheel);
  if (wheel != 0.0f) speed_ = std::clamp(speed_ * std::pow(1.25f, wheel), 0.01f, 1e6f);
  const auto& st = controls_.camera().state();
  const core::Vec3 forward = view_forward(st.yaw, st.pitch);
  const core::Vec3 right{std::sin(st.yaw), -std::cos(st.yaw), 0.0f};
  const float ahead = m[ManualCommand::unit_forward] - m[ManualCommand::unit_back];
  const float side = m[ManualCommand::unit_right] - m[ManualCommand::unit_left];
  const bool up = input.is_held(scan::kE) || input.pressed(scan::kE);
  const bool down = input.is_held(scan::kQ) || input.pressed(scan::kQ);
  const float rise = (up ? 1.0f : 0.0f) - (down ? 1.0f : 0.0f);
  const float fast = input.is_held(scan::kShift) ? 4.0f : 1.0f;
  const float distance = static_cast<float>(static_cast<double>(game_dt_us) / 1e6) * speed_ * fast;
  if (ahead != 0.0f || side != 0.0f || rise != 0.0f)
    eye_ = eye_ + (forward * ahead + right * side + core::Vec3{0.0f, 0.0f, rise}) * distance;
  place(width, height);
  return frame_;
}

}  // namespace sortie::move
