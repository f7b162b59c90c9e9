// `sortie fomap lint` as a library call (fomap/lint_files.hpp): every file linted, unreadable
// files reported apart, and the pack identity checked across the files.
#include "sortie/fomap/lint_files.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "sortie/core/file_io.hpp"

namespace sortie::fomap {
namespace {

namespace fs = std::filesystem;

TEST(FomapLintFiles, lints_every_file_reports_unreadable_ones_and_checks_the_pack) {
  const fs::path dir = fs::temp_directory_path() / "sortie_lint_files_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(core::write_file_atomic(dir / "a.fomap", std::string("[ProtoMap]\n$Name = Twin\n")));
  ASSERT_TRUE(core::write_file_atomic(dir / "b.fomap", std::string("\n[ProtoMap]\n$Name = Twin\n")));
  const Project project;
  std::size_t progress_calls = 0;
  const LintFilesRun run = lint_files({dir / "a.fomap", dir / "missing.fomap", dir / "b.fomap"}, project, LintOptions{},
                                      [&](std::size_t done, const fs::path&) { progress_calls = done; });
  ASSERT_EQ(run.io_errors.size(), 1u);
  EXPECT_EQ(run.io_errors[0].code.rfind("io.", 0), 0u) << run.io_errors[0].code;
  EXPECT_EQ(progress_calls, 2u);
  EXPECT_EQ(run.report.files, 2u);
  const auto twin = std::find_if(run.report.findings.begin(), run.report.findings.end(),
                                 [](const Finding& f) { return f.check == "duplicate-name-in-pack"; });
  ASSERT_NE(twin, run.report.findings.end());
  EXPECT_NE(twin->file.find("b.fomap"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sortie::fomap
