#include "sortie/scenario/super_ai.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sortie/iron3d/tma.hpp"
#include "sortie/world/world.hpp"
#include "sortie_test/move_world.hpp"

namespace sortie::scenario {
namespace {

using move_test::TestWorld;

// Blue (clan 1) against Red (clan 2) on a flat 200 x 200 square; Grey (clan 0) is neutral.
// Relations are written one way only (Red -> Blue) to check that either direction counts.
std::shared_ptr<assets::MissionData> three_clans() {
  auto data = std::make_shared<assets::MissionData>();
  data->tma.clans.push_back(iron3d::TmaClan::standard("Grey", 1, {10, 10}, "", 0, "", 0));
  data->tma.clans.push_back(iron3d::TmaClan::standard("Blue", 1, {20, 20}, "", 0, "", 0));
  auto red = iron3d::TmaClan::standard("Red", 1, {180, 180}, "", 0, "", 0);
  red.add_relation("Blue", -1);
  red.add_relation("Grey", 0);
  data->tma.clans.push_back(red);
  return data;
}

// The terrain: the 200 x 200 plane, plus (with `wall`) a vertical wall across x = 100, 40 high.
std::shared_ptr<const nav::TerrainWorld> ground(bool wall) {
  nav::TriangleSoup soup;
  soup.positions = {{0, 0, 0}, {200, 0, 0}, {200, 200, 0}, {0, 200, 0}};
  soup.faces = {{{0, 1, 2}, 1}, {{0, 2, 3}, 1}};
  if (wall) {
    soup.positions.insert(soup.positions.end(), {{100, 0, 0}, {100, 200, 0}, {100, 200, 40}, {100, 0, 40}});
    soup.faces.push_back({{4, 5, 6}, 2});
    soup.faces.push_back({{4, 6, 7}, 2});
  }
  auto t = nav::TerrainWorld::build(soup);
  EXPECT_TRUE(t);
  return std::make_shared<const nav::TerrainWorld>(std::move(*t));
}

struct Arena {
  TestWorld tw;
  MissionFacts facts;
  std::vector<std::string> traces;
  std::vector<world::Event> events;
  std::uint32_t next_index = 1;

  explicit Arena(bool wall = false) : tw(move_test::environment(ground(wall), move_test::areal_grid(10, 20.0f))) {
    facts.mission = "arena";
    facts.data = three_clans();
    facts.movement = tw.env;
  }

  world::ObjectId unit(std::int64_t clan, core::Vec2 at) {
    const world::ObjectId id = tw.unit(next_index++, at);
    tw.object(id).properties.set("clan", clan);
    tw.enable(id);
    return id;
  }

  ScenarioContext context() {
    ScenarioContext ctx{
        *tw.world,
        facts,
        tw.world->clock().tick,
        [this](world::Command c) { return tw.world->submit(std::move(c)); },
        [this](std::string_view channel, std::string text) { traces.push_back(std::string(channel) + ": " + text); },
        events};
    return ctx;
  }

  // Steps every controller, then the world, `n` times.
  void run(std::vector<SuperAI*> ais, int n) {
    for (int i = 0; i < n; ++i) {
      auto ctx = context();
      for (SuperAI* ai : ais) ASSERT_TRUE(ai->step(ctx));
      ASSERT_TRUE(tw.world->tick());
    }
  }
};

const UnitRadar* radar_of(const SuperAI& ai, world::ObjectId id) {
  for (const UnitRadar& r : ai.radar())
    if (r.unit == id) return &r;
  return nullptr;
}

TEST(SuperAI, start_finds_the_clan_index_anchor_and_hostility_in_either_direction) {
  Arena a;
  SuperAI blue("Blue"), red("Red"), grey("Grey");
  a.tw.tick();  // the bodies (move.enable) exist from the first tick on, as in a mission run
  auto ctx = a.context();
  ASSERT_TRUE(blue.start(ctx));
  ASSERT_TRUE(red.start(ctx));
  ASSERT_TRUE(grey.start(ctx));
  EXPECT_EQ(blue.clan_id(), 1);
  EXPECT_EQ(red.clan_id(), 2);
  EXPECT_EQ(blue.hostile_clans(), std::vector<std::int32_t>{2});  // from Red's relation to Blue
  EXPECT_EQ(red.hostile_clans(), std::vector<std::int32_t>{1});
  EXPECT_TRUE(grey.hostile_clans().empty());  // a zero relation is not hostile

  SuperAI nobody("Purple");
  auto s = nobody.start(ctx);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "scenario.superai.clan_unknown");
}

TEST(SuperAI, plays_the_hostile_clans_but_not_spatial_ones_nor_the_players) {
  auto data = three_clans();
  data->tma.clans.push_back(iron3d::TmaClan::spatial("Zones", {0, 0}, "", {}, "", 0));
  data->tma.clans.back().add_relation("Blue", -1);
  EXPECT_EQ(superai_clans(data->tma), (std::vector<std::string>{"Blue", "Red"}));
  EXPECT_EQ(superai_clans(data->tma, "Blue"), std::vector<std::string>{"Red"});
  EXPECT_EQ(player_clan(data->tma), "Grey");  // the first clan that is not spatial
  iron3d::Tma only_zones;
  only_zones.clans.push_back(data->tma.clans.back());
  EXPECT_EQ(player_clan(only_zones), "");
}

TEST(SuperAI, a_unit_away_from_its_guard_point_walks_back_and_stays) {
  Arena a;
  const auto u = a.unit(1, {60, 60});
  SuperAI blue("Blue", SuperAIConfig{.guard_radius = 10.0f});
  a.tw.tick();  // the bodies (move.enable) exist from the first tick on, as in a mission run
  auto ctx = a.context();
  ASSERT_TRUE(blue.start(ctx));
  a.run({&blue}, 1);
  ASSERT_NE(radar_of(blue, u), nullptr);
  EXPECT_EQ(radar_of(blue, u)->order, AiOrder::guard);
  a.run({&blue}, 900);
  const auto p = a.tw.position(u);
  EXPECT_LT(std::hypot(p.x - 20.0f, p.y - 20.0f), 10.0f) << p.x << "," << p.y;
  EXPECT_EQ(blue.stats().orders, 1u);  // one goto; the guard point never moved
}

TEST(SuperAI, a_patrol_visits_its_route_in_order_and_loops) {
  Arena a;
  const auto u = a.unit(1, {30, 30});
  SuperAIConfig cfg;
  cfg.patrol_route = {{30, 30}, {70, 30}, {70, 70}};
  cfg.cadence_ticks = 5;
  SuperAI blue("Blue", cfg);
  a.tw.tick();  // the bodies (move.enable) exist from the first tick on, as in a mission run
  auto ctx = a.context();
  ASSERT_TRUE(blue.start(ctx));
  std::vector<std::uint32_t> visited;
  for (int i = 0; i < 200 && visited.size() < 5; ++i) {
    a.run({&blue}, 10);
    const auto idx = radar_of(blue, u)->route_index;
    if (visited.empty() || visited.back() != idx) visited.push_back(idx);
  }
  ASSERT_GE(visited.size(), 4u) << "the patrol keeps moving on";
  for (std::size_t i = 1; i < visited.size(); ++i) EXPECT_EQ(visited[i], (visited[i - 1] + 1) % 3) << i;
  EXPECT_EQ(radar_of(blue, u)->order, AiOrder::patrol);
}

TEST(SuperAI, pursues_the_nearest_visible_enemy_and_ignores_neutrals) {
  Arena a;
  const auto hunter = a.unit(1, {40, 40});
  a.unit(0, {45, 40});  // Grey: neutral, nearer
  const auto near_enemy = a.unit(2, {70, 40});
  a.unit(2, {40, 100});   // farther
  a.unit(2, {190, 190});  // out of sensor range
  SuperAI blue("Blue", SuperAIConfig{.engage = false});
  a.tw.tick();  // the bodies (move.enable) exist from the first tick on, as in a mission run
  auto ctx = a.context();
  ASSERT_TRUE(blue.start(ctx));
  a.run({&blue}, 1);
  const UnitRadar* r = radar_of(blue, hunter);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->order, AiOrder::pursue);
  EXPECT_EQ(r->target, near_enemy);
  EXPECT_EQ(r->enemies_seen, 2u);
  a.run({&blue}, 300);  // five seconds
  const auto p = a.tw.position(hunter);
  EXPECT_GT(p.x, 55.0f) << "the hunter closes in on its target";
}

TEST(SuperAI, gives_no_orders_to_a_unit_a_networked_player_owns_but_still_counts_it) {
  Arena a;
  const auto played = a.unit(1, {40, 40});  // Blue, taken by networked player 2
  const auto own = a.unit(1, {40, 60});     // Blue, the clan's
  const auto enemy = a.unit(2, {70, 40});   // Red
  SuperAI blue("Blue", SuperAIConfig{.engage = false}), red("Red", SuperAIConfig{.engage = false});
  a.tw.tick();  // the bodies (move.enable) exist from the first tick on, as in a mission run
  // A client took it (net.change_owner): on every replica it is now a mirror of player 2.
  const auto handle = a.tw.world->lookup(played);
  ASSERT_TRUE(handle.has_value());
  ASSERT_TRUE(a.tw.world->change_owner(*handle, 2));
  auto ctx = a.context();
  ASSERT_TRUE(blue.start(ctx));
  ASSERT_TRUE(red.start(ctx));
  a.run({&blue, &red}, 1);
  EXPECT_EQ(radar_of(blue, played), nullptr);  // the player's to order
  const UnitRadar* mine = radar_of(blue, own);
  ASSERT_NE(mine, nullptr);
  EXPECT_EQ(mine->order, AiOrder::pursue);
  EXPECT_EQ(mine->friends_near, 2u);  // the played unit is still a friend
  const UnitRadar* theirs = radar_of(red, enemy);
  ASSERT_NE(theirs, nullptr);
  EXPECT_EQ(theirs->enemies_seen, 2u);
  EXPECT_EQ(theirs->target, played);  // and still an enemy: the nearest one
  a.run({&blue, &red}, 120);
  EXPECT_EQ(radar_of(blue, played), nullptr);
  EXPECT_EQ(blue.radar().size(), 1u);
}

TEST(SuperAI, a_wall_hides_the_enemy_behind_it) {
  Arena open_field(false), walled(true);
  for (Arena* a : {&open_field, &walled}) {
    const auto hunter = a->unit(1, {80, 50});
    a->unit(2, {120, 50});
    SuperAI blue("Blue", SuperAIConfig{.guard_point = core::Vec2{80, 50}, .engage = false});
    a->tw.tick();
    auto ctx = a->context();
    ASSERT_TRUE(blue.start(ctx));
    a->run({&blue}, 1);
    const UnitRadar* r = radar_of(blue, hunter);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->enemies_seen, a == &walled ? 0u : 1u);
    EXPECT_EQ(r->order, a == &walled ? AiOrder::idle : AiOrder::pursue);
    EXPECT_GT(blue.stats().sight_rays, 0u);
  }
}

TEST(SuperAI, an_outnumbered_unit_falls_back_to_its_guard_point) {
  Arena a;
  const auto lone = a.unit(1, {100, 100});
  for (float y : {90.0f, 100.0f, 110.0f}) a.unit(2, {130, y});
  SuperAI blue("Blue", SuperAIConfig{.engage = false});
  a.tw.tick();  // the bodies (move.enable) exist from the first tick on, as in a mission run
  auto ctx = a.context();
  ASSERT_TRUE(blue.start(ctx));
  a.run({&blue}, 1);
  const UnitRadar* r = radar_of(blue, lone);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->enemies_seen, 3u);
  EXPECT_EQ(r->friends_near, 1u);
  EXPECT_EQ(r->order, AiOrder::fall_back);
  EXPECT_FLOAT_EQ(r->goal.x, 20.0f);
  EXPECT_FLOAT_EQ(r->goal.y, 20.0f);
}

TEST(SuperAI, contact_for_engage_ticks_destroys_the_enemy_and_the_radar_forgets_it) {
  Arena a;
  const auto ours = a.unit(1, {100, 100});
  const auto theirs = a.unit(2, {103, 100});
  SuperAIConfig cfg;
  cfg.engage_ticks = 30;
  cfg.guard_point = core::Vec2{100, 100};
  SuperAI blue("Blue", cfg);
  a.tw.tick();  // the bodies (move.enable) exist from the first tick on, as in a mission run
  auto ctx = a.context();
  ASSERT_TRUE(blue.start(ctx));
  a.run({&blue}, 29);
  EXPECT_NE(a.tw.world->find_live(theirs), nullptr) << "not yet: 29 ticks of contact";
  a.run({&blue}, 3);
  EXPECT_EQ(a.tw.world->find_live(theirs), nullptr);
  EXPECT_EQ(blue.stats().kills, 1u);
  a.run({&blue}, 20);
  EXPECT_EQ(radar_of(blue, ours)->target, world::ObjectId{});
  EXPECT_EQ(blue.stats().kills, 1u) << "destroyed once";
  bool traced = false;
  for (const auto& t : a.traces) traced = traced || t.find("destroyed on contact") != std::string::npos;
  EXPECT_TRUE(traced);
}

TEST(SuperAI, two_clans_fight_the_same_way_twice) {
  auto play = [] {
    Arena a;
    for (std::uint32_t i = 0; i < 12; ++i) {
      a.unit(1, {90.0f + 8.0f * static_cast<float>(i % 4), 90.0f + 8.0f * static_cast<float>(i / 4)});
      a.unit(2, {150.0f + 8.0f * static_cast<float>(i % 4), 150.0f + 8.0f * static_cast<float>(i / 4)});
    }
    SuperAIConfig attack;
    attack.patrol_route = {{160, 160}};
    attack.speed = 8.0f;
    SuperAI blue("Blue", attack), red("Red");
    a.tw.tick();
    auto ctx = a.context();
    EXPECT_TRUE(blue.start(ctx));
    EXPECT_TRUE(red.start(ctx));
    a.run({&blue, &red}, 2400);
    world::StateWriter out;
    blue.encode(out);
    red.encode(out);
    const auto v = out.view();
    return std::make_tuple(a.tw.world->last_hash(), std::vector<std::uint8_t>(v.begin(), v.end()),
                           blue.stats().kills + red.stats().kills, blue.stats().sightings);
  };
  const auto first = play();
  const auto second = play();
  EXPECT_EQ(first, second);
  EXPECT_GT(std::get<3>(first), 0u) << "the attackers met the defenders";
  EXPECT_GT(std::get<2>(first), 0u) << "and someone was destroyed";
}

}  // namespace
}  // namespace sortie::scenario
