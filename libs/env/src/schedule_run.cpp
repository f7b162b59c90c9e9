#include "sortie/env/schedule_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "sortie/core/file_io.hpp"
#include "sortie/env/ambient_music.hpp"
#include "sortie/env/limits.hpp"
#include "sortie/env/weather_schedule.hpp"

namespace sortie::env {
namespace {

using core::Json;

std::string vec(const core::Vec3& v) {
  return fmt::format("({}, {}, {})", v.x, v.y, v.z);
}

double seconds_of(std::int64_t ms) {
  return static_cast<double>(ms) / 1000.0;
}

std::optional<core::Vec3> rgb_of(const SkyChange& c) {
  return c.sky ? std::optional<core::Vec3>(c.sky->base_rgb) : std::nullopt;
}

// Which sky object, its base RGB, the RGB length and the DAY/NIGHT pool that length selects.
Json sky_change_json(const SkyChange& c) {
  const auto rgb = rgb_of(c);
  Json j{{"time_ms", c.time_ms}, {"pool", std::string(to_string(sky_pool(rgb)))}};
  j["name"] = c.sky ? Json(c.sky->name) : Json(nullptr);
  j["base_rgb"] = rgb ? Json{rgb->x, rgb->y, rgb->z} : Json(nullptr);
  j["length"] = rgb ? Json(core::length(*rgb)) : Json(nullptr);
  return j;
}

std::string line_of(const SkyChange& c) {
  std::string s = fmt::format("{:>10.3f} s  {:<13} ", seconds_of(c.time_ms), "Sky");
  if (c.sky)
    s += fmt::format("name={} rgb={} length={}", c.sky->name, vec(c.sky->base_rgb), core::length(c.sky->base_rgb));
  else
    s += "none";
  return s + fmt::format(" pool={}", to_string(sky_pool(rgb_of(c))));
}

std::string line_of(const LightningAttempt& a) {
  return fmt::format("{:>10.3f} s  {:<13} intensity={} r15={} delay_ms={}", seconds_of(a.time_ms), "LightningWait",
                     a.intensity, a.r15, a.delay_ms);
}

std::string line_of(const LightningStrike& s) {
  return fmt::format("{:>10.3f} s  {:<13} at {} r15=({}, {}) body {} size {} effect={} instance={}",
                     seconds_of(s.time_ms), "Lightning", vec(s.position), s.r15_x, s.r15_y, vec(s.body_center),
                     vec(s.body_size), s.effect, s.instance);
}

std::string line_of(const EffectStart& e) {
  return fmt::format("{:>10.3f} s  {:<13} {}", seconds_of(e.time_ms), "Effect", e.trace);
}

std::string line_of(const SoundEvent& e) {
  std::string s = fmt::format("{:>10.3f} s  {:<13} bus={}", seconds_of(e.time_ms), to_string(e.kind), to_string(e.bus));
  if (!e.loop.empty()) s += " loop=" + e.loop;
  if (!e.sample.empty()) s += " sample=" + e.sample.to_string();
  if (e.kind != SoundEventKind::stop_loop) s += fmt::format(" volume={}", e.volume);
  if (e.positional) s += fmt::format(" at {}", vec(e.position));
  if (e.kind == SoundEventKind::one_shot && e.positional)
    s += fmt::format(" min={} max={} ratio={}", e.min_distance, e.max_distance, e.frequency_ratio);
  return s;
}

template <class T>
std::size_t count_of(const std::vector<ScheduleHappening>& hs) {
  return static_cast<std::size_t>(
      std::count_if(hs.begin(), hs.end(), [](const ScheduleHappening& h) { return std::holds_alternative<T>(h); }));
}

}  // namespace

ScheduleRun run_schedule(WeatherSchedule schedule, std::string name, const ScheduleRunOptions& options) {
  ScheduleRun run;
  run.schedule = std::move(name);
  run.options = options;
  run.lightning =
      options.lightning ? options.lightning : choose_lightning_effect(schedule, nullptr, &run.warnings, run.schedule);
  Environment environment(std::move(schedule), options.seed, 1.0, run.lightning);
  const std::int64_t end_ms = std::llround(options.seconds * 1000.0);
  const SkyObject* sky = nullptr;  // the active sky object of the previous frame
  for (std::int64_t t = 0; t <= end_ms; t += options.step_ms) {
    const auto& f = environment.update(t, options.camera);
    ++run.frames;
    run.max_particles = std::max<std::uint32_t>(run.max_particles, static_cast<std::uint32_t>(f.particles.size()));
    if (const SkyObject* now = active_sky(environment.schedule(), f.time_ms); now != sky) {
      run.happenings.emplace_back(SkyChange{f.time_ms, now ? std::optional<SkyObject>(*now) : std::nullopt});
      sky = now;
    }
    for (const auto& a : f.lightning_attempts) run.happenings.emplace_back(a);
    for (const auto& s : f.lightning) run.happenings.emplace_back(s);
    for (const auto& trace : f.effects.traces) run.happenings.emplace_back(EffectStart{f.time_ms, trace});
    for (const auto& e : f.sounds) run.happenings.emplace_back(e);
  }
  return run;
}

core::Result<ScheduleRun> run_schedule_file(const std::filesystem::path& path, const ScheduleRunOptions& options) {
  SORTIE_TRY(auto bytes, core::read_file(path, kWeatherFileMax));
  SORTIE_TRY(auto schedule, weather_text_reader().read(bytes, path.string()));
  return run_schedule(std::move(schedule), path.string(), options);
}

core::Json ScheduleRun::to_json() const {
  Json events = Json::array();
  Json attempts = Json::array();
  Json strikes = Json::array();
  Json sky_changes = Json::array();
  Json effects = Json::array();
  for (const auto& h : happenings) {
    if (const auto* e = std::get_if<EffectStart>(&h)) effects.push_back({{"time_ms", e->time_ms}, {"trace", e->trace}});
    if (const auto* c = std::get_if<SkyChange>(&h)) sky_changes.push_back(sky_change_json(*c));
    if (const auto* a = std::get_if<LightningAttempt>(&h))
      attempts.push_back(
          {{"time_ms", a->time_ms}, {"intensity", a->intensity}, {"r15", a->r15}, {"delay_ms", a->delay_ms}});
    if (const auto* s = std::get_if<LightningStrike>(&h)) strikes.push_back(lightning_strike_json(*s));
    if (const auto* e = std::get_if<SoundEvent>(&h)) events.push_back(sound_event_json(*e));
  }
  Json j;
  j["schedule"] = schedule;
  j["seed"] = options.seed;
  j["seconds"] = options.seconds;
  j["step_ms"] = options.step_ms;
  j["events"] = std::move(events);
  j["lightning_attempts"] = std::move(attempts);
  j["lightning_strikes"] = std::move(strikes);
  j["sky_changes"] = std::move(sky_changes);
  j["effects"] = std::move(effects);
  j["lightning_effect"] = lightning ? lightning->label() : std::string();
  j["warnings"] = core::diagnostics_json(warnings);
  j["summary"] = {{"frames", frames}, {"max_particles", max_particles}};
  return j;
}

std::string ScheduleRun::to_text() const {
  std::string out;
  for (const auto& d : warnings) out += "warning: " + d.to_string() + "\n";
  for (const auto& h : happenings) out += std::visit([](const auto& v) { return line_of(v); }, h) + "\n";
  out += fmt::format("{} frames of {} ms, {} sound events, {} lightning strikes, up to {} particles\n", frames,
                     options.step_ms, count_of<SoundEvent>(happenings), count_of<LightningStrike>(happenings),
                     max_particles);
  return out;
}

}  // namespace sortie::env
