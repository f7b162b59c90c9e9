// Firing (seed 002 §7) and bullets (§8). A rifle fires only when all five hold: a target with a
// clear lane, the cooldown done, the barrel within the aim tolerance, the lane re-checked at the
// trigger on this step's positions, and no ally able to cross the bullet's path during its flight.
// Bullets are real projectiles: they hit walls, targets and every agent but the shooter, the
// earliest contact along each step first, and they fly only along the checked segment.
#include <algorithm>
#include <cmath>
#include <limits>

#include "sim_core.hpp"

namespace sortie::squad {

bool ally_intercepts_shot(const SimCore& c, std::int32_t shooter, core::Vec2 muzzle, core::Vec2 dir, float travel) {
  const Tuning& t = c.t;
  const float flight = travel / t.bullet_speed;
  const float threshold = lane_threshold(t);
  const float speed_max = std::max(t.move_speed_fast, t.lunge_speed);
  const float accel_max = t.steer_accel + t.lunge_accel;
  // Where any ally could be by the end of the flight, from its velocity and its largest acceleration.
  const float reach = threshold + speed_max * flight + 0.5f * accel_max * flight * (flight + kDt);
  const int steps = static_cast<int>(std::ceil(flight / kDt));
  const core::Vec2 end = muzzle + dir * travel;
  // Deviation from straight motion after `time`: steering changes velocity by at most steerAccel
  // per second; a blade also lunges, but not before its windup is over.
  const auto slack = [&](const Agent& a, float time) {
    float s = 0.5f * t.steer_accel * time * (time + kDt);
    if (a.role == Role::blade) {
      const float lunge_at = a.melee_phase == MeleePhase::active   ? 0.0f
                             : a.melee_phase == MeleePhase::windup ? a.melee_timer
                                                                   : t.melee_windup;
      const float lt = time - lunge_at;
      if (lt > 0.0f) s += 0.5f * t.lunge_accel * lt * (lt + kDt);
    }
    return s;
  };
  return c.agent_grid.for_each_near_segment(muzzle, end, reach, [&](const BodyGrid::Item& it) {
    if (static_cast<std::int32_t>(it.index) == shooter) return false;
    const Agent& a = c.agents[it.index];
    for (int k = 0; k <= steps; ++k) {
      const float time = std::min(static_cast<float>(k) * kDt, flight);
      const core::Vec2 bullet = muzzle + dir * (t.bullet_speed * time);
      const core::Vec2 predicted = a.pos + a.vel * time;
      const float allowed = threshold + slack(a, time);
      if (core::length_squared(bullet - predicted) < allowed * allowed) return true;
    }
    return false;
  });
}

void fire_weapons(SimCore& c) {
  const Tuning& t = c.t;
  for (std::size_t i = 0; i < c.agents.size(); ++i) {
    Agent& a = c.agents[i];
    if (!a.alive || a.role != Role::rifle) continue;
    const auto self = static_cast<std::int32_t>(i);
    const Squad& sq = c.squads[a.squad];
    const Target* x = a.target >= 0 ? &c.targets[static_cast<std::size_t>(a.target)] : nullptr;
    if (x != nullptr && !x->alive) x = nullptr;
    c.turn_facing(a, x);  // the barrel follows the target
    // 1. target and lane; fire stops only while sprinting; 2. cooldown.
    if (x == nullptr || !a.has_lane || sq.sprinting || a.cooldown > 0.0f) continue;
    // 3. barrel within the tolerance.
    const core::Vec2 to = x->pos - a.pos;
    const float dist = core::length(to);
    if (!(dist > 0.0f) || core::dot(a.facing, to) < c.cos_aim_tolerance * dist) continue;
    // 4. the lane again, on this step's positions.
    const LaneCheck chk = lane_clear_from(c.walls, t, c.agent_grid, self, a.pos, x->pos);
    if (!chk.clear) {
      ++c.stats.shots_vetoed;
      continue;
    }
    // 5. no ally on the bullet's path during its flight.
    const core::Vec2 dir = core::normalize_or(x->pos - chk.muzzle, to / dist);
    const float travel = core::distance(chk.muzzle, x->pos) + x->radius;
    if (ally_intercepts_shot(c, self, chk.muzzle, dir, travel)) {
      ++c.stats.shots_vetoed;
      continue;
    }
    Bullet b;
    b.id = c.next_bullet_id++;
    b.shooter = self;
    b.aimed_at = a.target;
    b.pos = chk.muzzle;
    b.dir = dir;
    b.remaining = travel;
    c.bullets.push_back(b);
    a.cooldown = t.fire_cooldown;
    ++c.stats.shots;
    c.emit({c.tick, EventKind::shot, self, a.target, chk.muzzle, 0.0f, 0});
  }
}

void advance_bullets(SimCore& c) {
  const Tuning& t = c.t;
  const float step_len = t.bullet_speed * kDt;
  std::size_t keep = 0;
  for (std::size_t bi = 0; bi < c.bullets.size(); ++bi) {
    Bullet b = c.bullets[bi];
    const float len = std::min(step_len, b.remaining);
    const core::Vec2 from = b.pos;
    const core::Vec2 to = from + b.dir * len;
    enum class Hit { none, wall, target, agent } kind = Hit::none;
    float best = std::numeric_limits<float>::infinity();
    std::int32_t who = -1;
    // Earliest contact along the step; on a tie the wall wins, then a target, then an agent.
    if (const auto tw = c.walls.raycast(from, to)) {
      best = *tw;
      kind = Hit::wall;
    }
    // A body of `kind` at `centre` (radius `r`): the earliest contact wins, the lower index on a tie.
    const auto consider = [&](Hit body, std::uint32_t index, core::Vec2 centre, float r) {
      const auto th = segment_circle_first_hit(from, to, centre, r + t.bullet_radius);
      const auto id = static_cast<std::int32_t>(index);
      if (th && (*th < best || (*th == best && kind == body && id < who))) {
        best = *th;
        kind = body;
        who = id;
      }
    };
    c.target_grid.for_each_near_segment(from, to, c.max_target_radius + t.bullet_radius, [&](const BodyGrid::Item& it) {
      if (c.targets[it.index].alive) consider(Hit::target, it.index, it.pos, c.targets[it.index].radius);
      return false;
    });
    c.agent_grid.for_each_near_segment(from, to, t.body_radius + t.bullet_radius, [&](const BodyGrid::Item& it) {
      if (static_cast<std::int32_t>(it.index) != b.shooter && c.agents[it.index].alive) {
        consider(Hit::agent, it.index, it.pos, t.body_radius);
      }
      return false;
    });
    const core::Vec2 at = from + (to - from) * (kind == Hit::none ? 1.0f : best);
    switch (kind) {
      case Hit::wall:
        ++c.stats.bullet_wall_hits;
        c.emit({c.tick, EventKind::bullet_wall, b.shooter, -1, at, 0.0f, 0});
        continue;
      case Hit::target: {
        ++c.stats.bullet_target_hits;
        Target& x = c.targets[static_cast<std::size_t>(who)];
        c.emit({c.tick, EventKind::bullet_target, b.shooter, who, at, x.hp - t.bullet_damage, 0});
        c.damage_target(static_cast<std::size_t>(who), t.bullet_damage, b.shooter);
        continue;
      }
      case Hit::agent: {
        Agent& v = c.agents[static_cast<std::size_t>(who)];
        v.hp -= t.bullet_damage;
        ++c.stats.friendly_hits;
        const Squad& vs = c.squads[v.squad];
        const auto flags =
            static_cast<std::uint8_t>((core::length_squared(v.vel) > 0.01f ? 1 : 0) |
                                      (vs.state == SquadState::holding ? 2 : 0) | (v.role == Role::blade ? 4 : 0));
        c.emit({c.tick, EventKind::friendly_hit, b.shooter, who, at, v.hp, flags});
        if (v.hp <= 0.0f) c.kill_agent(static_cast<std::size_t>(who), b.shooter);
        continue;
      }
      case Hit::none:
        break;
    }
    b.pos = to;
    b.remaining -= len;
    if (b.remaining <= 1e-5f) {
      ++c.stats.bullets_expired;
      continue;
    }
    c.bullets[keep++] = b;
  }
  c.bullets.resize(keep);
}

}  // namespace sortie::squad
