// Every file `sortie sample DIR` writes is a known format that checks (strict) and round-trips
// byte for byte: the sample is written to disk with assets::write_sample (the call behind
// `sortie sample`), then each file on disk goes through the table exactly as `sortie check` and
// `sortie roundtrip` take it (detect by content and name, check, roundtrip).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "sortie/assets/sample_game.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/formats/formats.hpp"

namespace sortie::formats {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  explicit TempDir(std::string_view tag)
      : path(fs::temp_directory_path() / ("sortie_formats_" + std::string(tag) + "_" +
                                          std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                                          std::to_string(reinterpret_cast<std::uintptr_t>(this)))) {
    fs::remove_all(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Format name -> files of that format; fails the test for a file that is unknown, does not
// check or does not round-trip.
std::map<std::string, std::size_t> check_every_file(const fs::path& dir) {
  std::map<std::string, std::size_t> formats;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string path = entry.path().string();
    auto bytes = core::read_file(entry.path());
    EXPECT_TRUE(bytes.has_value()) << path;
    if (!bytes) continue;
    const FormatInfo* format = detect_format(*bytes, path);
    EXPECT_NE(format, nullptr) << path << ": format.unknown";
    if (format == nullptr) continue;
    const ReadOptions options{core::Profile::strict, path};
    auto report = format->check(*bytes, options);
    EXPECT_TRUE(report.has_value()) << path << ": " << (report ? "" : report.error().to_string());
    if (report) {
      for (const auto& d : report->findings) EXPECT_NE(d.severity, core::Severity::error) << path;
    }
    EXPECT_NE(format->roundtrip, nullptr) << path << " (" << format->name << ") has no roundtrip";
    if (format->roundtrip == nullptr) continue;
    auto written = format->roundtrip(*bytes, options);
    EXPECT_TRUE(written.has_value()) << path << ": " << (written ? "" : written.error().to_string());
    if (written) {
      EXPECT_TRUE(*written == *bytes) << path << " (" << format->name << ") does not round-trip";
    }
    ++formats[std::string(format->name)];
  }
  return formats;
}

std::size_t total(const std::map<std::string, std::size_t>& m) {
  std::size_t n = 0;
  for (const auto& [name, count] : m) n += count;
  return n;
}

TEST(SampleFiles, every_demo_file_is_known_checks_and_round_trips) {
  TempDir dir("demo");
  auto summary = assets::write_sample({assets::SampleScale::demo, 1, assets::ArchiveFormat::rsli}, dir.path);
  ASSERT_TRUE(summary.has_value()) << summary.error().to_string();
  const auto formats = check_every_file(dir.path);
  // The game files and the sortie-sample.json manifest beside them.
  EXPECT_EQ(total(formats), summary->files + 1);
  EXPECT_EQ(formats.at("weather"), 3u);  // MISSIONS/m01..m03/sky.weather
  EXPECT_EQ(formats.at("mission_cfg"), 3u);
  EXPECT_EQ(formats.at("mission_script"), 3u);  // MISSIONS/m01..m03/mission.lua
  EXPECT_EQ(formats.at("sample_manifest"), 1u);
  EXPECT_EQ(formats.at("tma"), 3u);
  EXPECT_EQ(formats.at("land_msh"), formats.at("land_map"));
  // MISSIONS/SCRIPTS: the player, enemy and spatial bundles, the shared varset, enemy.trf.
  EXPECT_EQ(formats.at("scr"), 3u);
  EXPECT_EQ(formats.at("fml"), 3u);
  EXPECT_EQ(formats.at("varset"), 1u);
  EXPECT_EQ(formats.at("trf"), 1u);
}

TEST(SampleFiles, every_corpus_file_is_known_checks_and_round_trips) {
  TempDir dir("corpus");
  auto summary = assets::write_sample({assets::SampleScale::corpus, 1, assets::ArchiveFormat::nres}, dir.path);
  ASSERT_TRUE(summary.has_value()) << summary.error().to_string();
  const auto formats = check_every_file(dir.path);
  EXPECT_EQ(total(formats), summary->files + 1);
  EXPECT_EQ(formats.at("weather"), summary->missions.size());
  EXPECT_EQ(formats.at("sample_manifest"), 1u);
}

}  // namespace
}  // namespace sortie::formats
