#pragma once
// The mission game's mouse and keys in the window (issue #19 parts 1 and 7): what the mission
// mode (a local mission::PlaySession) and the join mode (a net::JoinPlay on the server's session)
// share, over game::MissionGame and the one mission::GameSession interface.
//   left click / drag: select own units (Shift adds); Ctrl+1..9 store a group, 1..9 recall it;
//   right click: go there in formation (on a unit: follow it; on the minimap: go there);
//   S stop; Enter or F pilot the first selected unit (W/S drive, A/D turn, arrows and right drag
//   turn the camera, Enter leaves); P or Space pause and + / - game speed (a local game only).
// Everything else (and a right drag: mouse look) goes to the flight camera. Stdout: "game: ..."
// lines for selections, orders and the status (the scripted tests read them).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "flight_input.hpp"
#include "input.hpp"
#include "sortie/game/mission_game.hpp"
#include "sortie/mission/game_session.hpp"
#include "sortie/move/camera.hpp"
#include "sortie/render/camera.hpp"
#include "sortie/render/framebuffer.hpp"

namespace sortie::viewer {

// The live object `id` of `w` (nullptr: gone or pending deletion).
const world::WorldObject* live_object(const world::World& w, world::ObjectId id);

class GameControls {
 public:
  // `flight_camera`: the camera of the flight's pose (used when not piloting); `set_pose`: moves
  // the flight (a minimap jump); `ground_z`: the height the jump puts the look-at point at.
  GameControls(mission::GameSession& session, const render::MissionScene& scene, FlightInput& flight,
               std::function<render::Camera()> flight_camera, std::function<void(const render::CameraPose&)> set_pose,
               float ground_z);

  // A click that selected nothing (the mission mode describes the object under it).
  std::function<void(int, int)> on_empty_click;

  // The event, the game's or the flight's.
  void on_event(const InputEvent& e, const InputState& state, int width, int height);
  // One frame: the pilot's drive, the game's ticks (a local game), the flight or pilot camera.
  core::Status step(std::uint64_t dt_us, std::uint32_t width, std::uint32_t height);
  [[nodiscard]] render::Camera camera(float aspect) const;
  // After the scene: the selection box and the HUD.
  void draw(render::Framebuffer& target, const render::Camera& camera) const;

  [[nodiscard]] game::MissionGame& game() { return game_; }
  [[nodiscard]] const game::MissionGame& game() const { return game_; }
  [[nodiscard]] bool piloting() const { return game_.pilot().has_value(); }
  [[nodiscard]] const move::CameraFrame& pilot_frame() const { return pilot_camera_; }
  [[nodiscard]] const std::string& status() const { return status_; }
  void say(std::string text);

 private:
  struct Press {
    bool down = false;
    int x = 0, y = 0;
    int max_move = 0;  // the largest distance from the press, pixels (Chebyshev)
  };
  static constexpr int kDragPixels = 5;
  static constexpr float kPilotTurn = 1.6f;  // rad/s at full left/right

  bool game_key(Key key, const InputState& state);
  bool mouse_event(const InputEvent& e, const InputState& state);
  void pilot_event(const InputEvent& e, const InputState& state);
  void toggle_pilot();
  void jump_to(core::Vec2 point);
  void print_selection();
  void print_order();
  [[nodiscard]] std::optional<core::Vec3> unit_position(world::ObjectId id) const;
  [[nodiscard]] render::Viewport viewport() const {
    return {0, 0, static_cast<int>(width_), static_cast<int>(height_)};
  }

  mission::GameSession& session_;
  game::MissionGame game_;
  FlightInput& flight_;
  std::function<render::Camera()> flight_camera_;
  std::function<void(const render::CameraPose&)> set_pose_;
  float ground_z_ = 0.0f;
  move::ViewerControls pilot_;
  move::InputCollector pilot_input_;
  move::CameraFrame pilot_camera_;
  Press left_, right_;
  int mouse_x_ = 0, mouse_y_ = 0;
  std::string status_;
  std::uint32_t width_ = 1280;
  std::uint32_t height_ = 720;
};

}  // namespace sortie::viewer
