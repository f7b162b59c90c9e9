// Behavior and Wizard (seed 001): global path, local path, re-planning, ClearWizardPath, the
// detour around a body in the way, and every error state as a diagnostic, never a teleport.
//   отсутствует system map                      -> no_system_map_is_refused_on_submit
//   отсутствует terrain interface               -> no_terrain_interface_is_refused_on_submit
//   active behavior не имеет IArealMap          -> behaviour_without_areal_map_is_a_diagnostic
//   объект попал в non-reachable area           -> unit_outside_every_areal_is_a_diagnostic,
//   unreachable_goal_is_a_diagnostic объект пытается выйти из non-walkable area  ->
//   unit_in_a_non_walkable_areal_does_not_leave_it path generator вошёл в infinite cycle       ->
//   path_generator_cycle_is_a_diagnostic
#include "sortie/move/behavior.hpp"

#include <gtest/gtest.h>

#include "sortie/mission/class_ids.hpp"
#include "sortie/move/wizard.hpp"
#include "sortie_test/move_world.hpp"

using namespace sortie;
using namespace sortie::move;
using namespace sortie::move_test;
using world::EventType;
using world::ObjectId;

namespace {

// The failure code of the unit's arrived event in the last tick, -1 without one.
std::int64_t failure_event(world::World& w, world::Handle unit) {
  const auto snapshot = w.snapshot();
  for (const auto& e : snapshot->events)
    if (e.type == EventType::arrived && e.target == unit) return e.b;
  return -1;
}

}  // namespace

TEST(BehaviorErrors, no_system_map_is_refused_on_submit) {
  world::WorldConfig cfg;
  cfg.commands = move_command_registry(nullptr);
  world::World w(cfg);
  ASSERT_TRUE(w.classes().add(mission::kClasses));
  auto h = w.add_new_object(mission::class_ids::kTmaUnit, "unit");
  ASSERT_TRUE(h);
  auto s = w.submit(world::make_command(0, EnableCommand{w.find(*h)->id()}));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "move.env.no_system_map");
  EXPECT_EQ(s.error().field, "move.enable");
  EXPECT_EQ(w.submit(world::make_command(0, GotoCommand{w.find(*h)->id(), {1, 1}, 2})).error().code,
            "move.env.no_system_map");
}

TEST(BehaviorErrors, no_terrain_interface_is_refused_on_submit) {
  TestWorld t(environment(nullptr, areal_grid(2, 8.0f)));
  const ObjectId u = t.unit(1, {2, 2});
  auto s = t.world->submit(world::make_command(0, EnableCommand{u}));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "move.env.no_terrain");
}

TEST(BehaviorErrors, behaviour_without_areal_map_is_a_diagnostic) {
  TestWorld t(environment(plane(32.0f), nullptr));
  const ObjectId u = t.unit(1, {4, 4});
  t.enable(u);
  t.go(u, {20, 20});
  t.tick();
  const auto& b = t.component<BehaviorState>(u);
  EXPECT_EQ(b.mode, BehaviorMode::failed);
  EXPECT_EQ(b.failure, MoveFailure::no_areal_map);
  ASSERT_EQ(t.system().diagnostics().size(), 1u);
  EXPECT_EQ(t.system().diagnostics()[0].code, "move.behavior.no_areal_map");
  EXPECT_EQ(t.system().diagnostics()[0].field, u.to_string());
  EXPECT_EQ(t.system().stats().failures, 1u);
  t.tick();
  EXPECT_EQ(failure_event(*t.world, t.object(u).handle()), static_cast<std::int64_t>(MoveFailure::no_areal_map));
  EXPECT_EQ(t.position(u).x, 4.0f);  // no movement, no teleport
  EXPECT_EQ(t.position(u).y, 4.0f);
  // Manual driving needs no areal map.
  t.submit(world::make_command(t.world->clock().tick, DriveCommand{u, 4.0f, 0.0f}));
  t.tick(30);
  EXPECT_GT(t.position(u).x, 4.0f);
  EXPECT_EQ(t.component<BehaviorState>(u).mode, BehaviorMode::manual);
}

TEST(BehaviorErrors, unit_outside_every_areal_is_a_diagnostic) {
  // Terrain 64 x 64, areals only over [0, 32]^2: a unit at (50, 50) stands in no areal.
  TestWorld t(environment(plane(64.0f), areal_grid(2, 16.0f)));
  const ObjectId u = t.unit(1, {50, 50});
  t.enable(u);
  t.go(u, {8, 8});
  t.tick();
  EXPECT_EQ(t.component<BehaviorState>(u).failure, MoveFailure::not_in_areal);
  EXPECT_EQ(t.system().diagnostics().at(0).code, "move.behavior.not_in_areal");
  t.tick(10);
  EXPECT_EQ(t.position(u).x, 50.0f);
  EXPECT_EQ(t.position(u).y, 50.0f);
  // The goal off the map is its own diagnostic.
  const ObjectId v = t.unit(2, {8, 8});
  t.enable(v);
  t.go(v, {60, 60});
  t.tick();
  EXPECT_EQ(t.component<BehaviorState>(v).failure, MoveFailure::goal_off_map);
}

TEST(BehaviorErrors, unreachable_goal_is_a_diagnostic) {
  // 2 x 2 areals; the right column is cut off from the left one.
  TestWorld t(environment(plane(32.0f), areal_grid(2, 16.0f, {}, {{0, 1}, {2, 3}})));
  const ObjectId u = t.unit(1, {4, 4});
  t.enable(u);
  t.go(u, {28, 28});
  t.tick();
  EXPECT_EQ(t.component<BehaviorState>(u).failure, MoveFailure::unreachable);
  EXPECT_EQ(t.system().diagnostics().at(0).code, "move.behavior.unreachable");
  EXPECT_TRUE(t.component<BehaviorState>(u).global_path.empty());
}

TEST(BehaviorErrors, unit_in_a_non_walkable_areal_does_not_leave_it) {
  // Areal 0 is blocked: a unit standing in it gets non_walkable and stays put (no teleport to
  // the nearest walkable areal; that fallback is the caller's decision, nav::ArealMap::nearest).
  TestWorld t(environment(plane(32.0f), areal_grid(2, 16.0f, {0})));
  const ObjectId u = t.unit(1, {4, 4});
  t.enable(u);
  t.go(u, {24, 24});
  t.tick(5);
  EXPECT_EQ(t.component<BehaviorState>(u).failure, MoveFailure::non_walkable);
  EXPECT_EQ(t.system().diagnostics().at(0).code, "move.behavior.non_walkable");
  EXPECT_EQ(t.position(u).x, 4.0f);
  EXPECT_EQ(t.position(u).y, 4.0f);
  // A goal in a blocked areal is goal_not_walkable.
  const ObjectId v = t.unit(2, {24, 24});
  t.enable(v);
  t.go(v, {4, 4});
  t.tick();
  EXPECT_EQ(t.component<BehaviorState>(v).failure, MoveFailure::goal_not_walkable);
  // A manual drive into the blocked areal is refused by the terrain narrow phase: blocked moves.
  const ObjectId w = t.unit(3, {20, 8}, 3.14159265f);  // facing -X toward areal 0
  t.enable(w);
  t.submit(world::make_command(t.world->clock().tick, DriveCommand{w, 8.0f, 0.0f}));
  t.tick(120);
  EXPECT_GE(t.position(w).x, 16.0f - 1e-3f);
  EXPECT_GT(t.system().stats().blocked_moves, 0u);
}

TEST(BehaviorErrors, path_generator_cycle_is_a_diagnostic) {
  // 3 x 3 areals of 16; the target is in areal 8 (top right). Between ticks the unit is put
  // into an areal off its current path, again and again, never reaching a trajectory point: after
  // kMaxReplansWithoutProgress re-plans the behaviour gives up with path_cycle.
  TestWorld t(environment(plane(48.0f), areal_grid(3, 16.0f)));
  const ObjectId u = t.unit(1, {2, 46});  // areal 6 (top left)
  t.enable(u);
  t.go(u, {46, 46});
  t.tick();
  EXPECT_EQ(t.component<BehaviorState>(u).global_path, (std::vector<std::uint32_t>{6, 7, 8}));
  const core::Vec2 spots[] = {{46, 2}, {2, 46}};  // areal 2 (path 2-5-8), areal 6 (path 6-7-8)
  std::uint32_t revision = t.component<BehaviorState>(u).path_revision;
  for (int i = 0; i < 12 && t.component<BehaviorState>(u).mode == BehaviorMode::following; ++i) {
    const core::Vec2 p = spots[i % 2];
    t.object(u).transform.position = {p.x, p.y, 0.0f};
    t.tick();
    if (t.component<BehaviorState>(u).mode == BehaviorMode::following) {
      EXPECT_EQ(t.component<BehaviorState>(u).path_revision, revision + 1);
      revision = t.component<BehaviorState>(u).path_revision;
    }
  }
  EXPECT_EQ(t.component<BehaviorState>(u).failure, MoveFailure::path_cycle);
  EXPECT_EQ(t.system().stats().replans, kMaxReplansWithoutProgress);
  EXPECT_EQ(t.system().diagnostics().at(0).code, "move.behavior.path_cycle");
}

TEST(BehaviorPlan, local_path_is_the_funnel_through_the_portals) {
  // Areal 4 (the centre of a 3 x 3 grid) blocked: from the bottom-left to the top-right corner
  // the route goes round it and the smoothed path bends at its corners.
  TestWorld t(environment(plane(48.0f), areal_grid(3, 16.0f, {4})));
  const ObjectId u = t.unit(1, {4, 8});
  t.enable(u);
  t.go(u, {44, 40});
  t.tick();
  const auto& b = t.component<BehaviorState>(u);
  ASSERT_EQ(b.mode, BehaviorMode::following);
  EXPECT_EQ(b.global_path.size(), 5u);
  EXPECT_EQ(b.global_path.front(), 0u);
  EXPECT_EQ(b.global_path.back(), 8u);
  for (std::uint32_t a : b.global_path) EXPECT_NE(a, 4u);
  // The route goes round the blocked centre by the right (0-1-2-5-8) or the top (0-3-6-7-8):
  // either way the one corner of the blocked square on its side is a trajectory point.
  const bool right = b.global_path[1] == 1u;
  const core::Vec2 corner = right ? core::Vec2{32, 16} : core::Vec2{16, 32};
  ASSERT_EQ(b.local_path.size(), 2u);
  EXPECT_EQ(b.local_path[0], corner);
  EXPECT_EQ(b.local_path[1], (core::Vec2{44, 40}));
  // And it gets there.
  bool arrived = false;
  for (int i = 0; i < 900 && !arrived; ++i) {
    t.tick();
    arrived = t.component<BehaviorState>(u).mode == BehaviorMode::arrived;
  }
  EXPECT_TRUE(arrived);
  EXPECT_EQ(t.system().stats().blocked_moves, 0u);
}

TEST(BehaviorPlan, short_trajectory_gets_its_minimum_points) {
  MoveEnvironment env;
  env.terrain = plane(32.0f);
  env.areals = areal_grid(2, 16.0f);
  env.params.min_point_in_trajectory = 4;
  BehaviorState b;
  b.target = {12, 4};
  nav::PathWorkspace ws;
  ASSERT_EQ(plan_path(b, {4, 4, 0}, env, ws), MoveFailure::none);
  EXPECT_EQ(b.local_path, (std::vector<core::Vec2>{{6, 4}, {8, 4}, {10, 4}, {12, 4}}));
  EXPECT_EQ(b.global_path, (std::vector<std::uint32_t>{0}));
}

TEST(BehaviorPlan, observe_areal_counts_replans_and_reports_the_cycle) {
  BehaviorState b;
  b.mode = BehaviorMode::following;
  b.global_path = {1, 2, 3};
  EXPECT_EQ(observe_areal(b, 2), PathCheck::on_path);
  EXPECT_EQ(b.route_index, 1u);
  EXPECT_EQ(observe_areal(b, 1), PathCheck::on_path);  // pushed back: still on the path
  EXPECT_EQ(b.route_index, 1u);
  for (std::uint32_t i = 0; i < kMaxReplansWithoutProgress; ++i) EXPECT_EQ(observe_areal(b, 9), PathCheck::off_path);
  EXPECT_EQ(observe_areal(b, 9), PathCheck::cycle);
}

TEST(Wizard, detours_around_a_body_ahead_and_clears_when_passed) {
  MoveParams p;
  WizardState w;
  const ObjectId self{1, 20, 1};
  const Neighbour rock{ObjectId{1, 20, 9}, {7.5f, 0.4f}, 1.0f, true};
  // Walking +X, 8.5 short of the rock: beyond the look-ahead (BuildingNearestDist 6 + radii 2)
  // and more than 6 from its surface: no detour, full speed.
  WizardResult r = wizard_correct(w, self, {-1, 0}, 1.0f, {1, 0}, std::span(&rock, 1), p, nullptr);
  EXPECT_TRUE(w.path.empty());
  EXPECT_EQ(r.direction, (core::Vec2{1, 0}));
  EXPECT_EQ(r.speed_factor, 1.0f);
  // From the origin it is 7.5 ahead, 0.4 to the left: the detour goes right, `radius + rock +
  // fStepOffBuilding` = 3 from the rock's centre across the line (y = 0.4 - 3), and the speed
  // drops to NearBuildSpeedPercent (5.5 from its surface).
  r = wizard_correct(w, self, {0, 0}, 1.0f, {1, 0}, std::span(&rock, 1), p, nullptr);
  ASSERT_EQ(w.path.size(), 1u);
  EXPECT_EQ(w.path[0], (core::Vec2{7.5f, 0.4f - 3.0f}));
  EXPECT_EQ(w.avoiding, rock.id);
  EXPECT_LT(r.direction.y, 0.0f);
  EXPECT_EQ(r.speed_factor, p.near_build_speed_percent / 100.0f);
  // Level with the detour point: cleared (ClearWizardPath), no obstacle ahead any more.
  wizard_correct(w, self, {7.6f, -2.6f}, 1.0f, {1, 0}, std::span(&rock, 1), p, nullptr);
  EXPECT_TRUE(w.path.empty());
  EXPECT_EQ(w.clears, 1u);
  // The corridor radius caps the detour: -2.6 becomes -1.5.
  p.corridor_radius = 1.5f;
  WizardState narrow;
  wizard_correct(narrow, self, {0, 0}, 1.0f, {1, 0}, std::span(&rock, 1), p, nullptr);
  ASSERT_EQ(narrow.path.size(), 1u);
  EXPECT_EQ(narrow.path[0].y, -1.5f);
  // Exactly ahead (no lateral offset): the side of the lower ObjectId (self < rock: left).
  const Neighbour ahead{ObjectId{1, 20, 9}, {7.5f, 0.0f}, 1.0f, true};
  WizardState centred;
  p.corridor_radius = 4.0f;
  wizard_correct(centred, self, {0, 0}, 1.0f, {1, 0}, std::span(&ahead, 1), p, nullptr);
  ASSERT_EQ(centred.path.size(), 1u);
  EXPECT_EQ(centred.path[0], (core::Vec2{7.5f, 3.0f}));
}

TEST(Wizard, new_order_clears_the_wizard_path) {
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f)));
  const ObjectId u = t.unit(1, {10, 10});
  const ObjectId rock = t.unit(2, {20, 10.5f});
  t.enable(u);
  t.enable(rock, 1.5f, true);
  t.go(u, {40, 10});
  t.tick(40);  // 3.8 units walked: the rock is within the look-ahead
  ASSERT_FALSE(t.component<WizardState>(u).path.empty());
  EXPECT_EQ(t.component<WizardState>(u).avoiding, rock);
  const std::uint32_t clears = t.component<WizardState>(u).clears;
  t.go(u, {10, 40});
  t.tick();
  EXPECT_GT(t.component<WizardState>(u).clears, clears);
  EXPECT_NE(t.component<WizardState>(u).avoiding, rock);
  // The static body never moved.
  EXPECT_EQ(t.position(rock).x, 20.0f);
  EXPECT_EQ(t.position(rock).y, 10.5f);
}

TEST(Wizard, walks_round_a_static_body_without_touching_it) {
  TestWorld t(environment(plane(64.0f), areal_grid(4, 16.0f)));
  const ObjectId u = t.unit(1, {6, 10});
  const ObjectId rock = t.unit(2, {24, 10.2f});
  t.enable(u);
  t.enable(rock, 2.0f, true);
  t.go(u, {44, 10});
  bool arrived = false;
  for (int i = 0; i < 900 && !arrived; ++i) {
    t.tick();
    arrived = t.component<BehaviorState>(u).mode == BehaviorMode::arrived;
  }
  EXPECT_TRUE(arrived);
  EXPECT_EQ(t.system().stats().contacts, 0u);
  EXPECT_NEAR(t.position(u).x, 44.0f, 0.2f);
}
