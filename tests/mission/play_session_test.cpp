// A played mission (mission/play_session.hpp): the player's actions become registered movement
// commands (logged, replayed), the script leaves the player's clan to the player, other clans'
// units refuse orders, and a save of a played session re-plays to the same hash tick for tick.
#include "sortie/mission/play_session.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "sortie/mission/open_game.hpp"
#include "sortie/mission/save_game.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/world/world.hpp"

namespace sortie::mission {
namespace {

namespace fs = std::filesystem;

class PlaySessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-play-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto g = open_game({{}, assets::SampleScale::demo, dir_ / "cache"}, "m01");
    ASSERT_TRUE(g) << g.error().to_string();
    game_ = std::make_unique<OpenGame>(std::move(*g));
    load();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void load() {
    MissionLoadOptions lo;
    lo.world.seed = 1;
    auto report = game_->context.load(game_->mission, lo);
    ASSERT_TRUE(report && report->ok);
  }
  LoadedMission& mission() { return *game_->context.current(); }

  std::unique_ptr<PlaySession> start() {
    auto p = PlaySession::start(mission());
    EXPECT_TRUE(p) << p.error().to_string();
    return p ? std::move(*p) : nullptr;
  }
  static core::Vec3 at(const PlaySession& p, world::ObjectId id) {
    const auto h = p.mission().world->lookup(id);
    return p.mission().world->find(*h)->transform.position;
  }
  // move.goto commands of the log for `unit`.
  static std::size_t gotos_of(const PlaySession& p, world::ObjectId unit) {
    std::size_t n = 0;
    for (const auto& c : p.mission().world->command_log().commands)
      if (auto g = world::payload_of<move::GotoCommand>(c); g && g->target == unit) ++n;
    return n;
  }

  fs::path dir_;
  std::unique_ptr<OpenGame> game_;
};

TEST_F(PlaySessionTest, the_player_orders_own_units_and_the_script_leaves_them_alone) {
  auto play = start();
  ASSERT_TRUE(play);
  ASSERT_TRUE(play->tick());  // the bodies
  const auto units = play->player_units();
  ASSERT_EQ(units.size(), 3u);  // the sample's units alternate Player, Enemy, Player (generator 10)
  EXPECT_EQ(play->player_clan_name(), "Player");
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(play->tick());
  // human(): the script ordered none of the player's units (headless it sends them off at once).
  for (const auto& u : units) EXPECT_EQ(gotos_of(*play, u), 0u);
  ASSERT_FALSE(play->messages().empty());
  EXPECT_NE(play->messages().front().text.find("Reach the depot"), std::string::npos);

  const core::Vec3 start_at = at(*play, units[0]);
  const core::Vec2 goal{start_at.x + 12.0f, start_at.y};
  ASSERT_EQ(play->go(std::span(units.data(), 1), goal), 1u);
  EXPECT_EQ(gotos_of(*play, units[0]), 1u);  // one registered command for the unit
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(play->tick());
  const core::Vec3 end_at = at(*play, units[0]);
  EXPECT_LT(std::hypot(end_at.x - goal.x, end_at.y - goal.y), 3.0f) << end_at.x << "," << end_at.y;

  // Objects of other clans, and unknown ids, take no order.
  std::vector<world::ObjectId> others;
  for (const auto& o : mission().objects)
    if (o.unit && !play->commandable(o.id)) others.push_back(o.id);
  ASSERT_FALSE(others.empty());
  EXPECT_EQ(play->go(others, goal), 0u);
  EXPECT_EQ(play->halt(others), 0u);
  EXPECT_EQ(play->actions().size(), 1u);

  // The orders are commands: the log alone replays to the same hash.
  const std::uint64_t ticks = play->tick_number();
  const std::uint64_t hash = play->state_hash();
  const world::CommandLog log = play->mission().world->command_log();
  play.reset();
  load();
  std::uint64_t ran = 0;
  auto replayed = replay_scenario(mission(), log, ticks, &ran);
  ASSERT_TRUE(replayed) << replayed.error().to_string();
  EXPECT_EQ(ran, ticks);
  EXPECT_EQ(*replayed, hash);
}

TEST_F(PlaySessionTest, a_formation_spreads_the_group_and_a_follow_keeps_re_aiming) {
  const auto goals = formation_goals({100.0f, 50.0f}, {0.0f, 50.0f}, 5, 4.0f);
  ASSERT_EQ(goals.size(), 5u);
  for (std::size_t i = 0; i < goals.size(); ++i)
    for (std::size_t j = i + 1; j < goals.size(); ++j)
      EXPECT_GE(std::hypot(goals[i].x - goals[j].x, goals[i].y - goals[j].y), 4.0f - 1e-4f);
  float cx = 0.0f, cy = 0.0f;
  for (const auto& g : goals) cx += g.x / 5.0f, cy += g.y / 5.0f;
  EXPECT_NEAR(cy, 50.0f, 1e-3f);  // centred across the travel axis
  EXPECT_NEAR(cx, 100.0f, 3.0f);

  auto play = start();
  ASSERT_TRUE(play->tick());
  const auto units = play->player_units();
  ASSERT_EQ(units.size(), 3u);
  ASSERT_EQ(play->follow(std::span(units.data(), 1), units[1]), 1u);
  EXPECT_EQ(play->following(units[0]), units[1]);
  const core::Vec3 leader = at(*play, units[1]), follower = at(*play, units[0]);
  const float apart = std::hypot(leader.x - follower.x, leader.y - follower.y);
  // The sample's Player units stand together in their base's yard (generator 10): the leader
  // walks past the follower to its far side, the follow re-aims as it moves.
  ASSERT_EQ(play->go(std::span(units.data() + 1, 1),
                     {follower.x + (follower.x - leader.x) * 0.8f, follower.y + (follower.y - leader.y) * 0.8f}),
            1u);
  for (int i = 0; i < 400; ++i) ASSERT_TRUE(play->tick());
  EXPECT_GE(gotos_of(*play, units[0]), 2u);  // re-aimed while the leader moved
  const core::Vec3 a = at(*play, units[0]), b = at(*play, units[1]);
  EXPECT_LT(std::hypot(a.x - b.x, a.y - b.y), std::max(apart, 8.0f));  // kept up with it
  // halt ends the follow.
  (void)play->halt(std::span(units.data(), 1));
  EXPECT_FALSE(play->following(units[0]));
}

TEST_F(PlaySessionTest, driving_moves_the_piloted_unit_through_control) {
  auto play = start();
  ASSERT_TRUE(play->tick());
  const auto unit = play->player_units().front();
  const core::Vec3 before = at(*play, unit);
  ASSERT_EQ(play->drive(unit, 6.0f, 0.0f), 1u);
  for (int i = 0; i < 125; ++i) ASSERT_TRUE(play->tick());  // two seconds
  const core::Vec3 after = at(*play, unit);
  EXPECT_GT(std::hypot(after.x - before.x, after.y - before.y), 4.0f);
  ASSERT_EQ(play->drive(unit, 1e9f, -1e9f), 1u);  // clamped
  EXPECT_EQ(play->actions().back().speed, play->options().max_drive_speed);
  EXPECT_EQ(play->actions().back().turn, -play->options().max_drive_turn);
}

TEST_F(PlaySessionTest, a_saved_game_replays_to_the_same_hash_at_every_tick) {
  auto play = start();
  ASSERT_TRUE(play->tick());
  const auto units = play->player_units();
  std::vector<std::uint64_t> hashes;
  for (int t = 0; t < 240; ++t) {
    if (t == 5) play->go(units, {at(*play, units[0]).x + 20.0f, at(*play, units[0]).y + 5.0f});
    if (t == 60) play->follow(std::span(units.data(), 1), units[1]);
    if (t == 100) play->drive(units[1], 4.0f, 0.5f);
    if (t == 150) play->halt(units);
    ASSERT_TRUE(play->tick());
    hashes.push_back(play->state_hash());
  }
  const SaveGame save = play_save(*play, "", "demo", game_->mission, 1);
  ASSERT_TRUE(write_save(dir_ / "game.save", save));
  auto read = read_save(dir_ / "game.save");
  ASSERT_TRUE(read) << read.error().to_string();
  EXPECT_EQ(*read, save);
  EXPECT_EQ(read->actions.size(), 4u);
  for (int t = 0; t < 240; ++t) ASSERT_TRUE(play->tick());
  const std::uint64_t end = play->state_hash();
  play.reset();

  // Re-played from the load: the same hash at every tick up to the save, then on.
  for (const std::uint64_t at_tick : {std::uint64_t{1} + 30, std::uint64_t{1} + 120, save.tick}) {
    load();
    std::vector<PlayAction> before;
    for (const auto& a : read->actions)
      if (a.tick <= at_tick) before.push_back(a);
    auto again = replay_play(mission(), {}, before, at_tick);
    ASSERT_TRUE(again) << again.error().to_string();
    EXPECT_EQ((*again)->state_hash(), hashes[at_tick - 2]) << "tick " << at_tick;
  }
  auto resumed = resume_play(game_->context, *read, game_->mission);
  ASSERT_TRUE(resumed) << resumed.error().to_string();
  for (int t = 0; t < 240; ++t) ASSERT_TRUE((*resumed)->tick());
  EXPECT_EQ((*resumed)->state_hash(), end);

  // A save whose hash does not match is refused.
  SaveGame wrong = *read;
  wrong.state_hash ^= 1;
  auto refused = resume_play(game_->context, wrong, game_->mission);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, "save.mismatch");
  auto other = resume_play(game_->context, *read, "m02");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code, "save.game");
}

TEST_F(PlaySessionTest, actions_read_back_and_bad_ones_are_refused) {
  PlayAction a;
  a.tick = 7;
  a.kind = ActionKind::drive;
  a.units = {world::ObjectId{1, 20, 3}};
  a.speed = 0.1f;
  a.turn = -1.0f / 3.0f;
  auto back = action_from_json(action_json(a));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, a);
  for (const char* bad :
       {R"({"tick": 1, "kind": "jump", "units": ["0001001400000003"]})", R"({"tick": 1, "kind": "go", "units": []})",
        R"({"tick": 1, "kind": "go", "units": ["xyz"], "point": [1, 2]})",
        R"({"tick": 1, "kind": "go", "units": ["0001001400000003"], "point": [1]})",
        R"({"tick": -1, "kind": "halt", "units": ["0001001400000003"]})",
        R"({"tick": 1, "kind": "drive", "units": ["0001001400000003"], "speed": 1e300, "turn": 0})"}) {
    auto r = action_from_json(core::Json::parse(bad));
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, "save.field") << bad;
  }
}

}  // namespace
}  // namespace sortie::mission
