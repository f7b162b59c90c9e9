// The format-generic file commands as library calls (formats/files.hpp): opening a file by
// detection or a forced name, check over several files with its exit code and reports, roundtrip
// with the first difference, and the inspect model. The CLI tests keep a few process runs.
#include "sortie/formats/files.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sortie/core/exit_code.hpp"
#include "sortie/core/file_io.hpp"

namespace sortie::formats {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSchedule =
    "sortie-weather 1\nmaterial rain rain_drop\nsample rain atm_rain1.wav\nkey 0 none 0\nkey 5 rain 0.5\n";

class FilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sortie_files_test_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string put(const std::string& name, std::string_view text) {
    const fs::path p = dir_ / name;
    EXPECT_TRUE(core::write_file_atomic(p, std::string(text)));
    return p.string();
  }
  fs::path dir_;
};

TEST_F(FilesTest, a_file_is_opened_by_its_content_or_a_forced_name) {
  const std::string sky = put("sky.weather", kSchedule);
  auto detected = open_file(sky, "");
  ASSERT_TRUE(detected) << detected.error().to_string();
  EXPECT_EQ(detected->format->name, "weather");
  auto forced = open_file(put("plain.txt", kSchedule), "weather");
  ASSERT_TRUE(forced);
  EXPECT_EQ(forced->format->name, "weather");

  auto unknown_name = open_file(sky, "no_such_format");
  ASSERT_FALSE(unknown_name);
  EXPECT_EQ(unknown_name.error().code, "usage.format");
  auto unknown = open_file(put("noise.bin", "\x01\x02\x03zz"), "");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, "format.unknown");
  auto missing = open_file((dir_ / "absent.tma").string(), "");
  ASSERT_FALSE(missing);
  EXPECT_EQ(core::exit_code_for(missing.error()), core::kExitUsage);
}

TEST_F(FilesTest, check_reports_every_file_and_the_worst_exit_code) {
  FileRequest rq;
  rq.files = {put("good.weather", kSchedule), put("bad.weather", "sortie-weather 2\n")};
  CheckRun run = check_files(rq);
  ASSERT_EQ(run.files.size(), 2u);
  EXPECT_EQ(run.valid(), 1u);
  EXPECT_EQ(run.exit_code(), core::kExitInvalid);
  const core::Json j = run.to_json();
  EXPECT_EQ(j["summary"]["valid"], 1);
  EXPECT_EQ(j["summary"]["invalid"], 1);
  EXPECT_EQ(j["files"][1]["diagnostic"]["code"], "weather.version");
  std::vector<core::Diagnostic> errors;
  const std::string text = run.to_text(errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_NE(text.find("good.weather: ok (weather, strict)"), std::string::npos) << text;
  EXPECT_NE(text.find("bad.weather: invalid weather"), std::string::npos) << text;
  EXPECT_NE(text.find("2 file(s) checked: 1 valid, 1 invalid"), std::string::npos) << text;

  rq.files.push_back((dir_ / "absent.weather").string());  // an I/O failure outranks an invalid file
  run = check_files(rq);
  EXPECT_EQ(run.exit_code(), core::kExitUsage);
  errors.clear();
  (void)run.to_text(errors);
  ASSERT_EQ(errors.size(), 1u);
}

TEST_F(FilesTest, roundtrip_is_identical_for_our_files_and_a_text_model_has_no_writer) {
  FileRequest rq;
  auto same = roundtrip_file(put("sky.weather", kSchedule), rq);
  ASSERT_TRUE(same) << same.error().to_string();
  EXPECT_FALSE(same->first_difference.has_value());
  EXPECT_EQ(same->input_bytes, kSchedule.size());
  EXPECT_NE(same->to_text().find("identical (weather"), std::string::npos);

  auto map = roundtrip_file(put("a.fomap", "[ProtoMap]\nSize = 10 10\n"), rq);
  ASSERT_FALSE(map);
  EXPECT_EQ(map.error().code, "usage.roundtrip");
  EXPECT_EQ(core::exit_code_for(map.error()), core::kExitUsage);

  RoundtripResult differs;
  differs.path = "x";
  differs.format = "tma";
  differs.input_bytes = 10;
  differs.written_bytes = 12;
  differs.first_difference = 0x1f;
  EXPECT_EQ(differs.to_text(), "x: DIFFERENT (tma): first difference at 0x1f; input 10 bytes, written 12 bytes\n");
}

TEST_F(FilesTest, inspect_names_the_file_and_its_format_and_summarises) {
  const std::string sky = put("sky.weather", kSchedule);
  auto f = open_file(sky, "");
  ASSERT_TRUE(f);
  auto model = inspect_file(*f, sky, core::Profile::strict);
  ASSERT_TRUE(model) << model.error().to_string();
  EXPECT_EQ((*model)["file"], sky);
  EXPECT_EQ((*model)["format"], "weather");
  const std::string summary = json_summary(*model);
  EXPECT_NE(summary.find("format: \"weather\""), std::string::npos) << summary;
  EXPECT_NE(formats_text().find("weather"), std::string::npos);
  EXPECT_EQ(formats_json().size(), all_formats().size());
}

}  // namespace
}  // namespace sortie::formats
