// `sortie render [GAME_DIR] --mission M -o out.png [--size WxH] [--camera X,Y,Z,YAW,PITCH | --top |
// --orbit N] [--overlay areals,routes,labels] [--threads N] [--allow-missing] [--json]`: the
// mission scene drawn by our software renderer into a PNG (written atomically).
#include <iostream>
#include <memory>

#include "cli_game.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/render/mission_render.hpp"

namespace sortie::cli {
namespace {

using render::kMaxOrbitFrames;

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

int render_main(const RenderCliOptions& o) {
  // Options first: a usage error needs no game.
  render::MissionRenderRequest rq;
  auto size = render::parse_image_size(o.size);
  if (!size) return fail_with(size.error(), o.json);
  rq.size = *size;
  if (!o.camera.empty()) {
    auto pose = render::parse_camera_pose(o.camera);
    if (!pose) return fail_with(pose.error(), o.json);
    rq.camera = *pose;
  }
  auto overlays = render::parse_overlays(o.overlay);
  if (!overlays) return fail_with(overlays.error(), o.json);
  rq.overlays = *overlays;
  rq.source = {o.game_dir, sample_scale_from(o.sample_scale), {}};
  rq.mission = o.mission;
  rq.out = o.out;
  rq.top = o.top;
  rq.orbit = o.orbit;
  rq.objects = !o.no_objects;
  rq.allow_missing = o.allow_missing;
  rq.threads = o.threads;
  rq.mission_weather = o.weather == "mission";
  if (!rq.mission_weather) rq.weather = o.weather;
  rq.weather_at_seconds = o.at;
  rq.weather_seed = o.weather_seed;

  auto drawn = render::render_mission(rq);
  if (!drawn) return fail_with(drawn.error(), o.json);
  if (drawn->failed_load) return fail_load(*drawn->failed_load, o.json, "--allow-missing draws them as checkers");
  print_report(*drawn, o.json);
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(render, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<RenderCliOptions>();
  auto* cmd = root.add_subcommand("render", "Draw a mission with the software renderer into a PNG");
  cmd->footer(
      "Draws the terrain (Land.msh with its Land2.wea textures) and every placed object's meshes\n"
      "(WEAR -> MAT0 -> Texm) at its data.tma transform. Without GAME_DIR the embedded sample game is\n"
      "used. The default camera looks into the map from the south-south-west, 20 degrees down;\n"
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
  auto* weather = cmd->add_option("--weather", o->weather,
                                  "weather schedule (docs/weather-schedule.md) drawn over; 'mission': the mission's "
                                  "own sky.weather (its lightning is the mission's effect, docs/effects.md)");
  weather->excludes(top);
  add_number(cmd, "--at", o->at, "with --weather: the schedule time in seconds", 0.0, 1e6)->default_str("5");
  add_number(cmd, "--weather-seed", o->weather_seed, "with --weather: seed of the particles and lightning")
      ->default_str("1");
  cmd->callback([o, &outcome] { outcome.exit_code = render_main(*o); });
});

}  // namespace sortie::cli
