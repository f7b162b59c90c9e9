#include <gtest/gtest.h>

#include "sortie/game/squad_controls.hpp"

namespace sortie::game {
namespace {

TEST(SquadControls, w_moves_up_the_screen_for_the_default_camera) {
  // Yaw pi/4 looks north-east in render space: up the screen is squad (+x, -y) (north-east).
  SquadControls c;
  SquadKeys k;
  k.up = true;
  const auto out = c.update(k);
  EXPECT_EQ(out.frame.move_x, 90);  // 127 / sqrt(2) rounded
  EXPECT_EQ(out.frame.move_y, -90);
  k = {};
  k.right = true;  // right on the screen: south-east
  const auto right = c.update(k);
  EXPECT_EQ(right.frame.move_x, 90);
  EXPECT_EQ(right.frame.move_y, 90);
  k = {};
  k.up = true;
  k.left = true;  // up-left on the screen: north
  const auto north = c.update(k);
  EXPECT_EQ(north.frame.move_x, 0);
  EXPECT_EQ(north.frame.move_y, -127);
}

TEST(SquadControls, pressed_buttons_act_once_and_held_ones_stay) {
  SquadControls c;
  SquadKeys k;
  k.manual = true;
  k.cycle = true;
  k.line = true;
  k.aim_left = true;
  k.sprint = true;  // without movement: no sprint
  k.overlay = true;
  k.pause = true;
  k.step = true;
  k.restart = true;
  const auto first = c.update(k);
  EXPECT_TRUE(first.frame.toggle_manual);
  EXPECT_TRUE(first.frame.cycle_target);
  EXPECT_EQ(first.frame.formation, 2);
  EXPECT_TRUE(first.frame.aim_left);
  EXPECT_FALSE(first.frame.sprint);
  EXPECT_TRUE(first.toggle_overlay && first.toggle_pause && first.step_once && first.restart);
  EXPECT_FALSE(first.held.toggle_manual);
  EXPECT_EQ(first.held.formation, 0);
  EXPECT_TRUE(first.held.aim_left);
  const auto second = c.update(k);  // still down: nothing pressed again
  EXPECT_FALSE(second.frame.toggle_manual);
  EXPECT_FALSE(second.frame.cycle_target);
  EXPECT_EQ(second.frame.formation, 0);
  EXPECT_FALSE(second.toggle_overlay || second.toggle_pause || second.step_once || second.restart);
  EXPECT_TRUE(second.frame.aim_left);
  k = {};
  k.down = true;
  k.sprint = true;
  const auto run = c.update(k);
  EXPECT_TRUE(run.frame.sprint);
  EXPECT_EQ(run.frame.move_x, -90);
  EXPECT_EQ(run.frame.move_y, 90);
}

}  // namespace
}  // namespace sortie::game
