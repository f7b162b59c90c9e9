// The mission mode (default): `sortie-viewer [GAME_DIR] --mission M [--camera X,Y,Z,YAW,PITCH]
// [--weather FILE|none] [--theme T --variations V | --no-music] [--mute] [--seed N]
// [--save-file F] [--spectate]`. The mission is played (issue #19; the game itself is
// libs/game mission_game.hpp over mission::PlaySession): the player's clan obeys the mouse, the
// other clans their scenario and SuperAI, the world ticking at its fixed step.
//   left click / drag: select own units (Shift adds); Ctrl+1..9 store a group, 1..9 recall it;
//   right click: go there in formation (on a unit: follow it; on the minimap: go there);
//   S stop; Enter or F pilot the first selected unit (W/S drive, A/D turn, arrows and right drag
//   turn the camera, Enter leaves); P or Space pause; + / - game speed 1x, 2x, 4x;
//   F5 / F9 quick save / load (--save-file); Escape: the menu (resume, restart, save, load, quit).
// The camera flies as in --spectate (flight_input.hpp: WASD, Q/E, arrows and right drag to look,
// Home, Shift, wheel), a left click on the minimap moves it there. The mission's ambient music
// and the weather's sounds and particles play on the same camera frame. Stdout: "game: ..."
// lines for selections, orders, messages, saves and the outcome (the scripted tests read them).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>

#include "flight_input.hpp"
#include "mission_view.hpp"
#include "sdl_audio_backend.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/env/ambience.hpp"
#include "sortie/env/mission_music.hpp"
#include "sortie/env/weather_schedule.hpp"
#include "sortie/game/mission_game.hpp"
#include "sortie/mission/play_session.hpp"
#include "sortie/mission/save_game.hpp"
#include "sortie/move/camera.hpp"
#include "sortie/render/mission_render.hpp"
#include "sortie/render/view_spec.hpp"
#include "sortie/render/weather.hpp"
#include "sortie/world/world.hpp"
#include "viewer_mode.hpp"

namespace sortie::viewer {
namespace {

struct MissionOptions {
  std::string game_dir;
  std::string mission;
  std::string camera;
  std::string overlay;
  std::string sample_scale = "demo";
  env::AmbienceOptions ambience;
  AudioOutputOptions output;
  std::string weather;  // a host file, "none", or empty: the mission's sky.weather
  std::string theme;
  std::string variations;
  bool no_music = false;
  bool spectate = false;  // fly only: no scenario, no orders, no HUD (the old viewer)
  std::uint64_t seed = 1;
  std::string save_file;
  bool camera_given = false;  // --camera: the game keeps that view
};

// The mission's own weather: the schedule in MISSIONS/<m>/sky.weather (sortie's text form,
// docs/weather-schedule.md), nullopt when there is none; a broken file is an error.
core::Result<std::optional<env::WeatherSchedule>> mission_weather(const mission::GameContext& game,
                                                                  const assets::MissionData& data) {
  const std::string_view dir = data.tma_path.parent();
  SORTIE_TRY(auto path,
             assets::normalize_path(dir.empty() ? std::string("sky.weather") : fmt::format("{}/sky.weather", dir),
                                    assets::PathPolicy::host_compatible));
  if (!game.vfs().exists(path)) return std::optional<env::WeatherSchedule>();
  SORTIE_TRY(auto bytes, game.vfs().read(path));
  SORTIE_TRY(auto schedule, env::read_weather_text(bytes, path.path));
  return std::optional<env::WeatherSchedule>(std::move(schedule));
}

// Music and weather: the mission's (mission.cfg, sky.weather) unless the command line says
// otherwise (--theme/--variations replace the music, --no-music drops it; --weather FILE
// replaces the schedule, --weather none drops it). mission.cfg warnings go to stderr.
core::Status choose_ambience(const MissionOptions& o, const MissionView& view, env::AmbienceOptions& ao) {
  const mission::LoadedMission* loaded = view.loaded();
  const assets::MissionData* data = loaded != nullptr ? loaded->data.get() : nullptr;
  if (data == nullptr) return {};  // nothing loaded: nothing of the mission's to play
  if (!o.theme.empty() || !o.variations.empty()) {
    if (!o.theme.empty()) ao.music.theme = env::SoundRef::parse(o.theme);
    for (std::size_t at = 0; at < o.variations.size();) {
      const auto comma = std::min(o.variations.find(',', at), o.variations.size());
      if (comma > at) ao.music.default_pool.push_back(o.variations.substr(at, comma - at));
      at = comma + 1;
    }
  } else if (!o.no_music) {
    if (auto m = env::ambient_music_from_mission(*data)) {
      for (const auto& w : m->warnings) std::cerr << "warning: " << w.to_string() << "\n";
      ao.music = std::move(m->config);
    }
  }
  if (o.weather == "none") return {};
  if (o.weather.empty()) {
    SORTIE_TRY(ao.weather, mission_weather(view.game, *data));
    return {};
  }
  SORTIE_TRY(auto bytes, core::read_file(o.weather));
  SORTIE_TRY(auto schedule, env::read_weather_text(bytes, o.weather));
  ao.weather = std::move(schedule);
  return {};
}

// What a left or right button press started: a click or a drag (selection box / mouse look).
struct Press {
  bool down = false;
  int x = 0, y = 0;
  int max_move = 0;  // the largest distance from the press, pixels (Chebyshev)
};

constexpr int kDragPixels = 5;

class MissionMode final : public ViewerMode {
 public:
  MissionMode(MissionView view, const MissionOptions& options, std::unique_ptr<env::Ambience> ambience)
      : view_(std::move(view)), options_(options), ambience_(std::move(ambience)) {
    options_.camera_given = !options_.camera.empty();
    // The listener and the weather take the same camera frame as the renderer, after it.
    input_.add_listener([this](const move::CameraFrame& f) { listen(f.view); });
  }

  // The game: the mission's scenario with the player's clan in the player's hands.
  core::Status start_play() {
    if (options_.spectate) return {};
    SORTIE_TRY(auto play, mission::PlaySession::start(*view_.game.current(), play_options()));
    adopt(std::move(play));
    return {};
  }

  void set_pose(const render::CameraPose& pose) { input_.start(pose, view_.speed(), kSceneVfov); }

  [[nodiscard]] std::string title() const override { return "sortie-viewer: " + view_.mission; }
  [[nodiscard]] bool handles_escape() const override { return game_ != nullptr; }
  [[nodiscard]] bool wants_quit() const override { return quit_; }

  void on_event(const InputEvent& e, const InputState& state, int width, int height) override {
    width_ = static_cast<std::uint32_t>(std::max(1, width));
    height_ = static_cast<std::uint32_t>(std::max(1, height));
    if (!game_) {  // spectating: fly and pick
      input_.on_event(e, state);
      if (e.type == InputEvent::Type::mouse_down && e.button == 1) pick(e.x, e.y);
      return;
    }
    if (menu_) return menu_event(e);
    if (e.type == InputEvent::Type::key_down && game_key(e.key, state)) return;
    if (e.type == InputEvent::Type::mouse_down || e.type == InputEvent::Type::mouse_up ||
        e.type == InputEvent::Type::mouse_move)
      if (mouse_event(e, state)) return;
    if (game_->pilot()) {
      pilot_event(e, state);
    } else {
      input_.on_event(e, state);
    }
  }

  core::Status step(double dt, const InputState&) override {
    const auto dt_us = static_cast<std::uint64_t>(std::llround(dt * 1e6));
    game_us_ += dt_us;
    if (game_ && !menu_) {
      if (game_->pilot()) {
        // Third person: the camera stays behind the unit's heading (arrows and right drag turn it
        // for the frame, the heading brings it back).
        if (const auto* o = view_.loaded()->world->find_live(*game_->pilot()))
          pilot_.camera().set_yaw(o->transform.orientation.z);
        const auto frame = pilot_.update(pilot_input_.take(), dt_us, unit_position(*game_->pilot()));
        pilot_camera_ = frame;
        if (const auto d = pilot_.drive(*game_->pilot(), play_->options().max_drive_speed, kPilotTurn))
          game_->drive(d->speed, d->turn);
      }
      SORTIE_CHECK(game_->advance(dt_us));
      report_progress();
    }
    const world::World& w = *view_.loaded()->world;
    if (w.clock().tick != applied_tick_) {
      view_.scene.apply_snapshot(*w.snapshot(), view_.ids);
      applied_tick_ = w.clock().tick;
    }
    if (game_ && game_->pilot()) {
      listen(pilot_camera_.view);
    } else {
      input_.step(dt_us, width_, height_);
    }
    return {};
  }

  core::Status draw(render::Renderer& renderer, render::Framebuffer& target) override {
    width_ = target.width();
    height_ = target.height();
    aspect_ = static_cast<float>(width_) / static_cast<float>(std::max(1u, height_));
    if (!input_.started()) set_pose(render::default_pose(view_.framing(), aspect_));  // as `sortie render`
    const render::Camera cam = camera();
    render::Frame frame = view_.scene.frame(cam);
    // The picked object carries a marker label (drawn over everything, yellow).
    std::vector<render::Label> labels(frame.labels.begin(), frame.labels.end());
    if (const auto at = selected_ >= 0 ? view_.scene.object_position(selected_) : std::nullopt) {
      render::Label l;
      l.text = fmt::format("[{}]", selected_);
      l.position = *at;
      l.color = render::Rgba8{255, 230, 60, 255};
      l.scale = 2;
      labels.push_back(std::move(l));
      frame.labels = labels;
    }
    std::vector<render::DrawCall> draws(frame.draws.begin(), frame.draws.end());
    if (game_) {
      const auto extra = game_->overlay();
      draws.insert(draws.end(), extra.begin(), extra.end());
      frame.draws = draws;
    }
    // Weather over the scene: rain, snow, the bolt; a strike's flash is a point light.
    std::vector<render::DrawCall> weather_draws;
    render::draw_weather_over(frame, weather_, weather_draws);  // as `sortie render --weather`
    SORTIE_CHECK(renderer.render(frame, target, &stats_));
    if (!game_) return {};
    const render::Viewport vp{0, 0, static_cast<int>(width_), static_cast<int>(height_)};
    if (left_.down && left_.max_move > kDragPixels) {  // the selection box
      const game::Rect box{std::min(left_.x, mouse_x_), std::min(left_.y, mouse_y_), std::abs(mouse_x_ - left_.x) + 1,
                           std::abs(mouse_y_ - left_.y) + 1};
      game::fill_rect(target, box, render::Rgba8{90, 255, 120, 40});
      game::frame_rect(target, box, render::Rgba8{90, 255, 120, 255});
    }
    game_->draw_hud(target, cam, vp);
    if (menu_) game::draw_menu(target, "MENU", kMenu, menu_index_);
    return {};
  }

  [[nodiscard]] std::vector<std::string> hud() const override {
    std::vector<std::string> lines;
    constexpr float kDeg = 180.0f / core::kPi;
    const auto& pose = input_.pose();
    if (game_) {  // the game's HUD shows the rest; keep the top left short (the status panel is in the middle)
      lines.push_back(fmt::format("{} triangles", stats_.triangles_setup));
      if (!status_.empty()) lines.push_back(status_);
      return lines;
    }
    lines.push_back(fmt::format("{}  tick {}  {} triangles drawn  eye {:.1f},{:.1f},{:.1f} yaw {:.0f} pitch {:.0f}",
                                view_.mission, applied_tick_ == ~std::uint64_t{0} ? 0 : applied_tick_,
                                stats_.triangles_setup, pose.eye.x, pose.eye.y, pose.eye.z, pose.yaw * kDeg,
                                pose.pitch * kDeg));
    if (ambience_) {
      const auto& m = ambience_->mixer();
      std::string line = fmt::format("audio {}{}  {} sources", ambience_->backend().name(), m.muted() ? " (muted)" : "",
                                     m.sources().size());
      if (ambience_->has_weather()) {
        line +=
            fmt::format("  weather {} {:.2f}  {} rain, {} snow{}", env::to_string(weather_kind_), weather_intensity_,
                        weather_.rain_lines(), weather_.snow_points(), weather_.flash() > 0.0f ? "  lightning" : "");
      }
      lines.push_back(std::move(line));
    }
    if (!status_.empty()) lines.push_back(status_);
    lines.insert(lines.end(), selection_.begin(), selection_.end());
    return lines;
  }

  int finish() override {
    if (play_)
      std::cout << fmt::format("game: end at tick {} state hash {}\n", play_->tick_number(),
                               core::hash_hex(play_->state_hash()));
    return 0;
  }

 private:
  static constexpr float kPilotTurn = 1.6f;  // rad/s at full left/right
  static inline const std::vector<std::string> kMenu{"Resume", "Restart", "Save (F5)", "Load (F9)", "Quit"};

  mission::PlayOptions play_options() const {
    mission::PlayOptions po;
    po.runtime.seed = options_.seed;
    return po;
  }

  void adopt(std::unique_ptr<mission::PlaySession> play) {
    game_.reset();
    play_ = std::move(play);
    game_ = std::make_unique<game::MissionGame>(*play_, view_.scene);
    applied_tick_ = ~std::uint64_t{0};
    messages_seen_ = 0;
    outcome_printed_ = false;
    units_reported_ = false;
    std::cout << fmt::format("game: {} at tick {}\n", view_.mission, play_->tick_number());
  }

  // The first view of a game: over the player's first unit, looking toward the map's centre.
  void look_at_units() {
    const auto units = play_->player_units();
    if (units.empty()) return;
    const core::Vec3 c = *unit_position(units.front());
    const core::Vec3 centre = view_.framing().center();
    render::CameraPose pose;
    pose.yaw = std::atan2(centre.y - c.y, centre.x - c.x);
    pose.pitch = -0.6f;
    const core::Vec3 fwd = render::pose_forward(pose);
    pose.eye = c - fwd * 55.0f;
    set_pose(pose);
  }

  void listen(const env::CameraFrame& view) {
    if (!ambience_) return;
    const auto* weather = ambience_->update(static_cast<std::int64_t>(game_us_ / 1000), view);
    if (weather == nullptr) return;
    weather_.update(*weather);
    weather_kind_ = weather->weather.kind;
    weather_intensity_ = weather->weather.intensity;
  }

  render::Camera camera() const {
    if (game_ && game_->pilot()) {
      const auto& v = pilot_camera_.view;
      return render::Camera::perspective(v.position, v.position + v.forward(), v.up(), kSceneVfov, aspect_,
                                         pilot_camera_.near_plane, pilot_camera_.far_plane);
    }
    return view_.camera(input_.pose(), aspect_);
  }

  [[nodiscard]] render::Viewport viewport() const {
    return {0, 0, static_cast<int>(width_), static_cast<int>(height_)};
  }

  std::optional<core::Vec3> unit_position(world::ObjectId id) const {
    const world::WorldObject* o = view_.loaded()->world->find_live(id);
    if (o == nullptr) return std::nullopt;
    return o->transform.position + core::Vec3{0.0f, 0.0f, 1.5f};
  }

  // Keys of the game; true when the key was the game's (not the camera's).
  bool game_key(Key key, const InputState& state) {
    const int digit = key == Key::digit1   ? 1
                      : key == Key::digit2 ? 2
                      : key == Key::digit3 ? 3
                      : key >= Key::digit4 && key <= Key::digit9
                          ? 4 + static_cast<int>(key) - static_cast<int>(Key::digit4)
                          : 0;
    if (digit > 0) {
      if (state.down(Key::ctrl)) {
        game_->store_group(digit);
        say(fmt::format("group {}: {} units", digit, game_->selection().size()));
      } else {
        say(game_->recall_group(digit) ? fmt::format("group {} selected", digit)
                                       : fmt::format("group {} is empty", digit));
      }
      return true;
    }
    switch (key) {
      case Key::escape:
        menu_ = true;
        menu_index_ = 0;
        return true;
      case Key::enter:
      case Key::f:
        toggle_pilot();
        return true;
      case Key::s:
        if (game_->pilot() || game_->selection().empty()) return false;  // S flies (or drives) then
        say(fmt::format("stop: {} units", game_->stop()));
        return true;
      case Key::p:
      case Key::space:
        game_->set_paused(!game_->paused());
        say(game_->paused() ? "paused" : "resumed");
        return true;
      case Key::plus:
        game_->set_speed(game_->speed() * 2);
        say(fmt::format("speed {}x", game_->speed()));
        return true;
      case Key::minus:
        game_->set_speed(game_->speed() / 2);
        say(fmt::format("speed {}x", game_->speed()));
        return true;
      case Key::f5:
        quick_save();
        return true;
      case Key::f9:
        quick_load();
        return true;
      default:
        return false;
    }
  }

  // Left: click or drag-box selection (Shift adds), a click on the minimap moves the camera
  // there. Right: a click orders (on the minimap: go there), a drag looks around.
  bool mouse_event(const InputEvent& e, const InputState& state) {
    const render::Viewport vp = viewport();
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
    const auto on_map = game_->minimap_point(e.x, e.y, vp.width, vp.height);
    if (e.button == 1) {
      if (click && on_map) {
        jump_to(*on_map);
      } else if (click) {
        game_->click(camera(), vp, static_cast<float>(e.x) + 0.5f, static_cast<float>(e.y) + 0.5f,
                     state.down(Key::shift));
        if (game_->selection().empty()) pick(e.x, e.y);
        print_selection();
      } else {
        game_->box(camera(), vp, static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(e.x),
                   static_cast<float>(e.y), state.down(Key::shift));
        print_selection();
      }
      return true;
    }
    if (!click) return false;  // the end of a mouse look
    const std::size_t n =
        on_map ? game_->order_at(*on_map)
               : game_->order(camera(), vp, static_cast<float>(e.x) + 0.5f, static_cast<float>(e.y) + 0.5f);
    if (n > 0) print_order();
    return false;  // the flight's button state is released too
  }

  void print_selection() {
    std::string ids;
    for (const auto& id : game_->selection()) ids += " " + id.to_string();
    std::cout << fmt::format("game: select {} units{}\n", game_->selection().size(), ids);
  }

  void print_order() {
    const auto& a = play_->actions().back();
    std::string what;
    if (a.kind == mission::ActionKind::go) what = fmt::format("go {:.1f},{:.1f}", a.point.x, a.point.y);
    if (a.kind == mission::ActionKind::follow) what = "follow " + a.target.to_string();
    std::cout << fmt::format("game: order tick {} {} units {}\n", a.tick, a.units.size(), what);
  }

  void jump_to(core::Vec2 point) {
    render::CameraPose pose = input_.pose();
    const core::Vec3 fwd = render::pose_forward(pose);
    // Keep the height and the angle; put the look-at point on the ground at `point`.
    const float ground = view_.framing().empty() ? 0.0f : view_.framing().center().z;
    const float t = std::fabs(fwd.z) > 1e-3f ? (pose.eye.z - ground) / -fwd.z : 50.0f;
    pose.eye.x = point.x - fwd.x * t;
    pose.eye.y = point.y - fwd.y * t;
    set_pose(pose);
  }

  void toggle_pilot() {
    const std::optional<world::ObjectId> was = game_->pilot();
    if (!game_->toggle_pilot()) {
      say("select a unit to pilot");
      return;
    }
    if (const auto unit = game_->pilot()) {
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
      if (const auto* o = view_.loaded()->world->find_live(*unit)) pilot_.camera().set_yaw(o->transform.orientation.z);
      pilot_camera_ = pilot_.update(pilot_input_.take(), 0, at);
      say(fmt::format("piloting {} at {:.1f},{:.1f}: W/S drive, A/D turn, Enter leaves", unit->to_string(), at.x,
                      at.y));
    } else {
      const auto at = unit_position(*was).value_or(core::Vec3{});
      say(fmt::format("piloting {} ended at {:.1f},{:.1f}", was->to_string(), at.x, at.y));
    }
  }

  void pilot_event(const InputEvent& e, const InputState& state) {
    if (e.type == InputEvent::Type::key_down || e.type == InputEvent::Type::key_up) {
      if (const auto code = scan_code(e.key); code != 0) pilot_input_.key(code, e.type == InputEvent::Type::key_down);
    } else if (e.type == InputEvent::Type::mouse_move && state.buttons[3]) {
      pilot_input_.mouse_motion(static_cast<float>(e.dx), static_cast<float>(e.dy));
    } else if (e.type == InputEvent::Type::wheel) {
      pilot_input_.mouse_wheel(static_cast<float>(e.wheel));
    }
  }

  void menu_event(const InputEvent& e) {
    if (e.type != InputEvent::Type::key_down) return;
    if (e.key == Key::escape) {
      menu_ = false;
    } else if (e.key == Key::up || e.key == Key::w) {
      menu_index_ = (menu_index_ + kMenu.size() - 1) % kMenu.size();
    } else if (e.key == Key::down || e.key == Key::s) {
      menu_index_ = (menu_index_ + 1) % kMenu.size();
    } else if (e.key == Key::enter || e.key == Key::space) {
      menu_ = false;
      switch (menu_index_) {
        case 1:
          restart();
          break;
        case 2:
          quick_save();
          break;
        case 3:
          quick_load();
          break;
        case 4:
          quit_ = true;
          break;
        default:
          break;
      }
    }
  }

  void say(std::string text) {
    std::cout << "game: " << text << "\n";
    status_ = std::move(text);
  }

  [[nodiscard]] std::filesystem::path save_path() const {
    return options_.save_file.empty() ? std::filesystem::path("sortie-quick.save")
                                      : std::filesystem::path(options_.save_file);
  }

  mission::SaveGame current_save() const {
    return mission::play_save(*play_, options_.game_dir, options_.sample_scale, view_.mission, options_.seed);
  }

  void quick_save() {
    const auto s = current_save();
    if (auto st = mission::write_save(save_path(), s); !st) {
      say("save failed: " + st.error().to_string());
      return;
    }
    say(fmt::format("saved tick {} (state hash {}) to {}", s.tick, core::hash_hex(s.state_hash), save_path().string()));
  }

  void quick_load() {
    auto save = mission::read_save(save_path());
    if (!save) {
      say("load refused: " + save.error().to_string());
      return;
    }
    if (save->game != options_.game_dir || save->sample_scale != options_.sample_scale) {
      say("load refused: the save is of another game");
      return;
    }
    replace([&](mission::GameContext& ctx) { return mission::resume_play(ctx, *save, view_.mission, play_options()); },
            fmt::format("loaded tick {} (state hash {})", save->tick, core::hash_hex(save->state_hash)));
  }

  void restart() {
    replace(
        [&](mission::GameContext& ctx) {
          return mission::restart_play(ctx, view_.mission, options_.seed, play_options());
        },
        "restarted");
  }

  // Loads the mission again into a new session; on failure the game goes on from where it was
  // (its own actions re-played to the current tick).
  template <class Make>
  void replace(Make make, const std::string& done) {
    const mission::SaveGame here = current_save();
    game_.reset();
    play_.reset();
    auto next = make(view_.game);
    if (!next) {
      say("refused: " + next.error().to_string());
      next = mission::resume_play(view_.game, here, view_.mission, play_options());
      if (!next) {
        std::cerr << "sortie-viewer: could not restore the game: " << next.error().to_string() << "\n";
        quit_ = true;
        return;
      }
      adopt(std::move(*next));
      return;
    }
    view_.ids = view_.game.current()->ids_by_placement();
    adopt(std::move(*next));
    say(done);
  }

  // Once per frame: script messages and the outcome to stdout (the scripted tests read them).
  void report_progress() {
    if (!units_reported_ && play_->tick_number() > 0) {
      units_reported_ = true;
      std::cout << fmt::format("game: {} units of clan {} to command\n", play_->player_units().size(),
                               play_->player_clan_name());
      if (!options_.camera_given) look_at_units();
    }
    const auto& msgs = play_->messages();
    const std::uint64_t total = play_->message_count();
    for (std::uint64_t i = messages_seen_; i < total; ++i) {
      const std::uint64_t back = total - i;
      if (back <= msgs.size()) std::cout << "game: message: " << msgs[msgs.size() - back].text << "\n";
    }
    messages_seen_ = total;
    if (!outcome_printed_ && play_->decided()) {
      std::cout << "game: " << game_->outcome_line() << "\n";
      outcome_printed_ = true;
    }
  }

  void pick(int x, int y) {
    selection_.clear();
    selected_ = -1;
    const render::Viewport vp = viewport();
    aspect_ = static_cast<float>(vp.width) / static_cast<float>(std::max(1, vp.height));
    const auto hit = view_.scene.pick(camera(), vp, static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
    if (!hit) {
      selection_.push_back("pick: nothing");
    } else if (hit->placed_index < 0) {
      selection_.push_back(
          fmt::format("pick: terrain at {:.1f},{:.1f},{:.1f}", hit->point.x, hit->point.y, hit->point.z));
    } else {
      selected_ = hit->placed_index;
      describe(hit->placed_index);
    }
    for (const auto& l : selection_) std::cout << l << "\n";
  }

  void describe(std::int32_t index) {
    const auto* loaded = view_.loaded();
    if (loaded == nullptr || !loaded->data) return;
    const auto i = static_cast<std::size_t>(index);
    const auto* placement = view_.scene.visuals().placement(index);
    const auto& tma = loaded->data->tma.objects;
    const std::string name = i < tma.size() ? tma[i].instance_name : std::string();
    selection_.push_back(fmt::format("pick: objects[{}] '{}' ({})", index, name,
                                     placement != nullptr ? placement->resource_name : std::string("?")));
    if (i < loaded->objects.size())
      selection_.push_back(
          fmt::format("  id {}  {}", loaded->objects[i].id.to_string(), loaded->objects[i].unit ? "unit" : "object"));
    if (placement != nullptr) {
      std::string protos;
      for (const auto& c : placement->components)
        if (c.prototype != nullptr) protos += (protos.empty() ? "" : ", ") + c.prototype->key;
      selection_.push_back("  prototype: " + protos);
    }
    // The world object's data.tma records (ADR 0020): every one in file order, all four words.
    const world::WorldObject* o =
        i < loaded->objects.size() && loaded->world ? loaded->world->find_live(loaded->objects[i].id) : nullptr;
    if (o != nullptr) {
      std::string props;
      for (const auto& p : o->raw_properties.items())
        props += fmt::format("{}{}={} {} {} {}", props.empty() ? "" : "; ", p.name, p.words[0], p.words[1], p.words[2],
                             p.words[3]);
      selection_.push_back("  properties: " + props);
    }
  }

  MissionView view_;
  MissionOptions options_;
  std::unique_ptr<env::Ambience> ambience_;
  render::WeatherDrawing weather_;
  env::PrecipitationKind weather_kind_ = env::PrecipitationKind::none;
  float weather_intensity_ = 0.0f;
  FlightInput input_;
  std::unique_ptr<mission::PlaySession> play_;
  std::unique_ptr<game::MissionGame> game_;
  move::ViewerControls pilot_;
  move::InputCollector pilot_input_;
  move::CameraFrame pilot_camera_;
  Press left_, right_;
  int mouse_x_ = 0, mouse_y_ = 0;
  bool menu_ = false;
  std::size_t menu_index_ = 0;
  bool quit_ = false;
  std::uint64_t messages_seen_ = 0;
  bool outcome_printed_ = false;
  bool units_reported_ = false;
  std::string status_;
  std::uint64_t applied_tick_ = ~std::uint64_t{0};
  std::uint64_t game_us_ = 0;
  std::uint32_t width_ = 1280;
  std::uint32_t height_ = 720;
  float aspect_ = 16.0f / 9.0f;
  render::FrameStats stats_;
  std::vector<std::string> selection_;
  std::int32_t selected_ = -1;
};

core::Result<std::unique_ptr<ViewerMode>> make_mission_mode(const MissionOptions& o) {
  std::optional<render::CameraPose> pose;
  if (!o.camera.empty()) {
    SORTIE_TRY(auto p, render::parse_camera_pose(o.camera));
    pose = p;
  }
  SORTIE_TRY(auto overlays, render::parse_overlays(o.overlay));
  SORTIE_TRY(auto view, load_mission_view(o.game_dir, o.mission, o.sample_scale, overlays, o.seed));
  env::AmbienceOptions ao = o.ambience;
  SORTIE_CHECK(choose_ambience(o, view, ao));
  // Sound and weather only when there is something to play or draw (no device is opened otherwise).
  std::unique_ptr<env::Ambience> ambience;
  if (ao.any()) {
    const auto device = [&o](std::ostream& warnings) { return open_audio_backend(o.output, warnings); };
    SORTIE_TRY(ambience, env::Ambience::open(ao, env::repository_opener(view.game.repository()), device, std::cerr));
  }
  auto mode = std::make_unique<MissionMode>(std::move(view), o, std::move(ambience));
  SORTIE_CHECK(mode->start_play());
  if (pose) mode->set_pose(*pose);
  return std::unique_ptr<ViewerMode>(std::move(mode));
}

}  // namespace

// Shared with `sortie render`: the same scene, camera and pose parsing, so a screenshot of the
// viewer at --camera P equals `sortie render --camera P` of the same size.
SORTIE_VIEWER_MODE(
    mission, "play a mission (the default mode; --spectate: fly over it)", [](CLI::App& app) -> ModeFactory {
      auto o = std::make_shared<MissionOptions>();
      app.add_option("game_dir", o->game_dir, "game directory (default: the embedded sample)");
      app.add_option("--mission,-m", o->mission, "mission name or data.tma path (default: the first mission)");
      app.add_option("--camera", o->camera, "start pose X,Y,Z,YAW,PITCH (degrees; default: the whole map)");
      app.add_option("--overlay", o->overlay, "overlays: areals,routes,labels");
      app.add_option("--sample", o->sample_scale, "scale of the embedded sample: demo or corpus")
          ->check(CLI::IsMember({"demo", "corpus"}));
      app.add_option(
          "--weather", o->weather,
          "weather schedule (text form, docs/weather-schedule.md), or none (default: the mission's sky.weather)");
      cli::add_number(&app, "--weather-seed", o->ambience.seed, "seed of the weather and music streams");
      app.add_flag("--mute", o->ambience.mute, "no sound (the mixer keeps playing silently)");
      app.add_option("--audio-driver", o->output.driver, "SDL audio driver (e.g. dummy, disk; default: SDL's)");
      app.add_option("--sounds", o->ambience.sounds, "sound library file (default: the game's sounds.lib)");
      app.add_option("--theme", o->theme,
                     "ambient music THEME loop: NAME or ARCHIVE/NAME (default: the mission's mission.cfg)");
      app.add_option("--variations", o->variations,
                     "ambient variations (DEFAULT_VARIATION pool): NAME,NAME,... (default: the mission's)");
      app.add_flag("--no-music", o->no_music, "no ambient music (the mission's mission.cfg is not played)");
      app.add_flag("--spectate", o->spectate, "fly over the mission without playing it (no scenario, orders or HUD)");
      cli::add_number(&app, "--seed", o->seed, "the simulation seed (as sortie run --seed)");
      app.add_option("--save-file", o->save_file, "the quick save file of F5 / F9 (default: sortie-quick.save)");
      return [o]() -> core::Result<std::unique_ptr<ViewerMode>> {
        SORTIE_TRY(auto mode, make_mission_mode(*o));
        return mode;
      };
    });

}  // namespace sortie::viewer
