// The sample game's sound content as the runtime sees it: every entry of sounds.lib and
// music.lib decodes through env::SoundBank (resolved through the archive repository, as the
// viewer does) with the format and length it was made with; every mission's sky.weather reads
// with env::read_weather_text and names samples that resolve; every mission.cfg names a theme
// and variations that resolve in the libraries it gives.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/sample_game.hpp"
#include "sortie/env/sound_bank.hpp"
#include "sortie/env/weather_schedule.hpp"

using namespace sortie;
using namespace sortie::env;

namespace {

struct SampleGame {
  std::map<std::string, core::Bytes> files;
  assets::MemoryVfs vfs;
  std::unique_ptr<assets::ArchiveRepository> repository;
};

std::unique_ptr<SampleGame> sample_game(assets::SampleScale scale = assets::SampleScale::demo) {
  auto game = std::make_unique<SampleGame>();
  auto generated = assets::generate_sample_files({scale, 1, assets::ArchiveFormat::rsli});
  EXPECT_TRUE(generated.has_value()) << generated.error().to_string();
  if (!generated) return game;
  game->files = std::move(generated->first);
  for (const auto& [path, bytes] : game->files) EXPECT_TRUE(game->vfs.add(path, bytes).has_value()) << path;
  game->repository = std::make_unique<assets::ArchiveRepository>(game->vfs);
  return game;
}

std::string text_of(const SampleGame& game, const std::string& path) {
  const auto it = game.files.find(path);
  EXPECT_NE(it, game.files.end()) << path;
  return it == game.files.end() ? std::string() : std::string(it->second.begin(), it->second.end());
}

// mission.cfg as written by the sample: `object <name>` ... `end` blocks of `key value` lines,
// `//` comments. The test reads it with the stream operators only (the real reader lives with
// the ambient-music loader).
using CfgObject = std::vector<std::pair<std::string, std::string>>;
std::map<std::string, CfgObject> read_cfg(const std::string& text) {
  std::map<std::string, CfgObject> out;
  std::istringstream in(text);
  std::string line;
  std::string current;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key, value, extra;
    if (!(words >> key) || key.rfind("//", 0) == 0) continue;
    if (key == "end") {
      EXPECT_FALSE(current.empty()) << "end outside an object";
      current.clear();
      continue;
    }
    EXPECT_TRUE(words >> value) << line;
    EXPECT_FALSE(words >> extra) << line;
    if (key == "object") {
      EXPECT_TRUE(current.empty()) << "nested object " << value;
      current = value;
      out[current];
      continue;
    }
    EXPECT_FALSE(current.empty()) << "field outside an object: " << line;
    out[current].emplace_back(key, value);
  }
  EXPECT_TRUE(current.empty()) << "object " << current << " without end";
  return out;
}

std::string field(const CfgObject& object, const std::string& key) {
  for (const auto& [k, v] : object)
    if (k == key) return v;
  return {};
}

}  // namespace

TEST(SampleSounds, every_entry_decodes_through_the_sound_bank_as_made) {
  struct Expected {
    const char* archive;
    const char* name;
    std::uint16_t format;
    std::size_t frames;  // seconds * 22,050; ADPCM lengths are even, so no pad code adds a frame
  };
  constexpr std::uint16_t kPcm = iron3d::kWaveFormatPcm;
  constexpr std::uint16_t kAdpcm = iron3d::kWaveFormatMsAdpcm;
  const Expected expected[] = {
      {"sounds.lib", "THEME.WAV", kAdpcm, 70560},      // 3.2 s: 8 beats of 0.4 s
      {"sounds.lib", "DEFAULT1.WAV", kPcm, 26460},     // 1.2 s
      {"sounds.lib", "DEFAULT2.WAV", kAdpcm, 26460},   // 1.2 s
      {"sounds.lib", "DAY1.WAV", kAdpcm, 26460},       // 1.2 s
      {"sounds.lib", "DAY2.WAV", kAdpcm, 26460},       // 1.2 s
      {"sounds.lib", "NIGHT1.WAV", kAdpcm, 35280},     // 1.6 s
      {"sounds.lib", "NIGHT2.WAV", kPcm, 35280},       // 1.6 s
      {"sounds.lib", "ATM_RAIN1.WAV", kAdpcm, 35280},  // 1.6 s loop
      {"sounds.lib", "ATM_SNOW1.WAV", kAdpcm, 44100},  // 2.0 s loop
      {"sounds.lib", "THUNDER1.WAV", kAdpcm, 44100},   // 2.0 s
      {"music.lib", "WINTER1.WAV", kPcm, 26460},       // 1.2 s
      {"music.lib", "WINTER2.WAV", kAdpcm, 26460},     // 1.2 s
  };
  auto game = sample_game();
  ASSERT_TRUE(game->repository);
  SoundBank bank(repository_opener(*game->repository), "sounds.lib");
  std::size_t adpcm = 0;
  for (const auto& e : expected) {
    const auto found = bank.lookup({e.archive, e.name}, "test");
    ASSERT_TRUE(found.ok()) << e.name << ": " << found.diagnostic.to_string();
    EXPECT_EQ(found.sample->source_format, e.format) << e.name;
    EXPECT_EQ(found.sample->sample_rate, 22050u) << e.name;
    EXPECT_EQ(found.sample->channels, 1) << e.name;
    EXPECT_EQ(found.sample->frames(), e.frames) << e.name;
    adpcm += e.format == kAdpcm;
    // Not silence, not clipped: the peak was scaled to 50..85 % of full scale.
    std::int32_t peak = 0;
    for (const std::int16_t s : found.sample->samples) peak = std::max(peak, std::abs(static_cast<std::int32_t>(s)));
    EXPECT_GT(peak, 32767 * 45 / 100) << e.name;
    EXPECT_LT(peak, 32767 * 95 / 100) << e.name;
  }
  EXPECT_EQ(adpcm, 9u);  // 9 of 12 MS ADPCM, retail's three quarters
  // Nothing else is in the libraries.
  for (const char* lib : {"sounds.lib", "music.lib"}) {
    auto mounted = game->repository->open(*assets::normalize_path(lib));
    ASSERT_TRUE(mounted.has_value()) << lib;
    EXPECT_EQ((*mounted)->size(), std::string_view(lib) == "sounds.lib" ? 10u : 2u) << lib;
  }
  EXPECT_LT(game->files.at("sounds.lib").size() + game->files.at("music.lib").size(), 400u * 1024);
}

TEST(SampleSounds, loops_close_without_a_step) {
  // The last frame of a loop flows into the first: the jump at the seam is no bigger than
  // four times the mean step between neighbours inside the loop.
  auto game = sample_game();
  ASSERT_TRUE(game->repository);
  SoundBank bank(repository_opener(*game->repository), "sounds.lib");
  for (const char* name : {"THEME.WAV", "ATM_RAIN1.WAV", "ATM_SNOW1.WAV"}) {
    const auto found = bank.lookup({"sounds.lib", name});
    ASSERT_TRUE(found.ok()) << name;
    const auto& s = found.sample->samples;
    double steps = 0.0;
    for (std::size_t i = 1; i < s.size(); ++i) steps += std::abs(s[i] - s[i - 1]);
    const double mean = steps / static_cast<double>(s.size() - 1);
    EXPECT_LE(std::abs(s.front() - s.back()), 4.0 * mean) << name;
  }
}

TEST(SampleSounds, every_mission_has_a_weather_schedule_that_reads) {
  auto game = sample_game();
  ASSERT_TRUE(game->repository);
  SoundBank bank(repository_opener(*game->repository), "sounds.lib");
  const PrecipitationKind kinds[3] = {PrecipitationKind::none, PrecipitationKind::rain, PrecipitationKind::snow};
  for (int m = 0; m < 3; ++m) {
    const std::string path = "MISSIONS/m0" + std::to_string(m + 1) + "/sky.weather";
    auto s = read_weather_text(core::as_bytes(text_of(*game, path)), path);
    ASSERT_TRUE(s.has_value()) << path << ": " << s.error().to_string();
    ASSERT_FALSE(s->keys.empty()) << path;
    EXPECT_EQ(s->keys.front().time_ms, 0) << path;
    for (const auto& k : s->keys) EXPECT_EQ(k.kind, kinds[m]) << path;
    for (const SoundRef* ref : {&s->rain_sample, &s->snow_sample, &s->lightning_sample}) {
      if (!ref->empty()) {
        EXPECT_TRUE(bank.lookup(*ref).ok()) << path << ": " << ref->to_string();
      }
    }
  }
  // m02: rain from 0.3, lightning from 20 s to 150 s inside the map (0..256 on both axes).
  auto rain = read_weather_text(core::as_bytes(text_of(*game, "MISSIONS/m02/sky.weather")));
  ASSERT_TRUE(rain.has_value());
  EXPECT_EQ(rain->rain_sample, (SoundRef{"sounds.lib", "ATM_RAIN1.WAV"}));
  EXPECT_EQ(rain->lightning_sample, (SoundRef{"sounds.lib", "THUNDER1.WAV"}));
  EXPECT_EQ(rain->lightning_bounds.min, (core::Vec2{0.0f, 0.0f}));
  EXPECT_EQ(rain->lightning_bounds.max, (core::Vec2{256.0f, 256.0f}));  // 32 cells of 8 units
  const auto at10 = sample_weather(*rain, 10'000);                      // halfway from 0.3 to 0.8
  EXPECT_EQ(at10.kind, PrecipitationKind::rain);
  EXPECT_NEAR(at10.intensity, 0.55f, 1e-6f);
  EXPECT_FALSE(at10.lightning);
  EXPECT_EQ(sample_weather(*rain, 20'000), (WeatherState{PrecipitationKind::rain, 0.8f, true}));
  EXPECT_EQ(sample_weather(*rain, 200'000), (WeatherState{PrecipitationKind::rain, 0.25f, false}));
  auto snow = read_weather_text(core::as_bytes(text_of(*game, "MISSIONS/m03/sky.weather")));
  ASSERT_TRUE(snow.has_value());
  EXPECT_EQ(snow->snow_sample, (SoundRef{"sounds.lib", "ATM_SNOW1.WAV"}));
  const auto at30 = sample_weather(*snow, 30'000);  // halfway from 0.4 to 0.9
  EXPECT_EQ(at30.kind, PrecipitationKind::snow);
  EXPECT_NEAR(at30.intensity, 0.65f, 1e-6f);
}

TEST(SampleSounds, every_mission_cfg_names_music_that_resolves) {
  auto game = sample_game();
  ASSERT_TRUE(game->repository);
  SoundBank bank(repository_opener(*game->repository), "sounds.lib");
  // Pools per mission: clear -> DEFAULT, rain -> DAY + NIGHT, snow -> DEFAULT from music.lib.
  const std::vector<std::vector<std::string>> pools = {
      {"DEFAULT_VARIATION1", "DEFAULT_VARIATION2"},
      {"DAY_VARIATION1", "DAY_VARIATION2", "NIGHT_VARIATION1", "NIGHT_VARIATION2"},
      {"DEFAULT_VARIATION1", "DEFAULT_VARIATION2"}};
  const char* const libraries[3] = {"sounds.lib", "sounds.lib", "music.lib"};
  for (int m = 0; m < 3; ++m) {
    const std::string path = "MISSIONS/m0" + std::to_string(m + 1) + "/mission.cfg";
    const auto cfg = read_cfg(text_of(*game, path));
    ASSERT_EQ(cfg.size(), 2u) << path;
    const auto& loop = cfg.at("ambient_music_loop");
    EXPECT_EQ(field(loop, "desc"), "ambient_music_loop");
    EXPECT_EQ(field(loop, "library"), "sounds.lib");
    EXPECT_EQ(field(loop, "libtype"), "0");
    EXPECT_EQ(field(loop, "type"), "1");
    EXPECT_EQ(field(loop, "THEME"), "THEME.WAV");
    EXPECT_TRUE(bank.lookup({field(loop, "library"), field(loop, "THEME")}).ok()) << path;
    const auto& variation = cfg.at("ambient_music_variation");
    EXPECT_EQ(field(variation, "desc"), "ambient_music_variation");
    EXPECT_EQ(field(variation, "library"), libraries[m]) << path;
    EXPECT_EQ(field(variation, "type"), "2");
    std::vector<std::string> keys;
    for (const auto& [k, v] : variation)
      if (k.find("_VARIATION") != std::string::npos) {
        keys.push_back(k);
        const auto found = bank.lookup({libraries[m], v});
        EXPECT_TRUE(found.ok()) << path << ": " << k << " " << v << ": " << found.diagnostic.to_string();
      }
    EXPECT_EQ(keys, pools[m]) << path;
  }
  // The snow mission's variations are only in music.lib: a reader that ignored LIBRARY and
  // looked in the theme's library would not find them.
  EXPECT_EQ(bank.lookup({"sounds.lib", "WINTER1.WAV"}).status, SoundLookupStatus::entry_missing);
}

TEST(SampleSounds, corpus_missions_cycle_the_three_skies) {
  auto game = sample_game(assets::SampleScale::corpus);
  ASSERT_TRUE(game->repository);
  const PrecipitationKind kinds[3] = {PrecipitationKind::none, PrecipitationKind::rain, PrecipitationKind::snow};
  for (int m = 0; m < 8; ++m) {
    const std::string dir = "MISSIONS/m0" + std::to_string(m + 1);
    auto s = read_weather_text(core::as_bytes(text_of(*game, dir + "/sky.weather")));
    ASSERT_TRUE(s.has_value()) << dir << ": " << s.error().to_string();
    EXPECT_EQ(s->keys.front().kind, kinds[m % 3]) << dir;
    const auto cfg = read_cfg(text_of(*game, dir + "/mission.cfg"));
    EXPECT_EQ(field(cfg.at("ambient_music_variation"), "library"), m % 3 == 2 ? "music.lib" : "sounds.lib") << dir;
  }
  // Corpus maps are 77 cells of 8 units: lightning strikes anywhere on them.
  auto rain = read_weather_text(core::as_bytes(text_of(*game, "MISSIONS/m02/sky.weather")));
  ASSERT_TRUE(rain.has_value());
  EXPECT_EQ(rain->lightning_bounds.max, (core::Vec2{616.0f, 616.0f}));
}
