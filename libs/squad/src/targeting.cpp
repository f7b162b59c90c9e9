// Target choice and lanes (seed 002 §2, §4) and the firing-position solver (§3) for rifles.
#include <algorithm>
#include <cmath>
#include <limits>

#include "sim_core.hpp"
#include "sortie/squad/solver.hpp"

namespace sortie::squad {
namespace {

using Near = std::pair<float, std::uint32_t>;  // (distance, target)

// Live targets within `radius` of p into `out`; the `keep` nearest come first, sorted by distance
// then index (the rest unordered).
void gather_targets(const SimCore& c, core::Vec2 p, float radius, std::size_t keep, std::vector<Near>& out) {
  out.clear();
  const float r2 = radius * radius;
  c.target_grid.for_each_in_circle(p, radius, [&](const BodyGrid::Item& it) {
    const float d2 = core::length_squared(it.pos - p);
    if (d2 <= r2) out.emplace_back(std::sqrt(d2), it.index);
    return false;
  });
  const std::size_t k = std::min(keep, out.size());
  std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(k), out.end());
}

// Automatic choice: the nearest live target in range with a clear lane (excluding `skip`).
// `in_sight` receives the nearest one in range that no wall hides (clear, or blocked only by an
// ally), -1 when none.
std::int32_t choose_auto(SimCore& c, std::size_t i, std::int32_t skip, std::int32_t* in_sight = nullptr) {
  const Agent& a = c.agents[i];
  int checks = 0;
  if (in_sight != nullptr) *in_sight = -1;
  // c.near: the lane_checks_max + 1 nearest sorted first (one may be `skip`).
  const std::size_t sorted = std::min(c.near.size(), static_cast<std::size_t>(c.t.lane_checks_max) + 1);
  for (std::size_t n = 0; n < sorted; ++n) {
    const auto [d, j] = c.near[n];
    if (static_cast<std::int32_t>(j) == skip) continue;
    if (d - c.t.muzzle_offset > c.t.weapon_range) break;
    if (checks++ >= c.t.lane_checks_max) break;
    const LaneCheck chk =
        lane_clear_from(c.walls, c.t, c.agent_grid, static_cast<std::int32_t>(i), a.pos, c.targets[j].pos);
    if (in_sight != nullptr && *in_sight < 0 && (chk.clear || chk.blocked_by_ally))
      *in_sight = static_cast<std::int32_t>(j);
    if (chk.clear) return static_cast<std::int32_t>(j);
  }
  return -1;
}

void set_flags(Agent& a, const LaneCheck& chk) {
  a.blocked_by_ally = chk.blocked_by_ally;
  a.blocked_by_wall = chk.blocked_by_wall;
  a.blocking_ally = chk.ally;
  // "There is a target, only an ally is in the way."
  a.lane_intent = chk.blocked_by_ally && !chk.blocked_by_wall && !chk.out_of_range;
}

}  // namespace

void evaluate_lanes(SimCore& c) {
  c.lanes.clear();
  const Tuning& t = c.t;
  const float in_range = t.weapon_range + t.muzzle_offset;
  const float reach = in_range + t.ring_radius_3;
  const auto sorted = static_cast<std::size_t>(t.lane_checks_max) + 1;
  for (std::size_t i = 0; i < c.agents.size(); ++i) {
    Agent& a = c.agents[i];
    a.target = -1;
    a.priority = -1;
    a.has_lane = a.blocked_by_ally = a.blocked_by_wall = a.lane_intent = false;
    a.blocking_ally = -1;
    if (!a.alive || a.role != Role::rifle) continue;
    const Squad& sq = c.squads[a.squad];
    const auto self = static_cast<std::int32_t>(i);
    // Targets in range; the wider reach (a solver post could bring one into range) only when
    // none is in range.
    gather_targets(c, a.pos, in_range, sorted, c.near);
    if (c.near.empty()) gather_targets(c, a.pos, reach, 1, c.near);
    if (sq.manual && sq.assigned >= 0) {
      // Manual (§9): the assigned target first.
      a.priority = sq.assigned;
      const Target& x = c.targets[static_cast<std::size_t>(sq.assigned)];
      const LaneCheck chk = lane_clear_from(c.walls, t, c.agent_grid, self, a.pos, x.pos, LaneDetail::all_reasons);
      set_flags(a, chk);
      if (chk.clear) {
        a.target = sq.assigned;
      } else if (sq.state == SquadState::advancing && t.free_fire_secondary) {
        a.target = choose_auto(c, i, sq.assigned);
      }
      // HOLDING: silent; the solver moves it (its main target is the assigned one).
    } else {
      // Main target: the nearest one in sight (only allies may stand in the way), else the nearest
      // in reach (the solver looks for a post that sees it).
      std::int32_t in_sight = -1;
      a.target = choose_auto(c, i, -1, &in_sight);
      if (in_sight >= 0) {
        a.priority = in_sight;
      } else if (!c.near.empty()) {
        a.priority = static_cast<std::int32_t>(c.near.front().second);
      }
      if (a.priority >= 0 && a.target != a.priority) {
        const LaneCheck chk =
            lane_clear_from(c.walls, t, c.agent_grid, self, a.pos, c.targets[static_cast<std::size_t>(a.priority)].pos,
                            LaneDetail::all_reasons);
        set_flags(a, chk);
      }
    }
    a.has_lane = a.target >= 0;
    if (sq.sprinting) continue;  // nobody fires while sprinting: no lane to keep clear
    if (a.has_lane) {
      const core::Vec2 to = c.targets[static_cast<std::size_t>(a.target)].pos;
      c.lanes.add({self, a.target, muzzle_point(a.pos, to, t.muzzle_offset), to, false});
    } else if (a.lane_intent) {
      const core::Vec2 to = c.targets[static_cast<std::size_t>(a.priority)].pos;
      c.lanes.add({self, a.priority, muzzle_point(a.pos, to, t.muzzle_offset), to, true});
    }
  }
  c.lanes.build(reserve_threshold(t));
}

namespace {

void solve_rifle(SimCore& c, std::size_t i) {
  Agent& a = c.agents[i];
  const Squad& sq = c.squads[a.squad];
  const Tuning& t = c.t;
  const auto self = static_cast<std::int32_t>(i);
  SolverTrace& tr = c.begin_solve(i, a.priority);
  if (a.priority < 0) {
    // Nothing in reach: the slot brings a straggler back to the squad.
    a.post = c.slot_of(i);
    tr.fallback_slot = true;
    return;
  }
  const core::Vec2 main = c.targets[static_cast<std::size_t>(a.priority)].pos;
  const auto cands = candidate_positions(a.pos, t);
  const float share_reach = t.weapon_range + t.muzzle_offset;
  // Every target within range of some candidate (or within minEngageDist of one) is within this
  // of the agent: one grid query per solve, then distances per candidate.
  gather_targets(c, a.pos, share_reach + t.ring_radius_3, 0, c.pool);
  const auto share_max = static_cast<std::size_t>(t.share_targets_max);
  int best = 0;
  for (int k = 0; k < kCandidateCount; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    const core::Vec2 p = cands[ku];
    tr.pos[ku] = p;
    // The current position is never rejected: it is the base of the comparison.
    const Reject rej = k == 0 ? Reject::none : reject_candidate(c, i, p);
    tr.reject[ku] = rej;
    if (rej != Reject::none) continue;
    CandidateFacts f;
    f.lane_clear = lane_clear_from(c.walls, t, c.agent_grid, self, p, main).clear;
    f.live_targets = static_cast<int>(c.live_targets);
    c.near.clear();
    f.nearest_target_distance = std::numeric_limits<float>::max();
    for (const auto& [d0, j] : c.pool) {
      const float d = core::distance(p, c.targets[j].pos);
      f.nearest_target_distance = std::min(f.nearest_target_distance, d);
      if (d <= share_reach) c.near.emplace_back(d, j);
    }
    const std::size_t counted = std::min(share_max, c.near.size());
    std::partial_sort(c.near.begin(), c.near.begin() + static_cast<std::ptrdiff_t>(counted), c.near.end());
    for (std::size_t n = 0; n < counted; ++n) {
      const std::uint32_t j = c.near[n].second;
      if (static_cast<std::int32_t>(j) == a.priority) {
        f.clear_targets += f.lane_clear ? 1 : 0;
      } else if (lane_clear_from(c.walls, t, c.agent_grid, self, p, c.targets[j].pos).clear) {
        ++f.clear_targets;
      }
    }
    f.blocked_allies = c.lanes.count_blocked(p, self, lane_threshold(t));
    f.move_distance = core::distance(p, a.pos);
    f.anchor_distance = core::distance(p, sq.disc);
    tr.score[ku] = score_candidate(f, t).total();
    if (tr.score[ku] > tr.score[static_cast<std::size_t>(best)]) best = k;
  }
  if (c.finish_solve(i, best, a.priority, cands[static_cast<std::size_t>(best)]))
    a.post = cands[static_cast<std::size_t>(best)];
}

}  // namespace

void run_solver(SimCore& c) {
  // Phases are staggered by agent index: agent i solves on ticks where tick % period == i % period,
  // so with up to `period` agents at most one solves per tick.
  const auto period = static_cast<std::uint64_t>(c.solve_period);
  const std::uint64_t phase = c.tick % period;
  for (std::size_t i = phase; i < c.agents.size(); i += period) {
    Agent& a = c.agents[i];
    if (!a.alive || a.role != Role::rifle) continue;
    if (c.squads[a.squad].state != SquadState::holding || a.commit_timer > 0.0f) continue;
    if (a.has_lane && a.target == a.priority) continue;
    solve_rifle(c, i);
  }
}

Reject reject_candidate(SimCore& c, std::size_t agent, core::Vec2 p) {
  const Agent& a = c.agents[agent];
  const Tuning& t = c.t;
  if (!c.walls.inside(p)) return Reject::outside;
  if (c.walls.circle_overlaps(p, t.body_radius)) return Reject::wall;
  if (beyond_hard_limit(core::distance(p, c.squads[a.squad].disc), t)) return Reject::hard_limit;
  if (c.walls.blocked(a.pos, p)) return Reject::unreachable;
  c.ensure_post_grid();
  const float clearance2 = t.candidate_clearance * t.candidate_clearance;
  const auto near_other = [&](const BodyGrid::Item& it) {
    return it.index != agent && core::length_squared(it.pos - p) < clearance2;
  };
  if (c.agent_grid.for_each_in_circle(p, t.candidate_clearance, near_other) ||
      c.post_grid.for_each_in_circle(p, t.candidate_clearance, near_other)) {
    return Reject::crowded;
  }
  return Reject::none;
}

}  // namespace sortie::squad
