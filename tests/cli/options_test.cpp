// Numeric options reject what they cannot hold: exit 2 and a message naming the option
// (issue #8: `sortie run --ticks -5` used to wrap around and run for ever).
#include <gtest/gtest.h>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

struct BadNumber {
  std::vector<std::string> args;
  std::string option;
};

TEST_F(CliTest, numeric_options_reject_out_of_range_values_with_exit_2) {
  const std::string game = sample_dir().string();
  const std::string squad_map = (dir_ / "any.txt").string();  // never read: the options fail first
  const std::vector<BadNumber> cases = {
      {{"run", game, "--ticks", "-5"}, "--ticks"},
      {{"run", game, "--ticks", "1.5"}, "--ticks"},
      {{"run", game, "--ticks", "1e3"}, "--ticks"},
      {{"run", game, "--ticks", "99999999999999999999999"}, "--ticks"},
      {{"run", game, "--ticks", "1000000001"}, "--ticks"},
      {{"run", game, "--ticks", "ten"}, "--ticks"},
      {{"run", game, "--seed", "-1"}, "--seed"},
      {{"sample", (dir_ / "s").string(), "--seed", "-3"}, "--seed"},
      {{"squad", "run", squad_map, "--seed", "-1"}, "--seed"},
      {{"squad", "run", squad_map, "--seconds", "-5"}, "--seconds"},
      {{"squad", "run", squad_map, "--seconds", "279621"}, "--seconds"},
      {{"squad", "accept", "--seed", "-2"}, "--seed"},
      {{"squad", "--accept", "--seconds", "nan"}, "--seconds"},
      {{"env", "run", squad_map, "--seconds", "10", "--seed", "-4"}, "--seed"},
      // The options that had their own checks before the one rule:
      {{"env", "run", squad_map, "--seconds", "0"}, "--seconds"},  // (0, 86400]
      {{"env", "run", squad_map, "--seconds", "10", "--step-ms", "0"}, "--step-ms"},
      {{"env", "frame", "--vfov-deg", "180"}, "--vfov-deg"},  // (0, 180)
      {{"env", "frame", "--aspect", "0.001"}, "--aspect"},
      {{"env", "frame", "--density", "101"}, "--density"},
      {{"render", game, "-o", (dir_ / "r.png").string(), "--at", "-1"}, "--at"},
      {{"render", game, "-o", (dir_ / "r.png").string(), "--weather-seed", "-1"}, "--weather-seed"},
      {{"archive", "add", "a.lib", "f.bin", "--attr1", "-1"}, "--attr1"},
      {{"archive", "add", "a.lib", "f.bin", "--attr2", "4294967296"}, "--attr2"},
      {{"archive", "add", "a.lib", "f.bin", "--attr3", "0x1g"}, "--attr3"},
  };
  for (const auto& c : cases) {
    const auto r = run_sortie(c.args);
    const std::string& value = c.args.back();
    EXPECT_EQ(r.exit_code, 2) << c.option << " " << value << ": " << r.all();
    EXPECT_NE(r.err.find(c.option + ": value '" + value + "'"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(fs::exists(dir_ / "s"));  // nothing written for a rejected command
}

TEST_F(CliTest, numeric_options_accept_their_bounds) {
  const auto zero = run_sortie({"run", sample_dir().string(), "--ticks", "0", "--json"});
  ASSERT_EQ(zero.exit_code, 0) << zero.err;
  EXPECT_EQ(zero.json().at("run").at("ticks"), 0);
  EXPECT_NE(zero.json().at("final_hash"), "0000000000000000");  // the loaded state's hash
  const auto seed = run_sortie({"run", sample_dir().string(), "--ticks", "1", "--seed", "18446744073709551615"});
  EXPECT_EQ(seed.exit_code, 0) << seed.err;
  const auto squad = run_sortie({"squad", "run", (fs::path(SORTIE_SOURCE_DIR) / "data/squad/rooms.txt").string(),
                                 "--seconds", "0", "--seed", "18446744073709551615"});
  EXPECT_EQ(squad.exit_code, 0) << squad.err;
}

TEST_F(CliTest, the_viewer_reads_its_numbers_by_the_same_rule) {
  const std::vector<BadNumber> cases = {
      {{"--frames", "0"}, "--frames"},
      {{"--threads", "-1"}, "--threads"},
      {{"--weather-seed", "-1"}, "--weather-seed"},
      {{"squad", "any.txt", "--seed", "1.5"}, "--seed"},
      {{"squad", "any.txt", "--threads", "257"}, "--threads"},
  };
  for (const auto& c : cases) {
    const auto r = run_viewer(c.args);
    const std::string& value = c.args.back();
    EXPECT_EQ(r.exit_code, 2) << c.option << " " << value << ": " << r.all();
    EXPECT_NE(r.err.find(c.option + ": value '" + value + "'"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace sortie::cli_test
