// Player input -> squads: formation, manual aim, the ADVANCING/HOLDING state, and the anchor disc
// on its elastic leash (seed 002 "Состояния отряда", §5a, §6, §9).
#include <algorithm>
#include <cmath>

#include "sim_core.hpp"
#include "sortie/squad/leash.hpp"

namespace sortie::squad {
namespace {

float farthest_agent(const SimCore& c, const Squad& sq, core::Vec2 disc) {
  float farthest = 0.0f;
  for (std::uint32_t k = 0; k < sq.agent_count; ++k) {
    const Agent& a = c.agents[sq.first_agent + k];
    if (a.alive) farthest = std::max(farthest, core::distance(disc, a.pos));
  }
  return farthest;
}

// Tab: the next live target in the cone of the aim vector, ordered by distance from the disc.
void cycle_target(SimCore& c, Squad& sq, std::uint32_t squad_index) {
  c.near.clear();
  for (std::size_t j = 0; j < c.targets.size(); ++j) {
    const Target& x = c.targets[j];
    if (!x.alive) continue;
    const core::Vec2 d = x.pos - sq.disc;
    const float len = core::length(d);
    if (!(len > 0.0f) || core::dot(d, sq.aim) < c.cos_cycle_cone * len) continue;
    c.near.emplace_back(len, static_cast<std::uint32_t>(j));
  }
  if (c.near.empty()) return;
  std::sort(c.near.begin(), c.near.end());
  std::size_t pick = 0;
  for (std::size_t k = 0; k < c.near.size(); ++k) {
    if (static_cast<std::int32_t>(c.near[k].second) == sq.assigned) pick = (k + 1) % c.near.size();
  }
  sq.assigned = static_cast<std::int32_t>(c.near[pick].second);
  c.emit({c.tick, EventKind::target_assigned, static_cast<std::int32_t>(squad_index), sq.assigned,
          c.targets[static_cast<std::size_t>(sq.assigned)].pos, 0.0f, 0});
}

void enter_state(SimCore& c, Squad& sq, std::uint32_t squad_index, SquadState state) {
  sq.state = state;
  sq.hold_time = 0.0f;
  // The squad stops where it stands; a post beyond the hard limit is drawn in to it, clear of the
  // posts given before it.
  c.scratch_posts.clear();
  for (std::uint32_t k = 0; k < sq.agent_count; ++k) {
    Agent& a = c.agents[sq.first_agent + k];
    a.commit_timer = 0.0f;
    if (state == SquadState::holding && a.alive) {
      a.post = c.clamp_to_hard_limit(a.pos, sq.disc, c.scratch_posts);
      a.home = a.post;
      c.scratch_posts.push_back(a.post);
    }
  }
  c.emit({c.tick, EventKind::state_changed, static_cast<std::int32_t>(squad_index), -1, sq.disc,
          static_cast<float>(state), 0});
}

// Moves the disc along `step`, but never so that the farthest live agent ends up beyond
// max(anchorLeashMax, its distance now): the hard bound of the leash. The farthest distance is
// convex along the step, so the allowed part is an interval starting at 0 (bisection).
core::Vec2 move_disc(const SimCore& c, const Squad& sq, core::Vec2 step, float now) {
  const float bound = std::max(c.t.anchor_leash_max, now);
  if (farthest_agent(c, sq, sq.disc + step) <= bound) return sq.disc + step;
  float lo = 0.0f;
  float hi = 1.0f;
  for (int i = 0; i < 12; ++i) {
    const float mid = 0.5f * (lo + hi);
    if (farthest_agent(c, sq, sq.disc + step * mid) <= bound) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return sq.disc + step * lo;
}

}  // namespace

void apply_input(SimCore& c, const InputFrame& in) {
  const core::Vec2 move = in.move();
  const bool moving = in.moving();
  for (std::uint32_t si = 0; si < c.squads.size(); ++si) {
    Squad& sq = c.squads[si];
    if (in.formation >= 1 && in.formation <= 3 && static_cast<std::uint8_t>(sq.formation) != in.formation) {
      sq.formation = static_cast<Formation>(in.formation);
      c.emit({c.tick, EventKind::formation_changed, static_cast<std::int32_t>(si), -1, sq.disc,
              static_cast<float>(in.formation), 0});
    }
    if (sq.assigned >= 0 && !c.targets[static_cast<std::size_t>(sq.assigned)].alive) sq.assigned = -1;
    if (in.toggle_manual) {
      sq.manual = !sq.manual;
      sq.assigned = -1;
      c.emit(
          {c.tick, EventKind::manual_toggled, static_cast<std::int32_t>(si), -1, sq.disc, sq.manual ? 1.0f : 0.0f, 0});
      if (sq.manual) {
        // Aim at the nearest live target (or ahead) and take the first target in the cone.
        sq.aim = sq.heading;
        float best = 0.0f;
        for (const Target& x : c.targets) {
          if (!x.alive) continue;
          const float d = core::distance(sq.disc, x.pos);
          if (d > 0.0f && (best == 0.0f || d < best)) {
            best = d;
            sq.aim = (x.pos - sq.disc) / d;
          }
        }
        cycle_target(c, sq, si);
      }
    }
    if (sq.manual) {
      // Left turns counter-clockwise on screen (y down): the negative angle.
      if (in.aim_left && !in.aim_right)
        sq.aim = core::normalize_or(rotate(sq.aim, {-c.aim_step.sin, c.aim_step.cos}), sq.aim);
      if (in.aim_right && !in.aim_left) sq.aim = core::normalize_or(rotate(sq.aim, c.aim_step), sq.aim);
      if (in.cycle_target) cycle_target(c, sq, si);
    }

    if (moving) {
      sq.idle_time = 0.0f;
      sq.heading = core::normalize_or(move, sq.heading);
      if (sq.state == SquadState::holding) enter_state(c, sq, si, SquadState::advancing);
    } else {
      sq.idle_time += kDt;
      if (sq.state == SquadState::advancing && sq.idle_time > c.t.hold_delay)
        enter_state(c, sq, si, SquadState::holding);
    }
    if (sq.state == SquadState::holding) sq.hold_time += kDt;
    sq.shift = moving && in.sprint;

    const float now = farthest_agent(c, sq, sq.disc);
    if (moving && c.live_agents > 0) {
      const core::Vec2 step = move * (disc_speed(now, sq.shift, c.t) * kDt);
      const core::Vec2 moved = move_disc(c, sq, step, now);
      sq.disc = c.walls.resolve_circle(moved, c.t.anchor_radius);
    }
    sq.leash_distance = farthest_agent(c, sq, sq.disc);
    sq.urgency = leash_urgency(sq.leash_distance, c.t);
    sq.sprinting = sq.state == SquadState::advancing && (sq.shift || sq.urgency >= c.t.sprint_at);
  }
}

}  // namespace sortie::squad
