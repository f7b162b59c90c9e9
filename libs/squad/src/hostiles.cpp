// Hostile targets (ours; the seed asks only that they close in): they sleep until the squad is
// within hostileSense grid steps, then follow a breadth-first field grown from every live agent,
// go straight at an agent they can see within hostileDirectRadius, keep apart from each other,
// and claw an agent they touch. Lairs emit new ones while few are alive.
#include <algorithm>
#include <cmath>

#include "sim_core.hpp"

namespace sortie::squad {

void spawn_from_lairs(SimCore& c) {
  if (c.map.lairs.empty() || c.tick % static_cast<std::uint64_t>(c.spawn_period) != 0) return;
  c.rebuild_agent_grid();
  for (std::size_t li = 0; li < c.map.lairs.size(); ++li) {
    if (static_cast<int>(c.live_targets) >= c.t.spawn_cap) return;
    const core::Vec2 centre = c.map.lairs[li].centre();
    const float clear2 = c.t.spawn_clearance * c.t.spawn_clearance;
    const bool crowded = c.agent_grid.for_each_in_circle(centre, c.t.spawn_clearance, [&](const BodyGrid::Item& it) {
      return core::length_squared(it.pos - centre) < clear2;
    });
    if (crowded) continue;
    const float jx = (c.spawn_rng.unit_f32() - 0.5f) * 0.4f;
    const float jy = (c.spawn_rng.unit_f32() - 0.5f) * 0.4f;
    Target x = c.make_target(centre + core::Vec2{jx, jy}, true);
    x.pos = c.walls.resolve_circle(x.pos, x.radius);
    c.targets.push_back(x);
    ++c.live_targets;
    ++c.stats.spawned;
    c.emit({c.tick, EventKind::hostile_spawned, static_cast<std::int32_t>(li), static_cast<std::int32_t>(x.id), x.pos,
            0.0f, 0});
  }
}

void update_hostiles(SimCore& c) {
  if (c.targets.empty()) return;
  if (c.hostile_flow.empty() || c.tick % static_cast<std::uint64_t>(c.flow_period) == 1) {
    c.cells.clear();
    for (const Agent& a : c.agents) {
      if (!a.alive || !c.walls.inside(a.pos)) continue;
      c.cells.push_back(static_cast<std::int32_t>(std::floor(a.pos.y)) * c.walls.width() +
                        static_cast<std::int32_t>(std::floor(a.pos.x)));
    }
    c.hostile_flow.compute_all(c.walls, c.cells);
  }
  const Tuning& t = c.t;
  const float contact = t.body_radius + t.hostile_attack_range;
  for (std::size_t j = 0; j < c.targets.size(); ++j) {
    Target& x = c.targets[j];
    if (!x.alive) continue;
    x.attack_cooldown = std::max(0.0f, x.attack_cooldown - kDt);
    if (!x.awake) {
      const std::int32_t d = c.hostile_flow.distance_at(x.pos);
      if (d >= 0 && static_cast<float>(d) <= t.hostile_sense) {
        x.awake = true;
        c.emit({c.tick, EventKind::hostile_awake, static_cast<std::int32_t>(j), -1, x.pos, 0.0f, 0});
      } else {
        continue;
      }
    }
    // Nearest live agent (for the direct seek and the claw).
    std::int32_t nearest = -1;
    float nearest_d2 = t.hostile_direct_radius * t.hostile_direct_radius;
    c.agent_grid.for_each_in_circle(x.pos, t.hostile_direct_radius, [&](const BodyGrid::Item& it) {
      const float d2 = core::length_squared(it.pos - x.pos);
      if (d2 < nearest_d2) {
        nearest_d2 = d2;
        nearest = static_cast<std::int32_t>(it.index);
      }
      return false;
    });
    core::Vec2 desired;
    if (nearest >= 0 && !c.walls.blocked(x.pos, c.agents[static_cast<std::size_t>(nearest)].pos)) {
      const core::Vec2 to = c.agents[static_cast<std::size_t>(nearest)].pos - x.pos;
      const float dist = core::length(to);
      const float gap = dist - t.body_radius - x.radius;
      if (gap > 0.02f && dist > 0.0f) desired = to * (x.speed / dist);
    } else if (const auto wp = c.hostile_flow.next_waypoint(x.pos)) {
      desired = core::normalize_or(*wp - x.pos, {}) * x.speed;
    }
    // Keep apart from other hostiles (positions of the start of the tick: order does not matter).
    core::Vec2 sep;
    if (t.hostile_separation > 0.0f) {
      c.target_grid.for_each_in_circle(x.pos, t.hostile_separation, [&](const BodyGrid::Item& it) {
        if (it.index == j) return false;
        const core::Vec2 d = x.pos - it.pos;
        const float len = core::length(d);
        if (len > 0.0f && len < t.hostile_separation) sep += d * ((1.0f - len / t.hostile_separation) / len);
        return false;
      });
    }
    core::Vec2 wall = c.walls.repulsion(x.pos, x.radius, t.wall_avoid_dist);
    if (core::length(wall) > 1.0f) wall = core::normalize_or(wall, {});
    core::Vec2 want = desired + sep * x.speed + wall * (t.w_wall_avoid * x.speed);
    const float want_len = core::length(want);
    if (want_len > x.speed) want = want * (x.speed / want_len);
    core::Vec2 dv = want - x.vel;
    const float dv_max = t.hostile_accel * kDt;
    const float dv_len = core::length(dv);
    if (dv_len > dv_max) dv = dv * (dv_max / dv_len);
    x.vel += dv;
    x.pos += x.vel * kDt;
    x.pos = c.walls.resolve_circle(x.pos, x.radius);

    // Claw the nearest agent in contact.
    if (x.attack_cooldown <= 0.0f && nearest >= 0) {
      Agent& a = c.agents[static_cast<std::size_t>(nearest)];
      if (a.alive && core::distance(a.pos, x.pos) - x.radius <= contact) {
        a.hp -= t.hostile_damage;
        x.attack_cooldown = t.hostile_attack_cooldown;
        ++c.stats.hostile_attacks;
        c.emit({c.tick, EventKind::hostile_attack, static_cast<std::int32_t>(j), nearest, a.pos, a.hp, 0});
        if (a.hp <= 0.0f) c.kill_agent(static_cast<std::size_t>(nearest), static_cast<std::int32_t>(j));
      }
    }
  }
}

}  // namespace sortie::squad
