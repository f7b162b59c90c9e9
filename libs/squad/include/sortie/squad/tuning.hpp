#pragma once
// Every tuning value of the squad simulation in one place (seed 002, "05 — Ядро: поведение
// отряда"). Defaults are the seed's numbers; values the seed does not give are marked "ours" and
// explained in docs/squad-maps.md. A map may override any field by its name (`tune name value`).
#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>
#include <variant>

#include "sortie/core/diagnostic.hpp"

namespace sortie::squad {

// Fixed calculation step: 60 ticks per second.
inline constexpr int kTickRate = 60;
inline constexpr float kDt = 1.0f / static_cast<float>(kTickRate);

// Firing-position solver: the current position plus 3 rings x 12 directions = 37 candidates.
inline constexpr int kRingCount = 3;
inline constexpr int kRingDirections = 12;
inline constexpr int kCandidateCount = 1 + kRingCount * kRingDirections;

struct Tuning {
  // Squad states: HOLDING after this long without movement input.
  float hold_delay = 0.15f;

  // §1 LaneClearFrom: muzzle offset towards the target; an ally blocks when its centre is within
  // body_radius + lane_half_width + safety_margin (0.53) of the muzzle->target segment.
  float muzzle_offset = 0.3f;
  float body_radius = 0.28f;
  float lane_half_width = 0.10f;
  float safety_margin = 0.15f;
  float weapon_range = 8.0f;  // ours

  // §2 target choice: in manual mode ADVANCING agents may fire at other targets.
  bool free_fire_secondary = true;
  // Ours (cost bound): automatic choice checks lanes to at most this many nearest targets.
  int lane_checks_max = 12;

  // §3 firing-position solver.
  float solve_interval = 0.25f;
  float ring_radius_1 = 0.8f;
  float ring_radius_2 = 1.6f;
  float ring_radius_3 = 2.4f;
  float candidate_clearance = 0.55f;  // rejected closer than this to another agent
  float score_lane = 100.0f;          // + if the lane to the main target is clear
  float score_share = 25.0f;          // + x (targets with a clear lane / live targets)
  float score_block = 35.0f;          // - x allies whose current lane the candidate blocks
  float score_move = 9.0f;            // - x distance from the current position
  float score_cohesion = 24.0f;       // - x distance beyond cohesion_radius from the anchor
  float cohesion_radius = 2.1f;
  float score_close = 60.0f;  // - if the nearest target is closer than min_engage_dist
  float min_engage_dist = 1.6f;
  float post_leash = 1.0f;      // hard limit: cohesion_radius + post_leash from the anchor
  float commit_margin = 15.0f;  // commit only when better by this much
  float commit_time = 0.6f;     // then do not re-solve for this long
  int share_targets_max = 8;    // ours (cost bound): share counts the nearest N in range

  // §4 lane registry: reserve threshold = lane threshold x lane_reserve_scale.
  float lane_reserve_scale = 1.8f;
  float lane_avoid_strength = 1.0f;  // push = min(1, (1 - d/threshold) x strength)

  // §5 movement layers.
  float w_seek = 1.0f;
  float arrival_radius = 1.0f;
  float separation_radius = 0.7f;
  float w_separation = 1.0f;
  float w_lane_avoid = 2.4f;
  float w_target_push = 1.0f;
  float target_push_margin = 0.15f;  // ours: push when the gap to a target is below this
  float w_wall_avoid = 1.2f;
  float wall_avoid_dist = 0.45f;  // ours: walls repel inside this gap
  float move_speed = 1.75f;
  float move_speed_fast = 2.7f;  // Shift
  float steer_accel = 10.0f;     // ours: units/s^2

  // §5a anchor disc and elastic leash.
  float anchor_speed = 3.3f;
  float anchor_speed_fast = 4.8f;
  float anchor_leash = 2.4f;      // soft bound: the disc moves freely up to here
  float anchor_leash_max = 3.6f;  // hard bound
  float leash_drag = 0.75f;
  float urge_start_frac = 1.315f;  // ours: urgency rises from anchor_leash x this (see docs)
  float sprint_at = 0.85f;         // urgency at which the squad sprints and stops firing
  float anchor_radius = 0.3f;      // ours: the disc's body against walls

  // §6 formations.
  float formation_spacing = 1.0f;  // ours
  int melee_count = 2;             // the first slots carry blades

  // §7 firing.
  float fire_cooldown = 0.35f;
  float aim_tolerance_deg = 5.0f;
  float turn_rate = 10.0f;  // ours: barrel turn, radians/s
  // §8 bullets (flight up to 0.4 s over the weapon range).
  float bullet_speed = 20.0f;
  float bullet_radius = 0.04f;
  float bullet_damage = 1.0f;

  // §9 manual aim.
  float aim_rotate_speed = 2.4f;  // ours: radians/s while an arrow key is held
  float cycle_cone_deg = 20.0f;

  // Melee (ours; seed 002 names the rules but its melee chapter is not in the seed).
  float melee_reach = 0.45f;         // strike lands when the body gap is at most this
  float melee_standoff = 0.2f;       // approach point: this gap from the target
  float melee_sector_deg = 45.0f;    // half angle of the strike sector
  float melee_engage_radius = 3.0f;  // blades pick targets this close
  float melee_windup = 0.2f;
  float melee_active = 0.12f;
  float melee_recovery = 0.22f;
  float melee_chain_window = 0.35f;  // next strike of the chain must start within this
  float melee_chain_rest = 0.6f;     // after the third strike
  float melee_damage = 1.0f;
  float melee_finisher_damage = 2.0f;  // third strike of the chain
  float lunge_speed = 3.2f;
  float lunge_accel = 30.0f;

  // Bodies and hostiles (ours).
  float agent_hp = 12.0f;
  float target_radius = 0.35f;
  float target_hp = 3.0f;
  float hostile_speed = 1.2f;
  float hostile_accel = 8.0f;
  float hostile_sense = 9.0f;          // wakes when the squad is this many grid steps away
  float hostile_direct_radius = 3.0f;  // seeks the nearest agent directly inside this (with sight)
  float hostile_separation = 0.8f;
  float hostile_attack_range = 0.15f;  // gap at which it claws
  float hostile_attack_cooldown = 1.0f;
  float hostile_damage = 1.0f;
  float spawn_interval = 5.0f;   // lairs emit a hostile this often
  int spawn_cap = 8;             // while fewer than this many hostiles are alive
  float spawn_clearance = 5.0f;  // no spawn with an agent this close to the lair
};

// The value of one field, by name (camelCase as in the seed: "holdDelay", "weaponRange").
struct TuningField {
  std::string_view name;
  std::variant<float Tuning::*, int Tuning::*, bool Tuning::*> member;
  double min = 0.0;
  double max = 0.0;
};
std::span<const TuningField> tuning_fields();
const TuningField* find_tuning_field(std::string_view name);

// Sets a field from text ("0.25", "true"); codes squad.tuning.unknown, squad.tuning.value,
// squad.tuning.range.
core::Status set_tuning_field(Tuning& tuning, std::string_view name, std::string_view value);
// Text of a field's value, shortest round-trip form ("0.25", "12", "true").
std::string tuning_field_text(const Tuning& tuning, const TuningField& field);
// Relations between fields (anchor_leash < anchor_leash_max, ...); code squad.tuning.relation.
core::Status validate_tuning(const Tuning& tuning);

// Derived thresholds.
inline float lane_threshold(const Tuning& t) {
  return t.body_radius + t.lane_half_width + t.safety_margin;
}
inline float reserve_threshold(const Tuning& t) {
  return lane_threshold(t) * t.lane_reserve_scale;
}
inline float hard_limit(const Tuning& t) {
  return t.cohesion_radius + t.post_leash;
}
inline int solve_period_ticks(const Tuning& t) {
  const auto n = std::lround(t.solve_interval * static_cast<float>(kTickRate));
  return n < 1 ? 1 : static_cast<int>(n);
}

}  // namespace sortie::squad
