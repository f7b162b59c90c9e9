#include "sortie/mission/scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

#include "sortie/core/hash.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/world/movement_commands.hpp"

namespace sortie::mission {

using core::Transform;
using world::Properties;
using world::WorldObject;
namespace {

struct Bounds {
  float min_x = std::numeric_limits<float>::max(), min_y = std::numeric_limits<float>::max();
  float max_x = std::numeric_limits<float>::lowest(), max_y = std::numeric_limits<float>::lowest();
};

Bounds terrain_bounds(const assets::MissionData& data) {
  Bounds b;
  for (const auto& p : data.land_msh.positions) {
    b.min_x = std::min(b.min_x, p.x);
    b.min_y = std::min(b.min_y, p.y);
    b.max_x = std::max(b.max_x, p.x);
    b.max_y = std::max(b.max_y, p.y);
  }
  if (data.land_msh.positions.empty()) b = Bounds{0, 0, 256, 256};
  return b;
}

// A move order as a walk over the areal graph (spec §18, seed 000 "Маршрут"): the unit's areal
// and the goal's areal are located, routed (BFS) and turned into a corridor through the shared
// edges' midpoints ending at the goal. nullopt = an explicit miss (unit or goal outside every
// areal, no route): the caller then gives a straight move order.
std::optional<std::vector<core::Vec2>> plan_route(const nav::ArealMap& areals, const World& w, ObjectId unit, float x,
                                                  float y) {
  auto handle = w.lookup(unit);
  if (!handle) return std::nullopt;
  const WorldObject* obj = w.find(*handle);
  if (obj == nullptr) return std::nullopt;
  const core::Vec2 from{obj->transform.position.x, obj->transform.position.y};
  const core::Vec2 to{x, y};
  auto start = areals.locate(from.x, from.y);
  auto goal = areals.locate(to.x, to.y);
  if (!start || !goal) return std::nullopt;
  auto route = areals.route(*start, *goal);
  if (!route) return std::nullopt;
  return areals.corridor(*route, from, to);
}

}  // namespace

core::Json ScenarioResult::to_json() const {
  core::Json cps = core::Json::array();
  for (const auto& [tick, hash] : checkpoints) cps.push_back({{"tick", tick}, {"hash", core::hash_hex(hash)}});
  return core::Json{{"ticks", ticks},
                    {"final_hash", core::hash_hex(final_hash)},
                    {"orders", orders},
                    {"routed", routed},
                    {"objects", objects},
                    {"units", units},
                    {"checkpoints", cps},
                    {"wall_ms", wall_ms},
                    {"ticks_per_second", wall_ms > 0 ? static_cast<double>(ticks) * 1000.0 / wall_ms : 0.0}};
}

core::Result<ScenarioResult> run_scenario(LoadedMission& mission, const ScenarioOptions& options,
                                          const TickProgressFn& progress) {
  World& w = *mission.world;
  ScenarioResult r;
  std::vector<ObjectId> units;
  for (const auto& o : mission.objects)
    if (o.unit) units.push_back(o.id);
  r.objects = mission.objects.size();
  r.units = units.size();
  const Bounds b = terrain_bounds(*mission.data);
  const float margin = 8.0f;
  core::Rng orders(options.seed, 0x4F524452);  // "ORDR": a stream of its own
  std::optional<nav::ArealMap> areals;
  if (!mission.data->land_map.areals.empty()) {
    SORTIE_TRY(auto built, nav::areal_map_from(mission.data->land_map));
    areals = std::move(built);
  }
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t t = 0; t < options.ticks; ++t) {
    const std::uint64_t tick = w.clock().tick;
    if (!units.empty() && options.order_interval > 0 && tick % options.order_interval == 0) {
      for (std::uint32_t k = 0; k < options.orders_per_wave; ++k) {
        const ObjectId target = units[orders.below(static_cast<std::uint32_t>(units.size()))];
        const float x = b.min_x + margin + orders.unit_f32() * std::max(1.0f, b.max_x - b.min_x - 2 * margin);
        const float y = b.min_y + margin + orders.unit_f32() * std::max(1.0f, b.max_y - b.min_y - 2 * margin);
        auto waypoints = areals ? plan_route(*areals, w, target, x, y) : std::nullopt;
        if (waypoints) {
          SORTIE_CHECK(
              w.submit(world::make_command(tick, world::RouteCommand{target, std::move(*waypoints), options.speed})));
          ++r.routed;
        } else {
          SORTIE_CHECK(
              w.submit(world::make_command(tick, world::MoveCommand{target, core::Vec2{x, y}, options.speed})));
        }
        ++r.orders;
      }
    }
    SORTIE_CHECK(w.tick());
    ++r.ticks;
    if (w.clock().tick % 100 == 0 || t + 1 == options.ticks) r.checkpoints.emplace_back(w.clock().tick, w.last_hash());
    if (progress) progress(t + 1, options.ticks);
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // No tick ran: the hash of the state as loaded (last_hash() is only set by a tick).
  r.final_hash = r.ticks == 0 ? w.compute_state_hash() : w.last_hash();
  r.log = w.command_log();
  return r;
}

core::Result<std::uint64_t> replay_scenario(LoadedMission& mission, const CommandLog& log, std::uint64_t ticks) {
  World& w = *mission.world;
  for (const auto& c : log.commands) SORTIE_CHECK(w.submit(c));
  for (std::uint64_t t = 0; t < ticks; ++t) SORTIE_CHECK(w.tick());
  return ticks == 0 ? w.compute_state_hash() : w.last_hash();
}

}  // namespace sortie::mission
