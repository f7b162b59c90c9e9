// `sortie env frame` and `sortie env run`: the weather -> EnvironmentFrame numbers of libs/env.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/env/precipitation_frame.hpp"
#include "sortie/env/schedule_run.hpp"
#include "sortie/render/view_spec.hpp"

namespace sortie::cli {
namespace {

struct CameraOptions {
  double vfov_deg = 60.0;
  std::optional<double> aspect;
  std::string viewport = "1280x720";
};

struct EnvFrameOptions {
  CameraOptions camera;
  std::string kind = "rain";
  double intensity = 1.0;
  double density = 1.0;
  bool json = false;
};

struct EnvRunOptions {
  CameraOptions camera;
  std::string schedule;
  env::ScheduleRunOptions run;
  bool json = false;
};

core::Result<env::CameraFrame> camera_from(const CameraOptions& o) {
  SORTIE_TRY(const auto size, render::parse_image_size(o.viewport, "--viewport"));
  return env::camera_for_view(o.vfov_deg, size.width, size.height, o.aspect);
}

// --vfov-deg and --viewport are required by `env frame`; --aspect never is (viewport W/H).
void add_camera_options(CLI::App* cmd, CameraOptions& c, bool required) {
  auto* v = add_number(cmd, "--vfov-deg", c.vfov_deg, "vertical field of view in degrees", 0.0, 180.0, Ends::open_both);
  add_number(cmd, "--aspect", c.aspect, "aspect ratio width / height (default: viewport W/H)", env::kMinAspect,
             env::kMaxAspect);
  auto* p = cmd->add_option("--viewport", c.viewport, "viewport size WxH in pixels");
  if (required) v->required(), p->required();
}

int run_frame(const EnvFrameOptions& o) {
  auto cam = camera_from(o.camera);
  if (!cam) return fail_with(cam.error(), o.json);
  const auto kind = o.kind == "snow" ? env::PrecipitationKind::snow : env::PrecipitationKind::rain;
  const auto frame = env::precipitation_frame(*cam, kind, o.intensity, o.density);
  print_report(frame, o.json);
  return kExitOk;
}

int run_env(EnvRunOptions o) {
  auto cam = camera_from(o.camera);
  if (!cam) return fail_with(cam.error(), o.json);
  o.run.camera = *cam;
  auto run = env::run_schedule_file(o.schedule, o.run);
  if (!run) return fail_with(run.error(), o.json);
  print_report(*run, o.json);
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(env, [](CLI::App& root, Outcome& outcome) {
  auto* env_cmd = root.add_subcommand("env", "Weather and environment frames (rain, snow, lightning, sound events)");
  env_cmd->require_subcommand(1);
  env_cmd->footer(
      "Examples:\n"
      "  sortie env frame --vfov-deg 60 --aspect 1.7778 --viewport 1280x720 --kind rain --intensity 0.5\n"
      "  sortie env run storm.weather --seconds 120 --seed 7 --json\n");

  auto fo = std::make_shared<EnvFrameOptions>();
  auto* frame =
      env_cmd->add_subcommand("frame", "Print one frame's precipitation numbers (half extents, fov, size, count)");
  add_camera_options(frame, fo->camera, true);
  frame->add_option("--kind", fo->kind, "rain or snow")->required()->check(CLI::IsMember({"rain", "snow"}));
  add_number(frame, "--intensity", fo->intensity, "precipitation intensity", 0.0, 1.0)->required();
  add_number(frame, "--density", fo->density, "emitter density (1 in the retail emitter)", 0.0, 100.0);
  frame->add_flag("--json", fo->json, "machine-readable output");
  frame->callback([fo, &outcome] { outcome.exit_code = run_frame(*fo); });

  auto ro = std::make_shared<EnvRunOptions>();
  auto* run = env_cmd->add_subcommand("run", "Run a weather schedule (docs/weather-schedule.md) and print its events");
  run->add_option("schedule", ro->schedule, "weather schedule, text form")->required();
  add_number(run, "--seconds", ro->run.seconds, "simulated time", 0.0, 86400.0, Ends::open_low)->required();
  add_number(run, "--seed", ro->run.seed, "seed of the lightning and particle streams");
  add_number(run, "--step-ms", ro->run.step_ms, "fixed frame step in milliseconds", std::int64_t{1},
             std::int64_t{60000})
      ->default_str("50");
  add_camera_options(run, ro->camera, false);
  run->add_flag("--json", ro->json, "machine-readable output");
  run->callback([ro, &outcome] { outcome.exit_code = run_env(*ro); });
});

}  // namespace sortie::cli
