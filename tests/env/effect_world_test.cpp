// Effects as world state (env/effect_world.hpp): fx.start is a registered command, its instances
// live in the state hash for their header lifetime, a replay of the log reaches the same hash,
// and a hostile command is refused with the world intact.
#include "sortie/env/effect_world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sortie/env/class_ids.hpp"
#include "sortie/env/limits.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_log.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/replay.hpp"
#include "sortie/world/world.hpp"

namespace sortie::env::effect_world_test {
namespace {

std::shared_ptr<const EffectLibrary> library() {
  auto lib = std::make_shared<EffectLibrary>();
  auto e = assets::prepare_effect(assets::lightning_fxid("sounds.lib", "THUNDER1.WAV", "env_lightning"), "effects.rlb",
                                  "lightning");
  EXPECT_TRUE(e.has_value());
  lib->add(std::make_shared<const assets::PreparedEffect>(std::move(*e)));
  return lib;
}

world::WorldConfig config(std::shared_ptr<const EffectLibrary> lib = nullptr) {
  world::CommandRegistry r = world::CommandRegistry::standard();
  EXPECT_TRUE(register_effect_commands(r, std::move(lib)).has_value());
  world::WorldConfig c;
  c.commands = std::make_shared<const world::CommandRegistry>(std::move(r));
  c.seed = 5;
  return c;
}

StartEffectCommand start(std::string name = "lightning", core::Vec3 at = {10, 20, 30}, std::uint32_t ms = 250) {
  StartEffectCommand c;
  c.name = std::move(name);
  c.position = at;
  c.lifetime_ms = ms;
  return c;
}

TEST(EffectWorld, the_issuer_reads_the_lifetime_from_the_effects_header) {
  const auto lib = library();
  auto c = start_effect_command(*lib, "Lightning", {1, 2, 3});
  ASSERT_TRUE(c.has_value()) << c.error().to_string();
  EXPECT_EQ(c->lifetime_ms, 250u);
  EXPECT_EQ(c->name, "Lightning");
  auto unknown = start_effect_command(*lib, "smoke", {1, 2, 3});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code, "fx.unknown");
  EXPECT_NE(unknown.error().message.find("effects.rlb/lightning"), std::string::npos);  // what there is
  auto nan = start_effect_command(*lib, "lightning", {std::numeric_limits<float>::quiet_NaN(), 0, 0});
  ASSERT_FALSE(nan.has_value());
  EXPECT_EQ(nan.error().code, "fx.position");
}

// Tick 16 ms: an effect of 250 ms applied at game time s is in the state after every tick whose
// time t < s + 250: 15 ticks (t = s + 16 .. s + 240), gone at t = s + 256.
TEST(EffectWorld, an_instance_lives_from_its_tick_to_the_last_tick_before_its_end) {
  world::World w(config());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(w.tick());
  const std::uint64_t s = w.clock().time_us;
  ASSERT_TRUE(w.submit(world::make_command(w.clock().tick, start())));
  EXPECT_EQ(find_effects_state(w), nullptr);  // applied at the start of the next tick
  ASSERT_TRUE(w.tick());
  const EffectsState* st = find_effects_state(w);
  ASSERT_NE(st, nullptr);
  ASSERT_EQ(st->live.size(), 1u);
  EXPECT_EQ(st->live[0], (EffectInstanceState{1, "lightning", {10, 20, 30}, s, s + 250'000}));
  EXPECT_EQ(st->started, 1u);
  int ticks_alive = 1;
  while (!live_effects(w).empty()) {
    EXPECT_LT(w.clock().time_us, s + 250'000);
    ASSERT_TRUE(w.tick());
    ++ticks_alive;
  }
  EXPECT_EQ(ticks_alive, 16);  // the tick that removed it counted: 15 alive after, gone after the 16th
  EXPECT_GE(w.clock().time_us, s + 250'000);
  EXPECT_EQ(find_effects_state(w)->started, 1u);
  // The effects object is a system object: not drawn, not in snapshots.
  const auto h = w.lookup(effects_object_id(w));
  ASSERT_TRUE(h);
  EXPECT_FALSE(w.find(*h)->visible);
  EXPECT_EQ(w.classes().find(class_ids::kEffects)->name, "effects");
  const auto snapshot = w.snapshot();
  for (const auto& o : snapshot->objects) EXPECT_NE(o.id.class_id, class_ids::kEffects);
}

std::vector<world::Command> storm_commands() {
  return {world::make_command(2, start("lightning", {1, 2, 3})), world::make_command(2, start("lightning", {4, 5, 6})),
          world::make_command(9, start("lightning", {7, 8, 9}))};
}

// The hash after every tick of 40.
std::vector<std::uint64_t> run(const world::WorldConfig& c, const std::vector<world::Command>& commands,
                               world::World** out = nullptr) {
  static std::unique_ptr<world::World> keep;
  keep = std::make_unique<world::World>(c);
  for (const auto& cmd : commands) EXPECT_TRUE(keep->submit(cmd).has_value());
  for (int i = 0; i < 40; ++i) EXPECT_TRUE(keep->tick().has_value());
  if (out != nullptr) *out = keep.get();
  return keep->hash_history();
}

TEST(EffectWorld, effects_are_in_the_state_hash_and_the_same_starts_hash_the_same) {
  const auto with = run(config(), storm_commands());
  EXPECT_EQ(with, run(config(), storm_commands()));
  EXPECT_NE(with, run(config(), {}));
  auto moved = storm_commands();
  moved[1] = world::make_command(2, start("lightning", {4, 5, 7}));
  EXPECT_NE(with, run(config(), moved));
  // A world that never starts an effect encodes as before: no effects object, no component.
  world::World plain(config());
  world::WorldConfig standard;
  standard.seed = 5;
  world::World other(standard);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(plain.tick());
    ASSERT_TRUE(other.tick());
  }
  EXPECT_EQ(plain.last_hash(), other.last_hash());
}

TEST(EffectWorld, a_replay_of_the_command_log_reaches_the_same_hash) {
  world::World* live = nullptr;
  const auto hash = run(config(library()), storm_commands(), &live).back();
  const world::CommandLog log = live->command_log();
  const auto history = live->hash_history();
  // Bytes and JSON both carry the command; the replay needs no game data (no library bound).
  const auto registry = config().commands;
  auto bytes = world::write_command_log(log, *registry);
  ASSERT_TRUE(bytes.has_value()) << bytes.error().to_string();
  auto back = world::read_command_log(*bytes, *registry);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  auto json = world::command_log_json(log, *registry);
  ASSERT_TRUE(json.has_value());
  EXPECT_NE(json->dump().find("\"kind\":\"fx.start\""), std::string::npos) << json->dump();
  EXPECT_NE(json->dump().find("\"lifetime_ms\":250"), std::string::npos);
  auto from_json = world::command_log_from_json(*json, *registry);
  ASSERT_TRUE(from_json.has_value()) << from_json.error().to_string();
  const auto none = [](world::World&) -> core::Status { return {}; };
  auto replayed = world::replay(*from_json, config(), none, 40);
  ASSERT_TRUE(replayed.has_value()) << replayed.error().to_string();
  EXPECT_EQ(replayed->final_hash, hash);
  EXPECT_TRUE(world::verify_replay(*back, config(), none, history).has_value());
}

TEST(EffectWorld, hostile_starts_are_refused_and_the_world_is_intact) {
  world::World w(config(library()));
  ASSERT_TRUE(w.tick());
  const auto before = w.compute_state_hash();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::pair<StartEffectCommand, std::string>> bad{
      {start(""), "an effect name has 1..128 bytes"},
      {start(std::string(kEffectNameMax + 1, 'x')), ""},  // over the text bound: the payload does not decode
      {start("lightning", {nan, 0, 0}), "position must be finite"},
      {start("lightning", {0, std::numeric_limits<float>::infinity(), 0}), "position must be finite"},
      {start("lightning", {0, 0, 0}, 0), "lifetime is 1..3600000 ms"},
      {start("lightning", {0, 0, 0}, kEffectLifetimeMaxMs + 1), "lifetime is 1..3600000 ms"},
      {start("smoke"), "'smoke' is not an effect the mission prepared"},
      {start("lightning", {0, 0, 0}, 251), "the lifetime of 'lightning' is its header's (250 ms)"}};
  for (const auto& [c, what] : bad) {
    auto st = w.submit(world::make_command(w.clock().tick, c));
    ASSERT_FALSE(st.has_value()) << c.name.size() << " " << what;
    EXPECT_EQ(st.error().code.rfind("world.command.", 0), 0u) << st.error().to_string();
    EXPECT_NE(st.error().to_string().find(what), std::string::npos) << st.error().to_string();
  }
  EXPECT_TRUE(w.command_log().commands.empty());
  ASSERT_TRUE(w.tick());
  EXPECT_EQ(find_effects_state(w), nullptr);
  EXPECT_EQ(w.commands_applied(), 0u);
  // Only the clock moved: a world that got none of them is the same.
  world::World clean(config(library()));
  ASSERT_TRUE(clean.tick());
  EXPECT_EQ(clean.compute_state_hash(), before);
  ASSERT_TRUE(clean.tick());
  EXPECT_EQ(clean.last_hash(), w.last_hash());
  // Without a library (a replica) the name and lifetime are only bounded.
  world::World replica(config());
  EXPECT_TRUE(replica.submit(world::make_command(0, start("smoke", {0, 0, 0}, 251))).has_value());
}

}  // namespace
}  // namespace sortie::env::effect_world_test
