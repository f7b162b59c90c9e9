#include "sortie/move/v1_movers.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "sortie/move/v1_commands.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/world.hpp"
#include "v1_world.hpp"

using namespace sortie::world;
using namespace sortie::move;
using sortie::core::Transform;
using sortie::core::Vec2;
using sortie::core::Vec3;
using sortie::move::test::v1_registry;

namespace {

// z = x / 2 on x in [0, 100); no surface elsewhere.
class Ramp final : public HeightField {
 public:
  std::optional<float> height_at(float x, float /*y*/) const override {
    if (x < 0.0f || x >= 100.0f) return std::nullopt;
    return x / 2.0f;
  }
};

Transform at(float x, float y) {
  Transform t;
  t.position = Vec3{x, y, 7.0f};
  t.orientation = Vec3{0.25f, -0.0f, 3.0f};
  t.scale = Vec3{2.0f, 2.0f, 0.5f};
  return t;
}

}  // namespace

TEST(ReferenceMovement, steps_toward_the_target_and_keeps_orientation_and_scale_bits) {
  Transform t = at(0.0f, 0.0f);
  auto reached = advance_reference_movement(t, Vec2{6.0f, 8.0f}, 5.0f, nullptr);
  ASSERT_TRUE(reached);
  EXPECT_FALSE(*reached);
  EXPECT_EQ(t.position.x, 3.0f);
  EXPECT_EQ(t.position.y, 4.0f);
  EXPECT_EQ(t.position.z, 7.0f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(t.orientation.y), 0x80000000u);  // -0.0 kept
  EXPECT_EQ(t.scale, (Vec3{2.0f, 2.0f, 0.5f}));
  reached = advance_reference_movement(t, Vec2{6.0f, 8.0f}, 5.0f, nullptr);
  ASSERT_TRUE(reached);
  EXPECT_TRUE(*reached);
  EXPECT_EQ(t.position.x, 6.0f);
  EXPECT_EQ(t.position.y, 8.0f);
}

TEST(ReferenceMovement, snaps_z_to_the_height_field) {
  Ramp ramp;
  Transform t = at(10.0f, 0.0f);
  auto reached = advance_reference_movement(t, Vec2{20.0f, 0.0f}, 4.0f, &ramp);
  ASSERT_TRUE(reached);
  EXPECT_EQ(t.position.x, 14.0f);
  EXPECT_EQ(t.position.z, 7.0f);
}

TEST(ReferenceMovement, rejects_step_off_the_surface_without_changing_the_transform) {
  Ramp ramp;
  Transform t = at(98.0f, 0.0f);
  const Transform before = t;
  auto r = advance_reference_movement(t, Vec2{200.0f, 0.0f}, 5.0f, &ramp);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "world.move.no_surface");
  EXPECT_TRUE(sortie::core::same_bits(t, before));
}

TEST(ReferenceMovement, rejects_non_finite_input_and_non_positive_step) {
  Transform t = at(0.0f, 0.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(advance_reference_movement(t, Vec2{nan, 0.0f}, 1.0f, nullptr).error().code, "world.move.not_finite");
  EXPECT_EQ(advance_reference_movement(t, Vec2{0.0f, 1.0f}, inf, nullptr).error().code, "world.move.not_finite");
  EXPECT_EQ(advance_reference_movement(t, Vec2{0.0f, 1.0f}, 0.0f, nullptr).error().code, "world.move.step");
  EXPECT_EQ(advance_reference_movement(t, Vec2{0.0f, 1.0f}, -2.0f, nullptr).error().code, "world.move.step");
  EXPECT_TRUE(sortie::core::same_bits(t, at(0.0f, 0.0f)));
}

TEST(MoveControllerTest, uses_game_time_and_stops_while_paused) {
  World world(WorldConfig{.step_us = 250'000, .commands = v1_registry()});  // 0.25 s per step
  auto h = world.add_new_object(1, "unit");
  ASSERT_TRUE(h);
  world.find(*h)->controller = std::make_unique<MoveController>(Vec2{10.0f, 0.0f}, 4.0f);  // 1 unit per step
  ASSERT_TRUE(world.submit(make_command(2, PauseCommand{true})));
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(world.tick());
  EXPECT_EQ(world.find(*h)->transform.position.x, 2.0f);
}

TEST(MoveControllerTest, arrival_posts_event_and_a_missing_surface_ends_the_order) {
  World world(WorldConfig{.step_us = 1'000'000, .commands = v1_registry()});
  world.set_height_field(std::make_shared<Ramp>());
  auto ok = world.add_new_object(1, "ok");
  auto off = world.add_new_object(1, "off");
  world.find(*ok)->controller = std::make_unique<MoveController>(Vec2{3.0f, 0.0f}, 5.0f, world.height_field());
  world.find(*off)->transform.position.x = 99.0f;
  world.find(*off)->controller = std::make_unique<MoveController>(Vec2{150.0f, 0.0f}, 5.0f, world.height_field());
  std::vector<std::pair<Handle, std::int64_t>> arrivals;
  world.on(EventType::arrived, [&](World&, const Event& e) { arrivals.emplace_back(e.target, e.b); });
  ASSERT_TRUE(world.tick());
  ASSERT_TRUE(world.tick());
  ASSERT_EQ(arrivals.size(), 2u);
  EXPECT_EQ(arrivals[0], std::make_pair(*ok, std::int64_t{0}));
  EXPECT_EQ(arrivals[1], std::make_pair(*off, std::int64_t{1}));
  EXPECT_EQ(world.find(*ok)->transform.position, (Vec3{3.0f, 0.0f, 1.5f}));
  EXPECT_EQ(world.find(*off)->transform.position.x, 99.0f);
  EXPECT_FALSE(dynamic_cast<MoveController&>(*world.find(*off)->controller).moving());
}

TEST(RouteControllerTest, follows_waypoints_and_carries_leftover_distance) {
  World world(WorldConfig{.step_us = 1'000'000, .commands = v1_registry()});
  auto h = world.add_new_object(1, "unit");
  std::vector<Vec2> route{{1.0f, 0.0f}, {1.0f, 2.0f}, {4.0f, 2.0f}};
  world.find(*h)->controller = std::make_unique<RouteController>(route, 2.0f);
  std::vector<std::int64_t> arrived;
  world.on(EventType::arrived, [&](World&, const Event& e) { arrived.push_back(e.a); });
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(world.find(*h)->transform.position, (Vec3{1.0f, 1.0f, 0.0f}));
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(world.find(*h)->transform.position, (Vec3{2.0f, 2.0f, 0.0f}));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(world.tick());
  EXPECT_EQ(world.find(*h)->transform.position, (Vec3{4.0f, 2.0f, 0.0f}));
  EXPECT_EQ(arrived, (std::vector<std::int64_t>{3}));
}

TEST(RouteControllerTest, route_command_attaches_a_route_controller_on_the_ground) {
  World world(WorldConfig{.step_us = 1'000'000, .commands = v1_registry()});
  world.set_height_field(std::make_shared<Ramp>());
  auto h = world.add_new_object(1, "unit");
  ASSERT_TRUE(h);
  const ObjectId id = world.find(*h)->id();
  ASSERT_TRUE(world.submit(make_command(0, RouteCommand{id, {{2.0f, 0.0f}, {2.0f, 3.0f}}, 2.0f})));
  ASSERT_TRUE(world.tick());
  ASSERT_NE(world.find(*h)->controller, nullptr);
  EXPECT_EQ(world.find(*h)->controller->kind(), "route");
  EXPECT_EQ(world.find(*h)->transform.position, (Vec3{2.0f, 0.0f, 1.0f}));
  ASSERT_TRUE(world.tick());
  ASSERT_TRUE(world.tick());
  EXPECT_EQ(world.find(*h)->transform.position, (Vec3{2.0f, 3.0f, 1.0f}));
  EXPECT_TRUE(dynamic_cast<RouteController&>(*world.find(*h)->controller).done());
}

TEST(RouteControllerTest, rejects_route_command_with_bad_payload_waypoints_or_speed) {
  World world(WorldConfig{.commands = v1_registry()});
  Command bad = make_command(0, RouteCommand{ObjectId{1, 1, 1}, {{1.0f, 1.0f}}, 2.0f});
  bad.payload.resize(bad.payload.size() - 1);  // the last waypoint is cut
  auto r = world.submit(bad);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "world.command.payload.eof");
  Command huge = make_command(0, RouteCommand{ObjectId{1, 1, 1}, {{1.0f, 1.0f}}, 2.0f});
  huge.payload[12] = 0xff;  // waypoint count 0x..ff: more than the bytes left
  EXPECT_EQ(world.submit(huge).error().code, "world.command.payload.eof");
  auto slow = world.submit(make_command(0, RouteCommand{ObjectId{1, 1, 1}, {{1.0f, 1.0f}}, 0.0f}));
  ASSERT_FALSE(slow);
  EXPECT_EQ(slow.error().code, "world.command.invalid");
  auto empty = world.submit(make_command(0, RouteCommand{ObjectId{1, 1, 1}, {}, 1.0f}));
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, "world.command.invalid");
  auto inf = world.submit(
      make_command(0, RouteCommand{ObjectId{1, 1, 1}, {{std::numeric_limits<float>::infinity(), 1.0f}}, 1.0f}));
  ASSERT_FALSE(inf);
  EXPECT_EQ(inf.error().code, "world.command.invalid");
  EXPECT_TRUE(world.command_log().commands.empty());
}

TEST(V1MoveCommand, spawn_move_and_remove_commands) {
  World world(WorldConfig{.step_us = 100'000, .commands = v1_registry()});
  ASSERT_TRUE(world.submit(make_command(0, SpawnCommand{3, "jeep", {0.0f, 0.0f, 0.0f}})));
  ASSERT_TRUE(world.submit(make_command(1, MoveCommand{ObjectId{1, 3, 1}, {3.0f, 4.0f}, 10.0f})));  // 1 unit per tick
  ASSERT_TRUE(world.submit(make_command(1, SetPropertyCommand{ObjectId{1, 3, 1}, "stance", 2})));
  std::vector<std::uint64_t> arrived_ticks;
  world.on(EventType::arrived, [&](World& w, const Event&) { arrived_ticks.push_back(w.clock().tick); });
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(world.tick());
  auto h = world.lookup(ObjectId{1, 3, 1});
  ASSERT_TRUE(h);
  const WorldObject* o = world.find(*h);
  EXPECT_EQ(o->transform.position, (sortie::core::Vec3{3.0f, 4.0f, 0.0f}));  // 5 units away, reached on the 5th step
  EXPECT_EQ(o->properties.get_int("stance"), 2);
  // moved on ticks 1..5 (tick counter 1..5 during the pass), arrival dispatched on the next pass
  ASSERT_EQ(arrived_ticks.size(), 1u);
  EXPECT_EQ(arrived_ticks[0], 6u);
  ASSERT_TRUE(world.submit(make_command(8, RemoveCommand{ObjectId{1, 3, 1}})));
  ASSERT_TRUE(world.tick());
  EXPECT_FALSE(world.lookup(ObjectId{1, 3, 1}).has_value());
  EXPECT_EQ(world.commands_applied(), 4u);
}
