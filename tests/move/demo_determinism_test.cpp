// State hash, replay and cross-compiler determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "sortie/core/hash.hpp"
#include "sortie/move/demo_world.hpp"
#include "sortie/move/v1_commands.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_log.hpp"
#include "sortie/world/replay.hpp"
#include "sortie/world/world.hpp"
#include "v1_world.hpp"

using namespace sortie::world;
using namespace sortie::move;
using sortie::core::hash_hex;
using sortie::move::test::v1_registry;

namespace {

constexpr std::uint64_t kDemoSeed = 0x5eed'0003;

WorldSetup demo_setup(std::uint32_t units) {
  return [units](World& w) { return populate_demo_world(w, DemoConfig{.units = units}); };
}

std::uint64_t run_demo(std::uint64_t ticks, std::uint32_t units) {
  World world(WorldConfig{.seed = kDemoSeed, .keep_hash_history = false, .commands = v1_registry()});
  EXPECT_TRUE(demo_setup(units)(world));
  for (std::uint64_t i = 0; i < ticks; ++i) EXPECT_TRUE(world.tick());
  return world.last_hash();
}

// The commands a "player" gives during the live run, decided from the live state.
void play(World& world, std::uint64_t ticks) {
  for (std::uint64_t t = 0; t < ticks; ++t) {
    const std::uint64_t now = world.clock().tick;
    if (now % 37 == 5 && !world.queue().empty()) {
      const WorldObject* o = world.find(world.queue()[now % world.queue().size()]);
      ASSERT_TRUE(world.submit(make_command(now, MoveCommand{o->id(), {10.0f, static_cast<float>(now % 50)}, 6.0f})));
    }
    if (now == 100) {
      ASSERT_TRUE(world.submit(make_command(now, PauseCommand{true})));
    }
    if (now == 120) {
      ASSERT_TRUE(world.submit(make_command(now, PauseCommand{false})));
    }
    if (now == 150) {
      ASSERT_TRUE(world.submit(make_command(now, SetSpeedCommand{2500})));
    }
    if (now % 90 == 7) {
      ASSERT_TRUE(world.submit(make_command(now, SpawnCommand{9, "crate", {1.0f, 2.0f, 0.0f}})));
    }
    if (now == 300) {
      ASSERT_TRUE(world.submit(make_command(now, RemoveCommand{ObjectId{1, 9, 1}})));
    }
    if (now == 301) {
      ASSERT_TRUE(world.submit(make_command(now, SetPropertyCommand{ObjectId{1, 9, 2}, "loot", 42})));
    }
    ASSERT_TRUE(world.tick());
  }
}

}  // namespace

// Golden hash of the demo world (64 units, churn on) after 10,000 ticks. gcc 12 and clang 14
// release builds both produce it; a change here means the simulation or the canonical
// encoding changed, which must be deliberate.
constexpr std::uint64_t kGoldenDemoHash10k = 0x20582900977e17acULL;

TEST(Determinism, ten_thousand_ticks_twice_give_the_same_hash) {
  const std::uint64_t first = run_demo(10'000, 64);
  const std::uint64_t second = run_demo(10'000, 64);
  std::printf("demo world hash after 10000 ticks: %s\n", hash_hex(first).c_str());
  EXPECT_EQ(first, second);
  EXPECT_EQ(first, kGoldenDemoHash10k) << "got " << hash_hex(first);
}

TEST(Determinism, demo_world_exercises_events_deletion_and_respawn) {
  World world(WorldConfig{.seed = kDemoSeed, .keep_hash_history = false, .commands = v1_registry()});
  ASSERT_TRUE(populate_demo_world(world, DemoConfig{.units = 64}));
  std::uint64_t arrivals = 0;
  std::uint64_t damage = 0;
  world.on(EventType::arrived, [&](World&, const Event&) { ++arrivals; });
  world.on(EventType::damage, [&](World&, const Event&) { ++damage; });
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(world.tick());
  EXPECT_EQ(world.live_count(), 64u);  // every deletion from a handler came with a respawn
  EXPECT_EQ(world.queue().size(), 64u);
  std::uint64_t max_registration = 0;
  std::uint32_t max_generation = 0;
  for (const Handle& h : world.queue()) {
    max_registration = std::max(max_registration, world.find(h)->registration_sequence());
    max_generation = std::max(max_generation, h.generation);
  }
  EXPECT_GT(max_registration, 64u);  // respawned units were registered later
  EXPECT_GT(max_generation, 1u);     // and reuse released slots
  EXPECT_GT(arrivals, 100u);
  EXPECT_GT(damage, 10u);
}

TEST(Determinism, different_seed_gives_a_different_hash) {
  World a(WorldConfig{.seed = 1, .commands = v1_registry()});
  World b(WorldConfig{.seed = 2, .commands = v1_registry()});
  ASSERT_TRUE(populate_demo_world(a, DemoConfig{.units = 8}));
  ASSERT_TRUE(populate_demo_world(b, DemoConfig{.units = 8}));
  EXPECT_NE(a.compute_state_hash(), b.compute_state_hash());
}

TEST(Determinism, hash_sees_transform_bits_and_property_order) {
  World world(WorldConfig{.commands = v1_registry()});
  auto h = world.add_new_object(1, "a");
  const auto base = world.compute_state_hash();
  world.find(*h)->transform.position.x = -0.0f;  // equal to 0.0f, different bits
  const auto negzero = world.compute_state_hash();
  EXPECT_NE(base, negzero);
  world.find(*h)->transform.position.x = 0.0f;
  EXPECT_EQ(world.compute_state_hash(), base);
  world.find(*h)->properties.set("a", std::int64_t{1});
  world.find(*h)->properties.set("b", std::int64_t{2});
  const auto ab = world.compute_state_hash();
  world.find(*h)->properties.erase("a");
  world.find(*h)->properties.set("a", std::int64_t{1});
  EXPECT_NE(world.compute_state_hash(), ab);  // same items, other order
}

TEST(Determinism, hash_is_recorded_after_every_tick) {
  World world(WorldConfig{.seed = 3, .commands = v1_registry()});
  ASSERT_TRUE(populate_demo_world(world, DemoConfig{.units = 4}));
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(world.tick());
  ASSERT_EQ(world.hash_history().size(), 5u);
  EXPECT_EQ(world.hash_history().back(), world.last_hash());
  EXPECT_EQ(world.last_hash(), world.compute_state_hash());
  EXPECT_NE(world.hash_history()[0], world.hash_history()[1]);
}

TEST(Determinism, replay_of_the_command_log_equals_the_live_run) {
  const WorldConfig config{.seed = kDemoSeed, .commands = v1_registry()};
  World live(config);
  ASSERT_TRUE(demo_setup(32)(live));
  play(live, 600);
  ASSERT_GT(live.command_log().commands.size(), 20u);
  ASSERT_GT(live.commands_applied(), 15u);

  auto status = verify_replay(live.command_log(), config, demo_setup(32), live.hash_history());
  EXPECT_TRUE(status) << (status ? "" : status.error().to_string());

  // Through both serialisations.
  auto json = command_log_json(live.command_log(), *v1_registry());
  ASSERT_TRUE(json);
  auto from_json = command_log_from_json(*json, *v1_registry());
  ASSERT_TRUE(from_json);
  EXPECT_EQ(*from_json, live.command_log());
  auto bytes = write_command_log(live.command_log(), *v1_registry());
  ASSERT_TRUE(bytes);
  auto from_bytes = read_command_log(*bytes, *v1_registry());
  ASSERT_TRUE(from_bytes);
  EXPECT_EQ(*from_bytes, live.command_log());
  auto replayed = replay(*from_bytes, config, demo_setup(32), 600);
  ASSERT_TRUE(replayed);
  EXPECT_EQ(replayed->final_hash, live.last_hash());
}

TEST(Determinism, replay_reports_the_first_diverging_tick) {
  const WorldConfig config{.seed = kDemoSeed, .commands = v1_registry()};
  World live(config);
  ASSERT_TRUE(demo_setup(8)(live));
  play(live, 200);
  CommandLog edited = live.command_log();
  ASSERT_FALSE(edited.commands.empty());
  auto move = payload_of<MoveCommand>(edited.commands[0]);
  ASSERT_TRUE(move);
  move->goal.x += 1.0f;
  edited.commands[0] = make_command(edited.commands[0].tick, *move);
  auto status = verify_replay(edited, config, demo_setup(8), live.hash_history());
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, "world.replay.diverged");
  EXPECT_EQ(status.error().field, "ticks[" + std::to_string(edited.commands[0].tick + 1) + "]");
}
