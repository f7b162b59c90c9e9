#include "flight_input.hpp"

namespace sortie::viewer {

namespace {
// The viewer's other keys, set 1 (libs/move names the ones its bindings and free flight read).
constexpr move::ScanCode kSpace = 0x39, kTab = 0x0F, kEscape = 0x01, kF12 = 0x58, kDigit1 = 0x02, kDigit2 = 0x03,
                         kDigit3 = 0x04, kO = 0x18, kP = 0x19, kN = 0x31, kR = 0x13, kDigit4 = 0x05, kCtrl = 0x1D,
                         kEnter = 0x1C, kF = 0x21, kF5 = 0x3F, kF9 = 0x43, kPlus = 0x0D, kMinus = 0x0C;
}  // namespace

move::ScanCode scan_code(Key key) {
  switch (key) {
    case Key::w:
      return move::scan::kW;
    case Key::a:
      return move::scan::kA;
    case Key::s:
      return move::scan::kS;
    case Key::d:
      return move::scan::kD;
    case Key::q:
      return move::scan::kQ;
    case Key::e:
      return move::scan::kE;
    case Key::shift:
      return move::scan::kShift;
    case Key::space:
      return kSpace;
    case Key::f12:
      return kF12;
    case Key::escape:
      return kEscape;
    case Key::tab:
      return kTab;
    case Key::left:
      return move::scan::kLeft;
    case Key::right:
      return move::scan::kRight;
    case Key::up:
      return move::scan::kUp;
    case Key::down:
      return move::scan::kDown;
    case Key::home:
      return move::scan::kHome;
    case Key::digit1:
      return kDigit1;
    case Key::digit2:
      return kDigit2;
    case Key::digit3:
      return kDigit3;
    case Key::digit4:
    case Key::digit5:
    case Key::digit6:
    case Key::digit7:
    case Key::digit8:
    case Key::digit9:
      return static_cast<move::ScanCode>(kDigit4 + static_cast<int>(key) - static_cast<int>(Key::digit4));
    case Key::ctrl:
      return kCtrl;
    case Key::enter:
      return kEnter;
    case Key::f:
      return kF;
    case Key::f5:
      return kF5;
    case Key::f9:
      return kF9;
    case Key::plus:
      return kPlus;
    case Key::minus:
      return kMinus;
    case Key::o:
      return kO;
    case Key::p:
      return kP;
    case Key::n:
      return kN;
    case Key::r:
      return kR;
    case Key::none:
    case Key::count:
      break;
  }
  return 0;
}

FlightInput::FlightInput() {
  publisher_.add_sink("renderer", [this](const move::CameraFrame& f) {
    if (flight_) pose_ = {flight_->eye(), flight_->yaw(), flight_->pitch()};
    (void)f;
  });
}

void FlightInput::add_listener(std::function<void(const move::CameraFrame&)> sink) {
  publisher_.add_sink("listener", std::move(sink));
}

void FlightInput::on_event(const InputEvent& e, const InputState& state) {
  switch (e.type) {
    case InputEvent::Type::key_down:
    case InputEvent::Type::key_up:
      if (const auto code = scan_code(e.key); code != 0) collector_.key(code, e.type == InputEvent::Type::key_down);
      break;
    case InputEvent::Type::mouse_move:
      if (state.buttons[3]) collector_.mouse_motion(static_cast<float>(e.dx), static_cast<float>(e.dy));
      break;
    case InputEvent::Type::wheel:
      collector_.mouse_wheel(static_cast<float>(e.wheel));
      break;
    default:
      break;
  }
}

void FlightInput::start(const render::CameraPose& pose, float speed, float vertical_fov) {
  move::FlightStart s;
  s.eye = pose.eye;
  s.yaw = pose.yaw;
  s.pitch = pose.pitch;
  s.speed = speed;
  s.vertical_fov = vertical_fov;
  flight_.emplace(s);
  pose_ = {flight_->eye(), flight_->yaw(), flight_->pitch()};
}

void FlightInput::step(std::uint64_t game_dt_us, std::uint32_t width, std::uint32_t height) {
  const move::InputSnapshot snapshot = collector_.take();
  if (!flight_) return;
  publisher_.publish(flight_->update(snapshot, game_dt_us, width, height));
}

}  // namespace sortie::viewer
