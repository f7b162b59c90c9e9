// `sortie --help`, `--version`, usage errors, `formats`.
#include <gtest/gtest.h>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

TEST(CliBasics, help_lists_every_command_and_exits_0) {
  const auto r = run_sortie({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("sortie: engine and toolkit for legacy mission content"), std::string::npos) << r.out;
  for (const char* cmd :
       {"archive", "check", "fomap", "formats", "inspect", "mission", "roundtrip", "run", "sample", "tma"})
    EXPECT_NE(r.out.find(std::string("  ") + cmd), std::string::npos) << cmd << " missing from\n" << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(CliBasics, version_prints_the_project_version) {
  const auto r = run_sortie({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "sortie 0.1.0\n");
}

TEST(CliBasics, no_subcommand_is_a_usage_error) {
  const auto r = run_sortie({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("subcommand"), std::string::npos) << r.err;
}

TEST(CliBasics, unknown_option_is_a_usage_error) {
  const auto r = run_sortie({"--no-such-option"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "sortie: unknown command or option: --no-such-option\nRun with --help for the list of commands.\n");
  const auto sub = run_sortie({"inspect", "--bogus", "x"});
  EXPECT_EQ(sub.exit_code, 2);
  EXPECT_NE(sub.err.find("--bogus"), std::string::npos) << sub.err;
}

TEST(CliBasics, unknown_subcommand_is_named_in_the_usage_error) {
  const auto r = run_sortie({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "sortie: unknown command or option: frobnicate\nRun with --help for the list of commands.\n");
  const auto nested = run_sortie({"archive", "frob", "x"});
  EXPECT_EQ(nested.exit_code, 2);
  EXPECT_EQ(nested.err,
            "sortie archive: unknown command or option: frob x\nRun with --help for the list of commands.\n");
  // A group without its verb still says a subcommand is required.
  const auto bare = run_sortie({"archive"});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_EQ(bare.err, "A subcommand is required\nRun with --help for more information.\n");
}

TEST(CliBasics, subcommand_help_exits_0) {
  for (const char* cmd : {"inspect", "check", "roundtrip", "archive", "tma", "mission", "run", "sample", "fomap"}) {
    const auto r = run_sortie({cmd, "--help"});
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find(std::string("sortie ") + cmd), std::string::npos) << cmd << ":\n" << r.out;
  }
}

TEST(CliBasics, formats_json_lists_the_format_table) {
  const auto r = run_sortie({"formats", "--json"});
  ASSERT_EQ(r.exit_code, 0);
  const auto j = r.json();
  ASSERT_TRUE(j.is_array());
  std::vector<std::string> names;
  for (const auto& f : j) {
    EXPECT_TRUE(f.contains("description"));
    names.push_back(f.at("name").get<std::string>());
  }
  const std::vector<std::string> expected{"nres",        "rsli",  "unit_dat", "object_refs",    "msh",  "wear",
                                          "mat0",        "texm",  "fxid",     "build_dat",      "tma",  "land_msh",
                                          "land_map",    "scr",   "varset",   "ctld",           "wave", "behavior_ini",
                                          "mission_cfg", "fomap", "weather",  "sample_manifest"};
  EXPECT_EQ(names, expected);
}

}  // namespace
}  // namespace sortie::cli_test
