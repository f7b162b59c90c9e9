// The mission game's mouse and keys (game_controls.hpp).
#include "game_controls.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "mission_view.hpp"
#include "sortie/world/world.hpp"

namespace sortie::viewer {

const world::WorldObject* live_object(const world::World& w, world::ObjectId id) {
  const auto h = w.lookup(id);
  const world::WorldObject* o = h ? w.find(*h) : nullptr;
  return o != nullptr && !o->pending_delete() ? o : nullptr;
}

GameControls::GameControls(mission::GameSession& session, const render::MissionScene& scene, FlightInput& flight,
                           std::function<render::Camera()> flight_camera,
                           std::function<void(const render::CameraPose&)> set_pose, float ground_z)
    : session_(session),
      game_(session, scene),
      flight_(flight),
      flight_camera_(std::move(flight_camera)),
      set_pose_(std::move(set_pose)),
      ground_z_(ground_z) {}

void GameControls::say(std::string text) {
  std::cout << "game: " << text << "\n";
  status_ = std::move(text);
}

void GameControls::on_event(const InputEvent& e, const InputState& state, int width, int height) {
  width_ = static_cast<std::uint32_t>(std::max(1, width));
  height_ = static_cast<std::uint32_t>(std::max(1, height));
  if (e.type == InputEvent::Type::key_down && game_key(e.key, state)) return;
  if (e.type == InputEvent::Type::mouse_down || e.type == InputEvent::Type::mouse_up ||
      e.type == InputEvent::Type::mouse_move)
    if (mouse_event(e, state)) return;
  if (game_.pilot()) {
    pilot_event(e, state);
  } else {
    flight_.on_event(e, state);
  }
}

core::Status GameControls::step(std::uint64_t dt_us, std::uint32_t width, std::uint32_t height) {
  width_ = width;
  height_ = height;
  if (const auto unit = game_.pilot()) {
    // Third person: the camera stays behind the unit's heading (arrows and right drag turn it
    // for the frame, the heading brings it back).
    if (const auto* o = live_object(session_.world(), *unit)) pilot_.camera().set_yaw(o->transform.orientation.z);
    pilot_camera_ = pilot_.update(pilot_input_.take(), dt_us, unit_position(*unit));
    if (const auto d = pilot_.drive(*unit, session_.options().max_drive_speed, kPilotTurn))
      game_.drive(d->speed, d->turn);
  }
  SORTIE_CHECK(game_.advance(dt_us));
  if (!game_.pilot()) flight_.step(dt_us, width_, height_);
  return {};
}

render::Camera GameControls::camera(float aspect) const {
  if (game_.pilot()) {
    const auto& v = pilot_camera_.view;
    return render::Camera::perspective(v.position, v.position + v.forward(), v.up(), kSceneVfov, aspect,
                                       pilot_camera_.near_plane, pilot_camera_.far_plane);
  }
  return flight_camera_();
}

void GameControls::draw(render::Framebuffer& target, const render::Camera& camera) const {
  if (left_.down && left_.max_move > kDragPixels) {  // the selection box
    const game::Rect box{std::min(left_.x, mouse_x_), std::min(left_.y, mouse_y_), std::abs(mouse_x_ - left_.x) + 1,
                         std::abs(mouse_y_ - left_.y) + 1};
    game::fill_rect(target, box, render::Rgba8{90, 255, 120, 40});
    game::frame_rect(target, box, render::Rgba8{90, 255, 120, 255});
  }
  game_.draw_hud(target, camera, {0, 0, static_cast<int>(target.width()), static_cast<int>(target.height())});
}

std::optional<core::Vec3> GameControls::unit_position(world::ObjectId id) const {
  const world::WorldObject* o = live_object(session_.world(), id);
  if (o == nullptr) return std::nullopt;
  return o->transform.position + core::Vec3{0.0f, 0.0f, 1.5f};
}

bool GameControls::game_key(Key key, const InputState& state) {
  const int digit = key == Key::digit1   ? 1
                    : key == Key::digit2 ? 2
                    : key == Key::digit3 ? 3
                    : key >= Key::digit4 && key <= Key::digit9
                        ? 4 + static_cast<int>(key) - static_cast<int>(Key::digit4)
                        : 0;
  if (digit > 0) {
    if (state.down(Key::ctrl)) {
      game_.store_group(digit);
      say(fmt::format("group {}: {} units", digit, game_.selection().size()));
    } else {
      say(game_.recall_group(digit) ? fmt::format("group {} selected", digit)
                                    : fmt::format("group {} is empty", digit));
    }
    return true;
  }
  const bool local_time = session_.runs_ticks();
  switch (key) {
    case Key::enter:
    case Key::f:
      toggle_pilot();
      return true;
    case Key::s:
      if (game_.pilot() || game_.selection().empty()) return false;  // S flies (or drives) then
      say(fmt::format("stop: {} units", game_.stop()));
      return true;
    case Key::p:
    case Key::space:
      if (!local_time) return false;  // the server's clock
      game_.set_paused(!game_.paused());
      say(game_.paused() ? "paused" : "resumed");
      return true;
    case Key::plus:
      if (!local_time) return false;
      game_.set_speed(game_.speed() * 2);
      say(fmt::format("speed {}x", game_.speed()));
      return true;
    case Key::minus:
      if (!local_time) return false;
      game_.set_speed(game_.speed() / 2);
      say(fmt::format("speed {}x", game_.speed()));
      return true;
    default:
      return false;
  }
}

// Left: click or drag-box selection (Shift adds), a click on the minimap moves the camera
// there. Right: a click orders (on the minimap: go there), a drag looks around.
bool GameControls::mouse_event(const InputEvent& e, const InputState& state) {
  const render::Viewport vp = viewport();
  const float aspect = static_cast<float>(vp.width) / static_cast<float>(std::max(1, vp.height));
  if (e.type == InputEvent::Type::mouse_move) {
    mouse_x_ = e.x != 0 || e.y != 0 ? e.x : mouse_x_ + e.dx;
    mouse_y_ = e.x != 0 || e.y != 0 ? e.y : mouse_y_ + e.dy;
    for (Press* p : {&left_, &right_})
      if (p->down) p->max_move = std::max({p->max_move, std::abs(mouse_x_ - p->x), std::abs(mouse_y_ - p->y)});
    return false;  // the flight's mouse look sees it too
  }
  mouse_x_ = e.x;
  mouse_y_ = e.y;
  Press& p = e.button == 1 ? left_ : right_;
  if (e.button != 1 && e.button != 3) return false;
  if (e.type == InputEvent::Type::mouse_down) {
    p = Press{true, e.x, e.y, 0};
    return e.button == 1;  // the right button starts the flight's mouse look
  }
  const bool click = p.down && p.max_move <= kDragPixels;
  p.down = false;
  const auto on_map = game_.minimap_point(e.x, e.y, vp.width, vp.height);
  const render::Camera cam = camera(aspect);
  if (e.button == 1) {
    if (click && on_map) {
      jump_to(*on_map);
    } else if (click) {
      game_.click(cam, vp, static_cast<float>(e.x) + 0.5f, static_cast<float>(e.y) + 0.5f, state.down(Key::shift));
      if (game_.selection().empty() && on_empty_click) on_empty_click(e.x, e.y);
      print_selection();
    } else {
      game_.box(cam, vp, static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(e.x),
                static_cast<float>(e.y), state.down(Key::shift));
      print_selection();
    }
    return true;
  }
  if (!click) return false;  // the end of a mouse look
  const std::size_t n = on_map ? game_.order_at(*on_map)
                               : game_.order(cam, vp, static_cast<float>(e.x) + 0.5f, static_cast<float>(e.y) + 0.5f);
  if (n > 0) print_order();
  return false;  // the flight's button state is released too
}

void GameControls::print_selection() {
  std::string ids;
  for (const auto& id : game_.selection()) ids += " " + id.to_string();
  std::cout << fmt::format("game: select {} units{}\n", game_.selection().size(), ids);
}

void GameControls::print_order() {
  const auto a = session_.last_action();
  if (!a) return;
  std::string what;
  if (a->kind == mission::ActionKind::go) what = fmt::format("go {:.1f},{:.1f}", a->point.x, a->point.y);
  if (a->kind == mission::ActionKind::follow) what = "follow " + a->target.to_string();
  std::cout << fmt::format("game: order tick {} {} units {}\n", a->tick, a->units.size(), what);
}

void GameControls::jump_to(core::Vec2 point) {
  render::CameraPose pose = flight_.pose();
  const core::Vec3 fwd = render::pose_forward(pose);
  // Keep the height and the angle; put the look-at point on the ground at `point`.
  const float t = std::fabs(fwd.z) > 1e-3f ? (pose.eye.z - ground_z_) / -fwd.z : 50.0f;
  pose.eye.x = point.x - fwd.x * t;
  pose.eye.y = point.y - fwd.y * t;
  set_pose_(pose);
}

void GameControls::toggle_pilot() {
  const std::optional<world::ObjectId> was = game_.pilot();
  if (!game_.toggle_pilot()) {
    say("select a unit to pilot");
    return;
  }
  if (const auto unit = game_.pilot()) {
    move::CameraSettings cs;
    cs.distance = 22.0f;
    cs.default_pitch = 0.42f;
    cs.vertical_fov = kSceneVfov;
    cs.viewport_width = width_;
    cs.viewport_height = height_;
    pilot_ = move::ViewerControls(cs);
    pilot_input_ = move::InputCollector();
    pilot_.camera().set_mode(move::CameraMode::follow);
    const auto at = unit_position(*unit).value_or(core::Vec3{});
    pilot_.camera().follow(*unit, at);
    pilot_.camera().set_center(at);
    if (const auto* o = live_object(session_.world(), *unit)) pilot_.camera().set_yaw(o->transform.orientation.z);
    pilot_camera_ = pilot_.update(pilot_input_.take(), 0, at);
    say(fmt::format("piloting {} at {:.1f},{:.1f}: W/S drive, A/D turn, Enter leaves", unit->to_string(), at.x, at.y));
  } else {
    const auto at = unit_position(*was).value_or(core::Vec3{});
    say(fmt::format("piloting {} ended at {:.1f},{:.1f}", was->to_string(), at.x, at.y));
  }
}

void GameControls::pilot_event(const InputEvent& e, const InputState& state) {
  if (e.type == InputEvent::Type::key_down || e.type == InputEvent::Type::key_up) {
    if (const auto code = scan_code(e.key); code != 0) pilot_input_.key(code, e.type == InputEvent::Type::key_down);
  } else if (e.type == InputEvent::Type::mouse_move && state.buttons[3]) {
    pilot_input_.mouse_motion(static_cast<float>(e.dx), static_cast<float>(e.dy));
  } else if (e.type == InputEvent::Type::wheel) {
    pilot_input_.mouse_wheel(static_cast<float>(e.wheel));
  }
}

}  // namespace sortie::viewer
