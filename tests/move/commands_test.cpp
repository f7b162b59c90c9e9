// The movement command kinds: registry rows, canonical byte and JSON codecs, validation, and
// the orders' effect on the unit's components.
#include <gtest/gtest.h>

#include "sortie/world/command_json.hpp"
#include "sortie/world/command_log.hpp"
#include "sortie_test/move_world.hpp"

using namespace sortie;
using namespace sortie::move;
using namespace sortie::move_test;
using world::ObjectId;

TEST(MoveCommands, registered_in_the_movement_range_with_stable_names) {
  const auto reg = move_command_registry(environment(plane(8.0f), nullptr));
  const std::pair<world::CommandKindId, std::string_view> rows[] = {
      {16, "move.enable"}, {17, "move.goto"}, {18, "move.halt"}, {19, "move.drive"}, {20, "move.disable"}};
  for (const auto& [id, name] : rows) {
    ASSERT_NE(reg->find(id), nullptr) << id;
    EXPECT_EQ(reg->find(id)->name, name);
    EXPECT_EQ(reg->find(name)->wire_id, id);
    // Every movement order names its target: a networked session routes it by the owner.
    ASSERT_TRUE(reg->find(id)->order_target) << name;
  }
  const world::ObjectId unit{2, 40, 3};
  EXPECT_EQ(reg->find(GotoCommand::kWireId)->order_target(world::encode_payload(GotoCommand{unit, {1, 2}, 3})).value(),
            unit);
  // The standard kinds, and the v1 movers (only to replay old logs) at their v1 wire ids.
  EXPECT_NE(reg->find("stop"), nullptr);
  EXPECT_EQ(reg->find(world::CommandKindId{1})->name, "move");
  EXPECT_EQ(reg->find(world::CommandKindId{8})->name, "route");
  EXPECT_EQ(reg->size(), world::CommandRegistry::standard().size() + 2 + 5);
}

TEST(MoveCommands, byte_and_json_logs_round_trip) {
  const auto reg = move_command_registry(environment(plane(8.0f), nullptr));
  const ObjectId u{1, 20, 3};
  world::CommandLog log;
  log.commands = {world::make_command(0, EnableCommand{u, Shape::circle, 1.5f, 0.0f, 6.0f, 4, 5, true}),
                  world::make_command(1, GotoCommand{u, {10.5f, -3.25f}, 4.0f}),
                  world::make_command(2, DriveCommand{u, -2.0f, 0.5f}), world::make_command(3, HaltCommand{u}),
                  world::make_command(4, DisableCommand{u})};
  auto bytes = world::write_command_log(log, *reg);
  ASSERT_TRUE(bytes);
  auto back = world::read_command_log(*bytes, *reg);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, log);
  auto json = world::command_log_json(log, *reg);
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["commands"][0]["kind"], "move.enable");
  EXPECT_EQ((*json)["commands"][0]["payload"]["shape"], "circle");
  EXPECT_EQ((*json)["commands"][0]["payload"]["static"], true);
  auto from = world::command_log_from_json(*json, *reg);
  ASSERT_TRUE(from) << from.error().to_string();
  EXPECT_EQ(*from, log);
  EXPECT_EQ(payload_of<EnableCommand>(log.commands[0])->radius, 1.5f);
}

TEST(MoveCommands, rejects_shape_and_flag_bytes_outside_their_values) {
  core::Bytes p = world::encode_payload(EnableCommand{ObjectId{1, 20, 3}});
  p[8] = 2;  // shape
  EXPECT_FALSE(world::decode_payload<EnableCommand>(p));
  p = world::encode_payload(EnableCommand{ObjectId{1, 20, 3}});
  p.back() = 7;  // static flag
  EXPECT_FALSE(world::decode_payload<EnableCommand>(p));
  p = world::encode_payload(GotoCommand{ObjectId{1, 20, 3}, {1, 2}, 3});
  p.pop_back();  // truncated
  EXPECT_FALSE(world::decode_payload<GotoCommand>(p));
}

TEST(MoveCommands, validation_refuses_non_finite_and_out_of_range_values) {
  TestWorld t(environment(plane(16.0f), areal_grid(1, 16.0f)));
  const ObjectId u = t.unit(1, {4, 4});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(t.world->submit(world::make_command(0, EnableCommand{u, Shape::capsule, 0.0f})).error().code,
            "world.command.invalid");
  EXPECT_EQ(t.world->submit(world::make_command(0, EnableCommand{u, Shape::capsule, nan})).error().code,
            "world.command.invalid");
  EXPECT_EQ(t.world->submit(world::make_command(0, GotoCommand{u, {nan, 1}, 2})).error().code, "world.command.invalid");
  EXPECT_EQ(t.world->submit(world::make_command(0, GotoCommand{u, {1, 1}, 0})).error().code, "world.command.invalid");
  EXPECT_EQ(t.world->submit(world::make_command(0, DriveCommand{u, nan, 0})).error().code, "world.command.invalid");
}

TEST(MoveCommands, orders_without_a_body_or_target_are_skipped) {
  TestWorld t(environment(plane(16.0f), areal_grid(1, 16.0f)));
  const ObjectId u = t.unit(1, {4, 4});
  t.go(u, {8, 8});                    // not enabled yet
  t.go(ObjectId{1, 20, 99}, {8, 8});  // no such object
  t.tick();
  EXPECT_EQ(t.world->commands_skipped(), 2u);
  EXPECT_EQ(move::find_move_system(*t.world), nullptr);  // nothing enabled: no system object
  t.enable(u);
  t.tick();
  ASSERT_NE(move::find_move_system(*t.world), nullptr);
  EXPECT_FALSE(t.world->find(*t.world->lookup(move_system_id(*t.world)))->visible);
  EXPECT_EQ(t.system().members(), (std::vector<ObjectId>{u}));
  // Disabled: the stack is gone and the unit leaves the system at its next step.
  t.submit(world::make_command(t.world->clock().tick, DisableCommand{u}));
  t.tick();
  EXPECT_FALSE(t.object(u).components.has<Body>());
  EXPECT_FALSE(t.object(u).components.has<BehaviorState>());
  EXPECT_TRUE(t.system().members().empty());
}

TEST(MoveCommands, halt_stops_and_drive_turns) {
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f)));
  const ObjectId u = t.unit(1, {10, 10});
  t.enable(u);
  t.go(u, {50, 10});
  t.tick(30);
  EXPECT_GT(t.component<ControlState>(u).speed, 0.0f);
  t.submit(world::make_command(t.world->clock().tick, HaltCommand{u}));
  t.tick(40);  // 8 u/s at 24 u/s^2 stops within 1/3 s
  EXPECT_EQ(t.component<ControlState>(u).speed, 0.0f);
  EXPECT_EQ(t.component<BehaviorState>(u).mode, BehaviorMode::idle);
  EXPECT_TRUE(t.component<BehaviorState>(u).local_path.empty());
  const float x = t.position(u).x;
  t.tick(10);
  EXPECT_EQ(t.position(u).x, x);
  // Manual: turn at 1 rad/s for 1 s without moving.
  t.submit(world::make_command(t.world->clock().tick, DriveCommand{u, 0.0f, 1.0f}));
  t.tick(62);  // the order applies at the first of these ticks; 62 steps of 16 ms = 0.992 rad
  EXPECT_NEAR(t.component<ControlState>(u).heading, 0.992f, 1e-4f);
  EXPECT_NEAR(t.object(u).transform.orientation.z, 0.992f, 1e-4f);
  EXPECT_EQ(t.position(u).x, x);
  // The drive speed is capped by the body.
  t.submit(world::make_command(t.world->clock().tick, DriveCommand{u, 100.0f, 0.0f}));
  t.tick();
  EXPECT_EQ(t.component<ControlState>(u).manual_speed, 8.0f);
}
