#pragma once
// The built-in scripted player of `sortie squad run` and the acceptance run: a 24-second cycle of
//   0-10 s   advance along a grid path towards the nearest hostile (a lair when none is alive, a
//            seeded wander point when there is neither); hold instead while an awake hostile is
//            within 5 units of the disc, or the objective is near and in sight; Shift during
//            2-3 s when nothing is awake within 10 units;
//   10-14 s  hold;
//   14 s     next formation (wedge -> line -> ring);
//   14-18 s  advance again;
//   18-24 s  hold with manual aim: Space at 18 s, Tab at 18.5 s, aim right 19-20 s, Tab at
//            20.5 s, Space off at 23.5 s.
// It reads only the public state, so its frames can be recorded and replayed without it.
#include <cstdint>

#include "sortie/core/rng.hpp"
#include "sortie/squad/flow.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/sim.hpp"

namespace sortie::squad {

class ScriptedPlayer {
 public:
  explicit ScriptedPlayer(std::uint64_t seed = 1) : rng_(seed, 3) {}
  // The frame for the next tick of `sim`.
  InputFrame next(const SquadSim& sim);

  static constexpr std::uint64_t kCycleTicks = 24 * 60;

 private:
  void plan(const SquadSim& sim);
  [[nodiscard]] InputFrame advance(const SquadSim& sim, bool allow_sprint) const;

  core::Rng rng_;
  FlowField from_disc_;
  FlowField to_goal_;
  std::int32_t goal_cell_ = -1;
  float goal_stop_ = 0.0f;  // hold within this distance of the goal
  bool goal_is_lair_ = false;
  std::int32_t wander_cell_ = -1;
};

}  // namespace sortie::squad
