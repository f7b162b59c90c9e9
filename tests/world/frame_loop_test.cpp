#include "sortie/world/frame_loop.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sortie/world/controller.hpp"
#include "sortie/world/world.hpp"

using namespace sortie::world;

namespace {

// Walks along +X at `speed` units per game second.
class Walker final : public Controller {
 public:
  explicit Walker(float speed) : speed_(speed) {}
  std::string_view kind() const override { return "test.walker"; }
  void update(UpdateContext& ctx) override { ctx.self.transform.position.x += speed_ * ctx.clock.dt_seconds(); }
  void encode(StateWriter& out) const override { out.f32(speed_); }
  std::unique_ptr<Controller> clone() const override { return std::make_unique<Walker>(*this); }

 private:
  float speed_;
};

}  // namespace

TEST(FrameLoopTest, runs_phases_in_the_fixed_order) {
  World world;
  ManualPlatformClock clock;
  FrameLoop loop(world, clock);
  std::vector<std::string> log;
  loop.set_input_collector([&](World&) { log.push_back("input"); });
  loop.set_animation_updater([&](const AnimationClock&, sortie::core::Rng&) { log.push_back("anim"); });
  loop.set_renderer([&](const WorldSnapshot& s) { log.push_back("render tick " + std::to_string(s.tick)); });
  loop.at_end_of_render([&]() { log.push_back("end-of-render 1"); });
  loop.at_end_of_render([&]() { log.push_back("end-of-render 2"); });
  ASSERT_TRUE(loop.run_frame());  // first frame: no elapsed time, no tick
  clock.advance(40'000);
  auto report = loop.run_frame();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->ticks, 2u);
  EXPECT_EQ(world.clock().tick, 2u);
  EXPECT_EQ(log, (std::vector<std::string>{"input", "anim", "render tick 0", "end-of-render 1", "end-of-render 2",
                                           "input", "anim", "render tick 2"}));
  EXPECT_EQ(report->phases,
            (std::vector<FramePhase>{FramePhase::collect_platform_events, FramePhase::build_input_snapshot,
                                     FramePhase::advance_game_clock, FramePhase::calculate_world_queue,
                                     FramePhase::apply_deferred_operations, FramePhase::update_animation_and_effects,
                                     FramePhase::publish_render_snapshot, FramePhase::render_world,
                                     FramePhase::end_frame_callbacks, FramePhase::maintenance}));
}

TEST(FrameLoopTest, calculation_continues_without_rendering) {
  World world;
  ManualPlatformClock clock;
  FrameLoop loop(world, clock);
  int renders = 0;
  loop.set_renderer([&](const WorldSnapshot&) { ++renders; });
  loop.set_render_enabled(false);
  ASSERT_TRUE(loop.run_frame());
  clock.advance(16'000);
  auto report = loop.run_frame();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->ticks, 1u);
  EXPECT_FALSE(report->rendered);
  EXPECT_EQ(renders, 0);
  EXPECT_EQ(std::count(report->phases.begin(), report->phases.end(), FramePhase::render_world), 0);
}

TEST(FrameLoopTest, snapshot_is_immutable_and_game_speed_does_not_follow_frame_rate) {
  World world;
  auto h = world.add_new_object(1, "unit");
  world.find(*h)->controller = std::make_unique<Walker>(1.0f);
  ManualPlatformClock clock;
  FrameLoop loop(world, clock);
  ASSERT_TRUE(loop.run_frame());
  // 5 frames of 32 ms and 10 frames of 16 ms: the same 10 steps, the same position
  for (int i = 0; i < 5; ++i) {
    clock.advance(32'000);
    ASSERT_TRUE(loop.run_frame());
  }
  const SnapshotPtr first = loop.last_snapshot();
  const float x_after_5_frames = world.find(*h)->transform.position.x;

  World other;
  auto h2 = other.add_new_object(1, "unit");
  other.find(*h2)->controller = std::make_unique<Walker>(1.0f);
  ManualPlatformClock clock2;
  FrameLoop loop2(other, clock2);
  ASSERT_TRUE(loop2.run_frame());
  for (int i = 0; i < 10; ++i) {
    clock2.advance(16'000);
    ASSERT_TRUE(loop2.run_frame());
  }
  EXPECT_EQ(world.clock().tick, 10u);
  EXPECT_EQ(other.clock().tick, 10u);
  EXPECT_EQ(other.find(*h2)->transform.position.x, x_after_5_frames);
  EXPECT_EQ(other.last_hash(), world.last_hash());
  // the old snapshot did not change when the world moved on
  clock.advance(160'000);
  ASSERT_TRUE(loop.run_frame());
  EXPECT_EQ(first->tick, 10u);
  EXPECT_EQ(first->objects[0].transform.position.x, x_after_5_frames);
  EXPECT_NE(world.find(*h)->transform.position.x, x_after_5_frames);
}
