#include "sortie/env/environment.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace sortie::env {

std::int64_t lightning_delay_ms(double intensity, std::uint32_t r15) {
  const double u = static_cast<double>(r15) / static_cast<double>(kRand15Max);
  return static_cast<std::int64_t>(
      round_even((1.0 - std::min(intensity, kLightningMaxIntensity)) * kLightningBaseDelayMs * u));
}

std::shared_ptr<const assets::PreparedEffect> choose_lightning_effect(const WeatherSchedule& schedule,
                                                                      const EffectLibrary* library,
                                                                      core::Diagnostics* warnings,
                                                                      std::string_view file) {
  if (!schedule.lightning_effect.empty() && library != nullptr)
    if (auto e = library->find(schedule.lightning_effect)) return e;
  auto built =
      assets::prepare_effect(assets::lightning_fxid(schedule.lightning_sample.archive, schedule.lightning_sample.name,
                                                    schedule.lightning_material),
                             "built-in", "lightning");
  // The stand-in's fields are fixed and finite: it always prepares.
  auto effect = std::make_shared<const assets::PreparedEffect>(std::move(*built));
  const bool used = std::any_of(schedule.keys.begin(), schedule.keys.end(), [](const auto& k) { return k.lightning; });
  if (!used || warnings == nullptr) return effect;
  const std::string stand_in =
      fmt::format("sortie's stand-in lightning runs instead (material '{}', sample '{}', the seed's numbers)",
                  schedule.lightning_material, schedule.lightning_sample.to_string());
  if (!schedule.lightning_effect.empty())
    warnings->push_back(
        core::Diagnostic::warning("weather.lightning_effect",
                                  fmt::format("the lightning effect '{}' {}: {}", schedule.lightning_effect,
                                              library != nullptr ? "is not among the mission's effects"
                                                                 : "is not loaded (the schedule runs without a game)",
                                              stand_in))
            .of(std::string(file))
            .expect("an FXID the mission prepared", schedule.lightning_effect));
  else
    warnings->push_back(
        core::Diagnostic::warning(
            "weather.lightning_builtin",
            fmt::format("the schedule names no lightning effect ('effect lightning NAME'): {}", stand_in))
            .of(std::string(file)));
  return effect;
}

Environment::Environment(WeatherSchedule schedule, std::uint64_t seed, double density,
                         std::shared_ptr<const assets::PreparedEffect> lightning)
    : schedule_(std::move(schedule)),
      density_(density),
      field_(seed),
      lightning_rng_(seed, 0x4C49474Eull /* "LIGN" */),
      lightning_(lightning ? std::move(lightning) : choose_lightning_effect(schedule_, nullptr, nullptr)) {}

void Environment::update_lightning(std::int64_t time_ms, const WeatherState& state) {
  if (!state.lightning) {
    next_attempt_.reset();
    pending_strike_.reset();
    return;
  }
  if (!next_attempt_ && !pending_strike_) next_attempt_ = time_ms;
  while (true) {
    if (next_attempt_ && *next_attempt_ <= time_ms) {
      LightningAttempt a;
      a.time_ms = *next_attempt_;
      a.intensity = sample_weather(schedule_, a.time_ms).intensity;
      a.r15 = rand15();
      a.delay_ms = lightning_delay_ms(static_cast<double>(a.intensity), a.r15);
      pending_strike_ = a.time_ms + a.delay_ms;
      next_attempt_.reset();
      frame_.lightning_attempts.push_back(a);
      continue;
    }
    if (pending_strike_ && *pending_strike_ <= time_ms) {
      const auto& b = schedule_.lightning_bounds;
      LightningStrike s;
      s.time_ms = *pending_strike_;
      s.r15_x = rand15();
      s.r15_y = rand15();
      const float ux = static_cast<float>(s.r15_x) / static_cast<float>(kRand15Max);
      const float uy = static_cast<float>(s.r15_y) / static_cast<float>(kRand15Max);
      s.position = {b.min.x + (b.max.x - b.min.x) * ux, b.min.y + (b.max.y - b.min.y) * uy, b.z};
      s.body_center = s.position + core::Vec3{0.0f, 0.0f, kLightningBodyOffset};
      s.body_bottom = s.body_center.z - kLightningBodySize.z / 2.0f;
      s.body_top = s.body_center.z + kLightningBodySize.z / 2.0f;
      s.material = schedule_.lightning_material;
      s.effect = lightning_->label();
      // The effect's origin is the descriptor's centre; its stream is the strike's own draws.
      s.instance =
          effects_.start(lightning_, "lightning", s.body_center, s.time_ms, (std::uint64_t{s.r15_x} << 16) | s.r15_y);
      frame_.lightning.push_back(std::move(s));
      next_attempt_ = *pending_strike_ + kLightningRetryMs;
      pending_strike_.reset();
      continue;
    }
    break;
  }
}

void Environment::update_loop(std::int64_t time_ms, const WeatherState& state, const CameraFrame& camera) {
  auto loop_event = [&](SoundEventKind kind, PrecipitationKind which) {
    SoundEvent e;
    e.kind = kind;
    e.time_ms = time_ms;
    e.loop = std::string(to_string(which));
    e.bus = Bus::ambient;
    e.volume = state.intensity;
    if (kind == SoundEventKind::start_loop) {
      e.sample = which == PrecipitationKind::rain ? schedule_.rain_sample : schedule_.snow_sample;
      e.positional = true;
      e.position = camera.position;
    }
    frame_.sounds.push_back(std::move(e));
  };
  if (state.kind != loop_kind_) {
    if (loop_kind_ != PrecipitationKind::none) loop_event(SoundEventKind::stop_loop, loop_kind_);
    loop_kind_ = state.kind;
    if (loop_kind_ != PrecipitationKind::none) loop_event(SoundEventKind::start_loop, loop_kind_);
    loop_volume_ = state.intensity;
    return;
  }
  if (loop_kind_ != PrecipitationKind::none && state.intensity != loop_volume_) {
    loop_event(SoundEventKind::set_loop_volume, loop_kind_);
    loop_volume_ = state.intensity;
  }
}

const EnvironmentFrame& Environment::update(std::int64_t time_ms, const CameraFrame& camera) {
  if (now_ && time_ms < *now_) time_ms = *now_;
  const std::int64_t dt = now_ ? time_ms - *now_ : 0;
  now_ = time_ms;
  frame_.time_ms = time_ms;
  frame_.camera = camera;
  frame_.lightning_attempts.clear();
  frame_.lightning.clear();
  frame_.sounds.clear();
  const WeatherState state = sample_weather(schedule_, time_ms);
  frame_.weather = state;
  frame_.sky_base_rgb = sample_sky(schedule_, time_ms);
  frame_.metrics = precipitation_metrics(camera, state.kind, static_cast<double>(state.intensity), density_);
  frame_.material = state.kind == PrecipitationKind::rain   ? schedule_.rain_material
                    : state.kind == PrecipitationKind::snow ? schedule_.snow_material
                                                            : std::string();
  field_.update(dt, camera, state.kind, frame_.metrics);
  frame_.particles = field_.particles();
  update_loop(time_ms, state, camera);
  update_lightning(time_ms, state);
  frame_.effects = effects_.update(time_ms);
  frame_.sounds.insert(frame_.sounds.end(), frame_.effects.sounds.begin(), frame_.effects.sounds.end());
  return frame_;
}

core::Json precipitation_metrics_json(const PrecipitationMetrics& m) {
  return {{"half_x", m.half_x},
          {"half_y", m.half_y},
          {"depth_near", m.depth_near},
          {"depth_far", m.depth_far},
          {"reference_half_x", m.reference_half_x},
          {"reference_half_y", m.reference_half_y},
          {"volume_ratio", m.volume_ratio},
          {"horizontal_fov", m.horizontal_fov},
          {"size_scalar", m.size_scalar},
          {"point_size", m.point_size},
          {"count", m.count}};
}

core::Json lightning_strike_json(const LightningStrike& s) {
  return {{"time_ms", s.time_ms},
          {"position", {s.position.x, s.position.y, s.position.z}},
          {"r15_x", s.r15_x},
          {"r15_y", s.r15_y},
          {"body_center", {s.body_center.x, s.body_center.y, s.body_center.z}},
          {"body_size", {s.body_size.x, s.body_size.y, s.body_size.z}},
          {"body_bottom", s.body_bottom},
          {"body_top", s.body_top},
          {"material", s.material},
          {"effect", s.effect},
          {"instance", s.instance}};
}

core::Json environment_frame_json(const EnvironmentFrame& f) {
  core::Json j;
  j["time_ms"] = f.time_ms;
  j["weather"] = {{"kind", std::string(to_string(f.weather.kind))},
                  {"intensity", f.weather.intensity},
                  {"lightning", f.weather.lightning}};
  j["sky_base_rgb"] =
      f.sky_base_rgb ? core::Json{f.sky_base_rgb->x, f.sky_base_rgb->y, f.sky_base_rgb->z} : core::Json(nullptr);
  j["material"] = f.material;
  j["metrics"] = precipitation_metrics_json(f.metrics);
  j["particles"] = f.particles.size();
  core::Json attempts = core::Json::array();
  for (const auto& a : f.lightning_attempts)
    attempts.push_back({{"time_ms", a.time_ms}, {"intensity", a.intensity}, {"r15", a.r15}, {"delay_ms", a.delay_ms}});
  j["lightning_attempts"] = std::move(attempts);
  core::Json strikes = core::Json::array();
  for (const auto& s : f.lightning) strikes.push_back(lightning_strike_json(s));
  j["lightning"] = std::move(strikes);
  core::Json sounds = core::Json::array();
  for (const auto& e : f.sounds) sounds.push_back(sound_event_json(e));
  j["sounds"] = std::move(sounds);
  core::Json lights = core::Json::array();
  for (const auto& l : f.effects.lights)
    lights.push_back({{"instance", l.instance},
                      {"command", l.command},
                      {"position", {l.position.x, l.position.y, l.position.z}},
                      {"color", {l.color.x, l.color.y, l.color.z}},
                      {"radius", l.radius}});
  core::Json bodies = core::Json::array();
  for (const auto& b : f.effects.bodies)
    bodies.push_back({{"instance", b.instance},
                      {"command", b.command},
                      {"center", {b.center.x, b.center.y, b.center.z}},
                      {"size", {b.size.x, b.size.y, b.size.z}},
                      {"alpha", b.alpha},
                      {"material", b.material}});
  j["effects"] = {{"live", f.effects.live}, {"lights", lights}, {"bodies", bodies}, {"traces", f.effects.traces}};
  return j;
}

}  // namespace sortie::env
