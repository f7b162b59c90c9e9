// `sortie --help`, `--version`, usage errors of every command (derived from the command table), `formats`.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

// The command table as the binary builds it from its registry (SORTIE_COMMAND registrations,
// installed by name): the names under "Subcommands:" of `sortie [PATH...] --help`. Continuation
// lines of a long description are indented past the name column and are skipped.
std::vector<std::string> subcommands_of(const std::vector<std::string>& path) {
  std::vector<std::string> args = path;
  args.emplace_back("--help");
  const auto r = run_sortie(args);
  EXPECT_EQ(r.exit_code, 0) << r.all();
  std::vector<std::string> names;
  std::istringstream in(r.out);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside) {
      inside = line == "Subcommands:";
      continue;
    }
    if (line.size() < 3 || line.rfind("  ", 0) != 0) break;  // the section ends
    if (line[2] == ' ') continue;                            // a description's next line
    names.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  return names;
}

// Every command path below `path`, groups and their verbs, depth first.
void collect_commands(const std::vector<std::string>& path, std::vector<std::vector<std::string>>& out) {
  for (const std::string& name : subcommands_of(path)) {
    std::vector<std::string> sub = path;
    sub.push_back(name);
    out.push_back(sub);
    collect_commands(sub, out);
  }
}

std::string joined(const std::vector<std::string>& path) {
  std::string s = "sortie";
  for (const auto& p : path) s += " " + p;
  return s;
}

TEST(CliBasics, help_lists_every_command_and_exits_0) {
  const auto r = run_sortie({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("sortie: engine and toolkit for legacy mission content"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
  // The table derived from the help is the registry: today's 18 commands are all there (a new
  // one is checked by the next test without being named here).
  const std::vector<std::string> listed = subcommands_of({});
  for (const char* cmd : {"archive", "check", "env", "fomap", "formats", "inspect", "join", "mission", "render",
                          "replay", "roundtrip", "route", "run", "sample", "serve", "sound", "squad", "tma"})
    EXPECT_NE(std::find(listed.begin(), listed.end(), cmd), listed.end()) << cmd << " missing from\n" << r.out;
  EXPECT_TRUE(std::is_sorted(listed.begin(), listed.end())) << r.out;
}

// Every command and every verb of a group, as the registry installs them: `--help` exits 0 with
// its own usage line, and an unknown option is a usage error (exit 2, named on stderr, nothing
// on stdout, nothing run).
TEST(CliBasics, every_command_has_help_and_a_usage_error) {
  std::vector<std::vector<std::string>> commands;
  collect_commands({}, commands);
  ASSERT_GE(commands.size(), 18u);
  std::size_t groups = 0;
  for (const auto& path : commands) {
    const std::string name = joined(path);
    std::vector<std::string> help = path;
    help.emplace_back("--help");
    const auto h = run_sortie(help);
    EXPECT_EQ(h.exit_code, 0) << name << ":\n" << h.all();
    EXPECT_NE(h.out.find("Usage: " + name), std::string::npos) << name << ":\n" << h.out;
    EXPECT_EQ(h.err, "") << name;
    groups += h.out.find("\nSubcommands:\n") != std::string::npos ? 1 : 0;
    std::vector<std::string> bad = path;
    bad.emplace_back("--no-such-option");
    const auto u = run_sortie(bad);
    EXPECT_EQ(u.exit_code, 2) << name << " --no-such-option:\n" << u.all();
    EXPECT_EQ(u.out, "") << name << " --no-such-option";
    EXPECT_NE(u.err.find("--no-such-option"), std::string::npos) << name << " --no-such-option:\n" << u.err;
  }
  // The groups (archive, env, fomap, mission, sound, squad, tma) were walked into.
  EXPECT_GE(groups, 7u);
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
  const std::vector<std::string> expected{
      "nres",          "rsli",      "unit_dat", "object_refs",  "msh",         "wear",  "mat0",    "texm",
      "fxid",          "build_dat", "tma",      "land_msh",     "land_map",    "scr",   "varset",  "fml",
      "trf",           "ctld",      "wave",     "behavior_ini", "mission_cfg", "fomap", "weather", "sample_manifest",
      "mission_script"};
  EXPECT_EQ(names, expected);
}

}  // namespace
}  // namespace sortie::cli_test
