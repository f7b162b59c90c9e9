#include "sortie/game/squad_snapshot.hpp"

namespace sortie::game {

SquadSnapshot take_snapshot(const squad::SquadSim& sim, bool with_traces) {
  SquadSnapshot s;
  s.tick = sim.tick();
  s.seed = sim.seed();
  s.tuning = sim.tuning();
  s.walls = sim.walls();
  s.squads.assign(sim.squads().begin(), sim.squads().end());
  s.agents.assign(sim.agents().begin(), sim.agents().end());
  s.targets.assign(sim.targets().begin(), sim.targets().end());
  s.bullets.assign(sim.bullets().begin(), sim.bullets().end());
  s.lanes.assign(sim.lanes().begin(), sim.lanes().end());
  s.events.assign(sim.events().begin(), sim.events().end());
  s.stats = sim.stats();
  s.live_agents = sim.live_agents();
  s.live_targets = sim.live_targets();
  if (with_traces) {
    s.traces.reserve(s.agents.size());
    s.slots.reserve(s.agents.size());
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
      s.traces.push_back(sim.solver_trace(i));
      s.slots.push_back(sim.slot_position(i));
    }
  }
  return s;
}

}  // namespace sortie::game
