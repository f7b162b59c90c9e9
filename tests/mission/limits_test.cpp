// Every limit of mission/limits.hpp (save files), fed at the limit (accepted) and one above
// (refused with save.limit; write_save refuses what read_save would).
#include "sortie/mission/limits.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "sortie/core/file_io.hpp"
#include "sortie/mission/save_game.hpp"

namespace sortie::mission {
namespace {

namespace fs = std::filesystem;

SaveGame play_save_with(std::size_t actions) {
  SaveGame s;
  s.build = save_build_id();
  s.sample_scale = "demo";
  s.mission = "MISSIONS/m01/data.tma";
  s.tick = 1000;
  s.state_hash = 0x1234;
  s.mode = SaveMode::play;
  PlayAction halt;
  halt.kind = ActionKind::halt;
  halt.units = {world::ObjectId{1, 20, 3}};
  s.actions.assign(actions, halt);
  return s;
}

fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() / ("sortie-mission-limits-" + std::to_string(::getpid()) + "-" + name);
}

TEST(MissionLimits, a_save_holds_at_most_kMaxSaveActions_actions) {
  const SaveGame full = play_save_with(kMaxSaveActions);
  auto back = save_from_json(save_json(full));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->actions.size(), kMaxSaveActions);

  core::Json over = save_json(full);
  over["actions"].push_back(over["actions"].back());  // the count is checked before the checksum's field
  auto refused = save_from_json(over);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, "save.limit");

  const fs::path file = scratch("actions.save");
  auto written = write_save(file, play_save_with(kMaxSaveActions + 1));
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().code, "save.limit");
  EXPECT_FALSE(fs::exists(file));
}

TEST(MissionLimits, each_text_field_holds_at_most_kMaxSaveTextBytes) {
  SaveGame s = play_save_with(1);
  s.game = std::string(kMaxSaveTextBytes, 'g');
  auto ok = save_from_json(save_json(s));
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_EQ(ok->game.size(), kMaxSaveTextBytes);
  s.mission = std::string(kMaxSaveTextBytes + 1, 'm');
  auto refused = save_from_json(save_json(s));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, "save.limit");
  EXPECT_NE(refused.error().message.find("'mission'"), std::string::npos) << refused.error().message;
}

TEST(MissionLimits, a_save_file_is_at_most_kMaxSaveFileBytes) {
  const fs::path file = scratch("big.save");
  // A valid save padded with blanks to exactly the limit reads; one byte more is refused unread.
  std::string text = core::dump_json(save_json(play_save_with(2)));
  text.resize(kMaxSaveFileBytes, ' ');
  ASSERT_TRUE(core::write_file_atomic(file, text));
  auto at = read_save(file);
  ASSERT_TRUE(at) << at.error().to_string();
  text.push_back(' ');
  ASSERT_TRUE(core::write_file_atomic(file, text));
  auto over = read_save(file);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, "save.limit");
  EXPECT_EQ(over.error().file, file.string());
  fs::remove(file);
}

}  // namespace
}  // namespace sortie::mission
