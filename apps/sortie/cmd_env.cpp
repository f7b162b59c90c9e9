// `sortie env frame` and `sortie env run`: the weather -> EnvironmentFrame numbers of libs/env.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <iostream>
#include <memory>

#include "cli_options.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/env/ambient_music.hpp"
#include "sortie/env/environment.hpp"

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
  double seconds = 0.0;
  std::uint64_t seed = 1;
  std::int64_t step_ms = 50;
  bool json = false;
};

// Usage errors name the option and exit 2.
int usage(std::string_view command, std::string message) {
  std::cerr << fmt::format("sortie {}: {}\n", command, message);
  return kExitUsage;
}

std::optional<std::string> camera_from(const CameraOptions& o, env::CameraFrame& cam) {
  if (!std::isfinite(o.vfov_deg) || !(o.vfov_deg > 0.0) || !(o.vfov_deg < 180.0))
    return fmt::format("--vfov-deg must be in (0, 180) degrees, got {}", o.vfov_deg);
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
  if (!std::isfinite(aspect) || !(aspect >= 0.01) || !(aspect <= 100.0))
    return fmt::format("--aspect must be in [0.01, 100], got {}", o.aspect);
  cam = env::CameraFrame::look({0, 0, 0}, {1, 0, 0});
  cam.vertical_fov = o.vfov_deg * kPi / 180.0;
  cam.aspect = aspect;
  cam.viewport_width = w;
  cam.viewport_height = h;
  return std::nullopt;
}

void add_camera_options(CLI::App* cmd, CameraOptions& c, bool required) {
  auto* v = cmd->add_option("--vfov-deg", c.vfov_deg, "vertical field of view in degrees, (0, 180)");
  auto* a = cmd->add_option("--aspect", c.aspect, "aspect ratio width / height, [0.01, 100] (default: viewport W/H)");
  auto* p = cmd->add_option("--viewport", c.viewport, "viewport size WxH in pixels");
  if (required) v->required(), a->required(), p->required();
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
  if (!std::isfinite(o.intensity) || o.intensity < 0.0 || o.intensity > 1.0)
    return usage("env frame", fmt::format("--intensity must be in [0, 1], got {}", o.intensity));
  if (!std::isfinite(o.density) || o.density < 0.0 || o.density > 100.0)
    return usage("env frame", fmt::format("--density must be in [0, 100], got {}", o.density));
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

std::string vec(const core::Vec3& v) {
  return fmt::format("({}, {}, {})", v.x, v.y, v.z);
}

std::string event_line(const env::SoundEvent& e) {
  std::string s = fmt::format("{:>10.3f} s  {:<13} bus={}", static_cast<double>(e.time_ms) / 1000.0,
                              env::to_string(e.kind), env::to_string(e.bus));
  if (!e.loop.empty()) s += " loop=" + e.loop;
  if (!e.sample.empty()) s += " sample=" + e.sample.to_string();
  if (e.kind != env::SoundEventKind::stop_loop) s += fmt::format(" volume={}", e.volume);
  if (e.positional) s += fmt::format(" at {}", vec(e.position));
  if (e.kind == env::SoundEventKind::one_shot && e.positional)
    s += fmt::format(" min={} max={} ratio={}", e.min_distance, e.max_distance, e.frequency_ratio);
  return s;
}

// A change of the first active sky object: which one (none: no sky object is active), its base
// RGB, the RGB length and the DAY/NIGHT pool that length selects.
Json sky_change_json(std::int64_t time_ms, const env::SkyObject* sky) {
  const auto rgb = sky ? std::optional<core::Vec3>(sky->base_rgb) : std::nullopt;
  Json j{{"time_ms", time_ms}, {"pool", std::string(env::to_string(env::sky_pool(rgb)))}};
  j["name"] = sky ? Json(sky->name) : Json(nullptr);
  j["base_rgb"] = rgb ? Json{rgb->x, rgb->y, rgb->z} : Json(nullptr);
  j["length"] = rgb ? Json(core::length(*rgb)) : Json(nullptr);
  return j;
}

std::string sky_line(std::int64_t time_ms, const env::SkyObject* sky) {
  const auto rgb = sky ? std::optional<core::Vec3>(sky->base_rgb) : std::nullopt;
  std::string s = fmt::format("{:>10.3f} s  {:<13} ", static_cast<double>(time_ms) / 1000.0, "Sky");
  if (sky)
    s += fmt::format("name={} rgb={} length={}", sky->name, vec(sky->base_rgb), core::length(sky->base_rgb));
  else
    s += "none";
  return s + fmt::format(" pool={}", env::to_string(env::sky_pool(rgb)));
}

int run_env(const EnvRunOptions& o) {
  env::CameraFrame cam;
  if (auto e = camera_from(o.camera, cam)) return usage("env run", *e);
  if (!std::isfinite(o.seconds) || !(o.seconds > 0.0) || o.seconds > 86400.0)
    return usage("env run", fmt::format("--seconds must be in (0, 86400], got {}", o.seconds));
  if (o.step_ms < 1 || o.step_ms > 60000)
    return usage("env run", fmt::format("--step-ms must be in [1, 60000], got {}", o.step_ms));
  auto bytes = core::read_file(o.schedule, 16ull << 20);
  if (!bytes) {
    print_error(bytes.error());
    return exit_code_for(bytes.error());
  }
  auto schedule = env::weather_text_reader().read(*bytes, o.schedule);
  if (!schedule) {
    print_error(schedule.error());
    return kExitInvalid;
  }
  env::Environment environment(std::move(*schedule), o.seed);
  const std::int64_t end_ms = std::llround(o.seconds * 1000.0);
  Json events = Json::array();
  Json attempts = Json::array();
  Json strikes = Json::array();
  Json sky_changes = Json::array();
  const env::SkyObject* sky = nullptr;  // the active sky object of the previous frame
  std::size_t frames = 0;
  std::uint32_t max_particles = 0;
  for (std::int64_t t = 0; t <= end_ms; t += o.step_ms) {
    const auto& f = environment.update(t, cam);
    ++frames;
    max_particles = std::max<std::uint32_t>(max_particles, static_cast<std::uint32_t>(f.particles.size()));
    if (const env::SkyObject* now = env::active_sky(environment.schedule(), f.time_ms); now != sky) {
      if (!o.json) std::cout << sky_line(f.time_ms, now) << "\n";
      sky_changes.push_back(sky_change_json(f.time_ms, now));
      sky = now;
    }
    for (const auto& a : f.lightning_attempts) {
      if (!o.json)
        std::cout << fmt::format("{:>10.3f} s  {:<13} intensity={} r15={} delay_ms={}\n",
                                 static_cast<double>(a.time_ms) / 1000.0, "LightningWait", a.intensity, a.r15,
                                 a.delay_ms);
      attempts.push_back(
          {{"time_ms", a.time_ms}, {"intensity", a.intensity}, {"r15", a.r15}, {"delay_ms", a.delay_ms}});
    }
    for (const auto& s : f.lightning) {
      if (!o.json)
        std::cout << fmt::format("{:>10.3f} s  {:<13} at {} r15=({}, {}) body {} size {} light {} material={}\n",
                                 static_cast<double>(s.time_ms) / 1000.0, "Lightning", vec(s.position), s.r15_x,
                                 s.r15_y, vec(s.body_center), vec(s.body_size), vec(s.light_position), s.material);
      strikes.push_back(env::lightning_strike_json(s));
    }
    for (const auto& e : f.sounds) {
      if (!o.json) std::cout << event_line(e) << "\n";
      events.push_back(env::sound_event_json(e));
    }
  }
  if (o.json) {
    Json j;
    j["schedule"] = o.schedule;
    j["seed"] = o.seed;
    j["seconds"] = o.seconds;
    j["step_ms"] = o.step_ms;
    j["events"] = std::move(events);
    j["lightning_attempts"] = std::move(attempts);
    j["lightning_strikes"] = std::move(strikes);
    j["sky_changes"] = std::move(sky_changes);
    j["summary"] = {{"frames", frames}, {"max_particles", max_particles}};
    print_json(j);
  } else {
    std::cout << fmt::format("{} frames of {} ms, {} sound events, {} lightning strikes, up to {} particles\n", frames,
                             o.step_ms, events.size(), strikes.size(), max_particles);
  }
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
  frame->add_option("--intensity", fo->intensity, "precipitation intensity, [0, 1]")->required();
  frame->add_option("--density", fo->density, "emitter density (1 in the retail emitter), [0, 100]");
  frame->add_flag("--json", fo->json, "machine-readable output");
  frame->callback([fo, &outcome] { outcome.exit_code = run_frame(*fo); });

  auto ro = std::make_shared<EnvRunOptions>();
  auto* run = env_cmd->add_subcommand("run", "Run a weather schedule (docs/weather-schedule.md) and print its events");
  run->add_option("schedule", ro->schedule, "weather schedule, text form")->required();
  run->add_option("--seconds", ro->seconds, "simulated time, (0, 86400]")->required();
  add_number(run, "--seed", ro->seed, "seed of the lightning and particle streams");
  run->add_option("--step-ms", ro->step_ms, "fixed frame step in milliseconds, [1, 60000] (default 50)");
  add_camera_options(run, ro->camera, false);
  run->add_flag("--json", ro->json, "machine-readable output");
  run->callback([ro, &outcome] { outcome.exit_code = run_env(*ro); });
});

}  // namespace sortie::cli
