#pragma once
// Weather -> EnvironmentFrame (seed 001 "Погода, осадки и звуковые события"). Every update
// turns the schedule's state at the frame time into
//   - precipitation for the renderer: kind, material, the frame numbers, world particles;
//   - lightning strikes for the renderer (body descriptor, point light);
//   - sound events for the audio owner: StartLoop / SetLoopVolume / StopLoop for the rain or
//     snow loop, OneShot for thunder.
//
// Loop lifecycle: a loop named after the kind ("rain", "snow") starts when the kind begins
// (volume = intensity, at the camera position: the rain surrounds the observer; distances 0 =
// the backend's defaults, the seed names none), SetLoopVolume follows every frame whose
// interpolated intensity differs from the last volume sent, StopLoop ends it when the kind
// changes or stops. Samples are names only here; the sound bank resolves them lazily.
//
// Lightning: while the schedule's lightning is on, an attempt draws U = r / 32767 with r a
// 15-bit value (0..32767) and waits delay_ms = round_even((1 - min(I, 0.95)) * 60000 * U), I the
// intensity at the attempt; the strike samples X and Y in the lightning bounds (two more 15-bit
// draws, x = min + (max - min) * r / 32767) and copies Z; the body descriptor [40, 40, 600] is
// centred at z + 300 (ends at z and z + 600). The strike starts the lightning effect (an FXID,
// effect.hpp; docs/effects.md) with its origin at that centre: its opcode 1 is the flash's point
// light, its opcode 2 the thunder's sound command (the seed's: min distance 100, max 1500,
// frequency ratio 1), its opcode 3 the bolt's body with its material, all for the lifetime of the
// effect's header. The effect is the one the schedule names (`effect lightning NAME`) when the
// mission prepared it, else sortie's stand-in (assets::lightning_fxid) with a warning
// (choose_lightning_effect). The next attempt comes 6000 ms after the strike. The first attempt
// is made by the first frame that finds lightning on; turning lightning off cancels a pending
// strike (an effect already started runs its lifetime).
// Times are integer milliseconds; strikes happen at their exact scheduled time inside the
// frame that reaches it. Randomness comes from seeded core::Rng streams.
//
// Sky: sky_base_rgb is sample_sky(schedule, time): the base RGB (before glare) of the first
// active sky object, none when no sky object is active. The audio owner passes it to
// AmbientMusic::tick (DAY/NIGHT pools); the viewer may clear the picture to it.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/core/json.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/env/camera.hpp"
#include "sortie/env/effect.hpp"
#include "sortie/env/precipitation.hpp"
#include "sortie/env/sound_event.hpp"
#include "sortie/env/weather_schedule.hpp"

namespace sortie::env {

inline constexpr std::int64_t kLightningRetryMs = 6000;
inline constexpr double kLightningBaseDelayMs = 60000.0;
inline constexpr double kLightningMaxIntensity = 0.95;
inline constexpr std::uint32_t kRand15Max = 32767;
inline constexpr core::Vec3 kLightningBodySize{40.0f, 40.0f, 600.0f};
inline constexpr float kLightningBodyOffset = 300.0f;

// round_even((1 - min(I, 0.95)) * 60000 * r15 / 32767), in double.
std::int64_t lightning_delay_ms(double intensity, std::uint32_t r15);

struct LightningAttempt {
  std::int64_t time_ms = 0;  // when the attempt was made
  float intensity = 0.0f;
  std::uint32_t r15 = 0;
  std::int64_t delay_ms = 0;
  bool operator==(const LightningAttempt&) const = default;
};

struct LightningStrike {
  std::int64_t time_ms = 0;
  core::Vec3 position{};  // sampled X, Y; Z copied from the bounds
  std::uint32_t r15_x = 0;
  std::uint32_t r15_y = 0;
  core::Vec3 body_center{};  // position + (0, 0, 300)
  core::Vec3 body_size = kLightningBodySize;
  float body_bottom = 0.0f;    // z
  float body_top = 0.0f;       // z + 600
  std::string material;        // the schedule's lightning material (the stand-in effect draws it)
  std::string effect;          // the effect it started ("effects.rlb/lightning", "built-in/lightning")
  std::uint32_t instance = 0;  // the effect instance (EnvironmentFrame::effects traces name it)
  bool operator==(const LightningStrike&) const = default;
};

struct EnvironmentFrame {
  std::int64_t time_ms = 0;
  CameraFrame camera;
  WeatherState weather;
  std::optional<core::Vec3> sky_base_rgb;  // the first active sky object's base RGB
  std::string material;                    // of the current precipitation kind
  PrecipitationMetrics metrics;
  std::span<const Particle> particles;  // valid until the next update
  std::vector<LightningAttempt> lightning_attempts;
  std::vector<LightningStrike> lightning;
  // The lightning effects alive at time_ms (lights, bodies) and their traces; their sound commands
  // are also in `sounds` (after the loop events).
  EffectFrame effects;
  std::vector<SoundEvent> sounds;
};

// The lightning effect of a schedule: the one it names (`effect lightning NAME`) from `library`;
// else sortie's stand-in (assets::lightning_fxid with the schedule's sample and material, named
// "built-in/lightning") and, when a key turns lightning on, a warning in `warnings`:
// weather.lightning_effect (the named effect is not in `library`) or weather.lightning_builtin
// (the schedule names none). `file` names the schedule in the warning.
std::shared_ptr<const assets::PreparedEffect> choose_lightning_effect(const WeatherSchedule& schedule,
                                                                      const EffectLibrary* library,
                                                                      core::Diagnostics* warnings,
                                                                      std::string_view file = {});

class Environment {
 public:
  // `lightning`: the effect a strike starts; null: choose_lightning_effect(schedule, nullptr).
  Environment(WeatherSchedule schedule, std::uint64_t seed, double density = 1.0,
              std::shared_ptr<const assets::PreparedEffect> lightning = nullptr);
  // Moves the clock to time_ms (never backwards: an earlier time is treated as the current one)
  // and builds the frame for `camera`.
  const EnvironmentFrame& update(std::int64_t time_ms, const CameraFrame& camera);
  [[nodiscard]] const WeatherSchedule& schedule() const { return schedule_; }
  [[nodiscard]] const EnvironmentFrame& frame() const { return frame_; }
  [[nodiscard]] const std::shared_ptr<const assets::PreparedEffect>& lightning_effect() const { return lightning_; }

 private:
  void update_lightning(std::int64_t time_ms, const WeatherState& state);
  void update_loop(std::int64_t time_ms, const WeatherState& state, const CameraFrame& camera);
  std::uint32_t rand15() { return lightning_rng_.below(kRand15Max + 1); }

  WeatherSchedule schedule_;
  double density_;
  PrecipitationField field_;
  core::Rng lightning_rng_;
  std::shared_ptr<const assets::PreparedEffect> lightning_;
  EffectRunner effects_;
  std::optional<std::int64_t> now_;
  std::optional<std::int64_t> next_attempt_;
  std::optional<std::int64_t> pending_strike_;
  PrecipitationKind loop_kind_ = PrecipitationKind::none;
  float loop_volume_ = 0.0f;
  EnvironmentFrame frame_;
};

// The frame's numbers (no particle positions) and its events, for `sortie env` and tests.
core::Json environment_frame_json(const EnvironmentFrame& frame);
core::Json precipitation_metrics_json(const PrecipitationMetrics& m);
core::Json lightning_strike_json(const LightningStrike& s);

}  // namespace sortie::env
