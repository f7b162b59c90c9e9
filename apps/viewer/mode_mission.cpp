// The mission mode (default): `sortie-viewer [GAME_DIR] --mission M [--camera X,Y,Z,YAW,PITCH]
// [--weather FILE|none] [--theme T --variations V | --no-music] [--mute] [--seed N]
// [--save-file F] [--spectate]`. The mission is played (issue #19; the game itself is
// libs/game mission_game.hpp over mission::PlaySession): the player's clan obeys the mouse, the
// other clans their scenario and SuperAI, the world ticking at its fixed step. The game's mouse
// and keys are game_controls.hpp's (shared with the join mode); P or Space pause, + / - game
// speed 1x, 2x, 4x; F5 / F9 quick save / load (--save-file); Escape: the menu (resume, restart,
// save, load, quit).
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
#include <set>
#include <vector>

#include "flight_input.hpp"
#include "game_controls.hpp"
#include "mission_view.hpp"
#include "sdl_audio_backend.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/env/ambience.hpp"
#include "sortie/env/mission_music.hpp"
#include "sortie/env/weather_schedule.hpp"
#include "sortie/game/mission_game.hpp"
#include "sortie/mission/bootstrap.hpp"
#include "sortie/mission/play_session.hpp"
#include "sortie/mission/save_game.hpp"
#include "sortie/move/camera.hpp"
#include "sortie/render/effect_drawing.hpp"
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

// Music and weather: the mission's (mission.cfg, sky.weather as the load read it, with its
// lightning effect) unless the command line says otherwise (--theme/--variations replace the
// music, --no-music drops it; --weather FILE replaces the schedule, its lightning the mission's
// effect when it names one the mission prepared; --weather none drops it). mission.cfg and
// lightning warnings go to stderr.
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
  if (o.weather.empty()) {  // the mission's sky.weather, read and checked by the load
    if (loaded->weather) {
      ao.weather = loaded->weather->schedule;
      ao.lightning = loaded->lightning;  // the load reported a fallback already
    }
    return {};
  }
  SORTIE_TRY(auto bytes, core::read_file(o.weather));
  SORTIE_TRY(auto schedule, env::read_weather_text(bytes, o.weather));
  core::Diagnostics warnings;
  ao.lightning = env::choose_lightning_effect(schedule, loaded->effects.get(), &warnings, o.weather);
  for (const auto& w : warnings) std::cerr << "warning: " << w.to_string() << "\n";
  ao.weather = std::move(schedule);
  return {};
}

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

  // The bootstrap's subsystems on this mode's world: the trace (camera, sound; the world's own
  // channels) and the cache maintenance in real time (mission/bootstrap.hpp).
  core::Status attach(mission::Bootstrap& boot) override {
    trace_ = boot.shared_trace();
    install();
    if (ambience_) ambience_->set_trace(trace_.get());
    trace_camera();
    return {};
  }
  void install() {  // on the current world (a loaded or restarted game has a new one)
    world::World& w = *view_.game.current()->world;
    if (!trace_ || w.trace() == trace_.get()) return;
    w.set_trace(trace_);
    mission::register_maintenance(w, view_.game, world::MaintenanceDrive::real_time);
  }

  [[nodiscard]] std::string title() const override { return "sortie-viewer: " + view_.mission; }
  [[nodiscard]] bool handles_escape() const override { return controls_ != nullptr; }
  [[nodiscard]] bool wants_quit() const override { return quit_; }

  void on_event(const InputEvent& e, const InputState& state, int width, int height) override {
    width_ = static_cast<std::uint32_t>(std::max(1, width));
    height_ = static_cast<std::uint32_t>(std::max(1, height));
    if (!controls_) {  // spectating: fly and pick
      input_.on_event(e, state);
      if (e.type == InputEvent::Type::mouse_down && e.button == 1) pick(e.x, e.y);
      return;
    }
    if (menu_) return menu_event(e);
    if (e.type == InputEvent::Type::key_down && mission_key(e.key)) return;
    controls_->on_event(e, state, width, height);
  }

  core::Status step(double dt, const InputState&) override {
    const auto dt_us = static_cast<std::uint64_t>(std::llround(dt * 1e6));
    game_us_ += dt_us;
    const bool playing = controls_ && !menu_;
    if (playing) {
      SORTIE_CHECK(controls_->step(dt_us, width_, height_));
      report_progress();
    }
    const world::World& w = *view_.loaded()->world;
    if (w.clock().tick != applied_tick_) {
      view_.scene.apply_snapshot(*w.snapshot(), view_.ids);
      applied_tick_ = w.clock().tick;
    }
    run_world_effects();
    if (trace_) trace_camera();
    if (controls_ && controls_->piloting()) {
      listen(controls_->pilot_frame().view);
    } else if (!playing) {
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
    frame.keep_depth = false;  // nothing here reads the depth plane back (picking casts rays)
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
    if (controls_) {
      const auto extra = controls_->game().overlay();
      draws.insert(draws.end(), extra.begin(), extra.end());
      frame.draws = draws;
    }
    // Weather over the scene: rain, snow and the lightning effects (bolt body, flash light); then
    // the world's effects (fx.start), as `sortie render` draws them.
    render::FrameOverlay weather_draws;
    render::draw_weather_over(frame, weather_, weather_draws);
    render::FrameOverlay effect_draws;
    render::append_over(frame, world_fx_.draws(), world_fx_.point_lights(), effect_draws);
    SORTIE_CHECK(renderer.render(frame, target, &stats_));
    if (!controls_) return {};
    controls_->draw(target, cam);
    if (menu_) game::draw_menu(target, "MENU", kMenu, menu_index_);
    return {};
  }

  [[nodiscard]] std::vector<std::string> hud() const override {
    std::vector<std::string> lines;
    constexpr float kDeg = 180.0f / core::kPi;
    const auto& pose = input_.pose();
    if (controls_) {  // the game's HUD shows the rest; keep the top left short (the status panel is in the middle)
      lines.push_back(fmt::format("{} triangles", stats_.triangles_setup));
      if (!controls_->status().empty()) lines.push_back(controls_->status());
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
        line += fmt::format("  weather {} {:.2f}  {} rain, {} snow{}", env::to_string(weather_kind_),
                            weather_intensity_, weather_.rain_lines(), weather_.snow_points(),
                            weather_.live_effects() > 0 ? "  lightning" : "");
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
  static inline const std::vector<std::string> kMenu{"Resume", "Restart", "Save (F5)", "Load (F9)", "Quit"};

  mission::PlayOptions play_options() const {
    mission::PlayOptions po;
    po.runtime.seed = options_.seed;
    return po;
  }

  void adopt(std::unique_ptr<mission::PlaySession> play) {
    controls_.reset();
    play_ = std::move(play);
    const float ground = view_.framing().empty() ? 0.0f : view_.framing().center().z;
    controls_ = std::make_unique<GameControls>(
        *play_, view_.scene, input_, [this] { return view_.camera(input_.pose(), aspect_); },
        [this](const render::CameraPose& pose) { set_pose(pose); }, ground);
    controls_->on_empty_click = [this](int x, int y) { pick(x, y); };
    world_runner_ = env::EffectRunner{};  // a new world: its effects' ids start again
    world_sounds_.clear();
    applied_tick_ = ~std::uint64_t{0};
    messages_seen_ = 0;
    outcome_printed_ = false;
    units_reported_ = false;
    std::cout << fmt::format("game: {} at tick {}\n", view_.mission, play_->tick_number());
    install();
  }

  // The first view of a game: over the middle of the player's units, toward the map's centre
  // (render::group_pose).
  void look_at_units() {
    std::vector<core::Vec3> at;
    for (const auto& u : play_->player_units())
      if (const auto p = unit_position(u)) at.push_back(*p);
    if (const auto pose = render::group_pose(at, view_.framing().center())) set_pose(*pose);
  }

  // The world's live effects (fx.start) at the world's time: their lights and bodies for the next
  // draw, their sound commands for the next listen, a line on stdout per start.
  void run_world_effects() {
    // As `sortie render` draws them (render::world_effects_now), then their sounds and traces.
    if (auto st = render::world_effects_now(*view_.loaded(), world_runner_, world_fx_, camera().eye()); !st)
      warn_once(st.error());
    const env::EffectFrame& fx = world_runner_.frame();
    for (const auto& t : fx.traces) std::cout << t << "\n";
    world_sounds_.insert(world_sounds_.end(), fx.sounds.begin(), fx.sounds.end());
    if (!world_sounds_.empty()) ensure_ambience();
  }

  // A sound output for the world's effects when the mission started without music or weather.
  void ensure_ambience() {
    if (ambience_ || ambience_failed_) return;
    env::AmbienceOptions ao;
    ao.mute = options_.ambience.mute;
    ao.sounds = options_.ambience.sounds;
    ao.seed = options_.ambience.seed;
    const auto device = [this](std::ostream& warnings) { return open_audio_backend(options_.output, warnings); };
    auto opened = env::Ambience::open(ao, env::repository_opener(view_.game.repository()), device, std::cerr);
    if (!opened) {
      ambience_failed_ = true;
      return warn_once(opened.error());
    }
    ambience_ = std::move(*opened);
    ambience_->set_trace(trace_.get());
  }

  // The "camera" channel: the camera's mode when it changes (flight, game, piloting a unit).
  void trace_camera() {
    std::string mode = !controls_ ? "spectator flight" : "game camera";
    if (controls_ && controls_->piloting()) mode = "piloting " + controls_->game().pilot()->to_string();
    if (mode == camera_mode_) return;
    if (world::Trace* t = world::traced(*view_.game.current()->world, "camera"))
      t->write("camera", camera_mode_.empty() ? "mode " + mode : "mode " + camera_mode_ + " -> " + mode);
    camera_mode_ = mode;
  }

  void warn_once(const core::Diagnostic& d) {
    if (warned_.insert(d.to_string()).second) std::cerr << "warning: " << d.to_string() << "\n";
  }

  void listen(const env::CameraFrame& view) {
    if (!ambience_) return;
    const auto* weather = ambience_->update(static_cast<std::int64_t>(game_us_ / 1000), view, world_sounds_);
    world_sounds_.clear();
    if (weather == nullptr) return;
    for (const auto& t : weather->effects.traces) std::cout << t << "\n";
    if (auto st = weather_.update(*weather); !st) warn_once(st.error());
    weather_kind_ = weather->weather.kind;
    weather_intensity_ = weather->weather.intensity;
  }

  render::Camera camera() const {
    if (controls_) return controls_->camera(aspect_);
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

  // The mission mode's own keys (the game's are GameControls'); true when the key was one.
  bool mission_key(Key key) {
    switch (key) {
      case Key::escape:
        menu_ = true;
        menu_index_ = 0;
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
    if (controls_) return controls_->say(std::move(text));
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
    controls_.reset();
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
      std::cout << "game: " << controls_->game().outcome_line() << "\n";
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
  env::EffectRunner world_runner_;  // the world's effects (fx.start), on the world clock
  render::EffectDrawing world_fx_;
  std::vector<env::SoundEvent> world_sounds_;  // their sound commands, for the next listen
  std::set<std::string> warned_;
  bool ambience_failed_ = false;
  env::PrecipitationKind weather_kind_ = env::PrecipitationKind::none;
  float weather_intensity_ = 0.0f;
  FlightInput input_;
  std::unique_ptr<mission::PlaySession> play_;
  std::unique_ptr<GameControls> controls_;
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
  std::shared_ptr<world::Trace> trace_;  // the bootstrap's (attach)
  std::string camera_mode_;              // as last traced
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
  // Sound and weather only when there is something to play or draw (no device is opened otherwise;
  // the world's first effect sound opens one later, MissionMode::ensure_ambience).
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
