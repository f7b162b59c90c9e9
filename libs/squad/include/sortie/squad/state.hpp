#pragma once
// The runtime state of the squad simulation: plain value types a renderer, the acceptance run
// and the state hash read. Indices are stable for the whole run: agents never move in their
// vector, targets are only appended (dead ones stay with alive = false), bullets are compacted
// each tick (their `id` is stable).
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/squad/formation.hpp"
#include "sortie/squad/tuning.hpp"

namespace sortie::squad {

enum class SquadState : std::uint8_t { advancing = 0, holding = 1 };
enum class Role : std::uint8_t { rifle = 0, blade = 1 };
enum class MeleePhase : std::uint8_t { idle = 0, windup = 1, active = 2, recovery = 3, rest = 4 };
std::string_view to_string(SquadState s);
std::string_view to_string(Role r);
std::string_view to_string(MeleePhase p);

// One squad: the anchor disc the player drives, and its shared state.
struct Squad {
  core::Vec2 disc;                 // anchor ("диск"), the camera follows it
  core::Vec2 heading{1.0f, 0.0f};  // last movement direction; formations turn to it
  SquadState state = SquadState::holding;
  float idle_time = 0.0f;       // seconds without movement input
  float hold_time = 0.0f;       // seconds since entering HOLDING
  float leash_distance = 0.0f;  // distance from the disc to the farthest live agent
  float urgency = 0.0f;         // leash tension 0..1
  bool sprinting = false;       // Shift held, or urgency >= sprintAt; fire stops
  bool shift = false;           // Shift held with movement input this tick
  Formation formation = Formation::wedge;
  // Manual aim (§9).
  bool manual = false;
  core::Vec2 aim{1.0f, 0.0f};  // aim vector from the disc
  std::int32_t assigned = -1;  // target index chosen by Tab, -1 none
  std::uint32_t first_agent = 0;
  std::uint32_t agent_count = 0;
};

struct Agent {
  std::uint32_t squad = 0;
  std::uint32_t slot = 0;
  Role role = Role::rifle;
  bool alive = true;
  float hp = 0.0f;
  core::Vec2 pos;
  core::Vec2 vel;
  core::Vec2 facing{1.0f, 0.0f};  // barrel / blade direction, unit
  core::Vec2 post;                // HOLDING post or the blade's approach point
  core::Vec2 home;                // where the agent stood when the squad halted (blades return here)
  core::Vec2 seek;                // the point steered to this tick
  float commit_timer = 0.0f;
  float cooldown = 0.0f;
  // Progress towards the post while holding (a post nobody can reach is given up).
  core::Vec2 tracked_post;
  float best_gap = 0.0f;
  float stuck_time = 0.0f;
  // Lane evaluation of this tick (§2) and its overlay flags.
  std::int32_t target = -1;    // fires at this target index
  std::int32_t priority = -1;  // main target (manual: the assigned one; auto: the nearest in reach)
  bool has_lane = false;
  bool blocked_by_ally = false;
  bool blocked_by_wall = false;
  bool lane_intent = false;  // the main target is blocked only by an ally
  std::int32_t blocking_ally = -1;
  // Melee (blades).
  MeleePhase melee_phase = MeleePhase::idle;
  float melee_timer = 0.0f;
  float chain_timer = 0.0f;      // time left to start the next strike of the chain
  std::uint8_t chain = 0;        // strikes done in the current chain (0..3)
  bool strike_resolved = false;  // the active window already hit or was withheld
  core::Vec2 strike_axis;
  std::int32_t melee_target = -1;
  core::Vec2 approach_dir{1.0f, 0.0f};  // from the target towards the approach point
};

struct Target {
  std::uint32_t id = 0;  // equals the index
  bool alive = true;
  bool awake = false;  // closing in on the squad
  float hp = 0.0f;
  float radius = 0.0f;
  float speed = 0.0f;  // hostileSpeed x a seeded factor in [0.85, 1.15)
  core::Vec2 pos;
  core::Vec2 vel;
  float attack_cooldown = 0.0f;
};

struct Bullet {
  std::uint32_t id = 0;
  std::int32_t shooter = -1;
  std::int32_t aimed_at = -1;  // the target the lane was checked to
  core::Vec2 pos;
  core::Vec2 dir;          // unit
  float remaining = 0.0f;  // distance left along the checked segment
};

// A registered lane (§4): the muzzle->target segment of a firing agent or of a lane-intent agent.
struct Lane {
  std::int32_t agent = -1;
  std::int32_t target = -1;
  core::Vec2 from;
  core::Vec2 to;
  bool intent = false;
};

enum class Reject : std::uint8_t { none = 0, outside, wall, crowded, hard_limit, unreachable, unused };
std::string_view to_string(Reject r);

// The last solve of one agent (§3), for the debug overlay.
struct SolverTrace {
  std::uint64_t tick = 0;      // 0: never solved
  bool fallback_slot = false;  // nothing in reach: the post became the formation slot
  bool committed = false;
  std::int32_t chosen = -1;  // candidate index, -1 none
  std::int32_t main_target = -1;
  float current_score = 0.0f;
  std::array<core::Vec2, kCandidateCount> pos{};
  std::array<float, kCandidateCount> score{};
  std::array<Reject, kCandidateCount> reject{};
};

enum class EventKind : std::uint8_t {
  state_changed = 1,  // actor squad, value: new state
  formation_changed,  // actor squad, value: formation
  manual_toggled,     // actor squad, value: 1 on / 0 off
  target_assigned,    // actor squad, subject target
  commit,             // actor agent, value: score gain
  shot,               // actor agent, subject target aimed at
  bullet_wall,        // actor shooter
  bullet_target,      // actor shooter, subject target, value: target hp after
  friendly_hit,       // actor shooter, subject victim agent, value: victim hp after, flags: victim state
  target_killed,      // actor agent (or -1), subject target
  agent_down,         // actor target (or -1), subject agent
  hostile_attack,     // actor target, subject agent, value: hp after
  hostile_awake,      // actor target
  hostile_spawned,    // actor lair index, subject target
  melee_strike,       // actor blade, subject target, value: strike number 1..3
  melee_hit,          // actor blade, subject target, value: damage
  melee_withheld,     // actor blade, subject ally in the sector
};
std::string_view to_string(EventKind k);

struct Event {
  std::uint64_t tick = 0;
  EventKind kind = EventKind::shot;
  std::int32_t actor = -1;
  std::int32_t subject = -1;
  core::Vec2 pos;
  float value = 0.0f;
  std::uint8_t flags = 0;  // friendly_hit: bit0 victim moving, bit1 victim squad holding, bit2 blade
};

struct Stats {
  std::uint64_t shots = 0;
  std::uint64_t bullet_target_hits = 0;
  std::uint64_t bullet_wall_hits = 0;
  std::uint64_t bullets_expired = 0;
  std::uint64_t friendly_hits = 0;  // FRIENDLY_HITS
  std::uint64_t kills = 0;
  std::uint64_t agents_down = 0;
  std::uint64_t hostile_attacks = 0;
  std::uint64_t spawned = 0;
  std::uint64_t solves = 0;
  std::uint64_t commits = 0;
  std::uint64_t melee_strikes = 0;
  std::uint64_t melee_hits = 0;
  std::uint64_t melee_withheld = 0;
  std::uint64_t shots_vetoed = 0;  // lane or flight re-check refused at the trigger
};

}  // namespace sortie::squad
