#include "sortie/render/mission_render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "sortie/assets/visual_fallback.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/env/effect_world.hpp"
#include "sortie/env/limits.hpp"
#include "sortie/render/image_io.hpp"
#include "sortie/render/limits.hpp"
#include "sortie/world/world.hpp"

namespace sortie::render {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// out.png, frame 3 -> out_003.png
std::filesystem::path orbit_path(const std::filesystem::path& out, std::uint32_t frame) {
  auto name = fmt::format("{}_{:03}{}", out.stem().string(), frame, out.extension().string());
  return out.parent_path() / name;
}

// What the scene is built from: the loaded mission's store and data, or (a failed load with
// allow_missing) a store without the failed objects.
struct SceneSource {
  std::shared_ptr<const assets::VisualStore> visuals;
  std::shared_ptr<const assets::MissionData> data;
  const mission::LoadedMission* loaded = nullptr;
};

// Opens and loads the request's mission into `game` (kept alive by the caller); fills `result`'s
// game, mission, failed_load, missing and terrain fields.
// The load is timed from after the game is open (`t0`).
core::Result<SceneSource> load_for_render(const MissionRenderRequest& request, std::optional<mission::OpenGame>& game,
                                          MissionSceneOptions& options, MissionRenderResult& result,
                                          Clock::time_point& t0) {
  SORTIE_TRY(auto opened, mission::open_game(request.source, request.mission));
  game.emplace(std::move(opened));
  t0 = Clock::now();
  mission::GameContext& context = game->context;
  result.game = game->dir;
  SORTIE_TRY(auto report, context.load(game->mission));
  result.mission = report.mission;
  SceneSource s;
  if (report.ok) {
    s.loaded = context.current();
    if (s.loaded == nullptr)
      return core::fail(core::Diagnostic::error("render.load", "the load reported success without a mission"));
    s.visuals = s.loaded->visuals;
    s.data = s.loaded->data;
    return s;
  }
  if (!request.allow_missing) {
    result.failed_load = std::move(report);
    return s;
  }
  SORTIE_TRY(auto prepared, context.prepare(game->mission));
  assets::VisualCache cache;
  SORTIE_TRY(auto fallback, assets::prepare_visuals_allowing_missing(context.repository(), cache, prepared));
  s.visuals = fallback.store;
  options.missing = std::move(fallback.missing);
  result.terrain_failures = std::move(fallback.terrain_failures);
  result.terrain_untextured = fallback.terrain_untextured;
  s.data = std::make_shared<const assets::MissionData>(std::move(prepared));
  return s;
}

}  // namespace

core::Result<MissionScene> loaded_mission_scene(const mission::LoadedMission& loaded, MissionSceneOptions options) {
  SORTIE_TRY(auto scene, MissionScene::build(loaded.visuals, loaded.data.get(), std::move(options)));
  if (loaded.world) scene.apply_snapshot(*loaded.world->snapshot(), loaded.ids_by_placement());
  return scene;
}

void draw_weather_over(Frame& frame, const WeatherDrawing& weather, FrameOverlay& storage) {
  append_over(frame, weather.draws(), weather.point_lights(), storage);  // precipitation, lightning
  if (const auto sky = weather.sky_color()) {
    frame.clear_color = *sky;
    if (frame.atmosphere) frame.atmosphere = atmosphere_under_sky(*frame.atmosphere, *sky);
  }
}

core::Status weather_at(const env::WeatherSchedule& schedule, std::uint64_t seed, std::int64_t at_ms,
                        const CameraPose& pose, std::uint32_t width, std::uint32_t height, WeatherDrawing& drawing,
                        std::shared_ptr<const assets::PreparedEffect> lightning) {
  env::Environment e(schedule, seed, 1.0, std::move(lightning));
  auto cam = env::CameraFrame::look(pose.eye, pose_forward(pose));
  cam.vertical_fov = static_cast<double>(SceneCameraOptions{}.vfov);
  cam.viewport_width = width;
  cam.viewport_height = height;
  cam.aspect = static_cast<double>(width) / static_cast<double>(height);
  const std::int64_t last = std::max<std::int64_t>(0, at_ms - 17);
  for (std::int64_t t = 0; t < last; t += 100) e.update(t, cam);
  e.update(last, cam);
  return drawing.update(e.update(at_ms, cam));
}

core::Status world_effects_now(const mission::LoadedMission& loaded, env::EffectRunner& runner, EffectDrawing& drawing,
                               const core::Vec3& eye) {
  if (!loaded.world) return drawing.update(env::EffectFrame{}, eye);
  const auto live = env::live_effects(*loaded.world);
  static const env::EffectLibrary no_effects;
  runner.sync(live, loaded.effects ? *loaded.effects : no_effects);
  const auto now_ms = static_cast<std::int64_t>(loaded.world->clock().time_us / 1000);
  return drawing.update(runner.update(now_ms), eye);
}

core::Result<MissionRenderResult> render_mission(const MissionRenderRequest& request) {
  if (request.orbit > kMaxOrbitFrames) {  // before anything is opened or drawn
    return core::fail(core::Diagnostic::error("usage.orbit", "too many orbit frames")
                          .in("--orbit")
                          .expect(fmt::format("1..{}", kMaxOrbitFrames), std::to_string(request.orbit)));
  }
  MissionRenderResult result;
  result.size = request.size;
  MissionSceneOptions so;
  so.overlays = request.overlays;
  so.objects = request.objects;

  auto t0 = Clock::now();
  std::optional<mission::OpenGame> game;  // owns the loaded mission while it is drawn
  SceneSource source;
  if (request.loaded != nullptr) {
    source.loaded = request.loaded;
    source.visuals = request.loaded->visuals;
    source.data = request.loaded->data;
  } else {
    SORTIE_TRY(source, load_for_render(request, game, so, result, t0));
    if (result.failed_load) return result;
  }
  result.missing = so.missing;
  SORTIE_TRY(auto scene, MissionScene::build(source.visuals, source.data.get(), std::move(so)));
  if (source.loaded != nullptr && source.loaded->world)
    scene.apply_snapshot(*source.loaded->world->snapshot(), source.loaded->ids_by_placement());
  result.load_ms = ms_since(t0);

  const std::uint32_t width = request.size.width;
  const std::uint32_t height = request.size.height;
  const float aspect = static_cast<float>(width) / static_cast<float>(height == 0 ? 1 : height);
  const core::Aabb& framed = scene.terrain_bounds().empty() ? scene.bounds() : scene.terrain_bounds();
  SORTIE_TRY(auto fb, Framebuffer::create(width, height));
  RendererOptions ro;
  ro.threads = request.threads;
  Renderer renderer(ro);
  result.threads = renderer.threads();
  result.isa = std::string(renderer.isa());

  std::optional<env::WeatherSchedule> weather;
  std::string weather_file = request.weather.string();
  if (!request.weather.empty()) {
    SORTIE_TRY(auto bytes, core::read_file(request.weather, env::kWeatherFileMax));
    SORTIE_TRY(auto schedule, env::read_weather_text(bytes, request.weather.string()));
    weather = std::move(schedule);
  } else if (request.mission_weather && source.loaded != nullptr && source.loaded->weather) {
    weather = source.loaded->weather->schedule;
    weather_file = source.loaded->weather->path;
  }
  // The strikes start the mission's lightning effect when it prepared the one the schedule names.
  std::shared_ptr<const assets::PreparedEffect> lightning;
  if (weather)
    lightning = env::choose_lightning_effect(*weather, source.loaded ? source.loaded->effects.get() : nullptr,
                                             &result.warnings, weather_file);
  const std::int64_t weather_ms = std::llround(request.weather_at_seconds * 1000.0);
  WeatherDrawing weather_drawing;
  FrameOverlay weather_draws;
  env::EffectRunner world_runner;
  EffectDrawing world_effects;
  FrameOverlay world_draws;

  const std::uint32_t frames = request.orbit == 0 ? 1 : request.orbit;
  for (std::uint32_t i = 0; i < frames; ++i) {
    Camera camera;
    std::optional<CameraPose> view;
    if (request.top)
      camera = top_camera(framed, aspect);
    else if (request.camera)
      view = *request.camera;
    else if (request.orbit > 0)
      view = orbit_pose(framed, aspect, i, frames);
    else
      view = default_pose(framed, aspect);
    if (view) camera = pose_camera(*view, aspect, scene.bounds());
    Frame frame = scene.frame(camera);
    result.effect_bodies = 0;
    result.effect_lights = 0;
    if (weather && view) {
      if (auto st =
              weather_at(*weather, request.weather_seed, weather_ms, *view, width, height, weather_drawing, lightning);
          !st)
        result.warnings.push_back(std::move(st.error()));
      draw_weather_over(frame, weather_drawing, weather_draws);
      result.effect_bodies += weather_drawing.effect_bodies();
      result.effect_lights += weather_drawing.point_lights().size();
    }
    if (source.loaded != nullptr) {
      if (auto st = world_effects_now(*source.loaded, world_runner, world_effects, camera.eye()); !st)
        result.warnings.push_back(std::move(st.error()));
      append_over(frame, world_effects.draws(), world_effects.point_lights(), world_draws);
      result.effect_bodies += world_effects.bodies();
      result.effect_lights += world_effects.point_lights().size();
    }
    FrameStats st;
    SORTIE_CHECK(renderer.render(frame, fb, &st));
    result.render_ms += st.total_ms;
    result.last_frame = st;
    const std::filesystem::path path = request.orbit > 0 ? orbit_path(request.out, i) : request.out;
    const auto w0 = Clock::now();
    SORTIE_CHECK(write_png(path, fb));
    result.write_ms += ms_since(w0);
    result.files.push_back(path);
  }
  result.scene = scene.stats();
  return result;
}

core::Json MissionRenderResult::to_json() const {
  core::Json files_json = core::Json::array();
  for (const auto& f : files) files_json.push_back(f.string());
  core::Json missing_json = core::Json::array();
  for (const auto& m : missing)
    missing_json.push_back({{"placed_index", m.placed_index}, {"name", m.name}, {"reason", m.reason}});
  core::Json terrain_json = core::Json::array();
  for (const auto& d : terrain_failures) terrain_json.push_back(d.to_json());
  const auto& s = scene;
  return core::Json{{"ok", true},
                    {"game", game.string()},
                    {"mission", mission},
                    {"width", size.width},
                    {"height", size.height},
                    {"files", files_json},
                    {"objects", s.objects},
                    {"placeholders", s.placeholders},
                    {"triangles", s.object_triangles + s.terrain_triangles},
                    {"object_triangles", s.object_triangles},
                    {"coincident_triangles", s.coincident_triangles},
                    {"terrain_triangles", s.terrain_triangles},
                    {"textures", s.textures},
                    {"draws", s.draws},
                    {"missing", missing_json},
                    {"terrain_untextured", terrain_untextured},
                    {"terrain_failures", terrain_json},
                    {"warnings", core::diagnostics_json(warnings)},
                    {"effect_bodies", effect_bodies},
                    {"effect_lights", effect_lights},
                    {"threads", threads},
                    {"isa", isa},
                    {"load_ms", load_ms},
                    {"render_ms", render_ms},
                    {"write_ms", write_ms},
                    {"last_frame",
                     {{"triangles_setup", last_frame.triangles_setup},
                      {"triangles_culled", last_frame.triangles_culled},
                      {"triangles_clipped", last_frame.triangles_clipped},
                      {"labels", last_frame.labels},
                      {"transform_clip_ms", last_frame.transform_clip_ms},
                      {"binning_ms", last_frame.binning_ms},
                      {"raster_ms", last_frame.raster_ms}}}};
}

std::string MissionRenderResult::to_text() const {
  std::string out;
  for (const auto& m : missing)
    out += fmt::format("missing: objects[{}] '{}' drawn as a checker: {}\n", m.placed_index, m.name, m.reason);
  for (const auto& d : terrain_failures) out += "missing: terrain drawn untextured: " + d.to_string() + "\n";
  for (const auto& d : warnings) out += "warning: " + d.to_string() + "\n";
  const auto& s = scene;
  out += fmt::format(
      "rendered {} {}x{}: {} objects ({} placeholders), {} triangles ({} terrain, {} objects; {} in coincident "
      "copies left out), {} textures, {} draws\n",
      mission, size.width, size.height, s.objects, s.placeholders, s.object_triangles + s.terrain_triangles,
      s.terrain_triangles, s.object_triangles, s.coincident_triangles, s.textures, s.draws);
  if (effect_bodies > 0 || effect_lights > 0)
    out += fmt::format("effects: {} bodies, {} point lights in the last frame\n", effect_bodies, effect_lights);
  out += fmt::format("{} frame(s) in {:.1f} ms render ({} threads, {}), {:.1f} ms PNG, load {:.1f} ms\n", files.size(),
                     render_ms, threads, isa, write_ms, load_ms);
  for (const auto& f : files) out += "wrote " + f.string() + "\n";
  return out;
}

std::optional<CameraPose> player_group_pose(const mission::LoadedMission& m) {
  if (m.visuals == nullptr) return std::nullopt;
  core::Aabb terrain;
  for (const auto& p : m.visuals->terrain().positions) terrain.expand(p);
  if (terrain.empty()) return std::nullopt;
  return group_pose(m.player_clan_positions(), terrain.center());
}

}  // namespace sortie::render
