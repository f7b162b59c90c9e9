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
#include <cstdint>
#include <memory>
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

struct WeatherSchedule {
  std::vector<WeatherKey> keys;  // strictly increasing time
  std::string rain_material;
  std::string snow_material;
  std::string lightning_material;
  SoundRef rain_sample;
  SoundRef snow_sample;
  SoundRef lightning_sample;
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

// A source of schedules; the text form is the one implementation today.
class WeatherScheduleReader {
 public:
  virtual ~WeatherScheduleReader() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  virtual core::Result<WeatherSchedule> read(core::ByteView data, std::string_view file_name) const = 0;
};
const WeatherScheduleReader& weather_text_reader();

// Codes: weather.magic (first line is not "sortie-weather <version>"), weather.version (a
// version other than 1), weather.syntax (unknown directive, wrong token count), weather.value
// (a number that does not parse or is out of range), weather.order (key times not strictly
// increasing), weather.duplicate (a material/sample/bounds line given twice), weather.missing
// (a kind used by a key without its material or sample; lightning without bounds).
core::Result<WeatherSchedule> read_weather_text(core::ByteView data, std::string_view file_name = {});
std::string write_weather_text(const WeatherSchedule& schedule);

core::Json weather_schedule_json(const WeatherSchedule& schedule);

}  // namespace sortie::env
