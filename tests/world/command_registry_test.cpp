// The command registry: registration rules, the standard set, and submit through the registry.
#include "sortie/world/command_registry.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/world.hpp"

using namespace sortie::world;
namespace core = sortie::core;

namespace {

// A minimal valid entry, to break one field at a time.
CommandKindInfo entry(std::string name, CommandKindId id) {
  CommandKindInfo k = command_kind<PauseCommand>(
      nullptr, [](World&, const PauseCommand&) { return core::Result<CommandOutcome>(CommandOutcome::applied); });
  k.name = std::move(name);
  k.wire_id = id;
  return k;
}

}  // namespace

TEST(CommandRegistryTest, standard_set_is_the_worlds_own_kinds_at_their_v1_wire_ids) {
  const CommandRegistry& standard = *standard_command_registry();
  // Nothing of another area: movement (1 move, 8 route and the stack's kinds) registers itself.
  EXPECT_EQ(standard.describe(), "2 stop, 3 pause, 4 set_speed, 5 spawn, 6 remove, 7 set_property");
  ASSERT_EQ(standard.size(), 6u);
  for (const CommandKindInfo* k : standard.kinds()) {
    EXPECT_TRUE(k->from_legacy) << k->name;  // each still reads its v1 record
    EXPECT_EQ(standard.find(k->name), k);
  }
  EXPECT_EQ(standard.find(CommandKindId{7})->name, "set_property");
  EXPECT_EQ(standard.find("move"), nullptr);
  EXPECT_EQ(standard.find(CommandKindId{1}), nullptr);
  EXPECT_EQ(standard.find(CommandKindId{8}), nullptr);
  EXPECT_EQ(World().commands().size(), 6u);  // the default of every world
}

TEST(CommandRegistryTest, player_orders_name_their_target_through_the_kind) {
  const CommandRegistry& standard = *standard_command_registry();
  const ObjectId unit{2, 20, 7};
  auto target = [&](const Command& c) { return standard.find(c.kind)->order_target(c.payload); };
  EXPECT_EQ(target(make_command(0, StopCommand{unit})).value(), unit);
  EXPECT_EQ(target(make_command(0, RemoveCommand{unit})).value(), unit);
  EXPECT_EQ(target(make_command(0, SetPropertyCommand{unit, "hp", 3})).value(), unit);
  // Clock and spawn orders act on no object: not a player's order.
  EXPECT_FALSE(standard.find(PauseCommand::kWireId)->order_target);
  EXPECT_FALSE(standard.find(SetSpeedCommand::kWireId)->order_target);
  EXPECT_FALSE(standard.find(SpawnCommand::kWireId)->order_target);
  // A payload the kind cannot read is the decoder's diagnostic.
  auto cut = standard.find(StopCommand::kWireId)->order_target(core::Bytes(3, 0));
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().code, "world.command.payload.eof");
}

TEST(CommandRegistryTest, rejects_wire_id_zero_bad_names_missing_hooks_and_duplicates) {
  CommandRegistry r;
  ASSERT_TRUE(r.register_kind(entry("squad.hold", 16)));
  EXPECT_EQ(r.register_kind(entry("other", 0)).error().code, "world.command.registry");
  EXPECT_FALSE(r.register_kind(entry("", 17)));
  EXPECT_FALSE(r.register_kind(entry("Hold", 17)));        // upper case
  EXPECT_FALSE(r.register_kind(entry("hold order", 17)));  // space
  EXPECT_FALSE(r.register_kind(entry(std::string(65, 'a'), 17)));
  auto dup_id = r.register_kind(entry("squad.fire", 16));
  ASSERT_FALSE(dup_id);
  EXPECT_EQ(dup_id.error().found, "squad.hold");
  auto dup_name = r.register_kind(entry("squad.hold", 17));
  ASSERT_FALSE(dup_name);
  EXPECT_EQ(dup_name.error().found, "16");
  CommandKindInfo no_apply = entry("squad.fire", 17);
  no_apply.apply = nullptr;
  EXPECT_FALSE(r.register_kind(no_apply));
  CommandKindInfo no_json = entry("squad.fire", 17);
  no_json.from_json = nullptr;
  EXPECT_FALSE(r.register_kind(no_json));
  EXPECT_EQ(r.size(), 1u);
  EXPECT_TRUE(r.register_kind(entry("squad.fire_2", 65535)));
}

TEST(CommandRegistryTest, submit_rejects_unknown_kinds_and_malformed_payloads) {
  World world;
  auto unknown = world.submit(Command{0, 999, {}});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, "world.command.kind_unknown");
  EXPECT_EQ(unknown.error().found, "999");
  auto flag = world.submit(Command{0, PauseCommand::kWireId, {7}});
  ASSERT_FALSE(flag);
  EXPECT_EQ(flag.error().code, "world.command.pause.flag");
  auto cut = world.submit(Command{0, RemoveCommand::kWireId, core::Bytes(7, 0)});
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().code, "world.command.payload.eof");
  Command longer = make_command(0, RemoveCommand{ObjectId{1, 1, 1}});
  longer.payload.push_back(0);
  auto trailing = world.submit(longer);
  ASSERT_FALSE(trailing);
  EXPECT_EQ(trailing.error().code, "world.command.payload.trailing");
  EXPECT_TRUE(world.command_log().commands.empty());
}

TEST(CommandRegistryTest, payload_of_checks_the_kind) {
  const Command c = make_command(4, SetSpeedCommand{250});
  EXPECT_EQ(c.kind, 4);
  EXPECT_EQ(c.payload, (core::Bytes{250, 0, 0, 0}));
  EXPECT_EQ(payload_of<SetSpeedCommand>(c)->scale_permille, 250u);
  auto other = payload_of<PauseCommand>(c);
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code, "world.command.kind_mismatch");
}

TEST(CommandRegistryTest, payload_json_helpers_name_the_field) {
  core::Json j = core::Json::object();
  json_put_f32(j, "x", -0.0f);
  EXPECT_EQ(j["x_bits"], 0x80000000u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(*json_get_f32(j, "x", "p")), 0x80000000u);
  json_put_object_id(j, "who", ObjectId{3, 20, 7});
  EXPECT_EQ(*json_get_object_id(j, "who", "p"), (ObjectId{3, 20, 7}));
  j["n"] = 300;
  EXPECT_EQ(json_get<std::uint8_t>(j, "n", "p").error().field, "p.n");
  EXPECT_EQ(*json_get<std::int16_t>(j, "n", "p"), 300);
  j["neg"] = -1;
  EXPECT_EQ(json_get<std::uint32_t>(j, "neg", "p").error().code, "command_log.field_type");
  EXPECT_EQ(json_get<bool>(j, "n", "p").error().code, "command_log.field_type");
  EXPECT_EQ(json_get<std::string>(j, "absent", "p").error().code, "command_log.field_missing");
  EXPECT_EQ(json_get_array(j, "n", "p").error().code, "command_log.field_type");
  EXPECT_EQ(json_get_object(j, "x", "p").error().field, "p.x");
  j["list"] = core::Json::array({1, 2});
  EXPECT_EQ((*json_get_array(j, "list", "p"))->size(), 2u);
  EXPECT_EQ(json_get_object_id(j, "n", "p").error().code, "command_log.field_type");
}
