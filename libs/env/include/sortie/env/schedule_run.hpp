#pragma once
// A weather schedule run for a span of time at a fixed step (`sortie env run`): the frames'
// events in the order they happened (sky changes, lightning attempts and strikes, sound events),
// as JSON and as the text event list.
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
};

// The first active sky object changed (none: no sky object is active any more).
struct SkyChange {
  std::int64_t time_ms = 0;
  std::optional<SkyObject> sky;
};

// One happening of the run, in frame order (within a frame: sky, attempts, strikes, sounds).
using ScheduleHappening = std::variant<SkyChange, LightningAttempt, LightningStrike, SoundEvent>;

struct ScheduleRun {
  std::string schedule;  // the schedule's name (its file)
  ScheduleRunOptions options;
  std::vector<ScheduleHappening> happenings;
  std::size_t frames = 0;
  std::uint32_t max_particles = 0;

  // {"schedule", "seed", "seconds", "step_ms", "events", "lightning_attempts",
  //  "lightning_strikes", "sky_changes", "summary": {"frames", "max_particles"}}
  [[nodiscard]] core::Json to_json() const;
  // One line per happening, then the summary line.
  [[nodiscard]] std::string to_text() const;
};

// Runs `schedule` (named `name`) from 0 ms.
ScheduleRun run_schedule(WeatherSchedule schedule, std::string name, const ScheduleRunOptions& options);
// Reads the text form at `path` (at most 16 MiB) and runs it. Errors: io.* (the file), the
// schedule's (weather.*).
core::Result<ScheduleRun> run_schedule_file(const std::filesystem::path& path, const ScheduleRunOptions& options);

}  // namespace sortie::env
