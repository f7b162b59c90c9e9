#include "sortie/squad/script.hpp"

#include <cmath>
#include <limits>

namespace sortie::squad {
namespace {

std::int32_t cell_of(const WallGrid& w, core::Vec2 p) {
  return static_cast<std::int32_t>(std::floor(p.y)) * w.width() + static_cast<std::int32_t>(std::floor(p.x));
}
core::Vec2 centre_of(const WallGrid& w, std::int32_t cell) {
  return {static_cast<float>(cell % w.width()) + 0.5f, static_cast<float>(cell / w.width()) + 0.5f};
}
bool awake_within(const SquadSim& sim, core::Vec2 p, float r) {
  for (const Target& x : sim.targets()) {
    if (x.alive && x.awake && core::distance(x.pos, p) < r) return true;
  }
  return false;
}

}  // namespace

void ScriptedPlayer::plan(const SquadSim& sim) {
  const WallGrid& walls = sim.walls();
  const Squad& sq = sim.squads()[0];
  const std::int32_t disc_cell[1] = {cell_of(walls, sq.disc)};
  from_disc_.compute_all(walls, disc_cell);
  std::int32_t best = -1;
  std::int32_t best_d = std::numeric_limits<std::int32_t>::max();
  goal_is_lair_ = false;
  for (const Target& x : sim.targets()) {
    if (!x.alive) continue;
    const std::int32_t d = from_disc_.distance_at(x.pos);
    if (d >= 0 && d < best_d) {
      best_d = d;
      best = cell_of(walls, x.pos);
    }
  }
  goal_stop_ = 4.5f;
  if (best < 0) {
    for (const CellPos& lair : sim.map().lairs) {
      const std::int32_t d = from_disc_.distance(lair.x, lair.y);
      if (d >= 0 && d < best_d) {
        best_d = d;
        best = lair.y * walls.width() + lair.x;
        goal_is_lair_ = true;
      }
    }
    // Not too close: a lair does not spawn with an agent within spawnClearance.
    goal_stop_ = sim.tuning().spawn_clearance + 2.0f;
  }
  if (best < 0) {
    if (wander_cell_ < 0 || from_disc_.distance(wander_cell_ % walls.width(), wander_cell_ / walls.width()) <= 1) {
      wander_cell_ = -1;
      for (int tries = 0; tries < 64 && wander_cell_ < 0; ++tries) {
        const auto cell =
            static_cast<std::int32_t>(rng_.below(static_cast<std::uint32_t>(walls.width() * walls.height())));
        if (from_disc_.distance(cell % walls.width(), cell / walls.width()) > 0) wander_cell_ = cell;
      }
    }
    best = wander_cell_;
    goal_stop_ = 0.5f;
  }
  goal_cell_ = best;
  if (goal_cell_ >= 0) {
    const std::int32_t goal[1] = {goal_cell_};
    to_goal_.compute_all(walls, goal);
  }
}

InputFrame ScriptedPlayer::advance(const SquadSim& sim, bool allow_sprint) const {
  InputFrame f;
  if (goal_cell_ < 0) return f;
  const WallGrid& walls = sim.walls();
  const Squad& sq = sim.squads()[0];
  const core::Vec2 goal = centre_of(walls, goal_cell_);
  if (core::distance(goal, sq.disc) <= goal_stop_ && !walls.blocked(sq.disc, goal)) return f;
  // Follow the field from the disc; aim at the farthest of the next six waypoints in plain sight
  // (two rays a disc radius apart, so the disc is not steered into a corner).
  core::Vec2 aim = goal;
  core::Vec2 at = sq.disc;
  bool found = false;
  for (int k = 0; k < 6; ++k) {
    const auto wp = to_goal_.next_waypoint(at);
    if (!wp) break;
    const core::Vec2 side = core::perp(core::normalize_or(*wp - sq.disc, {1.0f, 0.0f})) * sim.tuning().anchor_radius;
    if (found && (walls.blocked(sq.disc + side, *wp + side) || walls.blocked(sq.disc - side, *wp - side))) break;
    aim = *wp;
    at = *wp;
    found = true;
  }
  if (!found && walls.blocked(sq.disc, goal)) return f;
  f = InputFrame::moving_towards(aim - sq.disc);
  f.sprint = allow_sprint;
  return f;
}

InputFrame ScriptedPlayer::next(const SquadSim& sim) {
  const std::uint64_t tick = sim.tick();  // the frame drives tick + 1
  const std::uint64_t in_cycle = tick % kCycleTicks;
  const Squad& sq = sim.squads()[0];
  if (tick % 15 == 0 || goal_cell_ < 0) plan(sim);
  constexpr auto s = [](double seconds) { return static_cast<std::uint64_t>(seconds * 60.0); };
  InputFrame f;
  const bool threatened = awake_within(sim, sq.disc, 5.0f);
  if (!threatened && (in_cycle < s(10) || (in_cycle >= s(14) && in_cycle < s(18)))) {
    const bool sprint = in_cycle >= s(2) && in_cycle < s(3) && !awake_within(sim, sq.disc, 10.0f);
    f = advance(sim, sprint);
  }
  if (in_cycle == s(14)) f.formation = static_cast<std::uint8_t>(next_formation(sq.formation));
  if (in_cycle == s(18) && !sq.manual) f.toggle_manual = true;
  if (in_cycle == s(18.5) || in_cycle == s(20.5)) f.cycle_target = true;
  if (in_cycle >= s(19) && in_cycle < s(20)) f.aim_right = true;
  if (in_cycle == s(23.5) && sq.manual) f.toggle_manual = true;
  return f;
}

}  // namespace sortie::squad
