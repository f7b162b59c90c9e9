// `sortie render [GAME_DIR] --mission M -o out.png [--size WxH] [--camera X,Y,Z,YAW,PITCH | --top |
// --orbit N] [--overlay areals,routes,labels] [--threads N] [--allow-missing] [--json]`: the
// mission scene drawn by our software renderer into a PNG (written atomically).
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_game.hpp"
#include "cli_options.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/env/environment.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/render/image_io.hpp"
#include "sortie/render/mission_fallback.hpp"
#include "sortie/render/mission_scene.hpp"
#include "sortie/render/renderer.hpp"
#include "sortie/render/view_spec.hpp"
#include "sortie/render/weather.hpp"

namespace sortie::cli {
namespace {

constexpr std::uint32_t kMaxOrbitFrames = 3600;

struct RenderCliOptions {
  std::string game_dir;
  std::string mission;
  std::string out;
  std::string size = "1280x720";
  std::string camera;
  bool top = false;
  std::uint32_t orbit = 0;
  std::string overlay;
  unsigned threads = 0;
  bool allow_missing = false;
  bool no_objects = false;
  bool json = false;
  std::string sample_scale = "demo";
  std::string weather;
  double at = 5.0;
  std::uint64_t weather_seed = 1;
};

// The weather of `schedule` at `at_ms` seen from `pose` (the frames before it at 100 ms steps,
// then one frame of 1/60 s, so rain streaks are one viewer frame long), drawn over `frame`; the
// picture is cleared to the active sky object's colour when the schedule has one.
void add_weather(const env::WeatherSchedule& schedule, std::uint64_t seed, std::int64_t at_ms,
                 const render::CameraPose& pose, std::uint32_t width, std::uint32_t height,
                 render::WeatherDrawing& drawing, std::vector<render::DrawCall>& draws, render::Frame& frame) {
  env::Environment e(schedule, seed);
  auto cam = env::CameraFrame::look(pose.eye, render::pose_forward(pose));
  cam.vertical_fov = static_cast<double>(render::SceneCameraOptions{}.vfov);
  cam.viewport_width = width;
  cam.viewport_height = height;
  cam.aspect = static_cast<double>(width) / static_cast<double>(height);
  const std::int64_t last = std::max<std::int64_t>(0, at_ms - 17);
  for (std::int64_t t = 0; t < last; t += 100) e.update(t, cam);
  e.update(last, cam);
  drawing.update(e.update(at_ms, cam));
  draws.assign(frame.draws.begin(), frame.draws.end());
  draws.insert(draws.end(), drawing.draws().begin(), drawing.draws().end());
  frame.draws = draws;
  frame.point_lights = drawing.point_lights();  // a strike's flash
  if (const auto sky = drawing.sky_color()) frame.clear_color = *sky;
}

int fail_with(const core::Diagnostic& d, bool json) {
  if (json) print_json(core::Json{{"ok", false}, {"error", d.to_json()}});
  print_error(d);
  return exit_code_for(d);
}

// out.png, frame 3 -> out_003.png
std::filesystem::path orbit_path(const std::filesystem::path& out, std::uint32_t frame) {
  auto name = fmt::format("{}_{:03}{}", out.stem().string(), frame, out.extension().string());
  return out.parent_path() / name;
}

int render_main(const RenderCliOptions& o) {
  namespace fs = std::filesystem;
  // Options first: a usage error needs no game.
  auto size = render::parse_image_size(o.size);
  if (!size) return fail_with(size.error(), o.json);
  std::optional<render::CameraPose> pose;
  if (!o.camera.empty()) {
    auto p = render::parse_camera_pose(o.camera);
    if (!p) return fail_with(p.error(), o.json);
    pose = *p;
  }
  auto overlays = render::parse_overlays(o.overlay);
  if (!overlays) return fail_with(overlays.error(), o.json);

  auto game = open_game_or_sample(o.game_dir, sample_scale_from(o.sample_scale), o.mission);
  if (!game) return fail_with(game.error(), o.json);
  mission::GameContext& context = game->context;
  const std::string& mission = game->mission;

  const auto t0 = std::chrono::steady_clock::now();
  auto report = context.load(mission);
  if (!report) return fail_with(report.error(), o.json);
  render::MissionSceneOptions so;
  so.overlays = *overlays;
  so.objects = !o.no_objects;
  std::shared_ptr<const assets::VisualStore> visuals;
  std::shared_ptr<const assets::MissionData> data;
  const mission::LoadedMission* loaded = nullptr;
  core::Diagnostics terrain_failures;
  bool terrain_untextured = false;
  if (report->ok) {
    loaded = context.current();
    if (loaded == nullptr)
      return fail_with(core::Diagnostic::error("render.load", "the load reported success without a mission"), o.json);
    visuals = loaded->visuals;
    data = loaded->data;
  } else if (!o.allow_missing) {
    if (o.json) print_json(core::Json{{"ok", false}, {"load", report->to_json()}});
    for (const auto& d : report->failures) print_error(d);
    std::cerr << fmt::format("sortie: load of {} failed: {} failure(s); --allow-missing draws them as checkers\n",
                             report->mission, report->failures.size());
    return kExitInvalid;
  } else {
    auto prepared = context.prepare(mission);
    if (!prepared) return fail_with(prepared.error(), o.json);
    assets::VisualCache cache;
    auto fallback = render::prepare_visuals_allowing_missing(context.repository(), cache, *prepared);
    if (!fallback) return fail_with(fallback.error(), o.json);
    visuals = fallback->store;
    so.missing = std::move(fallback->missing);
    terrain_failures = std::move(fallback->terrain_failures);
    terrain_untextured = fallback->terrain_untextured;
    data = std::make_shared<const assets::MissionData>(std::move(*prepared));
  }
  auto scene = render::MissionScene::build(visuals, data.get(), so);
  if (!scene) return fail_with(scene.error(), o.json);
  if (loaded != nullptr && loaded->world) {
    std::vector<world::ObjectId> ids;
    for (const auto& obj : loaded->objects) {
      if (static_cast<std::size_t>(obj.placed_index) >= ids.size())
        ids.resize(static_cast<std::size_t>(obj.placed_index) + 1);
      ids[static_cast<std::size_t>(obj.placed_index)] = obj.id;
    }
    scene->apply_snapshot(*loaded->world->snapshot(), ids);
  }
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  const float aspect = static_cast<float>(size->width) / static_cast<float>(size->height);
  const core::Aabb& frame_bounds = scene->terrain_bounds().empty() ? scene->bounds() : scene->terrain_bounds();
  auto fb = render::Framebuffer::create(size->width, size->height);
  if (!fb) return fail_with(fb.error(), o.json);
  render::RendererOptions ro;
  ro.threads = o.threads;
  render::Renderer renderer(ro);

  const std::uint32_t frames = o.orbit == 0 ? 1 : o.orbit;
  core::Json files = core::Json::array();
  render::FrameStats total;
  double render_ms = 0.0, write_ms = 0.0;
  std::optional<env::WeatherSchedule> weather;
  if (!o.weather.empty()) {
    auto bytes = core::read_file(o.weather);
    if (!bytes) return fail_with(bytes.error(), o.json);
    auto schedule = env::read_weather_text(*bytes, o.weather);
    if (!schedule) return fail_with(schedule.error(), o.json);
    weather = std::move(*schedule);
  }
  render::WeatherDrawing weather_drawing;
  std::vector<render::DrawCall> weather_draws;
  for (std::uint32_t i = 0; i < frames; ++i) {
    render::Camera camera;
    std::optional<render::CameraPose> view;
    if (o.top)
      camera = render::top_camera(frame_bounds, aspect);
    else if (pose)
      view = *pose;
    else if (o.orbit > 0)
      view = render::orbit_pose(frame_bounds, aspect, i, frames);
    else
      view = render::default_pose(frame_bounds, aspect);
    if (view) camera = render::pose_camera(*view, aspect, scene->bounds());
    render::Frame frame = scene->frame(camera);
    if (weather && view) {
      add_weather(*weather, o.weather_seed, std::llround(o.at * 1000.0), *view, size->width, size->height,
                  weather_drawing, weather_draws, frame);
    }
    render::FrameStats st;
    if (auto r = renderer.render(frame, *fb, &st); !r) return fail_with(r.error(), o.json);
    render_ms += st.total_ms;
    total = st;
    const fs::path path = o.orbit > 0 ? orbit_path(o.out, i) : fs::path(o.out);
    const auto w0 = std::chrono::steady_clock::now();
    if (auto w = render::write_png(path, *fb); !w) return fail_with(w.error(), o.json);
    write_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count();
    files.push_back(path.string());
  }

  const auto& s = scene->stats();
  core::Json missing = core::Json::array();
  for (const auto& m : so.missing)
    missing.push_back({{"placed_index", m.placed_index}, {"name", m.name}, {"reason", m.reason}});
  core::Json terrain_missing = core::Json::array();
  for (const auto& d : terrain_failures) terrain_missing.push_back(d.to_json());
  core::Json rep{{"ok", true},
                 {"game", game->dir.string()},
                 {"mission", report->mission},
                 {"width", size->width},
                 {"height", size->height},
                 {"files", files},
                 {"objects", s.objects},
                 {"placeholders", s.placeholders},
                 {"triangles", s.object_triangles + s.terrain_triangles},
                 {"object_triangles", s.object_triangles},
                 {"terrain_triangles", s.terrain_triangles},
                 {"textures", s.textures},
                 {"draws", s.draws},
                 {"missing", missing},
                 {"terrain_untextured", terrain_untextured},
                 {"terrain_failures", terrain_missing},
                 {"threads", renderer.threads()},
                 {"isa", std::string(renderer.isa())},
                 {"load_ms", load_ms},
                 {"render_ms", render_ms},
                 {"write_ms", write_ms},
                 {"last_frame",
                  {{"triangles_setup", total.triangles_setup},
                   {"triangles_culled", total.triangles_culled},
                   {"triangles_clipped", total.triangles_clipped},
                   {"labels", total.labels},
                   {"transform_clip_ms", total.transform_clip_ms},
                   {"binning_ms", total.binning_ms},
                   {"raster_ms", total.raster_ms}}}};
  if (o.json) {
    print_json(rep);
    return kExitOk;
  }
  for (const auto& m : so.missing)
    std::cout << fmt::format("missing: objects[{}] '{}' drawn as a checker: {}\n", m.placed_index, m.name, m.reason);
  for (const auto& d : terrain_failures) std::cout << "missing: terrain drawn untextured: " << d.to_string() << "\n";
  std::cout << fmt::format(
      "rendered {} {}x{}: {} objects ({} placeholders), {} triangles ({} terrain, {} objects), {} textures, {} "
      "draws\n",
      report->mission, size->width, size->height, s.objects, s.placeholders, s.object_triangles + s.terrain_triangles,
      s.terrain_triangles, s.object_triangles, s.textures, s.draws);
  std::cout << fmt::format("{} frame(s) in {:.1f} ms render ({} threads, {}), {:.1f} ms PNG, load {:.1f} ms\n", frames,
                           render_ms, renderer.threads(), renderer.isa(), write_ms, load_ms);
  for (const auto& f : files) std::cout << "wrote " << f.get<std::string>() << "\n";
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(render, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<RenderCliOptions>();
  auto* cmd = root.add_subcommand("render", "Draw a mission with the software renderer into a PNG");
  cmd->footer(
      "Draws the terrain (Land.msh with its Land2.wea textures) and every placed object's meshes\n"
      "(WEAR -> MAT0 -> Texm) at its data.tma transform. Without GAME_DIR the embedded sample game is\n"
      "used. The default camera frames the whole map from the south-south-west, 35 degrees down;\n"
      "--camera gives a pose (YAW 0 = east, 90 = north; PITCH degrees above the horizon), --top\n"
      "looks straight down (north up), --orbit N writes N frames around the map (OUT_000.png ...).\n"
      "A missing or broken asset stops the load (the diagnostic chain, exit code 1); with\n"
      "--allow-missing each failed object is drawn as a magenta checker box and listed.\n\n"
      "Examples:\n  sortie render -o mission.png\n  sortie render /games/parkan -m m03 -o m03.png --size 1920x1080 "
      "--overlay routes,labels\n"
      "  sortie render -o top.png --top --overlay areals\n  sortie render -o turn.png --orbit 36 --size 640x360\n"
      "  sortie render -o view.png --camera 10,-40,60,90,-30\n");
  add_game_options(cmd, o->game_dir, o->mission);
  cmd->add_option("--out,-o", o->out, "PNG to write")->required();
  cmd->add_option("--size", o->size, "image size WIDTHxHEIGHT")->default_str("1280x720");
  auto* camera = cmd->add_option("--camera", o->camera, "camera pose X,Y,Z,YAW,PITCH (degrees)");
  auto* top = cmd->add_flag("--top", o->top, "orthographic view straight down, north up");
  auto* orbit =
      add_number(cmd, "--orbit", o->orbit, "write N frames around the mission", std::uint32_t{1}, kMaxOrbitFrames);
  camera->excludes(top)->excludes(orbit);
  top->excludes(orbit);
  cmd->add_option("--overlay", o->overlay, "overlays: areals,routes,labels");
  add_number(cmd, "--threads", o->threads, "render threads (0 = every core)", 0u, 256u)->default_str("0");
  cmd->add_flag("--allow-missing", o->allow_missing, "draw objects with missing assets as magenta checkers");
  cmd->add_flag("--no-objects", o->no_objects, "draw the terrain (and overlays) only");
  cmd->add_flag("--json", o->json, "print what was drawn as JSON");
  add_sample_option(cmd, o->sample_scale);
  auto* weather = cmd->add_option("--weather", o->weather, "weather schedule (docs/weather-schedule.md) drawn over");
  weather->excludes(top);
  cmd->add_option("--at", o->at, "with --weather: the schedule time in seconds")
      ->check(CLI::Range(0.0, 1e6))
      ->default_str("5");
  cmd->add_option("--weather-seed", o->weather_seed, "with --weather: seed of the particles and lightning")
      ->default_str("1");
  cmd->callback([o, &outcome] { outcome.exit_code = render_main(*o); });
});

}  // namespace sortie::cli
