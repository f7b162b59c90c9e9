// The weather schedule in the format table (docs/weather-schedule.md): the text form libs/env
// reads (`MISSIONS/<m>/sky.weather` of every sample mission). Read with env's own reader, so
// `check` is exactly what the viewer and `sortie render --weather` accept; written back byte
// for byte: the document keeps its raw lines (comments, spacing, line endings) beside the
// schedule, as the other text formats of the table do (WEAR, varset, Behavior.ini).
#include <algorithm>
#include <string>
#include <vector>

#include "sortie/core/text.hpp"
#include "sortie/env/weather_schedule.hpp"
#include "sortie/formats/formats.hpp"
#include "sortie/formats/limits.hpp"

namespace sortie::formats {

namespace {

// The schedule and the lines it was read from: raw lines split at '\n' (each may still hold
// '\r'); joined with '\n' they are the file.
struct WeatherDocument {
  env::WeatherSchedule schedule;
  std::vector<std::string> lines;
};

// Content: the first line that is not blank or a comment opens with the `sortie-weather` magic.
int detect(core::ByteView data, std::string_view file_name) {
  std::string_view text = core::as_chars(data.first(std::min<std::size_t>(data.size(), kSniffBytes)));
  if (text.find('\0') == std::string_view::npos) {
    for (std::size_t start = 0; start < text.size();) {
      const auto nl = text.find('\n', start);
      std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
      start = nl == std::string_view::npos ? text.size() : nl + 1;
      line = core::trim(line.substr(0, line.find('#')));
      if (line.empty()) continue;
      if (line.starts_with("sortie-weather") && (line.size() == 14 || line[14] == ' ' || line[14] == '\t'))
        return kDetectContent;
      break;
    }
  }
  return core::iends_with_ascii(file_name, ".weather") ? kDetectName : kDetectNone;
}

core::Result<WeatherDocument> read(core::ByteView data, const ReadOptions& options, core::Diagnostics*) {
  WeatherDocument doc;
  SORTIE_TRY(doc.schedule, env::read_weather_text(data, options.file_name));
  const std::string_view text = core::as_chars(data);
  for (std::size_t start = 0;;) {
    const auto nl = text.find('\n', start);
    doc.lines.emplace_back(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return doc;
}

core::Json to_json(const WeatherDocument& doc) {
  core::Json j = env::weather_schedule_json(doc.schedule);
  j["format"] = "weather";
  j["line_count"] = doc.lines.size();
  return j;
}

core::Result<core::Bytes> write(const WeatherDocument& doc) {
  std::string text;
  for (std::size_t i = 0; i < doc.lines.size(); ++i) {
    if (i) text += '\n';
    text += doc.lines[i];
  }
  return core::Bytes(text.begin(), text.end());
}

constexpr iron3d::FormatAdapter<WeatherDocument> kWeather{
    .name = "weather",
    .description = "weather schedule text (MISSIONS/<m>/sky.weather, `sortie-weather 1`): keys, materials, sky objects",
    .detect = &detect,
    .read = &read,
    .json = &to_json,
    .write = &write,
};

}  // namespace

FormatInfo weather_format_info() {
  return iron3d::format_info<WeatherDocument, kWeather>();
}

}  // namespace sortie::formats
