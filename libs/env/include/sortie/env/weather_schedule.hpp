#pragma once
// The weather schedule: keys in time with the precipitation kind (none, rain, snow), its
// intensity and the lightning switch, plus material and sample names per kind and the
// lightning bounds (seed 001: sky.ske schedules the state, sky.wea names the materials).
//
// The on-disk layouts of sky.ske and sky.wea are not known. sortie reads a small documented
// text form instead (docs/weather-schedule.md) through the WeatherScheduleReader interface;
// a binary sky.ske/sky.wea reader can replace it later by producing the same WeatherSchedule.
//
// Sampling at time t: the last key at or before t gives kind and lightning; its intensity is
// interpolated linearly toward the next key when that key has the same kind, else held.
// Before the first key the weather is clear (none, 0, no lightning).
//
// Sky objects (seed 001, ambient music): each has a name, a base RGB (the colour before the
// camera-dependent glare) and an active window [from, until) in milliseconds; their order is
// the declaration order. sample_sky(t) is the base RGB of the first sky object active at t, or
// nothing when none is: the ambient music takes its DAY/NIGHT pool from it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/math.hpp"
#include "sortie/env/sound_event.hpp"

namespace sortie::env {

enum class PrecipitationKind : std::uint8_t { none, rain, snow };
std::string_view to_string(PrecipitationKind kind);

struct WeatherKey {
  std::int64_t time_ms = 0;
  PrecipitationKind kind = PrecipitationKind::none;
  float intensity = 0.0f;  // 0..1
  bool lightning = false;
  bool operator==(const WeatherKey&) const = default;
};

// World rectangle in which strikes are sampled; Z is copied, not sampled.
struct LightningBounds {
  core::Vec2 min{};
  core::Vec2 max{};
  float z = 0.0f;
  bool operator==(const LightningBounds&) const = default;
};

// Largest accepted base RGB component (the colour before glare may be above 1).
inline constexpr float kMaxSkyComponent = 16.0f;

struct SkyObject {
  std::string name;  // unique within the schedule
  core::Vec3 base_rgb{};
  std::int64_t from_ms = 0;
  std::optional<std::int64_t> until_ms;  // none: active to the end; else from_ms < until_ms
  bool operator==(const SkyObject&) const = default;
  [[nodiscard]] bool active_at(std::int64_t time_ms) const {
    return from_ms <= time_ms && (!until_ms || time_ms < *until_ms);
  }
};

struct WeatherSchedule {
  std::vector<WeatherKey> keys;  // strictly increasing time
  std::vector<SkyObject> sky;    // declaration order
  std::string rain_material;
  std::string snow_material;
  std::string lightning_material;
  SoundRef rain_sample;
  SoundRef snow_sample;
  SoundRef lightning_sample;
  // The FXID a strike starts (`effect lightning NAME`: "name" in effects.rlb or "archive/name";
  // docs/effects.md). Empty: sortie's stand-in built from the material and sample above.
  std::string lightning_effect;
  LightningBounds lightning_bounds;
  bool operator==(const WeatherSchedule&) const = default;
};

struct WeatherState {
  PrecipitationKind kind = PrecipitationKind::none;
  float intensity = 0.0f;
  bool lightning = false;
  bool operator==(const WeatherState&) const = default;
};
WeatherState sample_weather(const WeatherSchedule& schedule, std::int64_t time_ms);
// The base RGB of the first sky object active at time_ms (none: no sky object is active).
std::optional<core::Vec3> sample_sky(const WeatherSchedule& schedule, std::int64_t time_ms);
// The first sky object active at time_ms, or nullptr.
const SkyObject* active_sky(const WeatherSchedule& schedule, std::int64_t time_ms);

// A source of schedules; the text form is the one implementation today.
class WeatherScheduleReader {
 public:
  virtual ~WeatherScheduleReader() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  virtual core::Result<WeatherSchedule> read(core::ByteView data, std::string_view file_name) const = 0;
};
const WeatherScheduleReader& weather_text_reader();

// Codes: weather.magic (first line is not "sortie-weather <version>"), weather.version (a
// version other than 1), weather.syntax (unknown directive, wrong token count, a sky option
// other than from/until or one given twice, an effect for another kind than lightning), weather.value (a number that
// does not parse or is out of range, an empty sky window), weather.order (key times not strictly increasing),
// weather.duplicate (a material/sample/bounds line given twice, two sky objects of one name),
// weather.missing (a kind used by a key without its material or sample; lightning without
// bounds), weather.limit (the file, a line, the keys or the sky objects over env/limits.hpp).
core::Result<WeatherSchedule> read_weather_text(core::ByteView data, std::string_view file_name = {});
std::string write_weather_text(const WeatherSchedule& schedule);

core::Json weather_schedule_json(const WeatherSchedule& schedule);

}  // namespace sortie::env
