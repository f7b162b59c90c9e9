// `sortie sound list` / `decode` as library calls (env/sound_files.hpp): a sounds.lib on disk,
// each entry's decode status, one entry decoded to PCM 16 and written, the failures apart.
#include "sortie/env/sound_files.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/wave.hpp"

namespace sortie::env {
namespace {

namespace fs = std::filesystem;

class SoundFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sortie_sound_files_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::vector<std::int16_t> s(441, 7);
    auto bytes = iron3d::NresBuilder()
                     .add(0, "beep.wav", iron3d::write_wave(iron3d::make_pcm16_wave(22050, 1, s)))
                     .add(0, "EMPTY.WAV", {})
                     .build();
    ASSERT_TRUE(bytes);
    lib_ = (dir_ / "sounds.lib").string();
    ASSERT_TRUE(core::write_file_atomic(lib_, *bytes));
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string lib_;
};

TEST_F(SoundFilesTest, lists_every_entry_with_its_status) {
  auto listing = list_sound_archive(lib_);
  ASSERT_TRUE(listing) << listing.error().to_string();
  ASSERT_EQ(listing->entries.size(), 2u);
  EXPECT_EQ(listing->decoded(), 1u);
  const core::Json j = listing->to_json();
  EXPECT_EQ(j["entries"][0]["name"], "beep.wav");
  EXPECT_EQ(j["entries"][0]["encoding"], "pcm");
  EXPECT_EQ(j["entries"][0]["frames"], 441);
  EXPECT_TRUE(j["entries"][1].contains("diagnostic"));
  EXPECT_NE(listing->to_text().find("2 entries, 1 decodable"), std::string::npos) << listing->to_text();

  auto missing = list_sound_archive((dir_ / "absent.lib").string());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code.rfind("io.", 0), 0u);
}

TEST_F(SoundFilesTest, decodes_one_entry_to_a_pcm_wave_and_reports_a_bad_entry_with_its_status) {
  const std::string out = (dir_ / "beep_out.wav").string();
  auto decoded = decode_sound_file(lib_, "BEEP.WAV", out);  // names match case-insensitively
  ASSERT_TRUE(decoded) << decoded.error().diagnostic.to_string();
  auto bytes = core::read_file(out);
  ASSERT_TRUE(bytes);
  auto wave = iron3d::read_wave(*bytes);
  ASSERT_TRUE(wave) << wave.error().to_string();
  EXPECT_EQ(decoded->to_json()["entry"]["frames"], 441);
  EXPECT_NE(decoded->to_text().find("441 frames, 22050 Hz, 1 ch (pcm)"), std::string::npos) << decoded->to_text();

  auto empty = decode_sound_file(lib_, "EMPTY.WAV", (dir_ / "e.wav").string());
  ASSERT_FALSE(empty);
  ASSERT_TRUE(empty.error().entry.has_value());  // the entry exists but does not decode
  EXPECT_FALSE(fs::exists(dir_ / "e.wav"));
  auto unreadable = decode_sound_file((dir_ / "absent.lib").string(), "x", out);
  ASSERT_FALSE(unreadable);
  EXPECT_FALSE(unreadable.error().entry.has_value());
}

}  // namespace
}  // namespace sortie::env
