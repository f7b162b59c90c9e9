// The calculation pass: events, deferred deletion and addition, commands, clocks, maintenance.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/world.hpp"

using namespace sortie::world;

namespace {

// Counts its updates and records the order objects were visited in.
class CountingController final : public Controller {
 public:
  CountingController(std::vector<std::string>* visits, std::string name) : visits_(visits), name_(std::move(name)) {}
  std::string_view kind() const override { return "count"; }
  void update(UpdateContext& ctx) override {
    ++updates;
    last_dt_us = ctx.clock.dt_us;
    if (visits_ != nullptr) visits_->push_back(name_);
  }
  void encode(StateWriter& out) const override { out.u32(updates); }
  std::unique_ptr<Controller> clone() const override { return std::make_unique<CountingController>(*this); }
  std::uint32_t updates = 0;
  std::uint64_t last_dt_us = 0;

 private:
  std::vector<std::string>* visits_;
  std::string name_;
};

Handle add_counted(World& world, std::vector<std::string>* visits, const std::string& name) {
  auto h = world.add_new_object(1, name);
  EXPECT_TRUE(h);
  world.find(*h)->controller = std::make_unique<CountingController>(visits, name);
  return *h;
}

CountingController& counter(World& world, Handle h) {
  return dynamic_cast<CountingController&>(*world.find(h)->controller);
}

}  // namespace

TEST(WorldPass, deletion_from_inside_an_event_handler_is_deferred) {
  World world;
  std::vector<std::string> visits;
  Handle a = add_counted(world, &visits, "a");
  Handle b = add_counted(world, &visits, "b");
  Handle c = add_counted(world, &visits, "c");
  bool seen_pending = false;
  bool was_in_calculation = false;
  world.on(EventType::damage, [&](World& w, const Event& e) {
    was_in_calculation = w.in_calculation();
    ASSERT_TRUE(w.request_delete(e.target));
    ASSERT_TRUE(w.request_delete(e.target));  // a second request is deduplicated
    WorldObject* still = w.find(e.target);    // memory is not released inside the pass
    seen_pending = still != nullptr && still->pending_delete();
  });
  world.post(Event{0, EventType::damage, b, {}, 5, 0});
  ASSERT_TRUE(world.tick());
  EXPECT_TRUE(was_in_calculation);
  EXPECT_TRUE(seen_pending);
  EXPECT_EQ(world.find(b), nullptr);                        // released after the traversal
  EXPECT_EQ(visits, (std::vector<std::string>{"a", "c"}));  // b was not updated any more
  ASSERT_EQ(world.queue().size(), 2u);
  EXPECT_EQ(world.queue()[0], a);
  EXPECT_EQ(world.queue()[1], c);
  EXPECT_EQ(world.live_count(), 2u);
}

TEST(WorldPass, events_for_objects_pending_deletion_are_skipped) {
  World world;
  Handle a = add_counted(world, nullptr, "a");
  Handle b = add_counted(world, nullptr, "b");
  std::vector<std::uint64_t> handled;
  world.on(EventType::damage, [&](World& w, const Event& e) {
    handled.push_back(e.sequence);
    if (e.target == a) (void)w.request_delete(b);
  });
  const auto s1 = world.post(Event{0, EventType::damage, a, {}, 0, 0});
  world.post(Event{0, EventType::damage, b, {}, 0, 0});                   // b is pending deletion by then
  const auto s3 = world.post(Event{0, EventType::damage, {}, {}, 0, 0});  // world-wide event
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(handled, (std::vector<std::uint64_t>{s1, s3}));
  EXPECT_EQ(world.snapshot()->events.size(), 2u);
}

TEST(WorldPass, events_posted_during_the_pass_wait_for_the_next_tick) {
  World world;
  std::vector<std::int64_t> order;
  world.on(EventType::timer, [&](World& w, const Event& e) {
    order.push_back(e.a);
    if (e.a < 3) w.post(Event{0, EventType::timer, {}, {}, e.a + 10, 0});
  });
  world.post(Event{0, EventType::timer, {}, {}, 1, 0});
  world.post(Event{0, EventType::timer, {}, {}, 2, 0});
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(order, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(world.pending_events(), 2u);
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(order, (std::vector<std::int64_t>{1, 2, 11, 12}));
  EXPECT_EQ(world.pending_events(), 0u);
}

TEST(WorldPass, objects_created_in_a_handler_are_added_after_the_traversal) {
  World world;
  std::vector<std::string> visits;
  add_counted(world, &visits, "a");
  Handle created;
  world.on(EventType::spawned, [&](World& w, const Event&) {
    auto h = w.create_local_object(2, "new");
    ASSERT_TRUE(h);
    w.find(*h)->controller = std::make_unique<CountingController>(&visits, "new");
    ASSERT_TRUE(w.add_to_game(*h));
    EXPECT_TRUE(w.find(*h)->pending_add());
    EXPECT_FALSE(w.find(*h)->registered());
    created = *h;
  });
  world.post(Event{0, EventType::spawned, {}, {}, 0, 0});
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(visits, (std::vector<std::string>{"a"}));  // not updated in the tick it was added
  ASSERT_EQ(world.queue().size(), 2u);
  EXPECT_EQ(world.queue()[1], created);
  EXPECT_TRUE(world.find(created)->registered());
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(visits, (std::vector<std::string>{"a", "a", "new"}));
}

TEST(WorldPass, object_created_and_deleted_in_the_same_pass_is_never_published) {
  World world;
  Handle created;
  world.on(EventType::spawned, [&](World& w, const Event&) {
    auto h = w.add_new_object(2, "short-lived");
    ASSERT_TRUE(h);
    created = *h;
    ASSERT_TRUE(w.request_delete(*h));
  });
  world.post(Event{0, EventType::spawned, {}, {}, 0, 0});
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(world.find(created), nullptr);
  EXPECT_TRUE(world.queue().empty());
  EXPECT_EQ(world.live_count(), 0u);
}

TEST(WorldPass, rejects_reentrant_tick_from_a_handler) {
  World world;
  std::string code;
  world.on(EventType::timer, [&](World& w, const Event&) {
    auto status = w.tick();
    code = status ? "" : status.error().code;
  });
  world.post(Event{0, EventType::timer, {}, {}, 0, 0});
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(code, "world.tick.reentrant");
  EXPECT_EQ(world.clock().tick, 1u);
}

TEST(WorldPass, pause_and_speed_commands_drive_the_game_clock) {
  World world(WorldConfig{.step_us = 20'000});
  Handle a = add_counted(world, nullptr, "a");
  ASSERT_TRUE(world.submit(make_command(1, PauseCommand{true})));
  ASSERT_TRUE(world.submit(make_command(3, PauseCommand{false})));
  ASSERT_TRUE(world.submit(make_command(3, SetSpeedCommand{500})));
  std::vector<std::uint64_t> times;
  std::vector<std::uint64_t> dts;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(world.tick());
    times.push_back(world.clock().time_us);
    dts.push_back(counter(world, a).last_dt_us);
  }
  EXPECT_EQ(times, (std::vector<std::uint64_t>{20'000, 20'000, 20'000, 30'000, 40'000}));
  EXPECT_EQ(dts, (std::vector<std::uint64_t>{20'000, 0, 0, 10'000, 10'000}));
  EXPECT_EQ(world.clock().tick, 5u);  // calculation steps keep counting while paused
  EXPECT_EQ(world.commands_applied(), 3u);
}

TEST(WorldPass, rejects_late_and_invalid_commands) {
  World world;
  ASSERT_TRUE(world.tick());
  auto late = world.submit(make_command(0, PauseCommand{true}));
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, "world.command.late");
  EXPECT_EQ(world.submit(make_command(5, SetSpeedCommand{0})).error().code, "world.command.invalid");
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(world.submit(make_command(5, SpawnCommand{3, "jeep", {inf, 0.0f, 0.0f}})).error().code,
            "world.command.invalid");
  EXPECT_TRUE(world.command_log().commands.empty());
}

TEST(WorldPass, commands_for_missing_objects_are_skipped_and_counted) {
  World world;
  ASSERT_TRUE(world.submit(make_command(0, StopCommand{ObjectId{1, 9, 9}})));
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(world.commands_skipped(), 1u);
  EXPECT_EQ(world.commands_applied(), 0u);
}

TEST(WorldPass, maintenance_runs_on_the_maintenance_clock_thresholds) {
  World world;
  std::vector<std::string> runs;
  world.add_maintenance_task("sweep-unused", kShortMaintenanceUs, [&](World&) { runs.push_back("20s"); });
  world.add_maintenance_task("sweep-objects", kLongMaintenanceUs, [&](World&) { runs.push_back("60s"); });
  ASSERT_TRUE(world.tick());
  EXPECT_TRUE(runs.empty());
  world.advance_maintenance_clock(19'999'999);
  ASSERT_TRUE(world.tick());
  EXPECT_TRUE(runs.empty());
  world.advance_maintenance_clock(1);
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(runs, (std::vector<std::string>{"20s"}));
  world.advance_maintenance_clock(40'000'000);  // t = 60 s
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(runs, (std::vector<std::string>{"20s", "20s", "60s"}));
  const auto hash_before = world.compute_state_hash();
  world.advance_maintenance_clock(5'000'000);
  EXPECT_EQ(world.compute_state_hash(), hash_before);  // the maintenance clock is not simulation state
}

TEST(WorldPass, refuses_events_for_stale_targets) {
  World world;
  auto h = world.add_new_object(1, "a");
  ASSERT_TRUE(world.request_delete(*h));
  EXPECT_EQ(world.post(Event{0, EventType::damage, *h, {}, 1, 0}), 0u);
  EXPECT_EQ(world.pending_events(), 0u);
  EXPECT_EQ(world.post(Event{0, EventType::timer, {}, {}, 1, 0}), 1u);
}
