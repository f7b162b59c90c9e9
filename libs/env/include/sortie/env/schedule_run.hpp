#pragma once
// A weather schedule run for a span of time at a fixed step (`sortie env run`): the frames'
// events in the order they happened (sky changes, lightning attempts and strikes, the effects
// they start, sound events), as JSON and as the text event list.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sortie/core/json.hpp"
#include "sortie/env/environment.hpp"

namespace sortie::env {

struct ScheduleRunOptions {
  double seconds = 0.0;       // frames at 0, step, 2 step ... up to round(seconds * 1000) ms
  std::int64_t step_ms = 50;  // >= 1
  std::uint64_t seed = 1;     // lightning and particle streams
  CameraFrame camera;         // what the particles and positional sounds are seen from
  // The effect a strike starts; null: choose_lightning_effect without a game (the stand-in, with
  // a warning when the schedule names an effect or none).
  std::shared_ptr<const assets::PreparedEffect> lightning;
};

// The first active sky object changed (none: no sky object is active any more).
struct SkyChange {
  std::int64_t time_ms = 0;
  std::optional<SkyObject> sky;
};

// An effect started (its start trace, effect.hpp describe_effect_start), in the frame at time_ms.
struct EffectStart {
  std::int64_t time_ms = 0;
  std::string trace;
};

// One happening of the run, in frame order (within a frame: sky, attempts, strikes, effects, sounds).
using ScheduleHappening = std::variant<SkyChange, LightningAttempt, LightningStrike, EffectStart, SoundEvent>;

struct ScheduleRun {
  std::string schedule;  // the schedule's name (its file)
  ScheduleRunOptions options;
  std::vector<ScheduleHappening> happenings;
  std::size_t frames = 0;
  std::uint32_t max_particles = 0;
  std::shared_ptr<const assets::PreparedEffect> lightning;  // what the strikes started
  core::Diagnostics warnings;                               // choose_lightning_effect's

  // {"schedule", "seed", "seconds", "step_ms", "events", "lightning_attempts",
  //  "lightning_strikes", "sky_changes", "effects", "lightning_effect", "warnings",
  //  "summary": {"frames", "max_particles"}}
  [[nodiscard]] core::Json to_json() const;
  // The warnings, one line per happening, then the summary line.
  [[nodiscard]] std::string to_text() const;
};

// Runs `schedule` (named `name`) from 0 ms.
ScheduleRun run_schedule(WeatherSchedule schedule, std::string name, const ScheduleRunOptions& options);
// Reads the text form at `path` (at most 16 MiB) and runs it. Errors: io.* (the file), the
// schedule's (weather.*).
core::Result<ScheduleRun> run_schedule_file(const std::filesystem::path& path, const ScheduleRunOptions& options);

}  // namespace sortie::env
