#include <gtest/gtest.h>

#include <filesystem>

#include "sortie/core/hash.hpp"
#include "sortie/squad/class_ids.hpp"
#include "sortie/squad/run.hpp"
#include "sortie/squad/script.hpp"
#include "sortie/squad/squad_world.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_log.hpp"
#include "sortie/world/replay.hpp"

namespace sortie::squad {
namespace {

SquadMap rooms() {
  auto map = load_squad_map(std::filesystem::path(SORTIE_SOURCE_DIR) / "data" / "squad" / "rooms.txt");
  EXPECT_TRUE(map) << map.error().to_string();
  return *map;
}

TEST(SquadWorld, sim_on_the_world_matches_the_standalone_sim_every_tick) {
  const SquadMap map = rooms();
  auto game = SquadWorld::create(map, {.seed = 5});
  ASSERT_TRUE(game) << game.error().to_string();
  auto alone = SquadSim::create(map, {.seed = 5});
  ASSERT_TRUE(alone);
  ScriptedPlayer player(5);
  for (int k = 0; k < 1500; ++k) {  // through a formation change and manual aim (script at 14 s)
    const InputFrame f = player.next(*alone);
    alone->step(f);
    ASSERT_TRUE(game->step(f));
    ASSERT_EQ(game->sim().state_hash(), alone->state_hash()) << "tick " << k + 1;
  }
  EXPECT_EQ(game->world().clock().tick, 1500u);
  EXPECT_EQ(game->sim().tick(), 1500u);
  // The sim's hash is folded into the world's: another seed, another world hash.
  auto other = SquadWorld::create(map, {.seed = 6});
  ASSERT_TRUE(other);
  ASSERT_TRUE(other->step({}));
  auto same = SquadWorld::create(map, {.seed = 5});
  ASSERT_TRUE(same);
  ASSERT_TRUE(same->step({}));
  EXPECT_NE(other->world_hash(), same->world_hash());
}

TEST(SquadWorld, world_log_replays_to_the_same_hash_every_tick) {
  const SquadMap map = rooms();
  RunOptions o;
  o.seconds = 25.0;
  o.seed = 11;
  const auto live = run_squad(map, o);
  ASSERT_TRUE(live) << live.error().to_string();
  // Only changes of the input are commands: far fewer than ticks.
  EXPECT_LT(live->world_log.commands.size(), live->ticks / 4);
  const auto session = find_session(live->world_log);
  ASSERT_TRUE(session);
  EXPECT_EQ(session->seed, 11u);
  EXPECT_EQ(session->ticks, 1500u);
  EXPECT_EQ(session->map_fingerprint, map_fingerprint(map));

  const auto bytes = world::write_command_log(live->world_log, *squad_command_registry());
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  const auto log = world::read_command_log(*bytes, *squad_command_registry());
  ASSERT_TRUE(log) << log.error().to_string();
  EXPECT_EQ(*log, live->world_log);

  RunOptions r;
  r.replay_world = &*log;
  const auto again = run_squad(map, r);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_TRUE(again->replayed);
  EXPECT_EQ(again->ticks, 1500u);
  EXPECT_EQ(again->final_hash, live->final_hash);
  EXPECT_EQ(again->world_hash, live->world_hash);
  EXPECT_EQ(again->log, live->log);  // the frames come back from the commands

  // world::verify_replay compares every tick's world hash.
  auto game = SquadWorld::create(map, {.seed = 11}, 1500);
  ASSERT_TRUE(game);
  ScriptedPlayer player(11);
  for (int k = 0; k < 1500; ++k) ASSERT_TRUE(game->step(player.next(game->sim())));
  world::WorldConfig wc;
  wc.seed = 11;
  wc.step_us = kSquadStepUs;
  wc.commands = squad_command_registry();
  const world::WorldSetup setup = [&](world::World& w) -> core::Status {
    SORTIE_TRY(world::Handle h, w.create_local_object(squad::class_ids::kSquadGame, "squad_game"));
    SORTIE_TRY(world::WorldObject * obj, w.object(h));
    SORTIE_TRY(SquadSim sim, SquadSim::create(map, {.seed = 1}));
    obj->controller = std::make_unique<SquadSimController>(std::move(sim));
    return w.add_to_game(h);
  };
  EXPECT_TRUE(world::verify_replay(game->world().command_log(), wc, setup, game->world().hash_history()));
  // The JSON form carries the squad kinds by name.
  const auto json = world::command_log_json(*log, *squad_command_registry());
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["commands"][0]["kind"], "squad.session");
}

TEST(SquadWorld, replay_rejects_a_log_of_another_map_or_without_session) {
  const SquadMap map = rooms();
  RunOptions o;
  o.seconds = 1.0;
  const auto live = run_squad(map, o);
  ASSERT_TRUE(live);
  SquadMap edited = map;
  edited.tune.emplace_back("weaponRange", "9");
  RunOptions r;
  r.replay_world = &live->world_log;
  EXPECT_EQ(run_squad(edited, r).error().code, "squad.run.map_mismatch");
  world::CommandLog empty;
  r.replay_world = &empty;
  EXPECT_EQ(run_squad(map, r).error().code, "squad.run.session");
}

TEST(SquadWorld, held_input_becomes_commands_only_when_it_changes) {
  const world::ObjectId id{1, squad::class_ids::kSquadGame, 1};
  InputFrame held;
  std::vector<world::Command> out;
  InputFrame f;
  f.move_x = 127;
  frame_commands(id, 3, f, held, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, SquadMoveCommand::kWireId);
  EXPECT_EQ(out[0].tick, 3u);
  frame_commands(id, 4, f, held, out);  // same held state: nothing
  EXPECT_EQ(out.size(), 1u);
  f.toggle_manual = true;
  f.cycle_target = true;
  f.formation = 2;
  f.aim_left = true;
  frame_commands(id, 5, f, held, out);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[1].kind, SquadAimCommand::kWireId);
  EXPECT_EQ(out[2].kind, SquadManualCommand::kWireId);
  EXPECT_EQ(out[3].kind, SquadCycleCommand::kWireId);
  EXPECT_EQ(out[4].kind, SquadFormationCommand::kWireId);
  EXPECT_EQ(world::payload_of<SquadFormationCommand>(out[4])->formation, 2);
}

TEST(SquadWorld, pause_stops_the_simulation) {
  auto game = SquadWorld::create(rooms(), {.seed = 2});
  ASSERT_TRUE(game);
  ASSERT_TRUE(game->step({}));
  ASSERT_TRUE(game->world().submit(world::make_command(game->world().clock().tick, world::PauseCommand{true})));
  InputFrame east;
  east.move_x = 127;
  for (int k = 0; k < 10; ++k) ASSERT_TRUE(game->step(east));
  EXPECT_EQ(game->sim().tick(), 1u);
  EXPECT_EQ(game->world().clock().tick, 11u);
  ASSERT_TRUE(game->world().submit(world::make_command(game->world().clock().tick, world::PauseCommand{false})));
  ASSERT_TRUE(game->step(east));
  EXPECT_EQ(game->sim().tick(), 2u);
  EXPECT_EQ(game->controller().last_input().move_x, 127);
}

TEST(SquadWorld, restart_starts_a_new_simulation_with_the_seed) {
  const SquadMap map = rooms();
  auto game = SquadWorld::create(map, {.seed = 2});
  ASSERT_TRUE(game);
  InputFrame east;
  east.move_x = 127;
  for (int k = 0; k < 30; ++k) ASSERT_TRUE(game->step(east));
  ASSERT_TRUE(game->restart(9));
  ASSERT_TRUE(game->step({}));
  auto fresh = SquadSim::create(map, {.seed = 9});
  ASSERT_TRUE(fresh);
  fresh->step({});
  EXPECT_EQ(game->sim().seed(), 9u);
  EXPECT_EQ(game->sim().state_hash(), fresh->state_hash());
}

TEST(SquadCommands, payloads_round_trip_and_reject_non_canonical_bytes) {
  const world::ObjectId id{1, squad::class_ids::kSquadGame, 1};
  const auto move = world::decode_payload<SquadMoveCommand>(world::encode_payload(SquadMoveCommand{id, -127, 5, true}));
  ASSERT_TRUE(move);
  EXPECT_EQ(*move, (SquadMoveCommand{id, -127, 5, true}));
  core::Bytes b = world::encode_payload(SquadMoveCommand{id, 0, 0, false});
  b[8] = 0x80;
  EXPECT_EQ(world::decode_payload<SquadMoveCommand>(b).error().code, "squad.command.payload");
  b[8] = 0;
  b[10] = 2;  // sprint must be 0 or 1
  EXPECT_EQ(world::decode_payload<SquadMoveCommand>(b).error().code, "squad.command.payload");
  core::Bytes aim = world::encode_payload(SquadAimCommand{id, true, true});
  EXPECT_EQ(aim[8], 3);
  aim[8] = 4;
  EXPECT_FALSE(world::decode_payload<SquadAimCommand>(aim));
  core::Bytes form = world::encode_payload(SquadFormationCommand{id, 3});
  form[8] = 0;
  EXPECT_FALSE(world::decode_payload<SquadFormationCommand>(form));
  form[8] = 4;
  EXPECT_FALSE(world::decode_payload<SquadFormationCommand>(form));
  core::Bytes session = world::encode_payload(SquadSessionCommand{id, 1, 2, kInputLogTicksMax + 1});
  EXPECT_FALSE(world::decode_payload<SquadSessionCommand>(session));
  EXPECT_EQ(session.size(), 32u);
  // The kinds sit at their reserved wire ids.
  const auto& reg = *squad_command_registry();
  for (world::CommandKindId wire = 24; wire <= 29; ++wire) ASSERT_NE(reg.find(wire), nullptr) << wire;
  EXPECT_EQ(reg.find(24)->name, "squad.move");
  EXPECT_EQ(reg.find(29)->name, "squad.session");
  EXPECT_EQ(reg.find(30), nullptr);
}

}  // namespace
}  // namespace sortie::squad
