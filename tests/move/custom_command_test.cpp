// A new order kind added from outside libs/world: its own payload (byte and JSON codec), its
// validation and application, and typed per-unit state it changes (a component). The order is
// logged, saved as bytes and as JSON, read back and replayed to the same per-tick hashes.
// Nothing here is part of libs/world: this is how squad, net and script kinds plug in.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "sortie/move/class_ids.hpp"
#include "sortie/move/demo_world.hpp"
#include "sortie/move/v1_commands.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_log.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/replay.hpp"
#include "v1_world.hpp"

using namespace sortie::world;
using namespace sortie::move;
using sortie::move::test::v1_registry;
namespace core = sortie::core;

namespace {

// Typed per-unit state.
struct Morale {
  static constexpr std::string_view kComponentName = "test.morale";
  std::int32_t value = 0;
  std::uint32_t rallies = 0;
  std::string last_cry;
  void encode(StateWriter& out) const {
    out.u32(static_cast<std::uint32_t>(value));
    out.u32(rallies);
    out.str(last_cry);
  }
};

// The order's payload: u64 target, i32 boost, lp_string cry.
struct RallyCommand {
  static constexpr std::string_view kName = "test.rally";
  static constexpr CommandKindId kWireId = 1000;
  ObjectId target{};
  std::int32_t boost = 0;
  std::string cry{};

  void write(core::ByteWriter& out) const {
    out.u64(target.raw());
    out.i32(boost);
    out.lp_string(cry);
  }
  static core::Result<RallyCommand> read(core::ByteReader& in) {
    RallyCommand c;
    SORTIE_TRY(auto raw, in.u64());
    c.target = ObjectId::from_raw(raw);
    SORTIE_TRY(c.boost, in.i32());
    SORTIE_TRY(c.cry, in.lp_string(256));
    return c;
  }
  void to_json(core::Json& out) const {
    json_put_object_id(out, "target", target);
    out["boost"] = boost;
    out["cry"] = cry;
  }
  static core::Result<RallyCommand> from_json(const core::Json& in, const std::string& path) {
    RallyCommand c;
    SORTIE_TRY(c.target, json_get_object_id(in, "target", path));
    SORTIE_TRY(c.boost, json_get<std::int32_t>(in, "boost", path));
    SORTIE_TRY(c.cry, json_get<std::string>(in, "cry", path));
    return c;
  }
};

core::Status validate_rally(const World&, const RallyCommand& c) {
  if (c.boost < 1 || c.boost > 100) {
    return core::fail(core::Diagnostic::error("world.command.invalid", "rally boost must be 1..100")
                          .in(std::string(RallyCommand::kName))
                          .expect("1..100", std::to_string(c.boost)));
  }
  return {};
}

core::Result<CommandOutcome> apply_rally(World& world, const RallyCommand& c) {
  WorldObject* unit = world.find_live(c.target);
  if (unit == nullptr) return CommandOutcome::skipped;
  Morale* morale = unit->components.get<Morale>();
  if (morale == nullptr) morale = &unit->components.emplace(Morale{});
  morale->value += c.boost;
  morale->rallies += 1;
  morale->last_cry = c.cry;
  return CommandOutcome::applied;
}

std::shared_ptr<const CommandRegistry> registry_with_rally() {
  CommandRegistry registry = *v1_registry();  // the demo's units walk with the v1 movers
  auto status = registry.register_kind(command_kind<RallyCommand>(validate_rally, apply_rally));
  EXPECT_TRUE(status) << status.error().to_string();
  return std::make_shared<const CommandRegistry>(std::move(registry));
}

constexpr ObjectId unit(std::uint32_t index) {
  return ObjectId{1, move::class_ids::kDemoUnit, index};
}

// Eight demo units without churn (stable ids 1..8); units 1..4 start with Morale 50.
core::Status setup(World& world) {
  SORTIE_CHECK(populate_demo_world(world, DemoConfig{.units = 8, .churn = false}));
  for (std::uint32_t i = 1; i <= 4; ++i) {
    WorldObject* o = world.find_live(unit(i));
    if (o == nullptr) return core::fail(core::Diagnostic::error("test.setup", "demo unit missing"));
    o->components.emplace(Morale{50, 0, ""});
  }
  return {};
}

WorldConfig config(std::shared_ptr<const CommandRegistry> commands) {
  return WorldConfig{.seed = 77, .commands = std::move(commands)};
}

// The live session: rallies and a move, decided while running.
void play(World& world) {
  for (std::uint64_t t = 0; t < 120; ++t) {
    const std::uint64_t now = world.clock().tick;
    if (now == 10) {
      ASSERT_TRUE(world.submit(make_command(now, RallyCommand{unit(2), 5, "hold"})));
    }
    if (now == 20) {
      ASSERT_TRUE(world.submit(make_command(now, RallyCommand{unit(2), 7, "advance"})));
      ASSERT_TRUE(world.submit(make_command(now, RallyCommand{unit(6), 3, "go"})));
      ASSERT_TRUE(world.submit(make_command(now, MoveCommand{unit(6), {5.0f, 5.0f}, 4.0f})));
    }
    if (now == 30) {
      ASSERT_TRUE(world.submit(make_command(now, RallyCommand{unit(99), 1, "nobody"})));
    }
    ASSERT_TRUE(world.tick());
  }
}

}  // namespace

TEST(CustomCommand, a_new_order_changes_typed_unit_state) {
  World world(config(registry_with_rally()));
  ASSERT_TRUE(setup(world));
  play(world);
  const Morale* two = world.find_live(unit(2))->components.get<Morale>();
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->value, 62);  // 50 + 5 + 7
  EXPECT_EQ(two->rallies, 2u);
  EXPECT_EQ(two->last_cry, "advance");
  const Morale* six = world.find_live(unit(6))->components.get<Morale>();  // attached by the first rally
  ASSERT_NE(six, nullptr);
  EXPECT_EQ(six->value, 3);
  EXPECT_EQ(six->rallies, 1u);
  EXPECT_EQ(world.find_live(unit(5))->components.get<Morale>(), nullptr);
  EXPECT_EQ(world.commands_applied(), 4u);  // three rallies and the move
  EXPECT_EQ(world.commands_skipped(), 1u);  // unit 99 does not exist

  // The component is simulation state: the hash sees it.
  const std::uint64_t before = world.compute_state_hash();
  world.find_live(unit(2))->components.get<Morale>()->value += 1;
  EXPECT_NE(world.compute_state_hash(), before);
  world.find_live(unit(2))->components.get<Morale>()->value -= 1;
  EXPECT_EQ(world.compute_state_hash(), before);
}

TEST(CustomCommand, rejects_an_invalid_order_before_logging_it) {
  World world(config(registry_with_rally()));
  ASSERT_TRUE(setup(world));
  auto r = world.submit(make_command(0, RallyCommand{unit(1), 0, "?"}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "world.command.invalid");
  EXPECT_EQ(r.error().field, "test.rally");
  EXPECT_TRUE(world.command_log().commands.empty());
}

TEST(CustomCommand, logged_order_saves_to_bytes_and_json_and_replays_to_the_same_hashes) {
  const auto registry = registry_with_rally();
  World live(config(registry));
  ASSERT_TRUE(setup(live));
  play(live);
  const CommandLog& log = live.command_log();
  ASSERT_EQ(log.commands.size(), 5u);
  EXPECT_EQ(log.commands[0].kind, RallyCommand::kWireId);

  auto bytes = write_command_log(log, *registry);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  auto from_bytes = read_command_log(*bytes, *registry);
  ASSERT_TRUE(from_bytes) << from_bytes.error().to_string();
  EXPECT_EQ(*from_bytes, log);

  auto json = command_log_json(log, *registry);
  ASSERT_TRUE(json) << json.error().to_string();
  EXPECT_EQ((*json)["commands"][0]["kind"], "test.rally");
  EXPECT_EQ((*json)["commands"][0]["payload"]["boost"], 5);
  EXPECT_EQ((*json)["commands"][0]["payload"]["cry"], "hold");
  EXPECT_EQ((*json)["commands"][3]["kind"], "move");
  auto from_json = command_log_from_json(core::Json::parse(core::dump_json(*json)), *registry);
  ASSERT_TRUE(from_json) << from_json.error().to_string();
  EXPECT_EQ(*from_json, log);

  for (const CommandLog* read : {&*from_bytes, &*from_json}) {
    auto status = verify_replay(*read, config(registry), setup, live.hash_history());
    EXPECT_TRUE(status) << status.error().to_string();
  }
  auto replayed = replay(*from_bytes, config(registry), setup, 120);
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->final_hash, live.last_hash());
}

TEST(CustomCommand, readers_and_worlds_without_the_kind_name_it) {
  const auto registry = registry_with_rally();
  World live(config(registry));
  ASSERT_TRUE(setup(live));
  play(live);
  auto bytes = write_command_log(live.command_log(), *registry);
  ASSERT_TRUE(bytes);
  auto r = read_command_log(*bytes, *v1_registry());  // no test.rally
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.kind_unknown");
  EXPECT_NE(r.error().message.find("'test.rally' (wire id 1000)"), std::string::npos) << r.error().message;

  auto json = command_log_json(live.command_log(), *registry);
  ASSERT_TRUE(json);
  auto j = command_log_from_json(*json, *v1_registry());
  ASSERT_FALSE(j);
  EXPECT_EQ(j.error().code, "command_log.kind_unknown");
  EXPECT_EQ(j.error().found, "test.rally");
  EXPECT_EQ(j.error().field, "commands[0].kind");

  World plain(WorldConfig{.seed = 77, .commands = v1_registry()});
  auto s = plain.submit(make_command(0, RallyCommand{unit(1), 5, "hold"}));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "world.command.kind_unknown");
  EXPECT_EQ(s.error().found, "1000");
}
