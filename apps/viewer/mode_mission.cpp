// The mission mode (default): `sortie-viewer [GAME_DIR] --mission M [--camera X,Y,Z,YAW,PITCH]
// [--weather FILE|none] [--theme T --variations V | --no-music] [--mute]`. Free-flight camera through libs/move
// (flight_input.hpp: WASD, Q/E down/up, arrows and right button + mouse to look, Home re-centres, Shift faster, wheel
// speed), click to pick an object, the world ticking at its own fixed step (world::FrameLoop); the mission's ambient
// music and the weather's sounds and particles (env::Ambience on the SDL2 device, render::WeatherDrawing), the
// listener and the renderer on the same camera frame.
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <optional>

#include "flight_input.hpp"
#include "mission_view.hpp"
#include "sdl_audio_backend.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/env/ambience.hpp"
#include "sortie/env/mission_music.hpp"
#include "sortie/env/weather_schedule.hpp"
#include "sortie/render/mission_render.hpp"
#include "sortie/render/view_spec.hpp"
#include "sortie/render/weather.hpp"
#include "sortie/world/clock.hpp"
#include "sortie/world/frame_loop.hpp"
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

class MissionMode final : public ViewerMode {
 public:
  MissionMode(MissionView view, world::World& world, std::unique_ptr<env::Ambience> ambience)
      : view_(std::move(view)), ambience_(std::move(ambience)) {
    loop_ = std::make_unique<world::FrameLoop>(world, clock_);
    loop_->set_renderer([this](const world::WorldSnapshot& snap) {
      if (snap.tick != applied_tick_) {
        view_.scene.apply_snapshot(snap, view_.ids);
        applied_tick_ = snap.tick;
      }
      tick_ = snap.tick;
    });
    // The listener and the weather take the same camera frame as the renderer, after it.
    input_.add_listener([this](const move::CameraFrame& f) {
      if (!ambience_) return;
      const auto* weather = ambience_->update(static_cast<std::int64_t>(game_us_ / 1000), f.view);
      if (weather == nullptr) return;
      weather_.update(*weather);
      weather_kind_ = weather->weather.kind;
      weather_intensity_ = weather->weather.intensity;
    });
  }
  void set_pose(const render::CameraPose& pose) { input_.start(pose, view_.speed(), kSceneVfov); }

  [[nodiscard]] std::string title() const override { return "sortie-viewer: " + view_.mission; }

  void on_event(const InputEvent& e, const InputState& state, int width, int height) override {
    input_.on_event(e, state);
    if (e.type == InputEvent::Type::mouse_down && e.button == 1) pick(e.x, e.y, width, height);
  }

  core::Status step(double dt, const InputState&) override {
    const auto dt_us = static_cast<std::uint64_t>(std::llround(dt * 1e6));
    // The simulation: platform time in, 0..8 fixed ticks out (world::StepPacer), then the
    // snapshot goes to the scene through the loop's renderer callback.
    clock_.advance(dt_us);
    auto report = loop_->run_frame();
    if (!report) return core::fail(report.error());
    // The viewer's game time runs with the platform's (no pause, no scale): the camera, the
    // weather and the sound advance by it, never by the frame count.
    game_us_ += dt_us;
    input_.step(dt_us, width_, height_);
    return {};
  }

  core::Status draw(render::Renderer& renderer, render::Framebuffer& target) override {
    width_ = target.width();
    height_ = target.height();
    aspect_ = static_cast<float>(width_) / static_cast<float>(std::max(1u, height_));
    if (!input_.started()) set_pose(render::default_pose(view_.framing(), aspect_));  // as `sortie render`
    render::Frame frame = view_.scene.frame(camera());
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
    // Weather over the scene: rain, snow, the bolt; a strike's flash is a point light.
    std::vector<render::DrawCall> draws;
    render::draw_weather_over(frame, weather_, draws);  // as `sortie render --weather`
    return renderer.render(frame, target, &stats_);
  }

  [[nodiscard]] std::vector<std::string> hud() const override {
    std::vector<std::string> lines;
    constexpr float kDeg = 180.0f / core::kPi;
    const auto& pose = input_.pose();
    lines.push_back(
        fmt::format("{}  tick {}  {} triangles drawn  eye {:.1f},{:.1f},{:.1f} yaw {:.0f} pitch {:.0f}  speed {:.1f}",
                    view_.mission, tick_, stats_.triangles_setup, pose.eye.x, pose.eye.y, pose.eye.z, pose.yaw * kDeg,
                    pose.pitch * kDeg, input_.speed()));
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
    lines.insert(lines.end(), selection_.begin(), selection_.end());
    return lines;
  }

  [[nodiscard]] bool relative_mouse() const override { return false; }

 private:
  render::Camera camera() const { return view_.camera(input_.pose(), aspect_); }

  void pick(int x, int y, int width, int height) {
    selection_.clear();
    selected_ = -1;
    const render::Viewport vp{0, 0, width, height};
    aspect_ = static_cast<float>(width) / static_cast<float>(std::max(1, height));
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
    if (i < tma.size()) {
      std::string props;
      for (const auto& p : tma[i].properties)
        props += fmt::format("{}{}={}", props.empty() ? "" : "; ", p.name, p.raw[0]);
      selection_.push_back("  properties: " + props);
    }
  }

  MissionView view_;
  std::unique_ptr<env::Ambience> ambience_;
  render::WeatherDrawing weather_;
  env::PrecipitationKind weather_kind_ = env::PrecipitationKind::none;
  float weather_intensity_ = 0.0f;
  FlightInput input_;
  world::ManualPlatformClock clock_;
  std::unique_ptr<world::FrameLoop> loop_;
  std::uint64_t applied_tick_ = ~std::uint64_t{0};
  std::uint64_t tick_ = 0;
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
  SORTIE_TRY(auto view, load_mission_view(o.game_dir, o.mission, o.sample_scale, overlays));
  env::AmbienceOptions ao = o.ambience;
  SORTIE_CHECK(choose_ambience(o, view, ao));
  // Sound and weather only when there is something to play or draw (no device is opened otherwise).
  std::unique_ptr<env::Ambience> ambience;
  if (ao.any()) {
    const auto device = [&o](std::ostream& warnings) { return open_audio_backend(o.output, warnings); };
    SORTIE_TRY(ambience, env::Ambience::open(ao, env::repository_opener(view.game.repository()), device, std::cerr));
  }
  world::World& w = *view.loaded()->world;
  auto mode = std::make_unique<MissionMode>(std::move(view), w, std::move(ambience));
  if (pose) mode->set_pose(*pose);
  return std::unique_ptr<ViewerMode>(std::move(mode));
}

}  // namespace

// Shared with `sortie render`: the same scene, camera and pose parsing, so a screenshot of the
// viewer at --camera P equals `sortie render --camera P` of the same size.
SORTIE_VIEWER_MODE(mission, "fly over a mission (the default mode)", [](CLI::App& app) -> ModeFactory {
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
  return [o]() -> core::Result<std::unique_ptr<ViewerMode>> {
    SORTIE_TRY(auto mode, make_mission_mode(*o));
    return mode;
  };
});

}  // namespace sortie::viewer
