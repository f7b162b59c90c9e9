#pragma once
// The mission game's controls and picture without a window (issue #19 parts 1-3): what
// sortie-viewer's mission mode does with the player's clicks and keys, drawn over the mission
// scene. The simulation is a mission::GameSession (game_session.hpp): a mission::PlaySession in
// the viewer's own game, a net::JoinPlay for a player joined to a server; everything the player
// orders goes through it (registered movement commands, logged and replayed). When the session
// does not run its own ticks (a server does), pause and game speed have no effect.
//
//   MissionGame game(play, scene, ids);
//   events:  game.click(cam, vp, x, y, shift) / game.box(...) / game.order(cam, vp, x, y) / game.stop()
//            game.store_group(n) / game.recall_group(n) / game.toggle_pilot() / game.set_speed(s)
//   frame:   game.advance(dt_us);                       // paced fixed ticks (pause, 1x/2x/4x)
//            draws = scene draws + game.overlay(...);   // rings, paths, order flashes
//            renderer.render(...); game.draw_hud(fb);   // objectives, selection, messages, minimap
//
// Selection holds only commandable units (GameSession::commandable: a live unit with a moving body
// of the player's clan, or owned by the joined player); units that die or stop being commandable
// drop out at the next advance().
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/mission/game_session.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/framebuffer.hpp"
#include "sortie/render/mission_scene.hpp"
#include "sortie/world/clock.hpp"

namespace sortie::game {

struct MissionGameOptions {
  float pick_radius_px = 14.0f;       // a click selects the nearest own unit within this (screen pixels)
  int minimap_size = 168;             // pixels (square), at the bottom right
  double flash_seconds = 1.0;         // how long an order's goal flashes
  std::uint32_t message_seconds = 8;  // how long a script message stays (game time)
};

struct Rect {
  int x = 0, y = 0, width = 0, height = 0;
  [[nodiscard]] bool contains(int px, int py) const { return px >= x && py >= y && px < x + width && py < y + height; }
};

class MissionGame {
 public:
  MissionGame(mission::GameSession& play, const render::MissionScene& scene, MissionGameOptions options = {});
  ~MissionGame();
  MissionGame(const MissionGame&) = delete;
  MissionGame& operator=(const MissionGame&) = delete;

  // Selection (screen pixels through `camera` and `viewport`). click: the nearest own unit
  // within pick_radius_px of (x, y), or nothing; `add` toggles it in the selection instead of
  // replacing it. box: every own unit whose position projects inside the rectangle.
  void click(const render::Camera& camera, const render::Viewport& viewport, float x, float y, bool add);
  void box(const render::Camera& camera, const render::Viewport& viewport, float x0, float y0, float x1, float y1,
           bool add);
  void select(std::span<const world::ObjectId> units, bool add = false);
  [[nodiscard]] const std::vector<world::ObjectId>& selection() const { return selection_; }

  // Right click: on a unit or placed object (not one of the selection), the selection follows
  // it; on the terrain, it goes there in formation. Returns the units ordered.
  std::size_t order(const render::Camera& camera, const render::Viewport& viewport, float x, float y);
  std::size_t order_at(core::Vec2 point);  // the same for a ground point
  std::size_t stop();                      // S

  // Groups 1..9: Ctrl+digit stores the selection, digit recalls it (false: empty group).
  void store_group(int n);
  bool recall_group(int n);

  // Piloting: the first selected unit is driven by drive(); again leaves. False when nothing is
  // selected (entering) .
  bool toggle_pilot();
  [[nodiscard]] std::optional<world::ObjectId> pilot() const { return pilot_; }
  // The pilot's manual speed and turn (from move::ViewerControls::drive); no-op without a pilot.
  void drive(float speed, float turn);

  // Time: paused, or 1, 2 or 4 ticks of game time per platform tick.
  void set_paused(bool paused) { paused_ = paused; }
  [[nodiscard]] bool paused() const { return paused_; }
  void set_speed(int speed);  // 1, 2 or 4 (others are rounded down to one of them)
  [[nodiscard]] int speed() const { return speed_; }

  // Runs the fixed ticks `dt_us` of platform time holds (at the game speed, none when paused or
  // decided, or when a server runs the ticks; at most 8 per call), prunes the selection, ages
  // flashes and messages.
  core::Status advance(std::uint64_t dt_us);
  [[nodiscard]] std::uint32_t ticks_last_advance() const { return ticks_last_; }

  // Rings under the selected units, their paths and follow lines, and the flashing goals of the
  // latest orders: draw calls in world space, valid until the next overlay() call.
  [[nodiscard]] std::span<const render::DrawCall> overlay();

  // The HUD into `target` after the scene: objectives (top right), the selection (bottom left),
  // script messages (top centre), speed / pause, the minimap with the camera's footprint
  // (`camera` over `viewport`), and the outcome screen once the mission is decided.
  void draw_hud(render::Framebuffer& target, const render::Camera& camera, const render::Viewport& viewport) const;
  // Where the minimap is in a target of that size, and the ground point under (x, y) inside it.
  [[nodiscard]] Rect minimap_rect(int width, int height) const;
  [[nodiscard]] std::optional<core::Vec2> minimap_point(int x, int y, int width, int height) const;

  // The lines the HUD shows (also printed by the viewer for scripted tests).
  [[nodiscard]] std::vector<std::string> objective_lines() const;
  [[nodiscard]] std::vector<std::string> selection_lines() const;
  [[nodiscard]] std::string outcome_line() const;  // empty while undecided

  [[nodiscard]] mission::GameSession& play() { return play_; }
  [[nodiscard]] const mission::GameSession& play() const { return play_; }

 private:
  struct Draw;
  [[nodiscard]] std::optional<world::ObjectId> unit_near(const render::Camera& camera, const render::Viewport& viewport,
                                                         float x, float y, bool own_only) const;
  void prune();

  mission::GameSession& play_;
  const render::MissionScene& scene_;
  MissionGameOptions options_;
  std::vector<world::ObjectId> selection_;
  std::array<std::vector<world::ObjectId>, 10> groups_{};
  std::optional<world::ObjectId> pilot_;
  bool paused_ = false;
  int speed_ = 1;
  world::StepPacer pacer_;
  std::uint32_t ticks_last_ = 0;
  struct Flash {
    core::Vec3 at;
    double age = 0.0;
    bool follow = false;
  };
  std::vector<Flash> flashes_;
  std::unique_ptr<Draw> draw_;
};

// 2-D drawing straight into the colour plane, clipped: a rectangle blended by colour.a, and its
// one-pixel outline.
void fill_rect(render::Framebuffer& target, Rect r, render::Rgba8 color);
void frame_rect(render::Framebuffer& target, Rect r, render::Rgba8 color);

// A centred menu panel: the title and the items, the selected one highlighted.
void draw_menu(render::Framebuffer& target, std::string_view title, std::span<const std::string> items,
               std::size_t selected);

}  // namespace sortie::game
