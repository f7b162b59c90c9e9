// A mission's Lua script in the loader (the mission_to_lua_script edge) and in `sortie run`
// (mission::run_mission plays the scenario to its outcome; a replay needs no script).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/mission_run.hpp"
#include "sortie_test/demo_game.hpp"

using namespace sortie;
namespace fs = std::filesystem;

namespace {

constexpr const char* kScript = "MISSIONS/m01/mission.lua";

test::Files with_script(std::string_view text) {
  test::Files files = test::demo_files();
  files[kScript] = core::Bytes(text.begin(), text.end());
  return files;
}

TEST(MissionScript, the_sample_missions_carry_a_script_that_compiles) {
  auto game = test::game_over(test::demo_files());
  for (const char* m : {"m01", "m02", "m03"}) {
    auto report = game.load(m);
    ASSERT_TRUE(report.has_value());
    EXPECT_TRUE(report->ok) << m;
    const mission::LoadedMission* lm = game.current();
    if (lm == nullptr) FAIL() << m;
    EXPECT_EQ(lm->script ? lm->script->path : std::string(), fmt::format("MISSIONS/{}/mission.lua", m));
  }
}

TEST(MissionScript, a_syntax_error_fails_the_load_as_its_own_edge) {
  auto game = test::game_over(with_script("objective_add('a', 'b')\nlocal x = = 2\n"));
  auto report = game.load("m01");
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->ok);
  ASSERT_EQ(report->failures.size(), 1u);
  const core::Diagnostic& d = report->failures[0];
  EXPECT_EQ(d.code, "lua.syntax");
  EXPECT_EQ(d.file, "MISSIONS/m01/mission.lua:2");
  EXPECT_NE(d.message.find("mission_to_lua_script"), std::string::npos) << d.to_string();
  EXPECT_EQ(game.current(), nullptr);  // nothing registered

  // --compatible keeps going: the mission loads without its script, with a warning.
  mission::GameContextOptions compatible;
  compatible.profile = core::Profile::compatible;
  auto vfs = std::make_unique<assets::MemoryVfs>();
  for (const auto& [path, bytes] : with_script("local x = = 2\n")) ASSERT_TRUE(vfs->add(path, bytes));
  auto lenient = mission::GameContext::over(std::move(vfs), compatible);
  auto ok = lenient.load("m01");
  ASSERT_TRUE(ok.has_value());
  EXPECT_TRUE(ok->ok);
  const mission::LoadedMission* lm = lenient.current();
  if (lm == nullptr) FAIL();
  EXPECT_FALSE(lm->script.has_value());
  bool warned = false;
  for (const auto& w : ok->warnings) warned = warned || w.code == "lua.syntax";
  EXPECT_TRUE(warned);
}

TEST(MissionScript, a_mission_without_a_script_keeps_its_native_bundles_and_superai) {
  test::Files files = test::demo_files();
  files.erase(kScript);
  auto game = test::game_over(files);
  ASSERT_TRUE(game.load("m01").has_value());
  mission::LoadedMission* lm = game.current();
  if (lm == nullptr) FAIL();
  auto runtime = mission::make_scenario_runtime(*lm, {});
  ASSERT_TRUE(runtime.has_value());
  ASSERT_NE(*runtime, nullptr);
  std::vector<std::string> names;
  for (const auto& p : (*runtime)->parts()) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"native", "superai:Enemy"}));
}

TEST(MissionScript, a_mission_without_any_scenario_part_has_no_scenario) {
  test::Files files = test::demo_files();
  files.erase(kScript);
  auto game = test::game_over(files);
  ASSERT_TRUE(game.load("m01").has_value());
  mission::LoadedMission* lm = game.current();
  if (lm == nullptr) FAIL();
  // No bundles and no hostile clans: nothing to play.
  auto data = std::make_shared<assets::MissionData>(*lm->data);
  data->scripts.clear();
  for (auto& clan : data->tma.clans) clan.relations.clear();
  lm->data = data;
  auto runtime = mission::make_scenario_runtime(*lm, {});
  ASSERT_TRUE(runtime.has_value());
  EXPECT_EQ(*runtime, nullptr);
  auto r = mission::run_scenario(*lm, mission::ScenarioOptions{});
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->scenario.has_value());
  EXPECT_EQ(r->ticks, 600u);
}

class RunScenarioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-run-scenario-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(RunScenarioTest, sortie_run_plays_the_sample_to_its_outcome_and_the_replay_needs_no_script) {
  mission::MissionRunRequest rq;
  rq.source = {{}, assets::SampleScale::demo, dir_ / "cache"};
  rq.out_dir = dir_ / "out";
  rq.trace = {"lua", "scenario"};
  auto run = mission::run_mission(rq);
  ASSERT_TRUE(run.has_value()) << run.error().to_string();
  ASSERT_FALSE(run->failure) << run->failure->to_string();
  const auto& s = run->result.scenario;
  ASSERT_TRUE(s.has_value());
  // `sortie run` on the sample (`make run`): was 82ffd51214eb3778 before the sample had scripts,
  // eff1018f9bce1f46 with the Lua script alone (before SuperAI and the native bundles ran).
  EXPECT_EQ(core::hash_hex(run->result.final_hash), "ee5e994e860b6621");
  EXPECT_EQ(fmt::format("{} {} {}", scenario::to_string(s->outcome), s->tick, s->reason),
            "win 299 a Player unit reached the depot");
  EXPECT_EQ(s->diagnostics.size(), 0u);  // no order to a unit that is gone
  EXPECT_NE(s->outcome, scenario::Outcome::none);
  EXPECT_EQ(run->result.ticks, s->tick + 1);
  ASSERT_GE(s->objectives.size(), 2u);
  EXPECT_EQ(s->objectives[0].id, "reach");
  ASSERT_EQ(s->parts.size(), 3u);  // the script, the native bundles, the Enemy's SuperAI
  EXPECT_EQ(s->parts[0].name, "lua:MISSIONS/m01/mission.lua");
  EXPECT_EQ(s->parts[1].name, "native");
  EXPECT_EQ(s->parts[2].name, "superai:Enemy");
  for (const auto& p : s->parts) EXPECT_TRUE(p.running) << p.name;
  const core::Json report = run->report();
  EXPECT_EQ(report.at("scenario").at("outcome"), scenario::to_string(s->outcome));
  EXPECT_EQ(report.at("scenario").at("objectives").size(), s->objectives.size());
  const std::string text = run->to_text();
  EXPECT_NE(text.find("scenario objectives:\n"), std::string::npos) << text;
  EXPECT_NE(text.find("scenario result: " + std::string(scenario::to_string(s->outcome))), std::string::npos) << text;
  auto lua_log = core::read_text_file(rq.out_dir / "lua.log");
  ASSERT_TRUE(lua_log.has_value());
  EXPECT_EQ(lua_log->rfind("tick 0: start MISSIONS/m01/mission.lua\n", 0), 0u) << *lua_log;

  // The log alone, no script: the same hash, the same objectives and outcome.
  mission::MissionRunRequest replay;
  replay.source = rq.source;
  replay.replay = rq.out_dir / "commands.json";
  auto again = mission::run_mission(replay);
  ASSERT_TRUE(again.has_value() && !again->failure);
  EXPECT_EQ(again->result.final_hash, run->result.final_hash);
  EXPECT_EQ(again->result.ticks, run->result.ticks);
  ASSERT_TRUE(again->result.scenario.has_value());
  EXPECT_TRUE(again->result.scenario->parts.empty());
  EXPECT_EQ(again->result.scenario->outcome, s->outcome);
  EXPECT_EQ(again->result.scenario->digest, s->digest);
  EXPECT_EQ(again->report().at("scenario").at("objectives"), report.at("scenario").at("objectives"));

  // Twice: the same hash.
  auto second = mission::run_mission(rq);
  ASSERT_TRUE(second.has_value() && !second->failure);
  EXPECT_EQ(second->result.final_hash, run->result.final_hash);
}

}  // namespace
