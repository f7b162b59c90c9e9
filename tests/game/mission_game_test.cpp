// The mission game without a window (game/mission_game.hpp): a drag box selects the player's
// units only, a right click on the ground orders them there through the session (one command per
// unit), groups recall, piloting drives, pause and speed pace the ticks, and the HUD draws its
// panels and the outcome screen.
#include "sortie/game/mission_game.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "sortie/mission/open_game.hpp"
#include "sortie/mission/play_session.hpp"
#include "sortie/render/mission_render.hpp"
#include "sortie/render/scene_camera.hpp"
#include "sortie/world/world.hpp"

namespace sortie::game {
namespace {

namespace fs = std::filesystem;

class MissionGameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-mgame-" + std::to_string(::getpid()));
    auto g = mission::open_game({{}, assets::SampleScale::demo, dir_ / "cache"}, "m01");
    ASSERT_TRUE(g) << g.error().to_string();
    game_ = std::make_unique<mission::OpenGame>(std::move(*g));
    auto report = game_->context.load(game_->mission);
    ASSERT_TRUE(report && report->ok);
    auto scene = render::loaded_mission_scene(*game_->context.current(), {});
    ASSERT_TRUE(scene) << scene.error().to_string();
    scene_ = std::make_unique<render::MissionScene>(std::move(*scene));
    auto play = mission::PlaySession::start(*game_->context.current());
    ASSERT_TRUE(play) << play.error().to_string();
    play_ = std::move(*play);
    ASSERT_TRUE(play_->tick());
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Straight down over the whole map.
  render::Camera top() const { return render::top_camera(scene_->terrain_bounds(), 1.0f); }
  static constexpr render::Viewport kVp{0, 0, 400, 400};

  fs::path dir_;
  std::unique_ptr<mission::OpenGame> game_;
  std::unique_ptr<render::MissionScene> scene_;
  std::unique_ptr<mission::PlaySession> play_;
};

TEST_F(MissionGameTest, a_drag_box_selects_own_units_and_a_right_click_orders_them) {
  MissionGame g(*play_, *scene_);
  g.box(top(), kVp, 0, 0, 400, 400, false);
  EXPECT_EQ(g.selection(), play_->player_units());
  ASSERT_EQ(g.selection().size(), 3u);
  g.box(top(), kVp, 0, 0, 1, 1, false);
  EXPECT_TRUE(g.selection().empty());
  g.select(play_->player_units());

  // Groups: Ctrl+1 stores, 1 recalls; an empty group recalls nothing.
  g.store_group(1);
  g.box(top(), kVp, 0, 0, 1, 1, false);
  EXPECT_FALSE(g.recall_group(2));
  EXPECT_TRUE(g.recall_group(1));
  EXPECT_EQ(g.selection().size(), 3u);

  // A right click on the centre of the picture: the ground there, the three units ordered (the
  // sample has three Player units, generator 10).
  const std::size_t log_before = play_->mission().world->command_log().commands.size();
  EXPECT_EQ(g.order(top(), kVp, 200.5f, 200.5f), 3u);
  ASSERT_EQ(play_->actions().size(), 1u);
  const auto& a = play_->actions().back();
  EXPECT_EQ(a.kind, mission::ActionKind::go);
  const auto c = scene_->terrain_bounds().center();
  EXPECT_NEAR(a.point.x, c.x, 2.0f);
  EXPECT_NEAR(a.point.y, c.y, 2.0f);
  EXPECT_FALSE(g.overlay().empty());  // rings, paths and the goal's flash
  ASSERT_TRUE(g.advance(16'000));     // the commands apply at the next tick
  EXPECT_GE(play_->mission().world->command_log().commands.size(), log_before + 2);
  EXPECT_EQ(g.stop(), 3u);
}

TEST_F(MissionGameTest, pause_and_speed_pace_the_ticks_and_piloting_drives) {
  MissionGame g(*play_, *scene_);
  const auto t0 = play_->tick_number();
  ASSERT_TRUE(g.advance(160'000));
  EXPECT_EQ(play_->tick_number(), t0 + 8);  // 160 ms = 10 ticks, at most 8 a frame
  g.set_speed(4);
  ASSERT_TRUE(g.advance(32'000));
  EXPECT_EQ(play_->tick_number(), t0 + 16);
  g.set_speed(3);
  EXPECT_EQ(g.speed(), 2);
  g.set_paused(true);
  ASSERT_TRUE(g.advance(100'000));
  EXPECT_EQ(play_->tick_number(), t0 + 16);
  g.set_paused(false);

  EXPECT_FALSE(g.toggle_pilot());  // nothing selected
  g.select(play_->player_units());
  ASSERT_TRUE(g.toggle_pilot());
  ASSERT_TRUE(g.pilot());
  g.drive(6.0f, 0.0f);
  EXPECT_EQ(play_->actions().back().kind, mission::ActionKind::drive);
  ASSERT_TRUE(g.toggle_pilot());
  EXPECT_FALSE(g.pilot());
}

TEST_F(MissionGameTest, the_hud_draws_objectives_selection_minimap_and_the_outcome) {
  MissionGame g(*play_, *scene_);
  auto fb = render::Framebuffer::create(640, 400);
  ASSERT_TRUE(fb);
  fb->clear(render::kBlack);
  g.select(play_->player_units());
  g.draw_hud(*fb, top(), {0, 0, 640, 400});
  const auto lit = [&](game::Rect r) {
    std::size_t n = 0;
    for (int y = r.y; y < r.y + r.height; ++y)
      for (int x = r.x; x < r.x + r.width; ++x)
        n += fb->pixel(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)) != render::kBlack ? 1 : 0;
    return n;
  };
  EXPECT_GT(lit({440, 10, 190, 30}), 500u);  // objectives, top right
  EXPECT_GT(lit({10, 340, 200, 50}), 500u);  // the selection, bottom left
  const Rect map = g.minimap_rect(640, 400);
  EXPECT_GT(lit(map), static_cast<std::size_t>(map.width * map.height * 9 / 10));  // the minimap's relief
  ASSERT_EQ(g.objective_lines().size(), 2u);
  EXPECT_EQ(g.objective_lines()[0].substr(0, 3), "[ ]");
  EXPECT_EQ(g.selection_lines().size(), 4u);
  EXPECT_TRUE(g.outcome_line().empty());
  // The minimap's corners are the map's.
  const Rect mm = g.minimap_rect(640, 400);
  const auto nw = g.minimap_point(mm.x, mm.y, 640, 400);
  ASSERT_TRUE(nw);
  const auto b = mission::map_bounds(*play_->mission().data);
  EXPECT_NEAR(nw->x, b.min_x, (b.max_x - b.min_x) / 100.0f);
  EXPECT_NEAR(nw->y, b.max_y, (b.max_y - b.min_y) / 100.0f);
  EXPECT_FALSE(g.minimap_point(0, 0, 640, 400));

  // A player who does nothing loses (the enemy catches the units, or the 240 s run out).
  for (int i = 0; i < 16'000 && !play_->decided(); ++i) ASSERT_TRUE(play_->tick());
  ASSERT_TRUE(play_->decided());
  EXPECT_NE(g.outcome_line().find("MISSION FAILED"), std::string::npos) << g.outcome_line();
  EXPECT_NE(g.outcome_line().find(play_->summary()->reason), std::string::npos) << g.outcome_line();
  EXPECT_FALSE(play_->summary()->reason.empty());
  const auto t = play_->tick_number();
  ASSERT_TRUE(g.advance(1'000'000));
  EXPECT_EQ(play_->tick_number(), t);  // the game is over
}

}  // namespace
}  // namespace sortie::game
