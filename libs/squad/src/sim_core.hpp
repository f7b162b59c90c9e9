#pragma once
// Internal: the whole state of a SquadSim and the systems that advance it, one file each.
#include <cstdint>
#include <span>
#include <vector>

#include "sortie/core/rng.hpp"
#include "sortie/core/state_writer.hpp"
#include "sortie/squad/det_math.hpp"
#include "sortie/squad/flow.hpp"
#include "sortie/squad/lanes.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/sim.hpp"
#include "sortie/squad/spatial.hpp"
#include "sortie/squad/state.hpp"

namespace sortie::squad {

// Agents of a squad look for a way around walls inside this many cells of their disc.
inline constexpr int kSquadFlowRadius = 12;

struct SimCore {
  SquadMap map;
  Tuning t;
  WallGrid walls;
  SimConfig config;

  std::uint64_t tick = 0;
  std::vector<Squad> squads;
  std::vector<Agent> agents;
  std::vector<Target> targets;
  std::vector<Bullet> bullets;
  std::vector<SolverTrace> traces;
  std::vector<Event> events;
  std::vector<Event> event_log;
  Stats stats;
  core::Rng spawn_rng{1, 1};
  std::uint32_t next_bullet_id = 0;
  std::uint32_t live_targets = 0;
  std::uint32_t live_agents = 0;
  std::uint64_t hash = 0;
  std::vector<std::uint64_t> hash_history;

  // Derived each tick.
  BodyGrid agent_grid;
  BodyGrid target_grid;
  BodyGrid post_grid;  // posts of holding agents (the solver's crowding test)
  std::uint64_t post_grid_tick = ~0ull;
  LaneRegistry lanes;
  FlowField hostile_flow;
  std::vector<FlowField> squad_flow;
  std::vector<std::int32_t> squad_flow_cell;  // disc cell the field was grown from (-1: none)

  // Precomputed from the tuning.
  SinCos turn_step;
  SinCos aim_step;
  SinCos sector;  // melee half angle
  float cos_aim_tolerance = 1.0f;
  float cos_cycle_cone = 1.0f;
  float max_target_radius = 0.0f;
  int solve_period = 15;
  int spawn_period = 300;
  int flow_period = 15;

  // Scratch.
  std::vector<std::pair<float, std::uint32_t>> near;  // (distance, target)
  std::vector<std::pair<float, std::uint32_t>> pool;
  std::vector<std::int32_t> cells;
  std::vector<core::Vec2> moved_from;
  std::vector<core::Vec2> scratch_posts;  // agent positions before this tick's movement
  core::StateWriter hash_buf;             // the canonical state encoding, reused every tick

  void emit(const Event& e);
  void rebuild_agent_grid();
  void rebuild_target_grid();
  void ensure_post_grid();  // once per tick, on the first solve
  [[nodiscard]] core::Vec2 slot_of(std::size_t agent) const;
  // p when it lies within the hard limit of `disc`; else the first point 0.1 inside that circle, then
  // towards the disc, then on the rays 0.25 and 0.5 rad to either side, where a body fits clear of
  // walls and of the `taken` posts (p itself when none does).
  [[nodiscard]] core::Vec2 clamp_to_hard_limit(core::Vec2 p, core::Vec2 disc,
                                               std::span<const core::Vec2> taken = {}) const;
  // Steering target through the squad's flow field when the straight line is blocked.
  [[nodiscard]] core::Vec2 route_towards(std::size_t agent, core::Vec2 goal);
  // The leash holds bodies too: an agent may not end a move farther from its disc than the bound
  // of its squad's state (HOLDING: the hard limit, ADVANCING: anchorLeashMax); one already beyond
  // it comes in by at least a creep (a fifth of moveSpeed) per second.
  [[nodiscard]] core::Vec2 leash_bound(std::size_t agent, core::Vec2 from, core::Vec2 to) const;
  void kill_agent(std::size_t agent, std::int32_t by);
  // Turns the agent's facing at turnRate towards the target, or else its direction of travel.
  void turn_facing(Agent& a, const Target* target) const;
  // Solver bookkeeping shared by the rifle, blade and idle-blade solvers: a fresh trace for
  // `agent`, and the commit rule over the scores it was filled with. finish_solve() returns true
  // when the best candidate beats the current one by more than commitMargin; it then starts the
  // commit timer, counts the commit and logs it (`subject`, `at`); the caller moves the post.
  SolverTrace& begin_solve(std::size_t agent, std::int32_t main_target);
  bool finish_solve(std::size_t agent, int best, std::int32_t subject, core::Vec2 at);
  // A new hostile (not yet added) with its seeded pace.
  [[nodiscard]] Target make_target(core::Vec2 pos, bool awake);
  void damage_target(std::size_t target, float damage, std::int32_t by);
};

// Systems, in step order (sim.cpp calls them).
void apply_input(SimCore& c, const InputFrame& in);  // squad_input.cpp
void spawn_from_lairs(SimCore& c);                   // hostiles.cpp
void update_hostiles(SimCore& c);                    // hostiles.cpp
void evaluate_lanes(SimCore& c);                     // targeting.cpp
void run_solver(SimCore& c);                         // targeting.cpp
void update_blade_posts(SimCore& c);                 // melee.cpp
void move_agents(SimCore& c);                        // movement.cpp
void resolve_collisions(SimCore& c);                 // movement.cpp
void update_melee(SimCore& c);                       // melee.cpp
void fire_weapons(SimCore& c);                       // combat.cpp
void advance_bullets(SimCore& c);                    // combat.cpp
std::uint64_t compute_state_hash(SimCore& c);        // sim.cpp

// Shared rules.
// Why a solver candidate p (not the current position) of `agent` is rejected (Reject::none: kept):
// outside the map, a body there would overlap a wall, beyond the hard limit from the disc, not
// reachable in a straight line, or closer than candidateClearance to another agent or its post.
Reject reject_candidate(SimCore& c, std::size_t agent, core::Vec2 p);
// An ally's body (other than `self`) inside the strike sector of half angle c.sector around
// `axis` from `origin`, nearer than `range` + body radius. Returns the ally or -1.
std::int32_t ally_in_sector(const SimCore& c, std::int32_t self, core::Vec2 origin, core::Vec2 axis, float range);
// Conservative flight check (§7 rule 5): some ally could be within the lane threshold of the
// bullet during its flight, given its velocity and its largest acceleration.
bool ally_intercepts_shot(const SimCore& c, std::int32_t shooter, core::Vec2 muzzle, core::Vec2 dir, float travel);

}  // namespace sortie::squad
