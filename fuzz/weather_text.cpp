// Fuzzes the weather schedule text reader (docs/weather-schedule.md): an accepted schedule is
// written in the canonical form, which reads back to the same model and writes to the same
// text; sampling the weather and the sky at the schedule's own times stays in range.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "sortie/env/weather_schedule.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  auto s = env::read_weather_text(core::ByteView(data, size), "fuzz.weather");
  if (!s) return 0;
  const std::string text = env::write_weather_text(*s);
  auto again = env::read_weather_text(core::as_bytes(text), "canonical.weather");
  if (!again || *again != *s) __builtin_trap();
  if (env::write_weather_text(*again) != text) __builtin_trap();
  auto probe = [&](std::int64_t t) {
    const auto w = env::sample_weather(*s, t);
    if (!(w.intensity >= 0.0f && w.intensity <= 1.0f)) __builtin_trap();
    const auto sky = env::sample_sky(*s, t);
    const auto* active = env::active_sky(*s, t);
    if (sky.has_value() != (active != nullptr)) __builtin_trap();
    if (active && (!active->active_at(t) || !(*sky == active->base_rgb))) __builtin_trap();
  };
  for (const auto& k : s->keys) probe(k.time_ms), probe(k.time_ms + 1);
  for (const auto& o : s->sky) {
    if (o.until_ms && *o.until_ms <= o.from_ms) __builtin_trap();
    probe(o.from_ms);
    if (o.until_ms) probe(*o.until_ms - 1), probe(*o.until_ms);
  }
  probe(0);
  (void)core::dump_json(env::weather_schedule_json(*s));  // names may be any bytes: replaced
  return 0;
}
