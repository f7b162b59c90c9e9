#include "sortie/world/clock.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace sortie::world;

TEST(StepPacerTest, accumulates_real_time_into_fixed_steps) {
  StepPacer pacer(16'000, 8);
  EXPECT_EQ(pacer.frame(10'000), 0u);
  EXPECT_EQ(pacer.frame(10'000), 1u);  // 20 ms: one step, 4 ms left
  EXPECT_EQ(pacer.accumulator_us(), 4'000u);
  EXPECT_EQ(pacer.frame(28'000), 2u);
  EXPECT_EQ(pacer.accumulator_us(), 0u);
  EXPECT_EQ(pacer.dropped_frames(), 0u);
}

TEST(StepPacerTest, caps_a_stall_and_drops_the_remainder) {
  StepPacer pacer(16'000, 8);
  EXPECT_EQ(pacer.frame(1'000'000), 8u);
  EXPECT_EQ(pacer.dropped_us(), 1'000'000u - 8u * 16'000u);
  EXPECT_EQ(pacer.dropped_frames(), 1u);
  EXPECT_EQ(pacer.accumulator_us(), 0u);
}

TEST(GameClockTest, pause_and_scale) {
  GameClock clock;
  clock.step_us = 16'000;
  EXPECT_EQ(clock.step_game_us(), 16'000u);
  clock.scale_permille = 2500;
  EXPECT_EQ(clock.step_game_us(), 40'000u);
  clock.paused = true;
  EXPECT_EQ(clock.step_game_us(), 0u);
  clock.dt_us = 16'000;
  EXPECT_EQ(clock.dt_seconds(), 0.016f);
}

TEST(PlatformClockTest, manual_clock_moves_only_by_hand) {
  ManualPlatformClock clock;
  EXPECT_EQ(clock.now_us(), 0u);
  clock.advance(123);
  EXPECT_EQ(clock.now_us(), 123u);
}

TEST(PlatformClockTest, steady_clock_counts_microseconds) {
  // The steady clock must advance, in microseconds: after sleeping 20 ms it has moved by at
  // least 20,000 (a clock stuck at one value, or counting in ms or ns, fails this).
  SteadyPlatformClock steady;
  const auto a = steady.now_us();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto b = steady.now_us();
  EXPECT_GE(b - a, 20'000u);
  EXPECT_LT(b - a, 20'000'000u);  // and not in nanoseconds
}
