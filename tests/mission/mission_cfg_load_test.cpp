// A mission with a mission.cfg: the world and its run are those of the mission without one (the
// file is presentation: ambient music); a broken one stops the load like any dependency and the
// previous world stays.
#include <gtest/gtest.h>

#include "sortie/mission/mission_loader.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie_test/demo_game.hpp"

using namespace sortie;
using sortie::test::demo_files;
using sortie::test::Files;
using sortie::test::game_over;

namespace {

// The demo game without its missions' own mission.cfg files.
Files without_mission_cfg() {
  Files files = demo_files();
  std::erase_if(files, [](const auto& kv) { return kv.first.ends_with("/mission.cfg"); });
  return files;
}

Files with_mission_cfg(std::string_view text) {
  Files files = without_mission_cfg();
  const auto b = core::as_bytes(text);
  files["MISSIONS/m01/mission.cfg"] = core::Bytes(b.begin(), b.end());
  return files;
}

std::uint64_t run_hash(mission::GameContext& game) {
  auto report = game.load("m01");
  EXPECT_TRUE(report && report->ok);
  if (!report || !report->ok || game.current() == nullptr) return 0;
  mission::ScenarioOptions so;
  so.ticks = 120;
  auto run = mission::run_scenario(*game.current(), so);
  EXPECT_TRUE(run.has_value());
  return run ? run->final_hash : 0;
}

}  // namespace

TEST(MissionCfgLoad, a_mission_cfg_does_not_change_the_world_or_its_run) {
  auto plain = game_over(without_mission_cfg());
  auto with = game_over(
      with_mission_cfg("object ambient_music_loop\r\n\tTHEME theme01.wav\r\nend\r\nobject ambient_music_variation\r\n"
                       "\tDEFAULT_VARIATION1 a.wav\r\nend\r\n"));
  const std::uint64_t a = run_hash(plain);
  const std::uint64_t b = run_hash(with);
  EXPECT_NE(a, 0u);
  EXPECT_EQ(a, b);
  const mission::LoadedMission* with_mission = with.current();
  const mission::LoadedMission* plain_mission = plain.current();
  ASSERT_NE(with_mission, nullptr);
  ASSERT_NE(plain_mission, nullptr);
  ASSERT_NE(with_mission->data, nullptr);
  ASSERT_NE(plain_mission->data, nullptr);
  ASSERT_TRUE(with_mission->data->mission_cfg.has_value());
  EXPECT_EQ(with_mission->data->mission_cfg->objects.size(), 2u);
  EXPECT_FALSE(plain_mission->data->mission_cfg.has_value());
}

TEST(MissionCfgLoad, a_broken_mission_cfg_stops_the_load_and_keeps_the_previous_world) {
  auto game = game_over(with_mission_cfg("object ambient_music_loop\nobject nested\nend\n"));
  ASSERT_TRUE(game.load("m02").has_value());
  const auto* prev = game.current();
  ASSERT_NE(prev, nullptr);
  const std::uint64_t prev_hash = prev->world->compute_state_hash();
  auto report = game.load("m01");
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->ok);
  EXPECT_EQ(report->registered, 0u);
  ASSERT_EQ(report->failures.size(), 1u);
  EXPECT_EQ(report->failures[0].code, "load.mission_cfg_invalid");
  EXPECT_NE(report->failures[0].message.find("(mission_cfg.syntax)"), std::string::npos) << report->failures[0].message;
  EXPECT_EQ(game.current(), prev);
  EXPECT_EQ(prev->world->compute_state_hash(), prev_hash);
}
