// Every limit of mission/limits.hpp (save files), fed at the limit (accepted) and one above
// (refused with save.limit; write_save refuses what read_save would).
#include "sortie/mission/limits.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "sortie/core/file_io.hpp"
#include "sortie/mission/save_game.hpp"
#include "sortie/world/world_image.hpp"

namespace sortie::mission {
namespace {

namespace fs = std::filesystem;

// The smallest image check_save_image accepts: an empty world, no scenario.
core::Json empty_image() {
  core::Json w;
  for (const char* key : {"clock", "rng", "counters", "classes", "next_index", "free_slots", "objects", "queue",
                          "events", "deferred_delete", "deferred_add", "pending_commands"})
    w[key] = core::Json::array();
  w["object_fields"] = world::kImageObjectFields;
  return core::Json{{"world", std::move(w)}, {"scenario", nullptr}};
}

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
  s.image = empty_image();
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

TEST(MissionLimits, an_image_holds_at_most_kMaxSaveImageObjects_objects) {
  SaveGame s = play_save_with(1);
  const core::Json object = core::Json::array({"0001001400000001",
                                               0,
                                               1,
                                               1,
                                               "rAV",
                                               1,
                                               "unit",
                                               {0, 0, 0},
                                               {0, 0, 0},
                                               {1, 1, 1},
                                               core::Json::array(),
                                               core::Json::array(),
                                               core::Json::object(),
                                               nullptr});
  s.image["world"]["objects"] = core::Json(std::vector<core::Json>(kMaxSaveImageObjects, object));
  auto at = save_from_json(save_json(s));
  ASSERT_TRUE(at) << at.error().to_string();
  EXPECT_EQ(at->image["world"]["objects"].size(), kMaxSaveImageObjects);
  s.image["world"]["objects"].push_back(object);
  auto over = save_from_json(save_json(s));
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, "save.limit");
  EXPECT_NE(over.error().message.find("object count"), std::string::npos) << over.error().message;
  const fs::path file = scratch("objects.save");
  EXPECT_EQ(write_save(file, s).error().code, "save.limit");
  EXPECT_FALSE(fs::exists(file));
}

// An array nested `depth` levels deep, counted as the file's text counts it.
core::Json nested(std::size_t levels) {
  core::Json j = core::Json::array();
  for (std::size_t i = 1; i < levels; ++i) j = core::Json::array({std::move(j)});
  return j;
}

TEST(MissionLimits, a_save_nests_at_most_kMaxSaveDepth_levels) {
  // The file (1) > image (2) > world (3) > pending_commands (4) > the nest.
  SaveGame s = play_save_with(1);
  s.image["world"]["pending_commands"] = core::Json::array({nested(kMaxSaveDepth - 4)});
  const std::string at_limit = core::dump_json(save_json(s));
  EXPECT_EQ(json_text_depth(at_limit, kMaxSaveDepth), kMaxSaveDepth);
  const fs::path file = scratch("deep.save");
  ASSERT_TRUE(write_save(file, s)) << "the writer accepts the limit";
  auto ok = read_save(file);
  ASSERT_TRUE(ok) << ok.error().to_string();

  s.image["world"]["pending_commands"] = core::Json::array({nested(kMaxSaveDepth - 3)});
  EXPECT_EQ(write_save(file, s).error().code, "save.limit");
  auto over = save_from_json(save_json(s));
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, "save.limit");
  // A file deeper than the limit is refused on its text, before it is parsed.
  ASSERT_TRUE(core::write_file_atomic(file, std::string(100000, '[')));
  auto text = read_save(file);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, "save.limit");
  EXPECT_NE(text.error().message.find("nesting depth"), std::string::npos) << text.error().message;
  fs::remove(file);
}

TEST(MissionLimits, an_image_text_holds_at_most_kMaxSaveImageTextBytes) {
  SaveGame s = play_save_with(1);
  s.image["world"]["pending_commands"] = core::Json::array({std::string(kMaxSaveImageTextBytes, 'x')});
  ASSERT_TRUE(save_from_json(save_json(s)));
  s.image["world"]["pending_commands"] = core::Json::array({std::string(kMaxSaveImageTextBytes + 1, 'x')});
  auto over = save_from_json(save_json(s));
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, "save.limit");
}

}  // namespace
}  // namespace sortie::mission
