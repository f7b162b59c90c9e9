// SquadSim as a whole: construction, determinism, the state machine, bullets as projectiles
// (earliest hit along the step, friendly fire, the checked segment), firing, runs and replays.
#include "sortie/squad/sim.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "sortie/core/hash.hpp"
#include "sortie/squad/run.hpp"

namespace sortie::squad {
namespace {

using core::Vec2;

// A 24x12 room; the squad's disc at (4,5); hostiles sealed away top right unless `extra` adds more.
std::string room(std::string_view header, std::vector<std::string> rows = {}) {
  std::string text = "squad-map 1\n";
  text += header;
  text += "grid 24 12\n";
  if (rows.empty()) {
    rows = {"########################", "###################h#..#", "#..................#####",
            "#......................#", "#......................#", "#...@..................#",
            "#......................#", "#......................#", "#......................#",
            "#......................#", "#......................#", "########################"};
  }
  for (const auto& r : rows) text += r + "\n";
  return text;
}

SquadSim make(std::string_view text, std::uint64_t seed = 1) {
  auto map = parse_squad_map(text, "room");
  EXPECT_TRUE(map) << map.error().to_string();
  auto sim = SquadSim::create(*map, SimConfig{.seed = seed, .keep_event_log = true, .keep_hash_history = true});
  EXPECT_TRUE(sim) << sim.error().to_string();
  return std::move(*sim);
}

void place(SquadSim& sim, std::size_t i, Vec2 p) {
  Agent& a = sim.edit_agent(i);
  a.pos = a.post = a.home = a.seek = p;
  a.vel = {};
}

// Still hostiles, and a hard limit wide enough that no placed agent is drawn in towards the disc.
constexpr std::string_view kStill =
    "tune hostileSpeed 0\ntune targetHp 1000\ntune cohesionRadius 30\ntune postLeash 30\n";

TEST(SquadSim, builds_the_squad_in_its_formation) {
  SquadSim sim = make(room("squad 5\n"));
  ASSERT_EQ(sim.agents().size(), 5u);
  ASSERT_EQ(sim.squads().size(), 1u);
  EXPECT_EQ(sim.squads()[0].disc, (Vec2{4.5f, 5.5f}));
  EXPECT_EQ(sim.squads()[0].state, SquadState::holding);
  EXPECT_EQ(sim.agents()[0].role, Role::blade);
  EXPECT_EQ(sim.agents()[1].role, Role::blade);
  EXPECT_EQ(sim.agents()[2].role, Role::rifle);
  EXPECT_EQ(sim.agents()[0].pos, (Vec2{5.5f, 5.5f}));  // wedge point, heading east
  EXPECT_EQ(sim.agents()[1].pos, (Vec2{4.5f, 4.5f}));  // left wing (north when facing east)
  EXPECT_EQ(sim.live_targets(), 1u);
}

TEST(SquadSim, rejects_maps_it_cannot_run) {
  auto map = parse_squad_map(room("squad 5\n"));
  ASSERT_TRUE(map);
  SquadMap bad = *map;
  bad.solid.pop_back();
  EXPECT_EQ(SquadSim::create(bad).error().code, "squad.sim.map");
  bad = *map;
  bad.squad_size = 6;
  EXPECT_EQ(SquadSim::create(bad).error().code, "squad.sim.limit");
  bad = *map;
  bad.hostiles.push_back({40, 3});
  EXPECT_EQ(SquadSim::create(bad).error().code, "squad.sim.map");
  bad = *map;
  bad.tune.emplace_back("moveSpeed", "9");  // above moveSpeedFast
  EXPECT_EQ(SquadSim::create(bad).error().code, "squad.tuning.relation");
}

TEST(SquadSim, same_seed_and_input_same_hash_every_tick) {
  const std::string text =
      room("squad 5\n", {"########################", "#.....................H#", "#......................#",
                         "#......................#", "#......................#", "#...@.........h........#",
                         "#......................#", "#......................#", "#......................#",
                         "#......................#", "#..........h...........#", "########################"});
  SquadSim a = make(text, 5);
  SquadSim b = make(text, 5);
  SquadSim other = make(text, 6);
  EXPECT_EQ(a.state_hash(), b.state_hash());
  for (int k = 0; k < 600; ++k) {
    const InputFrame f = k < 200 ? InputFrame::moving_towards({1.0f, 0.2f}) : InputFrame{};
    a.step(f);
    b.step(f);
    other.step(f);
  }
  EXPECT_TRUE(
      std::equal(a.hash_history().begin(), a.hash_history().end(), b.hash_history().begin(), b.hash_history().end()));
  EXPECT_EQ(a.hash_history().size(), 601u);
  EXPECT_NE(a.state_hash(), other.state_hash());  // the seed sets the hostiles' pace and spawns
  EXPECT_GT(a.stats().shots, 0u);
}

TEST(SquadSim, holds_after_0_15_s_without_input_and_posts_where_it_stands) {
  SquadSim sim = make(room("squad 3\ntune meleeCount 0\n"));
  for (int k = 0; k < 30; ++k) sim.step(InputFrame::moving_towards({1.0f, 0.0f}));
  EXPECT_EQ(sim.squads()[0].state, SquadState::advancing);
  int ticks = 0;
  while (sim.squads()[0].state == SquadState::advancing) {
    sim.step({});
    ++ticks;
  }
  // 0.15 s is nine ticks of 1/60 s; HOLDING on the first tick past it: the ninth or tenth.
  EXPECT_GE(ticks, 9);
  EXPECT_LE(ticks, 10);
  for (const Agent& a : sim.agents()) {
    EXPECT_LT(core::distance(a.post, a.pos), 0.05f);
    EXPECT_EQ(a.commit_timer, 0.0f);
  }
}

TEST(SquadSim, formation_key_changes_the_slots) {
  SquadSim sim = make(room("squad 5\n"));
  InputFrame f;
  f.formation = 2;  // line
  sim.step(f);
  EXPECT_EQ(sim.squads()[0].formation, Formation::line);
  ASSERT_FALSE(sim.events().empty());
  EXPECT_EQ(sim.events()[0].kind, EventKind::formation_changed);
}

// Bullets: walls, targets and every capsule but the shooter's; the earliest contact wins.
class Bullets : public ::testing::Test {
 protected:
  SquadSim sim = make(room("squad 3\ntune meleeCount 0\n" + std::string(kStill)));
  void SetUp() override {
    place(sim, 0, {2.5f, 9.5f});
    place(sim, 1, {12.5f, 5.5f});
    place(sim, 2, {16.5f, 9.5f});
  }
  void run(int ticks) {
    for (int k = 0; k < ticks; ++k) sim.step({});
  }
};

TEST_F(Bullets, an_ally_on_the_line_is_hit_and_counted) {
  sim.add_bullet(0, {3.0f, 5.5f}, {1.0f, 0.0f}, 15.0f);
  run(60);
  EXPECT_EQ(sim.stats().friendly_hits, 1u);
  EXPECT_EQ(sim.agents()[1].hp, sim.tuning().agent_hp - 1.0f);
  bool logged = false;
  for (const Event& e : sim.event_log()) {
    if (e.kind != EventKind::friendly_hit) continue;
    logged = true;
    EXPECT_EQ(e.actor, 0);
    EXPECT_EQ(e.subject, 1);
    EXPECT_NEAR(e.pos.x, 12.5f - 0.28f - 0.04f, 1e-4f);  // contact at body + bullet radius
    EXPECT_EQ(e.value, sim.tuning().agent_hp - 1.0f);
  }
  EXPECT_TRUE(logged);
}

TEST_F(Bullets, the_nearer_of_two_allies_on_the_line_is_hit) {
  place(sim, 1, {9.5f, 9.5f});
  sim.add_bullet(0, {3.0f, 9.5f}, {1.0f, 0.0f}, 20.0f);  // agent 1 at 9.5, agent 2 at 16.5
  run(60);
  EXPECT_EQ(sim.stats().friendly_hits, 1u);
  EXPECT_LT(sim.agents()[1].hp, sim.tuning().agent_hp);
  EXPECT_EQ(sim.agents()[2].hp, sim.tuning().agent_hp);
}

TEST(BulletsOrder, wall_before_ally_and_target_before_ally) {
  const std::string text = room(
      "squad 3\ntune meleeCount 0\n" + std::string(kStill),
      {"########################", "###################h####", "#..................#####", "#......................#",
       "#......................#", "#...@......#...........#", "#......................#", "#......................#",
       "#......................#", "#......................#", "#......................#", "########################"});
  SquadSim sim = make(text);
  place(sim, 0, {2.5f, 9.5f});
  place(sim, 1, {14.5f, 5.5f});  // behind the wall cell (11,5)
  place(sim, 2, {16.5f, 9.5f});
  sim.add_bullet(0, {3.0f, 5.5f}, {1.0f, 0.0f}, 15.0f);
  const std::uint32_t t = sim.add_target({10.5f, 9.5f}, false);
  sim.add_bullet(0, {3.0f, 9.5f}, {1.0f, 0.0f}, 15.0f);
  for (int k = 0; k < 60; ++k) sim.step({});
  EXPECT_EQ(sim.stats().bullet_wall_hits, 1u);
  EXPECT_EQ(sim.stats().friendly_hits, 0u);
  EXPECT_EQ(sim.agents()[1].hp, sim.tuning().agent_hp);
  EXPECT_EQ(sim.agents()[2].hp, sim.tuning().agent_hp);
  EXPECT_LT(sim.targets()[t].hp, sim.tuning().target_hp);
}

TEST_F(Bullets, never_fly_past_their_checked_segment_and_skip_the_shooter) {
  sim.add_bullet(0, {2.5f, 9.5f}, {0.0f, -1.0f}, 3.0f);  // starts inside the shooter's body
  ASSERT_EQ(sim.bullets().size(), 1u);
  float travelled = 0.0f;
  const Vec2 start = sim.bullets()[0].pos;
  while (!sim.bullets().empty()) {
    travelled = core::distance(start, sim.bullets()[0].pos);
    sim.step({});
  }
  EXPECT_LE(travelled, 3.0f + 1e-5f);
  EXPECT_EQ(sim.stats().bullets_expired, 1u);
  EXPECT_EQ(sim.stats().friendly_hits, 0u);
  EXPECT_EQ(sim.agents()[0].hp, sim.tuning().agent_hp);
}

TEST(Firing, a_shot_flies_along_the_checked_segment_only) {
  SquadSim sim = make(room("squad 1\ntune meleeCount 0\n" + std::string(kStill)));
  place(sim, 0, {4.5f, 8.5f});
  const std::uint32_t t = sim.add_target({10.5f, 8.5f}, false);
  sim.step({});
  ASSERT_EQ(sim.stats().shots, 1u);
  ASSERT_EQ(sim.bullets().size(), 1u);
  const Bullet& b = sim.bullets()[0];
  EXPECT_EQ(b.aimed_at, static_cast<std::int32_t>(t));
  // Muzzle at 4.8; checked segment 10.5 - 4.8 + 0.35 = 6.05, one step of 20/60 flown.
  EXPECT_NEAR(b.pos.x, 4.8f + 20.0f / 60.0f, 1e-4f);
  EXPECT_NEAR(b.remaining, 6.05f - 20.0f / 60.0f, 1e-4f);
  EXPECT_NEAR(sim.agents()[0].cooldown, 0.35f, 1e-6f);
}

TEST(Firing, never_through_an_ally_in_the_lane) {
  SquadSim sim = make(room("squad 2\ntune meleeCount 0\n" + std::string(kStill)));
  place(sim, 0, {3.5f, 8.5f});
  place(sim, 1, {7.5f, 8.5f});
  sim.add_target({10.5f, 8.5f}, false);
  sim.step({});
  const Agent& a = sim.agents()[0];
  EXPECT_FALSE(a.has_lane);
  EXPECT_TRUE(a.blocked_by_ally);
  EXPECT_TRUE(a.lane_intent);
  for (const Event& e : sim.events()) EXPECT_FALSE(e.kind == EventKind::shot && e.actor == 0);
}

TEST(Run, recorded_input_replays_to_the_same_hash) {
  auto map = parse_squad_map(
      room("squad 5\n", {"########################", "#.....................H#", "#......................#",
                         "#......................#", "#......................#", "#...@.........h........#",
                         "#......................#", "#......................#", "#......................#",
                         "#......................#", "#..........h...........#", "########################"}));
  ASSERT_TRUE(map);
  RunOptions o;
  o.seconds = 20.0;
  o.seed = 3;
  const auto first = run_squad(*map, o);
  ASSERT_TRUE(first) << first.error().to_string();
  EXPECT_EQ(first->ticks, 1200u);
  const auto log = read_input_log(write_input_log(first->log));
  ASSERT_TRUE(log);
  RunOptions r;
  r.replay = &*log;
  const auto again = run_squad(*map, r);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->replayed);
  EXPECT_EQ(again->seed, 3u);
  EXPECT_EQ(again->final_hash, first->final_hash);
  SquadMap edited = *map;
  edited.tune.emplace_back("weaponRange", "9");
  EXPECT_EQ(run_squad(edited, r).error().code, "squad.run.map_mismatch");
  RunOptions bad;
  bad.seconds = -1.0;
  EXPECT_EQ(run_squad(*map, bad).error().code, "squad.run.seconds");
}

// The simulation hashes float state, so it must give the same bits everywhere: this value is the
// same from gcc and clang, release and debug (a change of behaviour changes it on purpose).
TEST(Run, final_hash_is_the_same_on_every_compiler_and_build) {
  const auto map = load_squad_map(std::filesystem::path(SORTIE_SOURCE_DIR) / "data" / "squad" / "rooms.txt");
  ASSERT_TRUE(map) << map.error().to_string();
  RunOptions o;
  o.seconds = 20.0;
  o.seed = 3;
  const auto rep = run_squad(*map, o);
  ASSERT_TRUE(rep);
  EXPECT_EQ(core::hash_hex(rep->final_hash), "269d1625ee81d79a");
}

}  // namespace
}  // namespace sortie::squad
