#include "sortie/env/weather_schedule.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "sortie/env/limits.hpp"

namespace sortie::env {

using core::Diagnostic;

std::string_view to_string(PrecipitationKind kind) {
  switch (kind) {
    case PrecipitationKind::none:
      return "none";
    case PrecipitationKind::rain:
      return "rain";
    case PrecipitationKind::snow:
      return "snow";
  }
  return "none";
}

WeatherState sample_weather(const WeatherSchedule& s, std::int64_t time_ms) {
  std::size_t k = s.keys.size();
  for (std::size_t i = 0; i < s.keys.size() && s.keys[i].time_ms <= time_ms; ++i) k = i;
  if (k == s.keys.size()) return {};
  const WeatherKey& a = s.keys[k];
  WeatherState st{a.kind, a.intensity, a.lightning};
  if (k + 1 < s.keys.size() && s.keys[k + 1].kind == a.kind) {
    const WeatherKey& b = s.keys[k + 1];
    const double t = static_cast<double>(time_ms - a.time_ms) / static_cast<double>(b.time_ms - a.time_ms);
    const auto ia = static_cast<double>(a.intensity);
    const auto ib = static_cast<double>(b.intensity);
    st.intensity = static_cast<float>(ia + (ib - ia) * t);
  }
  return st;
}

const SkyObject* active_sky(const WeatherSchedule& s, std::int64_t time_ms) {
  for (const auto& o : s.sky)
    if (o.active_at(time_ms)) return &o;
  return nullptr;
}

std::optional<core::Vec3> sample_sky(const WeatherSchedule& s, std::int64_t time_ms) {
  if (const SkyObject* o = active_sky(s, time_ms)) return o->base_rgb;
  return std::nullopt;
}

namespace {

std::string seconds_text(std::int64_t ms) {
  return fmt::format("{}.{:03}", ms / 1000, ms % 1000);
}

std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (true) {
    i = s.find_first_not_of(" \t\r", i);
    if (i == std::string_view::npos) break;
    auto e = s.find_first_of(" \t\r", i);
    if (e == std::string_view::npos) e = s.size();
    out.push_back(s.substr(i, e - i));
    i = e;
  }
  return out;
}

bool parse_double(std::string_view t, double& out) {
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && p == t.data() + t.size() && std::isfinite(out);
}

// Values kept as float are read as float: one rounding, so the writer's shortest form reads
// back to the same value, and a number beyond the float range is an error, not infinity.
bool parse_float(std::string_view t, float& out) {
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && p == t.data() + t.size() && std::isfinite(out);
}

// One non-empty line of the text form: its tokens, where it starts, and how to report it.
class WeatherLine {
 public:
  WeatherLine(std::vector<std::string_view> tokens, std::size_t at, std::size_t number, std::string_view file)
      : t_(std::move(tokens)), at_(at), number_(number), file_(file) {}

  [[nodiscard]] const std::vector<std::string_view>& tokens() const { return t_; }

  [[nodiscard]] tl::unexpected<Diagnostic> err(std::string code, std::string msg, std::string expected) const {
    std::string found;
    for (auto tok : t_) found += (found.empty() ? "" : " ") + std::string(tok);
    return core::fail(Diagnostic::error(std::move(code), std::move(msg))
                          .of(std::string(file_))
                          .at(at_)
                          .in(fmt::format("line {}", number_))
                          .expect(std::move(expected), std::move(found)));
  }

  // `sortie-weather 1`
  [[nodiscard]] core::Status magic() const {
    if (t_[0] != "sortie-weather" || t_.size() != 2)
      return err("weather.magic", "a weather schedule starts with 'sortie-weather <version>'", "sortie-weather 1");
    if (t_[1] != "1") return err("weather.version", "unknown weather schedule version", "version 1");
    return {};
  }

  // `material KIND NAME` and `sample KIND [ARCHIVE/]NAME`
  [[nodiscard]] core::Status material_or_sample(WeatherSchedule& s) const {
    const std::string_view d = t_[0];
    if (t_.size() != 3)
      return err("weather.syntax", fmt::format("'{}' takes a kind and a name", d),
                 fmt::format("{} rain|snow|lightning NAME", d));
    std::string* mat = nullptr;
    SoundRef* ref = nullptr;
    if (t_[1] == "rain")
      mat = &s.rain_material, ref = &s.rain_sample;
    else if (t_[1] == "snow")
      mat = &s.snow_material, ref = &s.snow_sample;
    else if (t_[1] == "lightning")
      mat = &s.lightning_material, ref = &s.lightning_sample;
    else
      return err("weather.syntax", "unknown kind", "rain, snow or lightning");
    if (d == "material") {
      if (!mat->empty()) return err("weather.duplicate", "material given twice", "one material line per kind");
      *mat = std::string(t_[2]);
      return {};
    }
    if (!ref->empty()) return err("weather.duplicate", "sample given twice", "one sample line per kind");
    *ref = SoundRef::parse(t_[2]);
    if (ref->empty()) return err("weather.value", "sample without an entry name", "[archive/]name.wav");
    return {};
  }

  // `effect lightning [ARCHIVE/]NAME`, at most once (the FXID a strike starts)
  [[nodiscard]] core::Status effect(WeatherSchedule& s) const {
    if (t_.size() != 3) return err("weather.syntax", "'effect' takes a kind and a name", "effect lightning NAME");
    if (t_[1] != "lightning")
      return err("weather.syntax", "only lightning starts an effect", "effect lightning [archive/]name");
    if (!s.lightning_effect.empty()) return err("weather.duplicate", "effect given twice", "one effect line");
    s.lightning_effect = std::string(t_[2]);
    return {};
  }

  // `lightning_bounds MIN_X MIN_Y MAX_X MAX_Y Z`, at most once
  [[nodiscard]] core::Status lightning_bounds(WeatherSchedule& s, bool& seen) const {
    if (t_.size() != 6)
      return err("weather.syntax", "'lightning_bounds' takes five numbers",
                 "lightning_bounds MIN_X MIN_Y MAX_X MAX_Y Z");
    if (seen) return err("weather.duplicate", "lightning bounds given twice", "one lightning_bounds line");
    float v[5];
    for (std::size_t i = 0; i < 5; ++i)
      if (!parse_float(t_[i + 1], v[i]))
        return err("weather.value", "lightning bound is not a finite number", "finite decimal numbers (float range)");
    if (v[0] > v[2] || v[1] > v[3])
      return err("weather.value", "lightning bounds with min above max", "MIN_X <= MAX_X, MIN_Y <= MAX_Y");
    s.lightning_bounds = {{v[0], v[1]}, {v[2], v[3]}, v[4]};
    seen = true;
    return {};
  }

  // `key SECONDS none|rain|snow INTENSITY [lightning]`, times strictly increasing
  [[nodiscard]] core::Status key(WeatherSchedule& s) const {
    if (t_.size() != 4 && !(t_.size() == 5 && t_[4] == "lightning"))
      return err("weather.syntax", "'key' takes a time, a kind, an intensity and optionally 'lightning'",
                 "key SECONDS none|rain|snow INTENSITY [lightning]");
    if (s.keys.size() >= kWeatherKeysMax)
      return err("weather.limit", "more precipitation keys than the limit", fmt::format("<= {} keys", kWeatherKeysMax));
    WeatherKey k;
    double seconds = 0;
    float intensity = 0;
    if (!parse_double(t_[1], seconds) || seconds < 0 || seconds > kWeatherSecondsMax)
      return err("weather.value", "key time is not a number of seconds in 0..1e9", "0 <= SECONDS <= 1e9");
    if (t_[2] == "none")
      k.kind = PrecipitationKind::none;
    else if (t_[2] == "rain")
      k.kind = PrecipitationKind::rain;
    else if (t_[2] == "snow")
      k.kind = PrecipitationKind::snow;
    else
      return err("weather.syntax", "unknown precipitation kind", "none, rain or snow");
    if (!parse_float(t_[3], intensity) || intensity < 0 || intensity > 1)
      return err("weather.value", "intensity outside 0..1", "0 <= INTENSITY <= 1");
    k.time_ms = std::llround(seconds * 1000.0);
    k.intensity = intensity;
    k.lightning = t_.size() == 5;
    if (!s.keys.empty() && k.time_ms <= s.keys.back().time_ms)
      return err("weather.order", "key times must increase strictly",
                 fmt::format("time > {} ms", s.keys.back().time_ms));
    s.keys.push_back(k);
    return {};
  }

  // `sky NAME R G B [from SECONDS] [until SECONDS]`, names unique
  [[nodiscard]] core::Status sky(WeatherSchedule& s) const {
    constexpr std::string_view kForm = "sky NAME R G B [from SECONDS] [until SECONDS]";
    if (t_.size() != 5 && t_.size() != 7 && t_.size() != 9)
      return err("weather.syntax", "'sky' takes a name, three colour components and optional from/until times",
                 std::string(kForm));
    if (s.sky.size() >= kSkyObjectsMax)
      return err("weather.limit", "more sky objects than the limit", fmt::format("<= {} sky objects", kSkyObjectsMax));
    SkyObject o;
    o.name = std::string(t_[1]);
    for (const auto& other : s.sky)
      if (other.name == o.name) return err("weather.duplicate", "sky object name given twice", "unique sky names");
    float c[3];
    for (std::size_t i = 0; i < 3; ++i)
      if (!parse_float(t_[i + 2], c[i]) || c[i] < 0 || c[i] > kMaxSkyComponent)
        return err("weather.value", "sky colour component outside 0..16", "0 <= R, G, B <= 16");
    o.base_rgb = {c[0], c[1], c[2]};
    bool seen_from = false;
    for (std::size_t i = 5; i + 1 < t_.size(); i += 2) {
      const bool is_from = t_[i] == "from";
      if ((!is_from && t_[i] != "until") || (is_from ? seen_from : o.until_ms.has_value()))
        return err("weather.syntax", "a sky option is 'from' or 'until', each at most once", std::string(kForm));
      double seconds = 0;
      if (!parse_double(t_[i + 1], seconds) || seconds < 0 || seconds > kWeatherSecondsMax)
        return err("weather.value", "sky time is not a number of seconds in 0..1e9", "0 <= SECONDS <= 1e9");
      const std::int64_t ms = std::llround(seconds * 1000.0);
      if (is_from) {
        o.from_ms = ms;
        seen_from = true;
      } else {
        o.until_ms = ms;
      }
    }
    if (o.until_ms && *o.until_ms <= o.from_ms)
      return err("weather.value", "sky window is empty (until not after from)",
                 fmt::format("until > {} ms", o.from_ms));
    s.sky.push_back(std::move(o));
    return {};
  }

 private:
  std::vector<std::string_view> t_;
  std::size_t at_ = 0;
  std::size_t number_ = 0;
  std::string_view file_;
};

// After the last line: every kind a key uses has its material and sample (and lightning its bounds).
core::Status check_references(const WeatherSchedule& s, bool seen_bounds, std::string_view file_name) {
  auto missing = [&](std::string what) {
    return core::fail(
        Diagnostic::error("weather.missing", fmt::format("the schedule uses {} but does not name it", what))
            .of(std::string(file_name))
            .expect(what, "nothing"));
  };
  for (const auto& k : s.keys) {
    if (k.kind == PrecipitationKind::rain && (s.rain_material.empty() || s.rain_sample.empty()))
      return missing("a rain material and sample");
    if (k.kind == PrecipitationKind::snow && (s.snow_material.empty() || s.snow_sample.empty()))
      return missing("a snow material and sample");
    if (k.lightning && (s.lightning_material.empty() || s.lightning_sample.empty() || !seen_bounds))
      return missing("a lightning material, sample and lightning_bounds");
  }
  return {};
}

class TextReader final : public WeatherScheduleReader {
 public:
  [[nodiscard]] std::string_view name() const override { return "sortie-weather text v1"; }
  core::Result<WeatherSchedule> read(core::ByteView data, std::string_view file_name) const override {
    return read_weather_text(data, file_name);
  }
};

}  // namespace

const WeatherScheduleReader& weather_text_reader() {
  static const TextReader reader;
  return reader;
}

core::Result<WeatherSchedule> read_weather_text(core::ByteView data, std::string_view file_name) {
  if (data.size() > kWeatherFileMax)
    return core::fail(Diagnostic::error("weather.limit", "weather schedule is larger than the limit")
                          .of(std::string(file_name))
                          .expect(fmt::format("<= {} bytes", kWeatherFileMax), fmt::format("{} bytes", data.size())));
  const std::string_view text = core::as_chars(data);
  WeatherSchedule s;
  bool seen_magic = false;
  bool seen_bounds = false;
  std::size_t line_no = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    const std::size_t line_at = start;
    ++line_no;
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (line.size() > kWeatherLineMax)
      return core::fail(Diagnostic::error("weather.limit", "line is longer than the limit")
                            .of(std::string(file_name))
                            .at(line_at)
                            .in(fmt::format("line {}", line_no))
                            .expect(fmt::format("<= {} bytes", kWeatherLineMax), fmt::format("{} bytes", line.size())));
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    auto t = tokens(line);
    if (t.empty()) continue;
    const WeatherLine l(std::move(t), line_at, line_no, file_name);
    const std::string_view d = l.tokens()[0];
    core::Status st;
    if (!seen_magic) {
      st = l.magic();
      seen_magic = true;
    } else if (d == "material" || d == "sample") {
      st = l.material_or_sample(s);
    } else if (d == "lightning_bounds") {
      st = l.lightning_bounds(s, seen_bounds);
    } else if (d == "effect") {
      st = l.effect(s);
    } else if (d == "key") {
      st = l.key(s);
    } else if (d == "sky") {
      st = l.sky(s);
    } else {
      st = l.err("weather.syntax", "unknown directive", "material, sample, effect, lightning_bounds, key or sky");
    }
    if (!st) return tl::unexpected(st.error());
  }
  if (!seen_magic)
    return core::fail(Diagnostic::error("weather.magic", "a weather schedule starts with 'sortie-weather <version>'")
                          .of(std::string(file_name))
                          .at(0)
                          .expect("sortie-weather 1", "no line"));
  if (auto st = check_references(s, seen_bounds, file_name); !st) return tl::unexpected(st.error());
  return s;
}

std::string write_weather_text(const WeatherSchedule& s) {
  std::string out = "sortie-weather 1\n";
  auto named = [&](std::string_view d, std::string_view kind, const std::string& v) {
    if (!v.empty()) out += fmt::format("{} {} {}\n", d, kind, v);
  };
  named("material", "rain", s.rain_material);
  named("material", "snow", s.snow_material);
  named("material", "lightning", s.lightning_material);
  named("sample", "rain", s.rain_sample.to_string());
  named("sample", "snow", s.snow_sample.to_string());
  named("sample", "lightning", s.lightning_sample.to_string());
  named("effect", "lightning", s.lightning_effect);
  const auto& b = s.lightning_bounds;
  out += fmt::format("lightning_bounds {} {} {} {} {}\n", b.min.x, b.min.y, b.max.x, b.max.y, b.z);
  for (const auto& k : s.keys)
    out += fmt::format("key {} {} {}{}\n", seconds_text(k.time_ms), to_string(k.kind), k.intensity,
                       k.lightning ? " lightning" : "");
  for (const auto& o : s.sky) {
    out += fmt::format("sky {} {} {} {}", o.name, o.base_rgb.x, o.base_rgb.y, o.base_rgb.z);
    if (o.from_ms != 0) out += " from " + seconds_text(o.from_ms);
    if (o.until_ms) out += " until " + seconds_text(*o.until_ms);
    out += "\n";
  }
  return out;
}

core::Json weather_schedule_json(const WeatherSchedule& s) {
  core::Json j;
  core::Json keys = core::Json::array();
  for (const auto& k : s.keys)
    keys.push_back({{"time_ms", k.time_ms},
                    {"kind", std::string(to_string(k.kind))},
                    {"intensity", k.intensity},
                    {"lightning", k.lightning}});
  j["keys"] = std::move(keys);
  j["materials"] = {{"rain", s.rain_material}, {"snow", s.snow_material}, {"lightning", s.lightning_material}};
  j["samples"] = {{"rain", s.rain_sample.to_string()},
                  {"snow", s.snow_sample.to_string()},
                  {"lightning", s.lightning_sample.to_string()}};
  j["effects"] = {{"lightning", s.lightning_effect}};
  const auto& b = s.lightning_bounds;
  j["lightning_bounds"] = {{"min", {b.min.x, b.min.y}}, {"max", {b.max.x, b.max.y}}, {"z", b.z}};
  core::Json sky = core::Json::array();
  for (const auto& o : s.sky)
    sky.push_back({{"name", o.name},
                   {"base_rgb", {o.base_rgb.x, o.base_rgb.y, o.base_rgb.z}},
                   {"from_ms", o.from_ms},
                   {"until_ms", o.until_ms ? core::Json(*o.until_ms) : core::Json(nullptr)}});
  j["sky"] = std::move(sky);
  return j;
}

}  // namespace sortie::env
