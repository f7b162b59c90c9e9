// A save's world image (mission/save_image.hpp, docs/save-files.md): it round-trips through the
// file; saves of the demo sample and of a corpus mission (headless runs at ticks 1, 60 and 120,
// played games at 1, 60 and 600), loaded and run on, give the uninterrupted run's state hash at
// every tick; a save whose image was edited (an
// object's position, the RNG stream, a Lua global, a SuperAI target) with its checksum made
// right again is refused with save.mismatch naming exactly that entry.
#include "sortie/mission/save_image.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/limits.hpp"
#include "sortie/mission/mission_run.hpp"
#include "sortie/mission/open_game.hpp"
#include "sortie/mission/play_session.hpp"
#include "sortie/mission/save_game.hpp"
#include "sortie/world/world.hpp"

namespace sortie::mission {
namespace {

namespace fs = std::filesystem;

class SaveImageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cache_ = fs::temp_directory_path() / ("sortie-save-image-cache-" + std::to_string(::getpid()));
  }
  static void TearDownTestSuite() { fs::remove_all(cache_); }
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-save-image-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static MissionRunRequest request(std::uint64_t ticks, assets::SampleScale scale = assets::SampleScale::demo,
                                   std::string mission = {}) {
    MissionRunRequest rq;
    rq.source = {{}, scale, cache_ / std::string(assets::to_string(scale))};
    rq.ticks = ticks;
    rq.mission = std::move(mission);
    return rq;
  }
  static MissionRun run(const MissionRunRequest& rq) {
    auto r = run_mission(rq);
    EXPECT_TRUE(r.has_value()) << r.error().to_string();
    return std::move(*r);
  }
  static const std::vector<std::uint64_t>& hashes(const MissionRun& r) {
    return r.game->context.current()->world->hash_history();
  }
  // A save of the demo sample at `tick` (its file's JSON).
  core::Json saved_at(std::uint64_t tick, const fs::path& file) const {
    auto rq = request(tick);
    rq.save_at = tick;
    rq.save = file;
    const MissionRun r = run(rq);
    EXPECT_FALSE(r.failure) << r.failure->to_string();
    auto text = core::read_text_file(file);
    EXPECT_TRUE(text.has_value());
    return core::Json::parse(*text);
  }
  // Writes `j` with its checksum recomputed (an edit the checksum does not catch), then loads it.
  MissionRun load_edited(core::Json j, const std::string& name) const {
    j.erase("checksum");
    j["checksum"] = core::hash_hex(core::hash64(j.dump(-1, ' ', false, core::Json::error_handler_t::replace)));
    const fs::path file = dir_ / name;
    EXPECT_TRUE(core::write_file_atomic(file, j.dump()).has_value());
    auto rq = request(5);
    rq.load = file;
    rq.out_dir = dir_ / "out";
    return run(rq);
  }

  static inline fs::path cache_;
  fs::path dir_;
};

TEST_F(SaveImageTest, the_image_round_trips_through_the_file) {
  auto rq = request(60);
  rq.save_at = 60;
  rq.save = dir_ / "t60.save";
  const MissionRun r = run(rq);
  ASSERT_FALSE(r.failure) << r.failure->to_string();
  ASSERT_TRUE(r.saved.has_value());
  auto back = read_save(rq.save);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(back->image, r.saved->image);
  EXPECT_FALSE(first_image_difference(back->image, r.saved->image).has_value());
  // The world at the end of the run (tick 60) is the world saved: its image now equals the file's.
  const world::World& w = *r.game->context.current()->world;
  EXPECT_EQ(w.clock().tick, 60u);
  const core::Json& img = back->image;
  EXPECT_EQ(img["world"]["clock"][0], 60);
  EXPECT_EQ(img["world"]["objects"].size(), w.live_count());
  ASSERT_TRUE(img["scenario"].is_object());
  // The parts are there as data: the Lua script's globals and SuperAI's radar.
  bool lua = false, superai = false;
  for (const auto& p : img["scenario"]["parts"]) {
    const std::string name = p["name"];
    if (name.rfind("lua:", 0) == 0) {
      lua = true;
      EXPECT_TRUE(p["state"]["globals"].contains("arrivals")) << p["state"]["globals"].dump();
    }
    if (name.rfind("superai:", 0) == 0) {
      superai = true;
      EXPECT_FALSE(p["state"]["radar"].empty());
    }
  }
  EXPECT_TRUE(lua);
  EXPECT_TRUE(superai);
  // Objects carry their movement components as named fields.
  bool moving = false;
  for (const auto& o : img["world"]["objects"])
    moving = moving || (o[12].contains("move.control") && o[12]["move.control"].contains("speed"));
  EXPECT_TRUE(moving);
}

// Saves at `at`, resumes for `more` ticks: every tick's hash equals the uninterrupted run's.
void expect_resume_matches(const fs::path& dir, assets::SampleScale scale, const std::string& mission, std::uint64_t at,
                           std::uint64_t more,
                           const std::function<MissionRunRequest(std::uint64_t, assets::SampleScale, std::string)>& req,
                           const std::function<MissionRun(const MissionRunRequest&)>& run_it) {
  const MissionRun whole = run_it(req(at + more, scale, mission));
  ASSERT_FALSE(whole.failure) << whole.failure->to_string();
  ASSERT_GE(whole.result.ticks, at) << "the run ends before the save tick";
  auto save_rq = req(at + more, scale, mission);
  save_rq.save_at = at;
  save_rq.save = dir / ("t" + std::to_string(at) + ".save");
  const MissionRun saving = run_it(save_rq);
  ASSERT_FALSE(saving.failure) << saving.failure->to_string();
  auto resume_rq = req(more, scale, {});
  resume_rq.load = save_rq.save;
  const MissionRun resumed = run_it(resume_rq);
  ASSERT_FALSE(resumed.failure) << resumed.failure->to_string();
  const auto& a = whole.game->context.current()->world->hash_history();
  const auto& b = resumed.game->context.current()->world->hash_history();
  ASSERT_EQ(a.size(), at + more) << "at " << at;
  ASSERT_EQ(a.size(), b.size()) << "at " << at;
  for (std::size_t t = 0; t < a.size(); ++t) ASSERT_EQ(a[t], b[t]) << "tick " << t + 1 << " of a save at " << at;
  EXPECT_EQ(resumed.result.final_hash, whole.result.final_hash);
}

// A headless run of the sample's scenario ends with its outcome before tick 600 (demo m01 at
// 132 since generator 10; the corpus runs use m05, whose depot is farther: m01 wins at 55): run saves are
// checked at 1, 60 and 120; 600 in the played game below.
TEST_F(SaveImageTest, demo_run_saves_at_1_60_and_120_resume_on_the_uninterrupted_hashes) {
  for (const std::uint64_t at : {1u, 60u, 120u})
    expect_resume_matches(dir_, assets::SampleScale::demo, {}, at, 10, request, run);
}

TEST_F(SaveImageTest, corpus_run_saves_at_1_60_and_120_resume_on_the_uninterrupted_hashes) {
  for (const std::uint64_t at : {1u, 60u, 120u})
    expect_resume_matches(dir_, assets::SampleScale::corpus, "m05", at, 10, request, run);
}

// A played game (the viewer's F5 / F9: play_save, resume_play), which lasts: the script leaves the
// player's clan to the person and gives them 240 s. Saved at 1, 60 and 600 with the player's
// orders before each; resumed, given the orders after the save, and run on to the end, every
// tick's hash equals the uninterrupted game's.
void expect_played_resume_matches(const fs::path& cache, assets::SampleScale scale, const std::string& mission) {
  auto g = open_game({{}, scale, cache / std::string(assets::to_string(scale))}, mission);
  ASSERT_TRUE(g) << g.error().to_string();
  OpenGame game = std::move(*g);
  const auto load = [&] {
    MissionLoadOptions lo;
    lo.world.seed = 1;
    auto report = game.context.load(game.mission, lo);
    ASSERT_TRUE(report && report->ok);
  };
  constexpr std::uint64_t kMore = 60;
  const std::uint64_t ats[] = {1, 60, 600};
  load();
  auto started = PlaySession::start(*game.context.current());
  ASSERT_TRUE(started) << started.error().to_string();
  std::unique_ptr<PlaySession> play = std::move(*started);
  std::vector<SaveGame> saves;
  while (play->tick_number() < 600 + kMore) {
    const std::uint64_t now = play->tick_number();
    const auto units = play->player_units();
    if (now == 20 && !units.empty()) {
      const core::Vec3 p = play->world().find(*play->world().lookup(units[0]))->transform.position;
      play->go(units, {p.x - 10.0f, p.y - 4.0f});
    }
    if (now == 300 && !units.empty()) play->halt(units);
    for (const std::uint64_t at : ats)
      if (now == at) saves.push_back(play_save(*play, "", std::string(assets::to_string(scale)), game.mission, 1));
    ASSERT_FALSE(play->decided()) << "the game ended at tick " << now;
    ASSERT_TRUE(play->tick());
  }
  const std::vector<std::uint64_t> whole = play->world().hash_history();
  const std::vector<PlayAction> actions = play->actions();
  ASSERT_EQ(actions.size(), 2u);
  play.reset();
  ASSERT_EQ(saves.size(), 3u);
  for (const SaveGame& save : saves) {
    auto resumed = resume_play(game.context, save, game.mission);
    ASSERT_TRUE(resumed) << "tick " << save.tick << ": " << resumed.error().to_string();
    // The person goes on playing: the actions the save does not hold, at their ticks.
    std::size_t next = save.actions.size();
    while ((*resumed)->tick_number() < 600 + kMore) {
      while (next < actions.size() && actions[next].tick == (*resumed)->tick_number())
        ASSERT_TRUE((*resumed)->apply(actions[next++]));
      ASSERT_TRUE((*resumed)->tick());
    }
    const std::vector<std::uint64_t>& again = (*resumed)->world().hash_history();
    ASSERT_EQ(again.size(), whole.size());
    for (std::size_t t = 0; t < again.size(); ++t)
      ASSERT_EQ(again[t], whole[t]) << "tick " << t + 1 << " of a save at " << save.tick;
  }
}

TEST_F(SaveImageTest, demo_played_saves_at_1_60_and_600_resume_on_the_uninterrupted_hashes) {
  expect_played_resume_matches(cache_, assets::SampleScale::demo, "m01");
}

TEST_F(SaveImageTest, corpus_played_saves_at_1_60_and_600_resume_on_the_uninterrupted_hashes) {
  expect_played_resume_matches(cache_, assets::SampleScale::corpus, "m05");
}

// The viewer's F9 (resume_play) checks the image the same way: an edited unit is named, and the
// game re-plays only on success.
TEST_F(SaveImageTest, a_played_save_with_an_edited_unit_is_refused_by_resume_play) {
  auto g = open_game({{}, assets::SampleScale::demo, cache_ / "demo"}, "m01");
  ASSERT_TRUE(g) << g.error().to_string();
  OpenGame game = std::move(*g);
  MissionLoadOptions lo;
  lo.world.seed = 1;
  ASSERT_TRUE(game.context.load(game.mission, lo));
  auto play = PlaySession::start(*game.context.current());
  ASSERT_TRUE(play) << play.error().to_string();
  for (int t = 0; t < 60; ++t) ASSERT_TRUE((*play)->tick());
  SaveGame save = play_save(**play, "", "demo", game.mission, 1);
  ASSERT_TRUE(resume_play(game.context, save, game.mission)) << "the save as written resumes";
  core::Json& unit = save.image["world"]["objects"][5];
  const std::string id = unit[0];
  unit[7][0] = unit[7][0].get<double>() + 1.0;
  auto refused = resume_play(game.context, save, game.mission);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, "save.mismatch");
  EXPECT_NE(refused.error().message.find("object 0x" + id), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find(" position: saved ("), std::string::npos) << refused.error().message;
}

TEST_F(SaveImageTest, an_edited_object_position_is_named) {
  core::Json j = saved_at(60, dir_ / "t60.save");
  core::Json* unit = nullptr;
  for (auto& o : j["image"]["world"]["objects"]) {
    for (const auto& p : o[10])
      if (p[0] == "clan" && o[12].contains("move.control")) unit = &o;
    if (unit != nullptr) break;
  }
  ASSERT_NE(unit, nullptr);
  const std::string id = (*unit)[0];
  const double y = (*unit)[7][1].get<double>();
  (*unit)[7][1] = y + 0.25;
  const MissionRun r = load_edited(j, "position.save");
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->code, "save.mismatch");
  const std::string& m = r.failure->message;
  EXPECT_NE(m.find("object 0x" + id + " (clan "), std::string::npos) << m;
  EXPECT_NE(m.find(") position: saved ("), std::string::npos) << m;
  EXPECT_NE(m.find(core::Json(y + 0.25).dump()), std::string::npos) << m;
  EXPECT_NE(m.find(core::Json(y).dump()), std::string::npos) << m;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "report.json"));  // nothing ran on
}

TEST_F(SaveImageTest, an_edited_rng_state_is_named) {
  core::Json j = saved_at(60, dir_ / "t60.save");
  j["image"]["world"]["rng"][2] = "0123456789abcdef";
  const MissionRun r = load_edited(j, "rng.save");
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->code, "save.mismatch");
  EXPECT_NE(r.failure->message.find("world rng[2]: saved \"0123456789abcdef\" vs loaded \""), std::string::npos)
      << r.failure->message;
}

TEST_F(SaveImageTest, an_edited_lua_global_is_named) {
  core::Json j = saved_at(60, dir_ / "t60.save");
  std::string part;
  std::int64_t lost = 0;
  for (auto& p : j["image"]["scenario"]["parts"]) {
    if (p["name"].get<std::string>().rfind("lua:", 0) != 0) continue;
    part = p["name"];
    ASSERT_TRUE(p["state"]["globals"]["lost"].is_number_integer());
    lost = p["state"]["globals"]["lost"];
    p["state"]["globals"]["lost"] = lost + 7;
  }
  ASSERT_FALSE(part.empty());
  const MissionRun r = load_edited(j, "lua.save");
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->code, "save.mismatch");
  EXPECT_NE(r.failure->message.find("scenario part " + part + " globals.lost: saved " + std::to_string(lost + 7) +
                                    " vs loaded " + std::to_string(lost)),
            std::string::npos)
      << r.failure->message;
}

TEST_F(SaveImageTest, an_edited_superai_target_is_named) {
  core::Json j = saved_at(60, dir_ / "t60.save");
  std::string part, unit;
  for (auto& p : j["image"]["scenario"]["parts"]) {
    if (p["name"].get<std::string>().rfind("superai:", 0) != 0 || p["state"]["radar"].empty()) continue;
    part = p["name"];
    unit = p["state"]["radar"][0]["unit"];
    p["state"]["radar"][0]["target"] = "00010014000000ff";
    break;
  }
  ASSERT_FALSE(part.empty());
  const MissionRun r = load_edited(j, "superai.save");
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->code, "save.mismatch");
  EXPECT_NE(r.failure->message.find("scenario part " + part + " radar[0] (unit 0x" + unit +
                                    ") target: saved \"00010014000000ff\" vs loaded \""),
            std::string::npos)
      << r.failure->message;
}

TEST_F(SaveImageTest, a_version_2_save_is_refused) {
  core::Json j = saved_at(1, dir_ / "t1.save");
  j["version"] = 2;
  j.erase("image");
  const MissionRun r = load_edited(j, "v2.save");
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->code, "save.version");
}

TEST_F(SaveImageTest, the_summary_counts_objects_and_parts) {
  const core::Json j = saved_at(60, dir_ / "t60.save");
  auto save = read_save(dir_ / "t60.save");
  ASSERT_TRUE(save.has_value());
  const core::Json show = save_show_json(*save);
  EXPECT_EQ(show["save"]["tick"], 60);
  EXPECT_FALSE(show["save"].contains("image"));
  EXPECT_EQ(show["image"]["objects"], j["image"]["world"]["objects"].size());
  std::size_t by_class = 0;
  for (const auto& [k, n] : show["image"]["objects_by_class"].items()) by_class += n.get<std::size_t>();
  EXPECT_EQ(by_class, j["image"]["world"]["objects"].size());
  EXPECT_EQ(show["image"]["scenario_parts"].size(), j["image"]["scenario"]["parts"].size());
  const std::string text = save_show_text(*save);
  EXPECT_NE(text.find("tick: 60"), std::string::npos) << text;
  EXPECT_NE(text.find("part superai:"), std::string::npos) << text;
}

}  // namespace
}  // namespace sortie::mission
