// `sortie route` on the demo sample, the movement counts of `sortie run`, and `sortie inspect`
// on a Behavior.ini.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

class CliMoveTest : public CliTest {};

TEST(CliRoute, json_route_starts_and_ends_at_the_points_through_linked_areals) {
  const auto r =
      run_sortie({"route", sample_dir().string(), "--mission", "m01", "--from", "80,90", "--to", "170,160", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("ok"), true);
  EXPECT_EQ(j.at("mission"), "MISSIONS/m01/data.tma");
  const auto& areals = j.at("areals");
  ASSERT_GE(areals.size(), 2u);
  EXPECT_EQ(areals.front(), j.at("start_areal"));
  EXPECT_EQ(areals.back(), j.at("goal_areal"));
  const auto& corridor = j.at("corridor");
  ASSERT_EQ(corridor.size(), areals.size() - 1);
  for (std::size_t i = 0; i < corridor.size(); ++i) {
    EXPECT_EQ(corridor[i].at("from"), areals[i]);
    EXPECT_EQ(corridor[i].at("to"), areals[i + 1]);
  }
  const auto& points = j.at("points");
  ASSERT_GE(points.size(), 2u);
  EXPECT_EQ(points.front(), core::Json::parse("[80.0, 90.0]"));
  EXPECT_EQ(points.back(), core::Json::parse("[170.0, 160.0]"));
  // The sample's areals are triangles with holes (generator 10): the path is at least the
  // straight line, bent where something is in the way.
  EXPECT_GE(j.at("length").get<double>(), std::hypot(90.0, 70.0) - 1e-3);
  // The text form names the same areals and length.
  const auto t = run_sortie({"route", sample_dir().string(), "-m", "m01", "--from", "80,90", "--to", "170,160"});
  ASSERT_EQ(t.exit_code, 0);
  EXPECT_NE(t.out.find(fmt::format("length: {:.3f}\n", j.at("length").get<double>())), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("areals: " + std::to_string(areals.front().get<int>()) + " -> "), std::string::npos) << t.out;
}

TEST(CliRoute, off_map_is_exit_1_with_the_reason_and_bad_points_are_usage_errors) {
  const auto off = run_sortie({"route", sample_dir().string(), "--from", "80,90", "--to", "900,180"});
  EXPECT_EQ(off.exit_code, 1);
  EXPECT_NE(off.err.find("the goal is outside every areal"), std::string::npos) << off.err;
  EXPECT_NE(off.err.find("[nav.path.off_map]"), std::string::npos) << off.err;
  const auto j = run_sortie({"route", sample_dir().string(), "--from", "-500,30", "--to", "80,90", "--json"});
  EXPECT_EQ(j.exit_code, 1);
  EXPECT_EQ(j.json().at("ok"), false);
  EXPECT_EQ(j.json().at("error").at("code"), "nav.path.off_map");
  EXPECT_EQ(j.json().at("error").at("field"), "start");
  for (const char* bad : {"20", "20,x", "nan,1", "1,2,3", ""}) {
    const auto u = run_sortie({"route", sample_dir().string(), "--from", bad, "--to", "20,30"});
    EXPECT_EQ(u.exit_code, 2) << bad;
  }
  EXPECT_EQ(run_sortie({"route", sample_dir().string(), "--to", "20,30"}).exit_code, 2);  // --from missing
  EXPECT_EQ(run_sortie({"route", sample_dir().string(), "-m", "m99", "--from", "1,1", "--to", "2,2"}).exit_code, 2);
  EXPECT_EQ(run_sortie({"route", "/no/such/dir", "--from", "1,1", "--to", "2,2"}).exit_code, 2);
}

TEST(CliRun, report_counts_contacts_blocked_moves_and_arrivals) {
  const auto r = run_sortie({"run", sample_dir().string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  const auto& m = j.at("run").at("movement");
  for (const char* key : {"contacts", "blocked_moves", "arrivals", "failures", "replans"})
    ASSERT_TRUE(m.contains(key)) << key;
  EXPECT_EQ(m.at("steps"), j.at("run").at("ticks"));  // the sample's scenario ends the run at its outcome
  EXPECT_GT(m.at("arrivals").get<int>(), 0);
  EXPECT_GT(j.at("run").at("obstacles").get<int>(), 0);
  const auto text = run_sortie({"run", sample_dir().string()});
  EXPECT_NE(
      text.out.find(fmt::format("movement: {} contacts, {} blocked moves, {} arrivals", m.at("contacts").get<int>(),
                                m.at("blocked_moves").get<int>(), m.at("arrivals").get<int>())),
      std::string::npos)
      << text.out;
}

TEST_F(CliMoveTest, replay_of_a_run_reports_the_same_movement_counts) {
  const fs::path out = dir_ / "run";
  const auto r = run_sortie({"run", sample_dir().string(), "--ticks", "400", "--out", out.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto replay = run_sortie(
      {"run", sample_dir().string(), "--ticks", "400", "--replay", (out / "commands.json").string(), "--json"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(replay.json().at("final_hash"), r.json().at("final_hash"));
  EXPECT_EQ(replay.json().at("run").at("movement"), r.json().at("run").at("movement"));
}

TEST_F(CliMoveTest, inspect_shows_behavior_ini_parameters) {
  const std::string text = "// demo\r\nUseWizard=1\r\nPathFind_MaxAccel = 12.5\r\nOddKey=3\r\n";
  put_bytes(dir_ / "Behavior.ini", core::as_bytes(text));
  const auto r = run_sortie({"inspect", "--json", (dir_ / "Behavior.ini").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("format"), "behavior_ini");
  EXPECT_EQ(j.at("parameters").at("PathFind_MaxAccel"), 12.5);
  EXPECT_TRUE(j.at("parameters").at("PathFind_fStepDist").is_null());
  EXPECT_EQ(j.at("warnings").at(0).at("code"), "behavior_ini.key_unknown");
  EXPECT_EQ(run_sortie({"roundtrip", (dir_ / "Behavior.ini").string()}).exit_code, 0);
  // A game directory's Behavior.ini feeds `sortie run`: an out-of-range value fails the load.
  const fs::path game = copy_sample();
  const std::string bad = "PathFind_MaxAccel=0\n";
  put_bytes(game / "Behavior.ini", core::as_bytes(bad));
  const auto run = run_sortie({"run", game.string(), "--ticks", "10"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.all().find("[move.params.range]"), std::string::npos) << run.all();
}

}  // namespace
}  // namespace sortie::cli_test
