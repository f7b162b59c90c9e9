#include <gtest/gtest.h>

#include <filesystem>

#include "sortie/game/squad_session.hpp"

namespace sortie::game {
namespace {

squad::SquadMap yard() {
  auto map = squad::load_squad_map(std::filesystem::path(SORTIE_SOURCE_DIR) / "data" / "squad" / "yard.txt");
  EXPECT_TRUE(map) << map.error().to_string();
  return *map;
}

TEST(SquadSession, w_moves_the_squad_up_the_screen_and_d_to_the_right) {
  auto s = SquadSession::create(yard(), {.seed = 2, .view = {.width = 160, .height = 90}});
  ASSERT_TRUE(s) << s.error().to_string();
  const core::Vec2 start = s->sim().squads().front().disc;
  SquadKeys w;
  w.up = true;
  for (int k = 0; k < 60; ++k) ASSERT_TRUE(s->frame(w, 1));
  const core::Vec2 up = screen_up_direction(s->view().options().yaw);
  const core::Vec2 moved = s->sim().squads().front().disc - start;
  EXPECT_GT(core::dot(moved, up), 1.2f);  // disc speed 3.3 u/s, minus the start-up
  SquadKeys d;
  d.right = true;
  const core::Vec2 mid = s->sim().squads().front().disc;
  for (int k = 0; k < 30; ++k) ASSERT_TRUE(s->frame(d, 1));
  const core::Vec2 right{-up.y, up.x};
  EXPECT_GT(core::dot(s->sim().squads().front().disc - mid, right), 0.5f);
  EXPECT_EQ(s->sim().tick(), 90u);
  // The world log holds the squad commands of those key presses.
  EXPECT_GE(s->world().world().command_log().commands.size(), 3u);  // session, move up, move right
}

TEST(SquadSession, pause_step_overlay_and_restart) {
  auto s = SquadSession::create(yard(), {.seed = 5, .view = {.width = 160, .height = 90}});
  ASSERT_TRUE(s);
  ASSERT_EQ(*s->frame({}, 3), 3u);
  SquadKeys p;
  p.pause = true;
  EXPECT_EQ(*s->frame(p, 2), 0u);
  EXPECT_TRUE(s->paused());
  EXPECT_EQ(*s->frame({}, 2), 0u);
  SquadKeys n;
  n.step = true;
  EXPECT_EQ(*s->frame(n, 2), 1u);  // one tick while paused
  EXPECT_EQ(*s->frame(n, 2), 0u);  // held: not pressed again
  EXPECT_EQ(s->sim().tick(), 4u);
  EXPECT_EQ(*s->frame(p, 1), 1u);  // resumes
  EXPECT_FALSE(s->paused());
  SquadKeys o;
  o.overlay = true;
  ASSERT_TRUE(s->frame(o, 1));
  EXPECT_TRUE(s->overlay());
  render::Framebuffer fb;
  ASSERT_TRUE(s->draw(fb));
  EXPECT_EQ(fb.width(), 160u);
  SquadKeys r;
  r.restart = true;
  ASSERT_TRUE(s->frame(r, 1));
  EXPECT_EQ(s->seed(), 6u);
  EXPECT_EQ(s->restarts(), 1u);
  EXPECT_EQ(s->sim().seed(), 6u);
  EXPECT_EQ(s->sim().tick(), 1u);
  auto fresh = squad::SquadSim::create(yard(), {.seed = 6});
  ASSERT_TRUE(fresh);
  fresh->step({});
  EXPECT_EQ(s->sim().state_hash(), fresh->state_hash());
}

}  // namespace
}  // namespace sortie::game
