// Agent movement (seed 002 §5): the steering layers in order with their weights, then the speed
// clamp, the steering acceleration, integration, and the collision pass over all bodies.
#include <algorithm>
#include <cmath>

#include "sim_core.hpp"
#include "sortie/squad/leash.hpp"
#include "sortie/squad/solver.hpp"

namespace sortie::squad {
namespace {

core::Vec2 clamp_length(core::Vec2 v, float max_len) {
  const float len = core::length(v);
  if (len > max_len && len > 0.0f) return v * (max_len / len);
  return v;
}

core::Vec2 accelerate(core::Vec2 vel, core::Vec2 desired, float accel) {
  return vel + clamp_length(desired - vel, accel * kDt);
}

// The blade's active window: along the strike axis at lunge speed until it touches the target;
// the steering stack is skipped, only walls stop it.
void lunge(SimCore& c, std::size_t i) {  // walls: in resolve_collisions
  Agent& a = c.agents[i];
  core::Vec2 desired = a.strike_axis * c.t.lunge_speed;
  // Not into an ally in front.
  if (ally_in_sector(c, static_cast<std::int32_t>(i), a.pos, a.strike_axis, 2.0f * c.t.body_radius + 0.1f) >= 0) {
    desired = {};
  } else if (a.melee_target >= 0) {
    const Target& x = c.targets[static_cast<std::size_t>(a.melee_target)];
    const float gap = core::distance(a.pos, x.pos) - c.t.body_radius - x.radius;
    if (!x.alive || gap <= 0.02f) desired = {};
  }
  a.vel = accelerate(a.vel, desired, c.t.lunge_accel);
  a.pos += a.vel * kDt;
}

// Ours: two agents can each want the other's spot, or a post can lie past a crowd in a corridor.
// A holding agent that has not come 0.02 closer to its post for 0.5 s takes the spot it stands on
// (drawn inside the hard limit) as its post.
void give_up_unreachable_post(SimCore& c, std::size_t i) {
  Agent& a = c.agents[i];
  const float gap = core::distance(a.pos, a.post);
  if (!(a.tracked_post == a.post) || gap < 0.1f) {
    a.tracked_post = a.post;
    a.best_gap = gap;
    a.stuck_time = 0.0f;
    return;
  }
  if (gap < a.best_gap - 0.02f) {
    a.best_gap = gap;
    a.stuck_time = 0.0f;
    return;
  }
  a.stuck_time += kDt;
  if (a.stuck_time < 0.5f) return;
  const Squad& sq = c.squads[a.squad];
  a.post = c.clamp_to_hard_limit(a.pos, sq.disc);
  if (a.role == Role::blade && a.melee_target < 0) a.home = a.post;
  a.tracked_post = a.post;
  a.best_gap = core::distance(a.pos, a.post);
  a.stuck_time = 0.0f;
}

}  // namespace

void move_agents(SimCore& c) {
  const Tuning& t = c.t;
  const float sep_r = t.separation_radius;
  const float push_reach = t.body_radius + c.max_target_radius + t.target_push_margin;
  c.moved_from.resize(c.agents.size());
  for (std::size_t i = 0; i < c.agents.size(); ++i) {
    Agent& a = c.agents[i];
    c.moved_from[i] = a.pos;
    if (!a.alive) continue;
    a.commit_timer = std::max(0.0f, a.commit_timer - kDt);
    a.cooldown = std::max(0.0f, a.cooldown - kDt);
    const Squad& sq = c.squads[a.squad];
    if (a.role == Role::blade && a.melee_phase == MeleePhase::active) {
      lunge(c, i);
      a.pos = c.leash_bound(i, c.moved_from[i], a.pos);
      continue;
    }
    const float max_speed = sq.state == SquadState::advancing ? squad_speed(sq.urgency, sq.shift, t) : t.move_speed;

    if (sq.state == SquadState::holding) give_up_unreachable_post(c, i);

    // 1. seek (slot while advancing, post while holding; blades always their post), arrival 1.0.
    a.seek = (a.role == Role::rifle && sq.state == SquadState::advancing) ? c.slot_of(i) : a.post;
    const core::Vec2 goal = c.route_towards(i, a.seek);
    const core::Vec2 to = goal - a.pos;
    const float dist = core::length(to);
    // Braking inside the arrival radius, but never slower than a creep (a fifth of the walking
    // speed, or what reaches the goal this tick): an agent arrives instead of closing in forever.
    core::Vec2 seek;
    if (dist > 1e-4f) {
      const float creep = std::min(0.2f * t.move_speed, dist / kDt);
      seek = to * (std::max(max_speed * std::min(1.0f, dist / t.arrival_radius), creep) / dist);
    }

    // 2. separation from allies within 0.7.
    core::Vec2 sep;
    c.agent_grid.for_each_in_circle(a.pos, sep_r, [&](const BodyGrid::Item& it) {
      if (it.index == i) return false;
      const core::Vec2 d = a.pos - it.pos;
      const float len = core::length(d);
      if (len >= sep_r) return false;
      if (len > 0.0f) {
        sep += d * ((1.0f - len / sep_r) / len);
      } else {
        sep += core::Vec2{it.index < i ? 1.0f : -1.0f, 0.0f};  // exactly on top: split by index
      }
      return false;
    });
    sep = clamp_length(sep, 1.0f) * max_speed;

    // 3. lane avoidance: out of other agents' lanes and reserves. A holding agent that is shoved
    // aside keeps the spot it was shoved to (unless it is walking to a post it just committed to):
    // otherwise its seek pulls it straight back into the lane it was cleared from.
    const core::Vec2 lane_push_dir = c.lanes.avoidance(a.pos, static_cast<std::int32_t>(i), t.lane_avoid_strength);
    const core::Vec2 lane = lane_push_dir * max_speed;
    if (sq.state == SquadState::holding && a.commit_timer <= 0.0f && core::length_squared(lane_push_dir) > 0.0f &&
        !(a.role == Role::blade && a.melee_target >= 0) && !beyond_hard_limit(core::distance(a.pos, sq.disc), t)) {
      a.post = a.pos;
      if (a.role == Role::blade) a.home = a.pos;
    }

    // 3'. targets are bodies too.
    core::Vec2 tpush;
    c.target_grid.for_each_in_circle(a.pos, push_reach, [&](const BodyGrid::Item& it) {
      const Target& x = c.targets[it.index];
      const core::Vec2 d = a.pos - it.pos;
      const float len = core::length(d);
      const float gap = len - t.body_radius - x.radius;
      if (gap >= t.target_push_margin || !(len > 0.0f)) return false;
      const float w = gap <= 0.0f || t.target_push_margin <= 0.0f ? 1.0f : 1.0f - gap / t.target_push_margin;
      tpush += d * (w / len);
      return false;
    });
    tpush = clamp_length(tpush, 1.0f) * max_speed;

    // 4. walls, with a slide along them when a wall stands between the agent and its goal. The push
    // fades inside the arrival radius like the seek does: a post may lie next to a wall (collision
    // keeps the body out of it), and an agent must be able to stand on it.
    const core::Vec2 repel = clamp_length(c.walls.repulsion(a.pos, t.body_radius, t.wall_avoid_dist), 1.0f);
    const float repel_len = core::length(repel);
    core::Vec2 wall = repel * std::min(1.0f, dist / t.arrival_radius);
    if (repel_len > 0.0f && dist > 1e-4f && c.walls.blocked_thick(a.pos, goal, t.body_radius)) {
      core::Vec2 tangent = core::perp(repel / repel_len);
      if (core::dot(tangent, to) < 0.0f) tangent = core::Vec2{} - tangent;
      wall += tangent * repel_len;
    }
    wall = wall * max_speed;

    // 5. clamp, steer, integrate.
    core::Vec2 desired = seek * t.w_seek + sep * t.w_separation + lane * t.w_lane_avoid + tpush * t.w_target_push +
                         wall * t.w_wall_avoid;
    desired = clamp_length(desired, max_speed);
    a.vel = accelerate(a.vel, desired, t.steer_accel);
    a.pos = c.leash_bound(i, c.moved_from[i], a.pos + a.vel * kDt);
  }
}

namespace {

// Pushes two overlapping discs apart, half each, along the line between their centres.
void separate(core::Vec2& p, core::Vec2& q, float radii) {
  const core::Vec2 d = q - p;
  const float len = core::length(d);
  const float overlap = radii - len;
  if (overlap <= 0.0f) return;
  const core::Vec2 n = len > 0.0f ? d / len : core::Vec2{1.0f, 0.0f};
  p -= n * (0.5f * overlap);
  q += n * (0.5f * overlap);
}

}  // namespace

void resolve_collisions(SimCore& c) {
  const Tuning& t = c.t;
  const float ra = t.body_radius;
  // The grids are built once: bodies move a little over the passes, so lookups reach kSlack
  // further and exact distances come from the bodies themselves.
  constexpr float kSlack = 0.15f;
  c.rebuild_agent_grid();
  c.rebuild_target_grid();
  for (int iter = 0; iter < 3; ++iter) {
    for (std::size_t i = 0; i < c.agents.size(); ++i) {
      Agent& a = c.agents[i];
      if (!a.alive) continue;
      c.agent_grid.for_each_in_circle(a.pos, 2.0f * ra + kSlack, [&](const BodyGrid::Item& it) {
        if (it.index > i) separate(a.pos, c.agents[it.index].pos, 2.0f * ra);
        return false;
      });
      c.target_grid.for_each_in_circle(a.pos, ra + c.max_target_radius + kSlack, [&](const BodyGrid::Item& it) {
        Target& x = c.targets[it.index];
        separate(a.pos, x.pos, ra + x.radius);
        return false;
      });
    }
    for (std::size_t j = 0; j < c.targets.size(); ++j) {
      Target& x = c.targets[j];
      if (!x.alive) continue;
      c.target_grid.for_each_in_circle(x.pos, 2.0f * c.max_target_radius + kSlack, [&](const BodyGrid::Item& it) {
        if (it.index > j) separate(x.pos, c.targets[it.index].pos, x.radius + c.targets[it.index].radius);
        return false;
      });
    }
    for (std::size_t i = 0; i < c.agents.size(); ++i) {
      Agent& a = c.agents[i];
      if (!a.alive) continue;
      a.pos = c.walls.resolve_circle(c.leash_bound(i, c.moved_from[i], a.pos), ra);
    }
    for (Target& x : c.targets) {
      if (x.alive) x.pos = c.walls.resolve_circle(x.pos, x.radius);
    }
  }
  c.rebuild_agent_grid();
  c.rebuild_target_grid();
}

}  // namespace sortie::squad
