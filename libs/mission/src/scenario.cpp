#include "sortie/mission/scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "sortie/core/hash.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/scenario/commands.hpp"

namespace sortie::mission {

MapBounds map_bounds(const assets::MissionData& data) {
  MapBounds b{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
              std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest()};
  for (const auto& p : data.land_msh.positions) {
    b.min_x = std::min(b.min_x, p.x);
    b.min_y = std::min(b.min_y, p.y);
    b.max_x = std::max(b.max_x, p.x);
    b.max_y = std::max(b.max_y, p.y);
  }
  if (data.land_msh.positions.empty()) b = MapBounds{0, 0, 256, 256};
  return b;
}

namespace {

// The footprint radius of a placed static object: half the larger XY extent of its meshes'
// bounds, scaled by the placement; nullopt without a visual (nothing to bump into).
std::optional<float> footprint_radius(const LoadedMission& mission, std::int32_t placed_index) {
  const assets::PreparedPlacement* placement = mission.visuals ? mission.visuals->placement(placed_index) : nullptr;
  if (placement == nullptr) return std::nullopt;
  float r = 0.0f;
  for (const auto& c : placement->components) {
    if (c.prototype == nullptr || !c.prototype->visual || !c.prototype->visual->mesh) continue;
    const core::Aabb& box = c.prototype->visual->mesh->bounds;
    if (box.empty()) continue;
    const core::Vec3 ext = box.extent();
    const float sx = std::fabs(placement->transform.scale.x);
    const float sy = std::fabs(placement->transform.scale.y);
    r = std::max({r, 0.5f * ext.x * sx, 0.5f * ext.y * sy});
  }
  if (!(r > 0.0f) || !std::isfinite(r)) return std::nullopt;
  return std::clamp(r, 0.5f, 32.0f);
}

}  // namespace

std::vector<Command> movement_start_commands(const LoadedMission& mission, const ScenarioOptions& options,
                                             std::uint64_t tick) {
  std::vector<Command> out;
  for (const auto& o : mission.objects) {
    if (!o.unit) continue;
    move::EnableCommand e;
    e.target = o.id;
    e.radius = options.unit_radius;
    e.height = options.unit_height;
    e.max_speed = options.speed;
    out.push_back(world::make_command(tick, e));
  }
  if (!options.static_obstacles) return out;
  for (const auto& o : mission.objects) {
    if (o.unit) continue;
    const auto radius = footprint_radius(mission, o.placed_index);
    if (!radius) continue;
    move::EnableCommand e;
    e.target = o.id;
    e.shape = move::Shape::circle;
    e.radius = *radius;
    e.height = 0.0f;
    e.max_speed = 0.0f;
    e.category = move::kCategoryBuilding;
    e.is_static = true;
    out.push_back(world::make_command(tick, e));
  }
  return out;
}

core::Json ScenarioResult::to_json() const {
  core::Json cps = core::Json::array();
  for (const auto& [tick, hash] : checkpoints) cps.push_back({{"tick", tick}, {"hash", core::hash_hex(hash)}});
  core::Json diags = core::Json::array();
  for (const auto& d : diagnostics) diags.push_back(d.to_json());
  return core::Json{{"ticks", ticks},
                    {"final_hash", core::hash_hex(final_hash)},
                    {"orders", orders},
                    {"objects", objects},
                    {"units", units},
                    {"obstacles", obstacles},
                    {"movement",
                     {{"contacts", movement.contacts},
                      {"blocked_moves", movement.blocked_moves},
                      {"arrivals", movement.arrivals},
                      {"failures", movement.failures},
                      {"replans", movement.replans},
                      {"proxies_rebuilt", movement.proxies_rebuilt},
                      {"steps", movement.steps}}},
                    {"diagnostics", diags},
                    {"checkpoints", cps},
                    {"wall_ms", wall_ms},
                    {"ticks_per_second", wall_ms > 0 ? static_cast<double>(ticks) * 1000.0 / wall_ms : 0.0}};
}

void collect_movement(const LoadedMission& mission, ScenarioResult& result) {
  if (const move::MoveSystem* s = move::find_move_system(*mission.world)) {
    result.movement = s->stats();
    result.diagnostics = s->diagnostics();
  }
}

bool scenario_decided(const World& world) {
  const scenario::ScenarioState* s = scenario::find_scenario_state(world);
  return s != nullptr && s->outcome != scenario::Outcome::none;
}

core::Result<ScenarioResult> run_scenario(LoadedMission& mission, const ScenarioOptions& options,
                                          const TickProgressFn& progress, scenario::ScenarioRuntime* runtime) {
  World& w = *mission.world;
  ScenarioResult r;
  std::vector<ObjectId> units;
  for (const auto& o : mission.objects)
    if (o.unit) units.push_back(o.id);
  r.objects = mission.objects.size();
  r.units = units.size();
  const MapBounds b = map_bounds(*mission.data);
  const float margin = 8.0f;
  core::Rng orders(options.seed, 0x4F524452);  // "ORDR": a stream of its own
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t t = 0; t < options.ticks; ++t) {
    const std::uint64_t tick = w.clock().tick;
    if (t == 0) {
      // Bodies: the units, then the static obstacles, in TMA order.
      for (Command& c : movement_start_commands(mission, options, tick)) {
        if (auto e = world::payload_of<move::EnableCommand>(c); e && e->is_static) ++r.obstacles;
        SORTIE_CHECK(w.submit(std::move(c)));
      }
    }
    // After the bodies: the parts' orders of tick 0 apply to bodies (the first step is start()).
    if (runtime != nullptr) SORTIE_CHECK(scenario_before_tick(*runtime, w));
    if (options.wander && !units.empty() && options.order_interval > 0 && tick % options.order_interval == 0) {
      // Orders go to units without one (a unit on its way keeps its order), each to a point
      // within order_radius of where it stands, kept inside the map.
      std::vector<ObjectId> idle;
      for (const ObjectId& u : units) {
        const world::WorldObject* o = w.find_live(u);
        if (o == nullptr) continue;
        const auto* b_state = o->components.get<move::BehaviorState>();
        if (b_state != nullptr &&
            (b_state->mode == move::BehaviorMode::planning || b_state->mode == move::BehaviorMode::following))
          continue;
        idle.push_back(u);
      }
      for (std::uint32_t k = 0; k < options.orders_per_wave && !idle.empty(); ++k) {
        const std::uint32_t pick = orders.below(static_cast<std::uint32_t>(idle.size()));
        const ObjectId target = idle[pick];
        idle.erase(idle.begin() + pick);
        const core::Vec3 at = w.find_live(target)->transform.position;
        const float dx = (orders.unit_f32() * 2.0f - 1.0f) * options.order_radius;
        const float dy = (orders.unit_f32() * 2.0f - 1.0f) * options.order_radius;
        const float x = std::clamp(at.x + dx, b.min_x + margin, std::max(b.min_x + margin, b.max_x - margin));
        const float y = std::clamp(at.y + dy, b.min_y + margin, std::max(b.min_y + margin, b.max_y - margin));
        SORTIE_CHECK(w.submit(world::make_command(tick, move::GotoCommand{target, core::Vec2{x, y}, options.speed})));
        ++r.orders;
      }
    }
    SORTIE_CHECK(w.tick());
    ++r.ticks;
    if (options.after_tick) SORTIE_CHECK(options.after_tick(w));
    const bool decided = runtime != nullptr && scenario_decided(w);
    if (w.clock().tick % 100 == 0 || t + 1 == options.ticks || decided)
      r.checkpoints.emplace_back(w.clock().tick, w.last_hash());
    if (progress) progress(t + 1, options.ticks);
    if (decided) break;
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // No tick ran: the hash of the state as loaded (last_hash() is only set by a tick).
  r.final_hash = r.ticks == 0 ? w.compute_state_hash() : w.last_hash();
  r.log = w.command_log();
  collect_movement(mission, r);
  r.scenario = summarize_scenario(w, runtime);
  return r;
}

core::Result<std::uint64_t> replay_scenario(LoadedMission& mission, const CommandLog& log, std::uint64_t ticks,
                                            std::uint64_t* ran) {
  World& w = *mission.world;
  for (const auto& c : log.commands) SORTIE_CHECK(w.submit(c));
  std::uint64_t t = 0;
  while (t < ticks) {
    SORTIE_CHECK(w.tick());
    ++t;
    if (scenario_decided(w)) break;
  }
  if (ran != nullptr) *ran = t;
  return t == 0 ? w.compute_state_hash() : w.last_hash();
}

}  // namespace sortie::mission
