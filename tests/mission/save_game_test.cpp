// Save files (mission/save_game.hpp, docs/save-files.md): a run saved at a tick and resumed
// from the save ends on the uninterrupted run's hashes, checkpoint for checkpoint; damaged,
// foreign and mismatched saves are refused with their own codes and nothing runs.
#include "sortie/mission/save_game.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/mission_run.hpp"
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

class SaveGameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-save-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  MissionRunRequest request(std::uint64_t ticks) const {
    MissionRunRequest rq;
    rq.source = {{}, assets::SampleScale::demo, dir_ / "cache"};
    rq.ticks = ticks;
    return rq;
  }
  MissionRun run(const MissionRunRequest& rq) const {
    auto r = run_mission(rq);
    EXPECT_TRUE(r.has_value()) << r.error().to_string();
    return std::move(*r);
  }
  std::string write_text(const std::string& name, const std::string& text) const {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }

  fs::path dir_;
};

TEST_F(SaveGameTest, a_resumed_save_ends_on_the_uninterrupted_runs_hashes) {
  const MissionRun whole = run(request(400));
  ASSERT_FALSE(whole.failure) << whole.failure->to_string();

  auto save_rq = request(400);
  save_rq.save_at = 60;
  save_rq.save = dir_ / "t60.save";
  const MissionRun saving = run(save_rq);
  ASSERT_FALSE(saving.failure) << saving.failure->to_string();
  ASSERT_TRUE(saving.saved.has_value());
  EXPECT_EQ(saving.result.final_hash, whole.result.final_hash);  // saving changes nothing

  auto save = read_save(dir_ / "t60.save");
  ASSERT_TRUE(save.has_value()) << save.error().to_string();
  EXPECT_EQ(*save, *saving.saved);
  EXPECT_EQ(save->tick, 60u);
  EXPECT_EQ(save->mission, "m01");
  EXPECT_EQ(save->build, save_build_id());

  auto resume_rq = request(340);
  resume_rq.load = dir_ / "t60.save";
  const MissionRun resumed = run(resume_rq);
  ASSERT_FALSE(resumed.failure) << resumed.failure->to_string();
  ASSERT_TRUE(resumed.resumed.has_value());
  EXPECT_EQ(resumed.result.ticks, 300u);  // the scenario is won at tick 299
  EXPECT_EQ(resumed.result.final_hash, whole.result.final_hash);
  EXPECT_EQ(resumed.result.checkpoints, whole.result.checkpoints);
  EXPECT_TRUE(resumed.report().contains("resumed"));
}

TEST_F(SaveGameTest, a_save_at_a_tick_the_run_never_reaches_fails_and_writes_nothing) {
  auto rq = request(40);
  rq.save_at = 100;
  rq.save = dir_ / "never.save";
  const MissionRun r = run(rq);
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->code, "run.save_at");
  EXPECT_FALSE(fs::exists(rq.save));
}

TEST_F(SaveGameTest, damaged_foreign_and_mismatched_saves_are_refused_before_anything_runs) {
  SaveGame good;
  good.build = save_build_id();
  good.sample_scale = "demo";
  good.mission = "m01";
  good.seed = 1;
  good.tick = 30;
  good.state_hash = 0x0123456789abcdefULL;
  good.image = empty_image();
  const std::string valid = core::dump_json(save_json(good));
  ASSERT_TRUE(save_from_json(core::Json::parse(valid)).has_value());

  const auto code_of = [&](const std::string& text) {
    auto r = read_save(write_text("x.save", text));
    return r ? std::string("ok") : r.error().code;
  };
  std::string damaged = valid;
  damaged.replace(damaged.find("m01"), 3, "m02");
  EXPECT_EQ(code_of(damaged), "save.checksum");
  EXPECT_EQ(code_of("{ not json"), "save.json");
  EXPECT_EQ(code_of(R"({"format": "sortie-weather"})"), "save.format");
  auto other_version = save_json(good);
  other_version["version"] = kSaveVersion + 1;
  EXPECT_EQ(code_of(other_version.dump()), "save.version");
  // Found by fuzz_save_game's long run: a "format" that is not a string threw out of the reader.
  EXPECT_EQ(code_of(R"({"format": 120, "version": 2, "actions": []})"), "save.format");
  EXPECT_EQ(code_of(R"({"format": null})"), "save.format");
  // A version that only equals kSaveVersion modulo 2^32 is another version.
  other_version["version"] = (std::int64_t{1} << 32) + kSaveVersion;
  EXPECT_EQ(code_of(other_version.dump()), "save.version");
  SaveGame foreign = good;
  foreign.build = "sortie 0.0.9; sample generator 6; save 1";
  EXPECT_EQ(code_of(save_json(foreign).dump()), "save.build");
  auto missing = save_json(good);
  missing.erase("tick");
  missing.erase("checksum");
  missing["checksum"] = core::hash_hex(core::hash64(missing.dump()));
  EXPECT_EQ(code_of(missing.dump()), "save.field");
  EXPECT_EQ(read_save(dir_ / "absent.save").error().code, "save.read");

  SaveGame no_image = good;
  no_image.image = nullptr;
  auto without = save_json(no_image);
  without.erase("image");
  without.erase("checksum");
  without["checksum"] = core::hash_hex(core::hash64(without.dump()));
  EXPECT_EQ(code_of(without.dump()), "save.field");
  EXPECT_FALSE(write_save(dir_ / "no-image.save", no_image));  // never written without an image

  // Well formed, but the world re-simulated to tick 30 is not the image: refused, no outputs.
  const fs::path mismatched = dir_ / "mismatch.save";
  ASSERT_TRUE(write_save(mismatched, good).has_value());
  auto rq = request(10);
  rq.load = mismatched;
  rq.out_dir = dir_ / "out";
  const MissionRun r = run(rq);
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->code, "save.mismatch");
  EXPECT_FALSE(fs::exists(dir_ / "out" / "report.json"));

  // A save of the sample resumed against a game directory is refused before loading anything.
  rq.source.dir = dir_ / "somewhere";
  const MissionRun other_game = run(rq);
  ASSERT_TRUE(other_game.failure.has_value());
  EXPECT_EQ(other_game.failure->code, "save.game");
}

}  // namespace
}  // namespace sortie::mission
