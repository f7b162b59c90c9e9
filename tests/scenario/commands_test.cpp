// The scenario's command kinds (48..52): applied to the scenario object's state, decided once,
// logged and replayed like every other kind.
#include "sortie/scenario/commands.hpp"

#include <gtest/gtest.h>

#include "sortie/scenario/class_ids.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/world.hpp"

namespace sortie::scenario {
namespace {

using world::make_command;

world::World make_world() {
  world::WorldConfig config;
  config.commands = scenario_command_registry(nullptr);
  return world::World(config);
}

TEST(ScenarioCommands, wire_ids_and_names_never_change) {
  EXPECT_EQ(ObjectiveCommand::kWireId, 48);
  EXPECT_EQ(OutcomeCommand::kWireId, 49);
  EXPECT_EQ(StartCommand::kWireId, 50);
  EXPECT_EQ(DigestCommand::kWireId, 51);
  EXPECT_EQ(SpawnCommand::kWireId, 52);
  const auto registry = scenario_command_registry(nullptr);
  ASSERT_NE(registry->find("scenario.objective"), nullptr);
  EXPECT_EQ(registry->find("scenario.outcome")->wire_id, 49);
  EXPECT_NE(registry->find("move.goto"), nullptr);  // on top of the movement registry
}

TEST(ScenarioCommands, objectives_and_the_outcome_are_world_state_decided_once) {
  world::World w = make_world();
  ASSERT_TRUE(w.submit(make_command(0, ObjectiveCommand{ObjectiveAction::add, "reach", "Reach the depot"})));
  ASSERT_TRUE(w.tick());
  EXPECT_EQ(find_scenario_state(w), nullptr);  // no scenario object yet: skipped
  EXPECT_EQ(w.commands_skipped(), 1u);

  ASSERT_TRUE(w.submit(make_command(1, StartCommand{"m01"})));
  ASSERT_TRUE(w.submit(make_command(1, ObjectiveCommand{ObjectiveAction::add, "reach", "Reach the depot"})));
  ASSERT_TRUE(w.submit(make_command(1, ObjectiveCommand{ObjectiveAction::add, "reach", "again"})));  // duplicate
  ASSERT_TRUE(w.submit(make_command(1, ObjectiveCommand{ObjectiveAction::add, "hold", "Hold it"})));
  ASSERT_TRUE(w.tick());
  const std::uint64_t before = w.last_hash();
  ASSERT_TRUE(w.submit(make_command(2, ObjectiveCommand{ObjectiveAction::complete, "reach", ""})));
  ASSERT_TRUE(w.submit(make_command(2, ObjectiveCommand{ObjectiveAction::fail, "hold", ""})));
  ASSERT_TRUE(w.submit(make_command(2, OutcomeCommand{Outcome::win, "depot reached"})));
  ASSERT_TRUE(w.submit(make_command(2, OutcomeCommand{Outcome::lose, "too late"})));  // decided already
  ASSERT_TRUE(w.tick());
  EXPECT_NE(w.last_hash(), before);

  const ScenarioState* s = find_scenario_state(w);
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->objectives.size(), 2u);
  EXPECT_EQ(s->objectives[0].text, "Reach the depot");
  EXPECT_EQ(s->objectives[0].status, ObjectiveStatus::completed);
  EXPECT_EQ(s->objectives[0].changed_tick, 2u);
  EXPECT_EQ(s->objectives[1].status, ObjectiveStatus::failed);
  EXPECT_EQ(s->outcome, Outcome::win);
  EXPECT_EQ(s->reason, "depot reached");
  EXPECT_EQ(s->outcome_tick, 2u);
  EXPECT_EQ(w.commands_skipped(), 3u);  // the early add, the duplicate add, the second outcome
  const auto h = w.lookup(scenario_object_id(w));
  ASSERT_TRUE(h.has_value());
  EXPECT_FALSE(w.find(*h)->visible);
}

TEST(ScenarioCommands, validation_refuses_what_can_never_apply) {
  world::World w = make_world();
  EXPECT_FALSE(w.submit(make_command(0, ObjectiveCommand{ObjectiveAction::add, "", "x"})));
  EXPECT_FALSE(w.submit(make_command(0, ObjectiveCommand{ObjectiveAction::complete, "a", "text"})));
  EXPECT_FALSE(w.submit(make_command(0, OutcomeCommand{Outcome::none, ""})));
  auto bad_spawn = w.submit(make_command(0, SpawnCommand{world::ObjectId{1, 20, 1}, "p", {}, 0}));
  ASSERT_FALSE(bad_spawn);
  EXPECT_EQ(bad_spawn.error().code, "world.command.invalid");
}

TEST(ScenarioCommands, spawn_creates_the_named_object_with_its_clan_and_replays) {
  world::World w = make_world();
  const world::ObjectId id{w.local_player(), scenario::class_ids::kScenarioUnit, 1};
  ASSERT_TRUE(w.submit(make_command(0, StartCommand{"m01"})));
  ASSERT_TRUE(w.submit(make_command(0, SpawnCommand{id, "raider", core::Vec3{1, 2, 3}, 2})));
  ASSERT_TRUE(w.submit(make_command(0, DigestCommand{0x1234})));
  ASSERT_TRUE(w.tick());
  const world::WorldObject* o = w.find_live(id);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->prototype_key, "raider");
  EXPECT_EQ(o->properties.get_int("clan"), 2);
  ASSERT_NE(find_scenario_digest(w), nullptr);
  EXPECT_EQ(find_scenario_digest(w)->value, 0x1234u);

  // The log through JSON and back replays to the same hash.
  auto json = world::command_log_json(w.command_log(), w.commands());
  ASSERT_TRUE(json.has_value()) << json.error().to_string();
  auto back = world::command_log_from_json(*json, w.commands());
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  world::World again = make_world();
  for (const auto& c : back->commands) ASSERT_TRUE(again.submit(c));
  ASSERT_TRUE(again.tick());
  EXPECT_EQ(again.last_hash(), w.last_hash());
}

}  // namespace
}  // namespace sortie::scenario
