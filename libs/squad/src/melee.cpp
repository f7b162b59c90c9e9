// Melee (ours; seed 002 names the rules: a strike sector, three phases, a three-strike chain, "do
// not strike through an ally", and a blade that skips the steering stack in its active window).
// Blades follow the rifles' rules in angular form: their "lane" is the strike sector, and the
// solver picks the side of the target to approach from.
#include <algorithm>
#include <cmath>
#include <limits>

#include "sim_core.hpp"
#include "sortie/squad/solver.hpp"

namespace sortie::squad {

std::int32_t ally_in_sector(const SimCore& c, std::int32_t self, core::Vec2 origin, core::Vec2 axis, float range) {
  const float r = c.t.body_radius;
  const core::Vec2 edge_a = rotate(axis, c.sector) * range;
  const core::Vec2 edge_b = rotate(axis, SinCos{-c.sector.sin, c.sector.cos}) * range;
  std::int32_t found = -1;
  c.agent_grid.for_each_in_circle(origin, range + r, [&](const BodyGrid::Item& it) {
    if (static_cast<std::int32_t>(it.index) == self) return false;
    const core::Vec2 v = it.pos - origin;
    const float d = core::length(v);
    if (d >= range + r) return false;
    const bool inside = d < 1e-4f || core::dot(axis, v) >= c.sector.cos * d ||
                        distance_point_segment(it.pos, origin, origin + edge_a) < r ||
                        distance_point_segment(it.pos, origin, origin + edge_b) < r;
    if (inside) found = static_cast<std::int32_t>(it.index);
    return inside;
  });
  return found;
}

namespace {

float standoff(const SimCore& c, const Target& x) {
  return c.t.body_radius + x.radius + c.t.melee_standoff;
}

std::int32_t choose_melee_target(SimCore& c, std::size_t i) {
  const Agent& a = c.agents[i];
  const Squad& sq = c.squads[a.squad];
  const Tuning& t = c.t;
  if (sq.manual && sq.assigned >= 0) {
    const Target& x = c.targets[static_cast<std::size_t>(sq.assigned)];
    if (x.alive && core::distance(x.pos, a.pos) <= t.melee_engage_radius) return sq.assigned;
  }
  std::int32_t best = -1;
  float best_d2 = t.melee_engage_radius * t.melee_engage_radius;
  const float squad_reach = hard_limit(t) + t.body_radius + t.target_radius + t.melee_standoff;
  c.target_grid.for_each_in_circle(a.pos, t.melee_engage_radius, [&](const BodyGrid::Item& it) {
    const float d2 = core::length_squared(it.pos - a.pos);
    if (d2 > best_d2 || (d2 == best_d2 && static_cast<std::int32_t>(it.index) > best)) return false;
    if (core::distance(it.pos, sq.disc) > squad_reach) return false;  // would leave the squad
    best_d2 = d2;
    best = static_cast<std::int32_t>(it.index);
    return false;
  });
  return best;
}

void solve_blade(SimCore& c, std::size_t i, const Target& x) {
  Agent& a = c.agents[i];
  const Squad& sq = c.squads[a.squad];
  const Tuning& t = c.t;
  const auto self = static_cast<std::int32_t>(i);
  const float stand = standoff(c, x);
  SolverTrace& tr = c.begin_solve(i, a.melee_target);
  tr.reject.fill(Reject::unused);
  const auto& dirs = ring_directions();
  int best = 0;
  core::Vec2 best_dir = a.approach_dir;
  for (int k = 0; k <= kRingDirections; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    const core::Vec2 dir = k == 0 ? a.approach_dir : dirs[ku - 1];
    const core::Vec2 p = x.pos + dir * stand;
    tr.pos[ku] = p;
    const float anchor_d = core::distance(p, sq.disc);
    const Reject rej = k == 0 ? Reject::none : reject_candidate(c, i, p);
    tr.reject[ku] = rej;
    if (rej != Reject::none) continue;
    CandidateFacts f;
    const core::Vec2 axis = core::normalize_or(x.pos - p, a.facing);
    f.lane_clear = ally_in_sector(c, self, p, axis, stand) < 0 && !c.walls.blocked(p, x.pos);
    f.blocked_allies = c.lanes.count_blocked(p, self, lane_threshold(t));
    f.move_distance = core::distance(p, a.pos);
    f.anchor_distance = anchor_d;
    f.nearest_target_distance = std::numeric_limits<float>::max();  // blades stand close by design
    tr.score[ku] = score_candidate(f, t).total();
    if (tr.score[ku] > tr.score[static_cast<std::size_t>(best)]) {
      best = k;
      best_dir = dir;
    }
  }
  if (c.finish_solve(i, best, a.melee_target, x.pos + best_dir * stand)) a.approach_dir = best_dir;
}

// A holding blade with nothing to strike stands where it blocks no rifle's lane: the rifle
// solver's own terms without the lane, share and closeness terms (which are about firing).
void solve_idle_blade(SimCore& c, std::size_t i) {
  Agent& a = c.agents[i];
  const Squad& sq = c.squads[a.squad];
  const Tuning& t = c.t;
  const auto self = static_cast<std::int32_t>(i);
  SolverTrace& tr = c.begin_solve(i, -1);
  const auto cands = candidate_positions(a.pos, t);
  int best = 0;
  for (int k = 0; k < kCandidateCount; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    const core::Vec2 p = cands[ku];
    tr.pos[ku] = p;
    tr.reject[ku] = k == 0 ? Reject::none : reject_candidate(c, i, p);
    if (tr.reject[ku] != Reject::none) continue;
    CandidateFacts f;
    f.blocked_allies = c.lanes.count_blocked(p, self, lane_threshold(t));
    f.move_distance = core::distance(p, a.pos);
    f.anchor_distance = core::distance(p, sq.disc);
    f.nearest_target_distance = std::numeric_limits<float>::max();
    tr.score[ku] = score_candidate(f, t).total();
    if (tr.score[ku] > tr.score[static_cast<std::size_t>(best)]) best = k;
  }
  if (c.finish_solve(i, best, -1, cands[static_cast<std::size_t>(best)]))
    a.post = a.home = cands[static_cast<std::size_t>(best)];
}

bool busy(const Agent& a) {
  return a.melee_phase == MeleePhase::windup || a.melee_phase == MeleePhase::active ||
         a.melee_phase == MeleePhase::recovery;
}

}  // namespace

void update_blade_posts(SimCore& c) {
  const auto period = static_cast<std::uint64_t>(c.solve_period);
  for (std::size_t i = 0; i < c.agents.size(); ++i) {
    Agent& a = c.agents[i];
    if (!a.alive || a.role != Role::blade) continue;
    const Squad& sq = c.squads[a.squad];
    const bool keep = busy(a) && a.melee_target >= 0 && c.targets[static_cast<std::size_t>(a.melee_target)].alive;
    if (!keep) {
      const std::int32_t chosen = choose_melee_target(c, i);
      if (chosen != a.melee_target) {
        a.melee_target = chosen;
        a.commit_timer = 0.0f;
        if (chosen >= 0) {
          a.approach_dir = core::normalize_or(a.pos - c.targets[static_cast<std::size_t>(chosen)].pos, a.approach_dir);
        }
      }
    }
    const bool phase_tick = c.tick % period == i % period;
    if (a.melee_target < 0) {
      if (sq.state == SquadState::advancing) {
        a.post = c.slot_of(i);
      } else {
        if (phase_tick && a.commit_timer <= 0.0f &&
            c.lanes.count_blocked(a.pos, static_cast<std::int32_t>(i), lane_threshold(c.t)) > 0) {
          solve_idle_blade(c, i);
        }
        a.post = a.home;
      }
      continue;
    }
    const Target& x = c.targets[static_cast<std::size_t>(a.melee_target)];
    const float stand = standoff(c, x);
    if (phase_tick && a.commit_timer <= 0.0f && !busy(a)) {
      // Re-choose the side when an ally is in the sector from the approach point, or when the
      // approach point stands in a rifle's lane.
      const core::Vec2 at = x.pos + a.approach_dir * stand;
      const core::Vec2 axis = core::normalize_or(x.pos - at, a.facing);
      const auto self = static_cast<std::int32_t>(i);
      if (ally_in_sector(c, self, at, axis, stand) >= 0 || c.lanes.count_blocked(at, self, lane_threshold(c.t)) > 0) {
        solve_blade(c, i, x);
      }
    }
    c.scratch_posts.clear();
    for (std::uint32_t k = 0; k < sq.agent_count; ++k) {
      const std::size_t o = sq.first_agent + k;
      if (o != i && c.agents[o].alive) c.scratch_posts.push_back(c.agents[o].post);
    }
    a.post = c.clamp_to_hard_limit(x.pos + a.approach_dir * stand, sq.disc, c.scratch_posts);
  }
}

void update_melee(SimCore& c) {
  const Tuning& t = c.t;
  for (std::size_t i = 0; i < c.agents.size(); ++i) {
    Agent& a = c.agents[i];
    if (!a.alive || a.role != Role::blade) continue;
    const auto self = static_cast<std::int32_t>(i);
    const Squad& sq = c.squads[a.squad];
    a.melee_timer = std::max(0.0f, a.melee_timer - kDt);
    a.chain_timer = std::max(0.0f, a.chain_timer - kDt);
    const Target* x = a.melee_target >= 0 && c.targets[static_cast<std::size_t>(a.melee_target)].alive
                          ? &c.targets[static_cast<std::size_t>(a.melee_target)]
                          : nullptr;
    if (a.melee_phase == MeleePhase::active) {
      a.facing = a.strike_axis;
    } else {
      c.turn_facing(a, x);
    }
    switch (a.melee_phase) {
      case MeleePhase::rest:
        if (a.melee_timer > 0.0f) break;
        a.melee_phase = MeleePhase::idle;
        a.chain = 0;
        [[fallthrough]];
      case MeleePhase::idle: {
        if (a.chain > 0 && a.chain_timer <= 0.0f) a.chain = 0;  // the chain was broken
        if (x == nullptr || sq.sprinting) break;
        const core::Vec2 v = x->pos - a.pos;
        const float d = core::length(v);
        if (!(d > 0.0f) || d - t.body_radius - x->radius > t.melee_reach) break;
        const core::Vec2 dir = v / d;
        if (core::dot(a.facing, dir) < c.sector.cos) break;
        if (ally_in_sector(c, self, a.pos, dir, d) >= 0) break;  // discipline: not through an ally
        a.melee_phase = MeleePhase::windup;
        a.melee_timer = t.melee_windup;
        a.strike_resolved = false;
        ++c.stats.melee_strikes;
        c.emit({c.tick, EventKind::melee_strike, self, a.melee_target, a.pos, static_cast<float>(a.chain + 1), 0});
        break;
      }
      case MeleePhase::windup:
        if (a.melee_timer > 0.0f) break;
        a.melee_phase = MeleePhase::active;
        a.melee_timer = t.melee_active;
        a.strike_axis = x != nullptr ? core::normalize_or(x->pos - a.pos, a.facing) : a.facing;
        a.facing = a.strike_axis;
        break;
      case MeleePhase::active: {
        if (!a.strike_resolved) {
          // The nearest live target inside the sector and within reach takes the blow.
          std::int32_t hit = -1;
          float hit_d = 0.0f;
          const float probe = t.body_radius + c.max_target_radius + t.melee_reach;
          c.target_grid.for_each_in_circle(a.pos, probe, [&](const BodyGrid::Item& it) {
            const Target& y = c.targets[it.index];
            const core::Vec2 v = y.pos - a.pos;
            const float d = core::length(v);
            if (d - t.body_radius - y.radius > t.melee_reach) return false;
            const bool in_sector = d < 1e-4f || core::dot(a.strike_axis, v) >= c.sector.cos * d;
            if (!in_sector) return false;
            if (hit < 0 || d < hit_d || (d == hit_d && static_cast<std::int32_t>(it.index) < hit)) {
              hit = static_cast<std::int32_t>(it.index);
              hit_d = d;
            }
            return false;
          });
          // An ally in the sector nearer than the blow would land (the target hit, or the blade's
          // reach when none is in reach yet) takes nothing: the blade pulls the strike.
          const float reach_d = hit >= 0 ? hit_d : 2.0f * t.body_radius + t.melee_reach;
          const std::int32_t ally = ally_in_sector(c, self, a.pos, a.strike_axis, reach_d);
          if (ally >= 0) {
            a.strike_resolved = true;
            ++c.stats.melee_withheld;
            c.emit(
                {c.tick, EventKind::melee_withheld, self, ally, c.agents[static_cast<std::size_t>(ally)].pos, 0.0f, 0});
          } else if (hit >= 0) {
            a.strike_resolved = true;
            const core::Vec2 hp = c.targets[static_cast<std::size_t>(hit)].pos;
            const float dmg = a.chain >= 2 ? t.melee_finisher_damage : t.melee_damage;
            ++c.stats.melee_hits;
            c.emit({c.tick, EventKind::melee_hit, self, hit, hp, dmg, 0});
            c.damage_target(static_cast<std::size_t>(hit), dmg, self);
          }
        }
        if (a.melee_timer > 0.0f) break;
        a.melee_phase = MeleePhase::recovery;
        a.melee_timer = t.melee_recovery;
        break;
      }
      case MeleePhase::recovery:
        if (a.melee_timer > 0.0f) break;
        a.chain = static_cast<std::uint8_t>(a.chain + 1);
        if (a.chain >= 3) {
          a.melee_phase = MeleePhase::rest;
          a.melee_timer = t.melee_chain_rest;
        } else {
          a.melee_phase = MeleePhase::idle;
          a.chain_timer = t.melee_chain_window;
        }
        break;
    }
  }
}

}  // namespace sortie::squad
