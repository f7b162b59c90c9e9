#pragma once
// Input (seed 001 "Ввод, камера и управление"): the platform's keyboard, mouse and joystick
// events become one InputSnapshot per batch (the World3D UpdateManualEventsList /
// ClearManualEventsList cycle), and manual commands read the snapshot, never the OS.
//
// Three semantics, kept apart:
//   edge event  - a press or release in this batch (a tap inside one batch keeps both edges);
//                 an OS auto-repeat of a held key is not a new edge;
//   held state  - keys down at the end of the batch; a key held on is never an edge again;
//   analog      - mouse axes are the motion summed over the batch (zero in the next batch
//                 without motion); joystick axes are positions in [-1, 1] that persist, and
//                 losing the joystick (hot-unplug) returns them to 0 and releases its buttons.
//
// Manual commands add a coefficient, a wrap mode (MAN_WRAP / MAN_NOTWRAP), a dead zone and a
// ramp time in milliseconds of game time to a key or an axis (the camera bindings'
// MCMD_STATE, MCMD_ANGLE_X, MCMD_ANGLE_Y).
#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"

namespace sortie::move {

// Unified scan codes: 0..255 keyboard, 256..263 mouse buttons, 264..295 joystick buttons.
using ScanCode = std::uint16_t;
inline constexpr ScanCode kMouseButton0 = 256;
inline constexpr ScanCode kJoyButton0 = 264;
inline constexpr std::size_t kJoyButtons = 32;
inline constexpr std::size_t kScanCodeCount = kJoyButton0 + kJoyButtons;

enum class Axis : std::uint8_t { mouse_x, mouse_y, mouse_wheel, joy_x, joy_y, joy_z, joy_rx, joy_ry };
inline constexpr std::size_t kAxisCount = 8;
[[nodiscard]] constexpr bool is_mouse_axis(Axis a) {
  return a <= Axis::mouse_wheel;
}

struct KeyEdge {
  ScanCode code = 0;
  bool down = false;
  friend bool operator==(const KeyEdge&, const KeyEdge&) = default;
};

struct InputSnapshot {
  std::uint64_t sequence = 0;            // batch number, from 1
  std::vector<KeyEdge> edges;            // this batch's presses and releases, in order
  std::bitset<kScanCodeCount> held;      // down at the end of the batch
  std::array<float, kAxisCount> axes{};  // see the header comment
  bool joystick_present = false;

  [[nodiscard]] bool pressed(ScanCode code) const;   // a down edge in this batch
  [[nodiscard]] bool released(ScanCode code) const;  // an up edge in this batch
  [[nodiscard]] bool is_held(ScanCode code) const { return code < kScanCodeCount && held.test(code); }
  [[nodiscard]] float axis(Axis a) const { return axes[static_cast<std::size_t>(a)]; }
  friend bool operator==(const InputSnapshot&, const InputSnapshot&) = default;
};

// Recorded snapshots (tests, viewer recordings): {"sequence", "edges": [[code, 0|1]...],
// "held": [codes...], "axes": [8 numbers], "joystick": bool}. Errors: input.snapshot (a field
// missing or of the wrong type, a scan code out of range, a non-finite axis).
core::Json snapshot_to_json(const InputSnapshot& snapshot);
core::Result<InputSnapshot> snapshot_from_json(const core::Json& json);

// Collects platform events into the current batch.
class InputCollector {
 public:
  void key(ScanCode code, bool down);  // codes >= kScanCodeCount are ignored
  void mouse_motion(float dx, float dy);
  void mouse_wheel(float delta);
  void joystick_axis(Axis axis, float value);  // clamped to [-1, 1]; ignored without a joystick
  void joystick_button(std::size_t index, bool down);
  // Connecting starts from a clean state; losing it (hot-unplug, lost acquisition) resets every
  // joystick axis to 0 and releases the held joystick buttons with up edges.
  void joystick_connected(bool present);
  // Ends the batch: the snapshot of it; the next batch starts without edges or mouse motion.
  InputSnapshot take();

 private:
  InputSnapshot current_;
  std::uint64_t next_sequence_ = 1;
};

enum class ManualCommand : std::uint16_t {
  camera_left,
  camera_right,
  camera_up,
  camera_down,
  camera_center,
  camera_angle_x,  // MCMD_ANGLE_X
  camera_angle_y,  // MCMD_ANGLE_Y
  camera_zoom,
  unit_forward,
  unit_back,
  unit_left,
  unit_right,
};
inline constexpr std::size_t kManualCommandCount = 12;
std::string_view to_string(ManualCommand command);  // "CMD_CAMERA_LEFT", "MCMD_ANGLE_X", ...

enum class WrapMode : std::uint8_t { wrap, no_wrap };  // MAN_WRAP, MAN_NOTWRAP
enum class BindingKind : std::uint8_t {
  state,  // MCMD_STATE: a held key; the value ramps 0 -> coefficient over ramp_ms of game time
  edge,   // a press edge: the command fires once
  axis,   // an analog axis: coefficient * the axis beyond the dead zone
};

struct ManualBinding {
  ManualCommand command = ManualCommand::camera_left;
  BindingKind kind = BindingKind::state;
  ScanCode key = 0;           // state / edge
  Axis axis = Axis::mouse_x;  // axis
  float coefficient = 1.0f;
  float dead_zone = 0.0f;     // |axis| <= dead_zone reads 0; beyond it the value starts at 0
  std::uint32_t ramp_ms = 0;  // state: 0 = full value at once
  WrapMode wrap = WrapMode::no_wrap;
};

struct ManualState {
  std::array<float, kManualCommandCount> value{};
  std::array<bool, kManualCommandCount> fired{};
  std::array<WrapMode, kManualCommandCount> wrap{};
  [[nodiscard]] float operator[](ManualCommand c) const { return value[static_cast<std::size_t>(c)]; }
  [[nodiscard]] bool triggered(ManualCommand c) const { return fired[static_cast<std::size_t>(c)]; }
  [[nodiscard]] WrapMode wrap_of(ManualCommand c) const { return wrap[static_cast<std::size_t>(c)]; }
};

// Evaluates the bindings against one snapshot and the game time it covers. Several bindings of
// one command add up.
class ManualCommands {
 public:
  explicit ManualCommands(std::vector<ManualBinding> bindings = default_bindings());
  // Arrows (camera), mouse (angles, wheel zoom), joystick X/Y (angles, dead zone 0.15),
  // Home (center), W/A/S/D (unit driving).
  static std::vector<ManualBinding> default_bindings();
  ManualState update(const InputSnapshot& snapshot, std::uint64_t game_dt_us);
  [[nodiscard]] const std::vector<ManualBinding>& bindings() const { return bindings_; }

 private:
  std::vector<ManualBinding> bindings_;
  std::vector<std::uint64_t> held_us_;  // per binding: game time its key has been held
};

// Keyboard scan codes used by the default bindings (set 1, as WinMsg2ScanCode gives them).
namespace scan {
inline constexpr ScanCode kW = 0x11, kA = 0x1E, kS = 0x1F, kD = 0x20;
inline constexpr ScanCode kHome = 0xC7, kUp = 0xC8, kLeft = 0xCB, kRight = 0xCD, kDown = 0xD0;
}  // namespace scan

}  // namespace sortie::move
