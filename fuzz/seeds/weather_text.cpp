#include <string_view>

#include "seeds.hpp"
#include "sortie/env/weather_schedule.hpp"

SORTIE_FUZZ_SEEDS(weather_text, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  auto text = [&](std::string name, std::string_view s) {
    const auto b = core::as_bytes(s);
    out.add(std::move(name), core::Bytes(b.begin(), b.end()));
  };
  text("storm",
       "# a storm\nsortie-weather 1\nmaterial rain rain_drop\nmaterial snow snow_flake\n"
       "material lightning env_lightning\nsample rain atm_rain1.wav\nsample snow sounds.lib/atm_snow.wav\n"
       "sample lightning sounds.lib/thunder1.wav\nlightning_bounds -500 -500 500 500 120\n"
       "key 0 rain 0.2\nkey 30 rain 0.8 lightning\nkey 90 snow 0.5\nkey 120 none 0\n"
       "sky day 0.9 0.9 0.85 until 60\nsky night 0.1 0.1 0.2 from 60\n");
  text("sky_windows", "sortie-weather 1\r\nsky a 1 1 1 until 1 from 0.5\r\nsky b 16 0 0.001 from 1e9\r\n");
  text("bad_window", "sortie-weather 1\nsky a 1 1 1 from 5 until 5\n");
  env::WeatherSchedule s;
  s.keys.push_back({1500, env::PrecipitationKind::snow, 0.25f, false});
  s.snow_material = "flake";
  s.snow_sample = env::SoundRef::parse("snow.wav");
  s.sky.push_back({"dawn", {0.6f, 0.5f, 0.4f}, 0, 12345});
  s.sky.push_back({"noon", {1.0f, 1.0f, 0.95f}, 12345, std::nullopt});
  const std::string w = env::write_weather_text(s);
  text("written", w);
});
