// The net command payloads: their bytes, and the checks their field lists carry (player
// numbers 1..65535, the owned-object policy, the prototype bound) in bytes and in JSON.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sortie/core/json.hpp"
#include "sortie/env/class_ids.hpp"
#include "sortie/env/effect_world.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/net/net_commands.hpp"
#include "sortie/scenario/commands.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net {
namespace {

core::Diagnostic from_json_error(std::string_view kind, const core::Json& payload) {
  const auto registry = session_command_registry(std::make_shared<move::MoveEnvironmentSlot>());
  const world::CommandKindInfo* info = registry->find(kind);
  EXPECT_NE(info, nullptr);
  if (info == nullptr) return {};
  auto r = info->from_json(payload, "p");
  EXPECT_FALSE(r);
  return r ? core::Diagnostic{} : r.error();
}

TEST(NetCommandPayload, bytes_are_the_fields_in_order) {
  const world::ObjectId target{1, 20, 3};
  core::ByteWriter w;
  w.u64(target.raw());
  w.u16(4);
  EXPECT_EQ(world::encode_payload(ChangeOwnerCommand{target, 4}), w.buffer());

  core::ByteWriter r;
  r.u16(3);
  r.u8(1);
  EXPECT_EQ(world::encode_payload(ReleasePlayerCommand{3, OwnedObjectPolicy::remove}), r.buffer());
}

TEST(NetCommandPayload, rejects_player_zero_unknown_policy_and_long_prototype_bytes) {
  core::ByteWriter w;
  w.u64(world::ObjectId{1, 20, 3}.raw());
  w.u16(0);
  auto owner = world::decode_payload<ChangeOwnerCommand>(w.buffer());
  ASSERT_FALSE(owner);
  EXPECT_EQ(owner.error().code, "world.command.payload.player");
  EXPECT_EQ(owner.error().field, "net.change_owner.owner");
  EXPECT_EQ(owner.error().offset.value_or(0), 8u);
  EXPECT_EQ(owner.error().expected, "1..65535");

  const core::Bytes policy{3, 0, 2};
  auto release = world::decode_payload<ReleasePlayerCommand>(policy);
  ASSERT_FALSE(release);
  EXPECT_EQ(release.error().code, "world.command.payload.policy");
  EXPECT_EQ(release.error().field, "net.release_player.policy");
  EXPECT_EQ(release.error().expected, "0 transfer, 1 remove");

  core::ByteWriter s;
  s.u16(2);
  s.u16(20);
  s.lp_string(std::string(256, 'a'));
  s.zeros(12);
  auto spawn = world::decode_payload<SpawnForCommand>(s.buffer());
  ASSERT_FALSE(spawn);
  EXPECT_EQ(spawn.error().code, "world.command.payload.string_too_long");
  EXPECT_EQ(spawn.error().field, "net.spawn_for.prototype");
}

TEST(NetCommandPayload, json_round_trips_and_rejects_the_same_values) {
  const SpawnForCommand spawn{2, 20, "unit", {1.0f, 2.0f, 3.0f}};
  const auto registry = session_command_registry(std::make_shared<move::MoveEnvironmentSlot>());
  const world::CommandKindInfo* info = registry->find("net.spawn_for");
  ASSERT_NE(info, nullptr);
  core::Json j = core::Json::object();
  ASSERT_TRUE(info->to_json(world::encode_payload(spawn), j));
  EXPECT_EQ(j.at("owner"), 2);
  EXPECT_EQ(j.at("class"), 20);
  EXPECT_EQ(j.at("prototype"), "unit");
  EXPECT_EQ(j.at("y"), 2.0);
  auto back = info->from_json(j, "p");
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, world::encode_payload(spawn));

  core::Json zero = j;
  zero["owner"] = 0;
  core::Diagnostic d = from_json_error("net.spawn_for", zero);
  EXPECT_EQ(d.code, "command_log.field_type");
  EXPECT_EQ(d.field, "p.owner");

  core::Json long_key = j;
  long_key["prototype"] = std::string(256, 'a');
  EXPECT_EQ(from_json_error("net.spawn_for", long_key).field, "p.prototype");

  d = from_json_error("net.release_player", core::Json{{"player", 3}, {"policy", "keep"}});
  EXPECT_EQ(d.code, "command_log.field_type");
  EXPECT_EQ(d.field, "p.policy");
  EXPECT_EQ(d.expected, "transfer|remove");
}

TEST(NetCommandPayload, session_worlds_apply_the_scenario_kinds) {
  // A served mission's scripts act through these: every replica must apply them.
  const auto registry = session_command_registry(std::make_shared<move::MoveEnvironmentSlot>());
  for (const char* name :
       {"scenario.objective", "scenario.outcome", "scenario.start", "scenario.digest", "scenario.spawn"})
    EXPECT_NE(registry->find(name), nullptr) << name;
  world::WorldConfig config;
  config.commands = registry;
  world::World w(config);
  ASSERT_TRUE(w.submit(world::make_command(0, scenario::StartCommand{"m01"})));
  ASSERT_TRUE(w.submit(world::make_command(0, scenario::OutcomeCommand{scenario::Outcome::lose, "overrun"})));
  ASSERT_TRUE(w.tick());
  const scenario::ScenarioState* s = scenario::find_scenario_state(w);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->outcome, scenario::Outcome::lose);
  EXPECT_EQ(s->reason, "overrun");
}

}  // namespace
namespace {

// A session's worlds (server and replicas) apply fx.start without game data: a replica mirrors an
// effect the server started, into the same state.
TEST(NetCommandPayload, session_worlds_apply_fx_start_and_know_the_effects_class) {
  const auto registry = session_command_registry(std::make_shared<move::MoveEnvironmentSlot>());
  const world::CommandKindInfo* info = registry->find("fx.start");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->wire_id, 53);
  env::StartEffectCommand c;
  c.name = "lightning";
  c.position = {1, 2, 3};
  c.lifetime_ms = 250;
  core::ByteWriter w;
  w.lp_string("lightning");
  w.f32(1);
  w.f32(2);
  w.f32(3);
  w.u32(250);
  EXPECT_EQ(world::encode_payload(c), w.buffer());
  std::uint64_t hashes[2] = {0, 0};
  for (auto& h : hashes) {
    world::WorldConfig config;
    config.commands = registry;
    world::World replica(config);
    ASSERT_TRUE(register_session_classes(replica.classes()));
    ASSERT_TRUE(replica.submit(world::make_command(0, c)));
    ASSERT_TRUE(replica.tick());
    ASSERT_EQ(env::live_effects(replica).size(), 1u);
    h = replica.last_hash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  world::ClassRegistry classes;
  ASSERT_TRUE(register_session_classes(classes));
  ASSERT_NE(classes.find(env::class_ids::kEffects), nullptr);
}

}  // namespace
}  // namespace sortie::net
