#pragma once
// Test worlds for the movement stack: a flat or sloped square terrain, an areal grid over it
// (some areals blocked or missing on demand), a world with the movement command kinds, units.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sortie/mission/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/environment.hpp"
#include "sortie/move/move_system.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/nav/terrain_world.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/object.hpp"
#include "sortie/world/world.hpp"

namespace sortie::move_test {

inline constexpr std::uint32_t kBlocked = 0x1;

// z = slope_x * x over [0, size]^2 as two triangles.
inline std::shared_ptr<const nav::TerrainWorld> plane(float size, float slope_x = 0.0f) {
  nav::TriangleSoup soup;
  soup.positions = {{0, 0, 0}, {size, 0, slope_x * size}, {size, size, slope_x * size}, {0, size, 0}};
  soup.faces = {{{0, 1, 2}, 1}, {{0, 2, 3}, 1}};
  auto t = nav::TerrainWorld::build(soup);
  EXPECT_TRUE(t);
  return std::make_shared<const nav::TerrainWorld>(std::move(*t));
}

// n x n square areals of side `cell` over [0, n * cell]^2, linked 4-way with edge_ref; areal
// id = row * n + column. `blocked` areals get logic flag kBlocked (not walkable); `cut` pairs
// are left unlinked.
inline std::shared_ptr<const nav::ArealMap> areal_grid(std::uint32_t n, float cell,
                                                       std::vector<std::uint32_t> blocked = {},
                                                       std::vector<std::pair<std::uint32_t, std::uint32_t>> cut = {}) {
  nav::ArealInput in;
  auto is_cut = [&](std::uint32_t a, std::uint32_t b) {
    for (auto [x, y] : cut)
      if ((x == a && y == b) || (x == b && y == a)) return true;
    return false;
  };
  for (std::uint32_t r = 0; r < n; ++r)
    for (std::uint32_t c = 0; c < n; ++c) {
      const float x0 = static_cast<float>(c) * cell, y0 = static_cast<float>(r) * cell;
      nav::ArealPolygon p;
      p.anchor = {x0 + cell * 0.5f, y0 + cell * 0.5f};
      p.ring = {{x0, y0}, {x0 + cell, y0}, {x0 + cell, y0 + cell}, {x0, y0 + cell}};
      const std::uint32_t id = r * n + c;
      auto link = [&](bool ok, std::uint32_t other) {
        return ok && !is_cut(id, other) ? static_cast<std::int32_t>(other) : -1;
      };
      p.links = {link(r > 0, id - n), link(c + 1 < n, id + 1), link(r + 1 < n, id + n), link(c > 0, id - 1)};
      p.link_edges = {p.links[0] >= 0 ? 2 : -1, p.links[1] >= 0 ? 3 : -1, p.links[2] >= 0 ? 0 : -1,
                      p.links[3] >= 0 ? 1 : -1};
      for (std::uint32_t b : blocked)
        if (b == id) p.logic_flag = kBlocked;
      in.areals.push_back(std::move(p));
    }
  nav::ArealPolicy policy;
  policy.blocked_logic_mask = kBlocked;
  auto m = nav::ArealMap::build(in, policy);
  EXPECT_TRUE(m);
  return std::make_shared<const nav::ArealMap>(std::move(*m));
}

inline move::MoveEnvironmentPtr environment(std::shared_ptr<const nav::TerrainWorld> terrain,
                                            std::shared_ptr<const nav::ArealMap> areals, move::MoveParams params = {}) {
  auto env = std::make_shared<move::MoveEnvironment>();
  env->terrain = std::move(terrain);
  env->areals = std::move(areals);
  env->params = std::move(params);
  return env;
}

struct TestWorld {
  std::unique_ptr<world::World> world;
  move::MoveEnvironmentPtr env;

  explicit TestWorld(move::MoveEnvironmentPtr e, std::uint64_t seed = 1) : env(std::move(e)) {
    world::WorldConfig cfg;
    cfg.seed = seed;
    cfg.commands = move::move_command_registry(env);
    world = std::make_unique<world::World>(cfg);
    EXPECT_TRUE(world->classes().add(mission::kClasses));  // units are the mission's placed units
  }

  // A unit object with an explicit id (class kTmaUnit), not yet enabled.
  world::ObjectId unit(std::uint32_t index, core::Vec2 xy, float yaw = 0.0f) {
    const world::ObjectId id{world->local_player(), mission::class_ids::kTmaUnit, index};
    core::Transform t;
    const float z = env && env->terrain ? env->terrain->height_at(xy.x, xy.y).value_or(0.0f) : 0.0f;
    t.position = {xy.x, xy.y, z};
    t.orientation = {0.0f, 0.0f, yaw};
    auto h = world->create_object(id, "unit", t);
    EXPECT_TRUE(h) << (h ? "" : h.error().to_string());
    EXPECT_TRUE(world->add_to_game(*h));
    return id;
  }

  void submit(world::Command c) {
    auto s = world->submit(std::move(c));
    EXPECT_TRUE(s) << (s ? "" : s.error().to_string());
  }
  void enable(world::ObjectId id, float radius = 1.0f, bool is_static = false, float max_speed = 8.0f) {
    move::EnableCommand c;
    c.target = id;
    c.radius = radius;
    c.max_speed = max_speed;
    c.is_static = is_static;
    if (is_static) c.category = move::kCategoryBuilding;
    submit(world::make_command(world->clock().tick, c));
  }
  void go(world::ObjectId id, core::Vec2 goal, float speed = 8.0f) {
    submit(world::make_command(world->clock().tick, move::GotoCommand{id, goal, speed}));
  }
  void tick(int n = 1) {
    for (int i = 0; i < n; ++i) ASSERT_TRUE(world->tick());
  }
  world::WorldObject& object(world::ObjectId id) {
    auto* o = world->find_live(id);
    EXPECT_NE(o, nullptr);
    return *o;
  }
  core::Vec3 position(world::ObjectId id) { return object(id).transform.position; }
  const move::MoveSystem& system() {
    const move::MoveSystem* s = move::find_move_system(*world);
    EXPECT_NE(s, nullptr);
    return *s;
  }
  template <class C>
  C& component(world::ObjectId id) {
    C* c = object(id).components.get<C>();
    EXPECT_NE(c, nullptr);
    return *c;
  }
};

}  // namespace sortie::move_test
