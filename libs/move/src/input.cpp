#include "sortie/move/input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace sortie::move {

namespace {

core::Diagnostic snapshot_error(std::string field, std::string expected, std::string found) {
  return core::Diagnostic::error("input.snapshot", "malformed input snapshot")
      .in(std::move(field))
      .expect(std::move(expected), std::move(found));
}

}  // namespace

bool InputSnapshot::pressed(ScanCode code) const {
  return std::any_of(edges.begin(), edges.end(), [&](const KeyEdge& e) { return e.code == code && e.down; });
}

bool InputSnapshot::released(ScanCode code) const {
  return std::any_of(edges.begin(), edges.end(), [&](const KeyEdge& e) { return e.code == code && !e.down; });
}

core::Json snapshot_to_json(const InputSnapshot& s) {
  core::Json edges = core::Json::array();
  for (const KeyEdge& e : s.edges) edges.push_back(core::Json::array({e.code, e.down ? 1 : 0}));
  core::Json held = core::Json::array();
  for (std::size_t c = 0; c < kScanCodeCount; ++c)
    if (s.held.test(c)) held.push_back(c);
  core::Json axes = core::Json::array();
  for (float a : s.axes) axes.push_back(a);
  return core::Json{
      {"sequence", s.sequence}, {"edges", edges}, {"held", held}, {"axes", axes}, {"joystick", s.joystick_present}};
}

core::Result<InputSnapshot> snapshot_from_json(const core::Json& j) {
  InputSnapshot s;
  if (!j.is_object()) return core::fail(snapshot_error("", "object", j.dump()));
  auto need = [&](const char* key) -> const core::Json* {
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
  };
  const core::Json* seq = need("sequence");
  if (!seq || !seq->is_number_unsigned())
    return core::fail(snapshot_error("sequence", "unsigned number", seq ? seq->dump() : "missing"));
  s.sequence = seq->get<std::uint64_t>();
  auto code_of = [](const core::Json& v) -> std::optional<ScanCode> {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() >= kScanCodeCount) return std::nullopt;
    return static_cast<ScanCode>(v.get<std::uint64_t>());
  };
  const core::Json* edges = need("edges");
  if (!edges || !edges->is_array())
    return core::fail(snapshot_error("edges", "array", edges ? edges->dump() : "missing"));
  for (std::size_t i = 0; i < edges->size(); ++i) {
    const core::Json& e = (*edges)[i];
    const auto code = e.is_array() && e.size() == 2 ? code_of(e[0]) : std::nullopt;
    if (!code || !e[1].is_number_unsigned() || e[1].get<std::uint64_t>() > 1)
      return core::fail(
          snapshot_error(fmt::format("edges[{}]", i), fmt::format("[code < {}, 0|1]", kScanCodeCount), e.dump()));
    s.edges.push_back(KeyEdge{*code, e[1].get<std::uint64_t>() == 1});
  }
  const core::Json* held = need("held");
  if (!held || !held->is_array()) return core::fail(snapshot_error("held", "array", held ? held->dump() : "missing"));
  for (std::size_t i = 0; i < held->size(); ++i) {
    const auto code = code_of((*held)[i]);
    if (!code)
      return core::fail(
          snapshot_error(fmt::format("held[{}]", i), fmt::format("code < {}", kScanCodeCount), (*held)[i].dump()));
    s.held.set(*code);
  }
  const core::Json* axes = need("axes");
  if (!axes || !axes->is_array() || axes->size() != kAxisCount)
    return core::fail(snapshot_error("axes", fmt::format("{} numbers", kAxisCount), axes ? axes->dump() : "missing"));
  for (std::size_t i = 0; i < kAxisCount; ++i) {
    const core::Json& a = (*axes)[i];
    if (!a.is_number() || !std::isfinite(a.get<double>()))
      return core::fail(snapshot_error(fmt::format("axes[{}]", i), "finite number", a.dump()));
    s.axes[i] = a.get<float>();
  }
  const core::Json* joy = need("joystick");
  if (!joy || !joy->is_boolean())
    return core::fail(snapshot_error("joystick", "true or false", joy ? joy->dump() : "missing"));
  s.joystick_present = joy->get<bool>();
  return s;
}

// ---------------------------------------------------------------- collector

void InputCollector::key(ScanCode code, bool down) {
  if (code >= kScanCodeCount) return;
  if (down && current_.held.test(code)) return;    // OS auto-repeat: not a new edge
  if (!down && !current_.held.test(code)) return;  // release of a key never pressed
  current_.held.set(code, down);
  current_.edges.push_back(KeyEdge{code, down});
}

void InputCollector::mouse_motion(float dx, float dy) {
  if (!std::isfinite(dx) || !std::isfinite(dy)) return;
  current_.axes[static_cast<std::size_t>(Axis::mouse_x)] += dx;
  current_.axes[static_cast<std::size_t>(Axis::mouse_y)] += dy;
}

void InputCollector::mouse_wheel(float delta) {
  if (!std::isfinite(delta)) return;
  current_.axes[static_cast<std::size_t>(Axis::mouse_wheel)] += delta;
}

void InputCollector::joystick_axis(Axis axis, float value) {
  if (is_mouse_axis(axis) || !current_.joystick_present || !std::isfinite(value)) return;
  current_.axes[static_cast<std::size_t>(axis)] = std::clamp(value, -1.0f, 1.0f);
}

void InputCollector::joystick_button(std::size_t index, bool down) {
  if (index >= kJoyButtons || !current_.joystick_present) return;
  key(static_cast<ScanCode>(kJoyButton0 + index), down);
}

void InputCollector::joystick_connected(bool present) {
  if (!present) {
    for (std::size_t b = 0; b < kJoyButtons; ++b) key(static_cast<ScanCode>(kJoyButton0 + b), false);
    for (std::size_t a = static_cast<std::size_t>(Axis::joy_x); a < kAxisCount; ++a) current_.axes[a] = 0.0f;
  }
  current_.joystick_present = present;
}

InputSnapshot InputCollector::take() {
  current_.sequence = next_sequence_++;
  InputSnapshot out = current_;
  current_.edges.clear();
  for (std::size_t a = 0; a <= static_cast<std::size_t>(Axis::mouse_wheel); ++a) current_.axes[a] = 0.0f;
  return out;
}

// ---------------------------------------------------------------- manual commands

std::string_view to_string(ManualCommand command) {
  switch (command) {
    case ManualCommand::camera_left:
      return "CMD_CAMERA_LEFT";
    case ManualCommand::camera_right:
      return "CMD_CAMERA_RIGHT";
    case ManualCommand::camera_up:
      return "CMD_CAMERA_UP";
    case ManualCommand::camera_down:
      return "CMD_CAMERA_DOWN";
    case ManualCommand::camera_center:
      return "CMD_CAMERA_CENTER";
    case ManualCommand::camera_angle_x:
      return "MCMD_ANGLE_X";
    case ManualCommand::camera_angle_y:
      return "MCMD_ANGLE_Y";
    case ManualCommand::camera_zoom:
      return "CMD_CAMERA_ZOOM";
    case ManualCommand::unit_forward:
      return "CMD_UNIT_FORWARD";
    case ManualCommand::unit_back:
      return "CMD_UNIT_BACK";
    case ManualCommand::unit_left:
      return "CMD_UNIT_LEFT";
    case ManualCommand::unit_right:
      return "CMD_UNIT_RIGHT";
  }
  return "CMD_UNKNOWN";
}

ManualCommands::ManualCommands(std::vector<ManualBinding> bindings)
    : bindings_(std::move(bindings)), held_us_(bindings_.size(), 0) {}

std::vector<ManualBinding> ManualCommands::default_bindings() {
  using C = ManualCommand;
  using K = BindingKind;
  return {
      {C::camera_left, K::state, scan::kLeft, Axis::mouse_x, 1.0f, 0.0f, 150, WrapMode::wrap},
      {C::camera_right, K::state, scan::kRight, Axis::mouse_x, 1.0f, 0.0f, 150, WrapMode::wrap},
      {C::camera_up, K::state, scan::kUp, Axis::mouse_x, 1.0f, 0.0f, 150, WrapMode::no_wrap},
      {C::camera_down, K::state, scan::kDown, Axis::mouse_x, 1.0f, 0.0f, 150, WrapMode::no_wrap},
      {C::camera_center, K::edge, scan::kHome, Axis::mouse_x, 1.0f, 0.0f, 0, WrapMode::no_wrap},
      {C::camera_angle_x, K::axis, 0, Axis::mouse_x, 0.005f, 0.0f, 0, WrapMode::wrap},
      {C::camera_angle_y, K::axis, 0, Axis::mouse_y, 0.005f, 0.0f, 0, WrapMode::no_wrap},
      {C::camera_angle_x, K::axis, 0, Axis::joy_x, 0.05f, 0.15f, 0, WrapMode::wrap},
      {C::camera_angle_y, K::axis, 0, Axis::joy_y, 0.05f, 0.15f, 0, WrapMode::no_wrap},
      {C::camera_zoom, K::axis, 0, Axis::mouse_wheel, 0.1f, 0.0f, 0, WrapMode::no_wrap},
      {C::unit_forward, K::state, scan::kW, Axis::mouse_x, 1.0f, 0.0f, 0, WrapMode::no_wrap},
      {C::unit_back, K::state, scan::kS, Axis::mouse_x, 1.0f, 0.0f, 0, WrapMode::no_wrap},
      {C::unit_left, K::state, scan::kA, Axis::mouse_x, 1.0f, 0.0f, 0, WrapMode::no_wrap},
      {C::unit_right, K::state, scan::kD, Axis::mouse_x, 1.0f, 0.0f, 0, WrapMode::no_wrap},
  };
}

ManualState ManualCommands::update(const InputSnapshot& snapshot, std::uint64_t game_dt_us) {
  ManualState out;
  for (std::size_t c = 0; c < kManualCommandCount; ++c) out.wrap[c] = WrapMode::no_wrap;
  for (std::size_t i = 0; i < bindings_.size(); ++i) {
    const ManualBinding& b = bindings_[i];
    const auto c = static_cast<std::size_t>(b.command);
    if (c >= kManualCommandCount) continue;
    out.wrap[c] = b.wrap;
    float v = 0.0f;
    switch (b.kind) {
      case BindingKind::state: {
        // A press inside the batch counts even when released again before its end.
        const bool down = snapshot.is_held(b.key) || snapshot.pressed(b.key);
        if (!down) {
          held_us_[i] = 0;
          break;
        }
        held_us_[i] += game_dt_us;
        float ramp = 1.0f;
        if (b.ramp_ms > 0) {
          const auto ramp_us = std::uint64_t{b.ramp_ms} * 1000;
          ramp = held_us_[i] >= ramp_us ? 1.0f : static_cast<float>(held_us_[i]) / static_cast<float>(ramp_us);
        }
        v = b.coefficient * ramp;
        break;
      }
      case BindingKind::edge:
        if (snapshot.pressed(b.key)) {
          out.fired[c] = true;
          v = b.coefficient;
        }
        break;
      case BindingKind::axis: {
        const float a = snapshot.axis(b.axis);
        const float mag = std::fabs(a);
        if (mag <= b.dead_zone) break;
        // Beyond the dead zone the value starts at 0; joystick axes keep their [-1, 1] scale.
        const float span =
            is_mouse_axis(b.axis) ? mag - b.dead_zone : (mag - b.dead_zone) / std::max(1e-6f, 1.0f - b.dead_zone);
        v = b.coefficient * (a < 0.0f ? -span : span);
        break;
      }
    }
    out.value[c] += v;
  }
  return out;
}

}  // namespace sortie::move
