#pragma once
// An immutable copy of what the squad picture needs from a SquadSim at one tick. The picture is
// made from this snapshot only: the renderer never sees (so never mutates) the simulation.
#include <cstdint>
#include <vector>

#include "sortie/squad/sim.hpp"
#include "sortie/squad/state.hpp"
#include "sortie/squad/tuning.hpp"
#include "sortie/squad/walls.hpp"

namespace sortie::game {

struct SquadSnapshot {
  std::uint64_t tick = 0;
  std::uint64_t seed = 0;
  squad::Tuning tuning;
  squad::WallGrid walls;
  std::vector<squad::Squad> squads;
  std::vector<squad::Agent> agents;
  std::vector<squad::Target> targets;
  std::vector<squad::Bullet> bullets;
  std::vector<squad::Lane> lanes;
  std::vector<squad::SolverTrace> traces;  // one per agent when taken with traces, else empty
  std::vector<core::Vec2> slots;           // formation slot of each agent (with traces)
  std::vector<squad::Event> events;        // emitted by the last step
  squad::Stats stats;
  std::uint32_t live_agents = 0;
  std::uint32_t live_targets = 0;

  [[nodiscard]] double seconds() const { return static_cast<double>(tick) / squad::kTickRate; }
};

// Copies the state of `sim` (const: taking a snapshot changes nothing). `with_traces` copies the
// solver traces and slots the debug overlay draws.
SquadSnapshot take_snapshot(const squad::SquadSim& sim, bool with_traces = false);

}  // namespace sortie::game
