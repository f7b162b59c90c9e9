#pragma once
// SquadSim: the squad-tactics simulation (seed 002) as a deterministic state machine.
//
//   auto sim = SquadSim::create(map, {.seed = 7});
//   sim->step(input);            // one fixed tick of 1/60 s
//   sim->state_hash();           // xxh3 over the canonical encoding of the whole state
//
// Every squad of the map takes the same player input (a map usually has one squad). The same map,
// tuning, seed and input frames give the same hash after every tick on every compiler and build.
// A renderer reads the spans below between steps; nothing here draws.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "sortie/core/diagnostic.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/state.hpp"
#include "sortie/squad/tuning.hpp"
#include "sortie/squad/walls.hpp"

namespace sortie::squad {

struct SimConfig {
  std::uint64_t seed = 1;
  bool keep_event_log = false;           // keep every event since the start (events() is per tick)
  std::size_t event_log_max = 1u << 20;  // oldest events beyond this are dropped
  bool keep_hash_history = false;
};

struct SimCore;

class SquadSim {
 public:
  // Tuning: the map's overrides on top of `base`. Codes: squad.tuning.*, squad.sim.empty (no
  // agents), squad.sim.limit (more than kAgentsMax agents or targets).
  static core::Result<SquadSim> create(const SquadMap& map, const SimConfig& config = {}, const Tuning& base = {});
  SquadSim(SquadSim&&) noexcept;
  SquadSim& operator=(SquadSim&&) noexcept;
  ~SquadSim();
  // A deep copy (the world controller's clone()).
  [[nodiscard]] SquadSim clone() const;

  static constexpr std::size_t kAgentsMax = 1u << 20;

  void step(const InputFrame& input);

  [[nodiscard]] std::uint64_t tick() const;  // ticks done
  [[nodiscard]] double seconds() const;      // tick / 60
  [[nodiscard]] std::uint64_t seed() const;
  [[nodiscard]] const Tuning& tuning() const;
  [[nodiscard]] const SquadMap& map() const;
  [[nodiscard]] const WallGrid& walls() const;

  [[nodiscard]] std::span<const Squad> squads() const;
  [[nodiscard]] std::span<const Agent> agents() const;
  [[nodiscard]] std::span<const Target> targets() const;
  [[nodiscard]] std::span<const Bullet> bullets() const;
  [[nodiscard]] std::span<const Lane> lanes() const;  // registered this tick (firing and intent)
  [[nodiscard]] const SolverTrace& solver_trace(std::size_t agent) const;
  [[nodiscard]] std::span<const Event> events() const;     // emitted by the last step
  [[nodiscard]] std::span<const Event> event_log() const;  // all kept events (keep_event_log)
  [[nodiscard]] const Stats& stats() const;
  [[nodiscard]] std::uint32_t live_agents() const;
  [[nodiscard]] std::uint32_t live_targets() const;
  // World position of an agent's formation slot now (kept out of walls along the disc's ray).
  [[nodiscard]] core::Vec2 slot_position(std::size_t agent) const;

  [[nodiscard]] std::uint64_t state_hash() const;  // after the last step (of the initial state before)
  [[nodiscard]] std::span<const std::uint64_t> hash_history() const;  // keep_hash_history

  // Scenario and test hooks. Call between steps; they keep the simulation deterministic (the
  // next hash covers the edit).
  Agent& edit_agent(std::size_t i);
  Target& edit_target(std::size_t i);
  Squad& edit_squad(std::size_t i);
  std::uint32_t add_target(core::Vec2 pos, bool awake);
  // A bullet that was never checked (friendly fire is physical; this is how a test shows it).
  std::uint32_t add_bullet(std::int32_t shooter, core::Vec2 from, core::Vec2 dir, float length);

 private:
  explicit SquadSim(std::unique_ptr<SimCore> core);
  std::unique_ptr<SimCore> core_;
};

}  // namespace sortie::squad
