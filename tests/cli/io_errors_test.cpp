// Every file command exits 2 on an I/O error (README, CONVENTIONS.md): a missing input, a
// directory where a file is expected, an output that cannot be written. 1 stays for invalid
// content. Nothing is written when a command fails.
#include <gtest/gtest.h>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

class CliIoErrorsTest : public CliTest {
 protected:
  // Runs `args`, expects exit 2 with an io.* diagnostic on stderr.
  void expect_io_error(const std::vector<std::string>& args, std::string_view code = "[io.") {
    const auto r = run_sortie(args);
    std::string cmd;
    for (const auto& a : args) cmd += a + " ";
    EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(code), std::string::npos) << cmd << "\n" << r.err;
  }
};

TEST_F(CliIoErrorsTest, a_missing_input_is_exit_2_for_every_file_command) {
  const std::string absent = (dir_ / "absent").string();
  const std::string lib = (sample_dir() / "material.lib").string();
  const std::string out = (dir_ / "out.bin").string();
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"inspect", absent},
           {"inspect", "--json", absent},
           {"check", absent},
           {"check", lib, absent},  // the worst result wins: the valid file does not hide it
           {"roundtrip", absent},
           {"archive", "list", absent},
           {"archive", "list", "--json", absent},
           {"archive", "extract", absent, "-o", (dir_ / "x").string()},
           {"archive", "pack", absent, "-o", out},
           {"archive", "add", absent, lib},
           {"archive", "add", lib, absent, "-o", out},  // the payload file
           {"archive", "remove", absent, "MAT_0001"},
           {"archive", "rename", absent, "MAT_0001", "X"},
           {"tma", "edit", absent, "--rename", "0", "x", "-o", out},
       })
    expect_io_error(args, "[io.open]");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(dir_ / "x"));
}

TEST_F(CliIoErrorsTest, a_directory_given_as_a_file_is_exit_2) {
  const std::string d = sample_dir().string();
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"inspect", d}, {"check", d}, {"roundtrip", d}, {"archive", "list", d}, {"archive", "remove", d, "X"}})
    expect_io_error(args, "[io.open]");
}

TEST_F(CliIoErrorsTest, an_output_that_cannot_be_written_is_exit_2) {
  const std::string lib = (sample_dir() / "material.lib").string();
  const std::string nowhere = (dir_ / "no" / "such" / "dir" / "out.lib").string();
  put_bytes(dir_ / "a_file", core::as_bytes("x"));
  const std::string under_a_file = (dir_ / "a_file" / "sub").string();
  const fs::path extracted = dir_ / "extracted";
  ASSERT_EQ(run_sortie({"archive", "extract", lib, "-o", extracted.string()}).exit_code, 0);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"archive", "extract", lib, "-o", under_a_file},
           {"archive", "extract", (sample_dir() / "objects.rlb").string(), "-o", under_a_file},
           {"archive", "pack", extracted.string(), "-o", nowhere},
           {"archive", "add", lib, lib, "--name", "NEW", "-o", nowhere},
           {"archive", "remove", lib, "MAT_0001", "-o", nowhere},
           {"archive", "rename", lib, "MAT_0001", "MAT_X", "-o", nowhere},
           {"tma", "edit", (sample_dir() / "MISSIONS/m01/data.tma").string(), "--rename", "0", "x", "-o", nowhere},
       })
    expect_io_error(args);
  EXPECT_FALSE(fs::exists(dir_ / "no"));
}

TEST_F(CliIoErrorsTest, a_manifest_naming_a_missing_file_is_exit_2_and_writes_nothing) {
  const fs::path extracted = dir_ / "extracted";
  ASSERT_EQ(
      run_sortie({"archive", "extract", (sample_dir() / "material.lib").string(), "-o", extracted.string()}).exit_code,
      0);
  fs::remove(extracted / "MAT_0003");
  const fs::path out = dir_ / "packed.lib";
  const auto r = run_sortie({"archive", "pack", extracted.string(), "-o", out.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("MAT_0003"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[io.open]"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(CliIoErrorsTest, invalid_content_stays_exit_1) {
  put_bytes(dir_ / "garbage.lib", core::as_bytes("NRes but not really"));
  EXPECT_EQ(run_sortie({"inspect", (dir_ / "garbage.lib").string()}).exit_code, 1);
  EXPECT_EQ(run_sortie({"archive", "list", (dir_ / "garbage.lib").string()}).exit_code, 1);
}

}  // namespace
}  // namespace sortie::cli_test
