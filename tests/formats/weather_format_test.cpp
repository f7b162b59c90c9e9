// The weather schedule and the sample manifest rows of the format table: detection by content
// and name, the reader's diagnostics through check, inspect's JSON, byte-exact write-back.
#include <gtest/gtest.h>

#include "sortie/core/json.hpp"
#include "sortie/formats/formats.hpp"

namespace sortie::formats {
namespace {

core::ByteView bytes(std::string_view s) {
  return core::as_bytes(s);
}

// Comments, blank lines, tabs, runs of spaces, CRLF and LF mixed, no final newline.
constexpr std::string_view kStorm =
    "# storm over the pass\r\n"
    "\r\n"
    "sortie-weather 1   # magic\r\n"
    "material rain\train_drop\n"
    "sample   rain  sounds.lib/atm_rain1.wav\r\n"
    "material lightning env_lightning\n"
    "sample lightning thunder1.wav\n"
    "lightning_bounds -500 -500 500 500 120\n"
    "key 0    rain 0.25\n"
    "key 30.5 rain 0.75 lightning\r\n"
    "key 90   none 0\n"
    "sky day 0.9 0.9 0.85 until 60\n"
    "sky night 0.1 0.1 0.2 from 60";

TEST(WeatherFormat, is_found_by_its_magic_or_its_name) {
  const FormatInfo* f = find_format("weather");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(detect_format(bytes(kStorm), "MISSIONS/m02/sky.weather"), f);
  EXPECT_EQ(detect_format(bytes(kStorm), "renamed.txt"), f);
  EXPECT_EQ(f->detect(bytes(kStorm), "renamed.txt"), kDetectContent);
  EXPECT_EQ(f->detect(bytes("key 0 rain 1\n"), "odd.weather"), kDetectName);
  EXPECT_EQ(f->detect(bytes("sortie-weathery 1\n"), "x.txt"), kDetectNone);
  EXPECT_EQ(f->detect(bytes("material rain x\nsortie-weather 1\n"), "x.txt"), kDetectNone);
}

TEST(WeatherFormat, writes_back_comments_spacing_and_line_endings) {
  const FormatInfo* f = find_format("weather");
  ASSERT_NE(f, nullptr);
  ASSERT_NE(f->roundtrip, nullptr);
  for (std::string_view text :
       {kStorm, std::string_view("sortie-weather 1\n"), std::string_view("sortie-weather 1\n\n\n")}) {
    auto written = f->roundtrip(bytes(text), {core::Profile::strict, "sky.weather"});
    ASSERT_TRUE(written.has_value()) << written.error().to_string();
    EXPECT_EQ(std::string(core::as_chars(*written)), std::string(text));
  }
}

TEST(WeatherFormat, inspect_reports_the_schedule) {
  auto j = find_format("weather")->inspect(bytes(kStorm), {core::Profile::strict, "sky.weather"});
  ASSERT_TRUE(j.has_value()) << j.error().to_string();
  EXPECT_EQ((*j)["format"], "weather");
  EXPECT_EQ((*j)["line_count"], 13);
  ASSERT_EQ((*j)["keys"].size(), 3u);
  EXPECT_EQ((*j)["keys"][1]["time_ms"], 30500);
  EXPECT_EQ((*j)["keys"][1]["lightning"], true);
  EXPECT_EQ((*j)["samples"]["rain"], "sounds.lib/atm_rain1.wav");
  EXPECT_EQ((*j)["materials"]["rain"], "rain_drop");
  ASSERT_EQ((*j)["sky"].size(), 2u);
  EXPECT_EQ((*j)["sky"][1]["from_ms"], 60000);
}

TEST(WeatherFormat, rejects_what_the_reader_rejects_with_its_code) {
  const FormatInfo* f = find_format("weather");
  struct Case {
    std::string_view text;
    std::string_view code;
  };
  for (const Case& c :
       {Case{"sortie-weather 2\n", "weather.version"}, Case{"sortie-weather 1\nkey 5 rain 0.5\n", "weather.missing"},
        Case{"sortie-weather 1\nkey 5 none 0\nkey 4 none 0\n", "weather.order"},
        Case{"sortie-weather 1\nfog on\n", "weather.syntax"}}) {
    auto report = f->check(bytes(c.text), {core::Profile::strict, "sky.weather"});
    ASSERT_FALSE(report.has_value()) << c.text;
    EXPECT_EQ(report.error().code, c.code) << c.text;
    EXPECT_FALSE(f->roundtrip(bytes(c.text), {core::Profile::strict, "sky.weather"}).has_value()) << c.text;
  }
}

constexpr std::string_view kManifest = R"({
  "bytes": 10,
  "files": 2,
  "generator_version": 4,
  "lightmaps": 0,
  "materials": 1,
  "missions": [
    {
      "land_dir": "DATA/MAPS/m01",
      "name": "m01",
      "placed_objects": 16,
      "tma": "MISSIONS/m01/data.tma",
      "unit_references": 5
    }
  ],
  "models": 1,
  "objects_format": "rsli",
  "prototypes": 3,
  "scale": "demo",
  "seed": 7,
  "textures": 1,
  "unit_dats": 1
}
)";

TEST(SampleManifestFormat, reads_checks_and_writes_the_canonical_manifest) {
  const FormatInfo* f = find_format("sample_manifest");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(detect_format(bytes(kManifest), "out/sortie-sample.json"), f);
  EXPECT_EQ(f->detect(bytes(kManifest), "copy.json"), kDetectContent);
  EXPECT_EQ(f->detect(bytes("{}"), "SORTIE-SAMPLE.JSON"), kDetectName);
  EXPECT_EQ(f->detect(bytes("{}"), "other.json"), kDetectNone);
  auto written = f->roundtrip(bytes(kManifest), {core::Profile::strict, "sortie-sample.json"});
  ASSERT_TRUE(written.has_value()) << written.error().to_string();
  EXPECT_EQ(std::string(core::as_chars(*written)), std::string(kManifest));
  auto j = f->inspect(bytes(kManifest), {core::Profile::strict, "sortie-sample.json"});
  ASSERT_TRUE(j.has_value());
  EXPECT_EQ((*j)["format"], "sample_manifest");
  EXPECT_EQ((*j)["seed"], 7);
  // Another layout reads and checks, but is not the canonical bytes.
  const std::string compact = core::Json::parse(kManifest).dump();
  ASSERT_TRUE(f->check(bytes(compact), {core::Profile::strict, "sortie-sample.json"}).has_value());
  auto rewritten = f->roundtrip(bytes(compact), {core::Profile::strict, "sortie-sample.json"});
  ASSERT_TRUE(rewritten.has_value());
  EXPECT_NE(std::string(core::as_chars(*rewritten)), compact);
}

TEST(SampleManifestFormat, rejects_a_broken_manifest_with_its_code) {
  const FormatInfo* f = find_format("sample_manifest");
  auto not_json = f->check(bytes("{\"generator_version\": "), {core::Profile::strict, "sortie-sample.json"});
  ASSERT_FALSE(not_json.has_value());
  EXPECT_EQ(not_json.error().code, "sample_manifest.json");
  std::string bad_scale(kManifest);
  bad_scale.replace(bad_scale.find("\"demo\""), 6, "\"huge\"");
  auto scale = f->check(bytes(bad_scale), {core::Profile::strict, "sortie-sample.json"});
  ASSERT_FALSE(scale.has_value());
  EXPECT_EQ(scale.error().code, "sample_manifest.field");
  EXPECT_EQ(scale.error().field, "scale");
  std::string no_name(kManifest);
  no_name.replace(no_name.find("\"name\""), 6, "\"nome\"");
  auto mission = f->check(bytes(no_name), {core::Profile::strict, "sortie-sample.json"});
  ASSERT_FALSE(mission.has_value());
  EXPECT_EQ(mission.error().field, "missions[0].name");
}

}  // namespace
}  // namespace sortie::formats
