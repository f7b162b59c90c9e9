// `sortie env frame` and `sortie env run`: the weather -> EnvironmentFrame numbers of libs/env.
#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/env/schedule_run.hpp"

namespace sortie::cli {
namespace {

using core::Json;

constexpr double kPi = 3.14159265358979323846;

struct CameraOptions {
  double vfov_deg = 60.0;
  double aspect = 16.0 / 9.0;
  bool aspect_given = false;
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

// Usage errors name the option and exit 2.
int usage(std::string_view command, std::string message) {
  std::cerr << fmt::format("sortie {}: {}\n", command, message);
  return kExitUsage;
}

// The camera of --vfov-deg, --viewport and --aspect (default: the viewport's W/H).
std::optional<std::string> camera_from(const CameraOptions& o, env::CameraFrame& cam) {
  const auto x = o.viewport.find_first_of("xX");
  unsigned w = 0, h = 0;
  auto num = [](std::string_view s, unsigned& out) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && out >= 1 && out <= 16384;
  };
  if (x == std::string::npos || !num(std::string_view(o.viewport).substr(0, x), w) ||
      !num(std::string_view(o.viewport).substr(x + 1), h))
    return fmt::format("--viewport must be WxH with 1 <= W, H <= 16384, got '{}'", o.viewport);
  const double aspect = o.aspect_given ? o.aspect : static_cast<double>(w) / h;
  if (!(aspect >= 0.01) || !(aspect <= 100.0)) return fmt::format("--aspect must be in [0.01, 100], got {}", o.aspect);
  cam = env::CameraFrame::look({0, 0, 0}, {1, 0, 0});
  cam.vertical_fov = o.vfov_deg * kPi / 180.0;
  cam.aspect = aspect;
  cam.viewport_width = w;
  cam.viewport_height = h;
  return std::nullopt;
}

// --vfov-deg and --viewport are required by `env frame`; --aspect never is (viewport W/H).
void add_camera_options(CLI::App* cmd, CameraOptions& c, bool required) {
  auto* v = add_number(cmd, "--vfov-deg", c.vfov_deg, "vertical field of view in degrees", 0.0, 180.0, Ends::open_both);
  auto* a = add_number(cmd, "--aspect", c.aspect, "aspect ratio width / height (default: viewport W/H)", 0.01, 100.0);
  auto* p = cmd->add_option("--viewport", c.viewport, "viewport size WxH in pixels");
  if (required) v->required(), p->required();
  a->each([&c](const std::string&) { c.aspect_given = true; });
}

int run_frame(const EnvFrameOptions& o) {
  env::CameraFrame cam;
  if (auto e = camera_from(o.camera, cam)) return usage("env frame", *e);
  env::PrecipitationKind kind;
  if (o.kind == "rain")
    kind = env::PrecipitationKind::rain;
  else if (o.kind == "snow")
    kind = env::PrecipitationKind::snow;
  else
    return usage("env frame", fmt::format("--kind must be rain or snow, got '{}'", o.kind));
  const auto m = env::precipitation_metrics(cam, kind, o.intensity, o.density);
  if (o.json) {
    Json j = env::precipitation_metrics_json(m);
    j["kind"] = o.kind;
    j["intensity"] = o.intensity;
    j["density"] = o.density;
    j["vertical_fov"] = cam.vertical_fov;
    j["aspect"] = cam.aspect;
    j["viewport"] = {{"width", cam.viewport_width}, {"height", cam.viewport_height}};
    print_json(j);
    return kExitOk;
  }
  std::cout << fmt::format("kind: {}  intensity: {}  density: {}\n", o.kind, o.intensity, o.density);
  std::cout << fmt::format("camera: vfov {} rad, aspect {}, viewport {}x{}\n", cam.vertical_fov, cam.aspect,
                           cam.viewport_width, cam.viewport_height);
  std::cout << fmt::format("half_x: {}\nhalf_y: {}\ndepth: {}..{}\n", m.half_x, m.half_y, m.depth_near, m.depth_far);
  std::cout << fmt::format("reference_half_x: {}\nreference_half_y: {}\nvolume_ratio: {}\n", m.reference_half_x,
                           m.reference_half_y, m.volume_ratio);
  std::cout << fmt::format("horizontal_fov: {}\nsize_scalar: {}\npoint_size: {}\ncount: {}\n", m.horizontal_fov,
                           m.size_scalar, m.point_size, m.count);
  return kExitOk;
}

int run_env(EnvRunOptions o) {
  if (auto e = camera_from(o.camera, o.run.camera)) return usage("env run", *e);
  auto run = env::run_schedule_file(o.schedule, o.run);
  if (!run) return fail_with(run.error());
  if (o.json)
    print_json(run->to_json());
  else
    std::cout << run->to_text();
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
  frame->add_option("--kind", fo->kind, "rain or snow")->required();
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
