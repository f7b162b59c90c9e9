#include "sortie/squad/tuning.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <string>

namespace sortie::squad {
namespace {

using T = Tuning;

// Ranges keep a hand-made map from breaking the simulation (negative radii, zero steps); the
// seed's values sit well inside them.
const std::array kFields{
    TuningField{"holdDelay", &T::hold_delay, 0.0, 10.0},
    TuningField{"muzzleOffset", &T::muzzle_offset, 0.0, 2.0},
    TuningField{"bodyRadius", &T::body_radius, 0.05, 1.0},
    TuningField{"laneHalfWidth", &T::lane_half_width, 0.0, 1.0},
    TuningField{"safetyMargin", &T::safety_margin, 0.0, 1.0},
    TuningField{"weaponRange", &T::weapon_range, 0.5, 64.0},
    TuningField{"freeFireSecondary", &T::free_fire_secondary, 0.0, 1.0},
    TuningField{"laneChecksMax", &T::lane_checks_max, 1.0, 256.0},
    TuningField{"solveInterval", &T::solve_interval, 0.02, 10.0},
    TuningField{"ringRadius1", &T::ring_radius_1, 0.05, 8.0},
    TuningField{"ringRadius2", &T::ring_radius_2, 0.05, 8.0},
    TuningField{"ringRadius3", &T::ring_radius_3, 0.05, 8.0},
    TuningField{"candidateClearance", &T::candidate_clearance, 0.0, 4.0},
    TuningField{"scoreLane", &T::score_lane, 0.0, 10000.0},
    TuningField{"scoreShare", &T::score_share, 0.0, 10000.0},
    TuningField{"scoreBlock", &T::score_block, 0.0, 10000.0},
    TuningField{"scoreMove", &T::score_move, 0.0, 10000.0},
    TuningField{"scoreCohesion", &T::score_cohesion, 0.0, 10000.0},
    TuningField{"cohesionRadius", &T::cohesion_radius, 0.0, 32.0},
    TuningField{"scoreClose", &T::score_close, 0.0, 10000.0},
    TuningField{"minEngageDist", &T::min_engage_dist, 0.0, 32.0},
    TuningField{"postLeash", &T::post_leash, 0.0, 32.0},
    TuningField{"commitMargin", &T::commit_margin, 0.0, 10000.0},
    TuningField{"commitTime", &T::commit_time, 0.0, 10.0},
    TuningField{"shareTargetsMax", &T::share_targets_max, 1.0, 256.0},
    TuningField{"laneReserveScale", &T::lane_reserve_scale, 1.0, 8.0},
    TuningField{"laneAvoidStrength", &T::lane_avoid_strength, 0.0, 16.0},
    TuningField{"wSeek", &T::w_seek, 0.0, 16.0},
    TuningField{"arrivalRadius", &T::arrival_radius, 0.01, 16.0},
    TuningField{"separationRadius", &T::separation_radius, 0.0, 8.0},
    TuningField{"wSeparation", &T::w_separation, 0.0, 16.0},
    TuningField{"wLaneAvoid", &T::w_lane_avoid, 0.0, 16.0},
    TuningField{"wTargetPush", &T::w_target_push, 0.0, 16.0},
    TuningField{"targetPushMargin", &T::target_push_margin, 0.0, 4.0},
    TuningField{"wWallAvoid", &T::w_wall_avoid, 0.0, 16.0},
    TuningField{"wallAvoidDist", &T::wall_avoid_dist, 0.0, 4.0},
    TuningField{"moveSpeed", &T::move_speed, 0.05, 20.0},
    TuningField{"moveSpeedFast", &T::move_speed_fast, 0.05, 20.0},
    TuningField{"steerAccel", &T::steer_accel, 0.1, 1000.0},
    TuningField{"anchorSpeed", &T::anchor_speed, 0.05, 40.0},
    TuningField{"anchorSpeedFast", &T::anchor_speed_fast, 0.05, 40.0},
    TuningField{"anchorLeash", &T::anchor_leash, 0.1, 32.0},
    TuningField{"anchorLeashMax", &T::anchor_leash_max, 0.1, 32.0},
    TuningField{"leashDrag", &T::leash_drag, 0.0, 1.0},
    TuningField{"urgeStartFrac", &T::urge_start_frac, 0.0, 4.0},
    TuningField{"sprintAt", &T::sprint_at, 0.0, 1.0},
    TuningField{"anchorRadius", &T::anchor_radius, 0.05, 1.0},
    TuningField{"formationSpacing", &T::formation_spacing, 0.1, 8.0},
    TuningField{"meleeCount", &T::melee_count, 0.0, 5.0},
    TuningField{"fireCooldown", &T::fire_cooldown, 0.02, 10.0},
    TuningField{"aimToleranceDeg", &T::aim_tolerance_deg, 0.1, 90.0},
    TuningField{"turnRate", &T::turn_rate, 0.1, 100.0},
    TuningField{"bulletSpeed", &T::bullet_speed, 1.0, 400.0},
    TuningField{"bulletRadius", &T::bullet_radius, 0.0, 0.5},
    TuningField{"bulletDamage", &T::bullet_damage, 0.0, 1000.0},
    TuningField{"aimRotateSpeed", &T::aim_rotate_speed, 0.0, 100.0},
    TuningField{"cycleConeDeg", &T::cycle_cone_deg, 0.0, 180.0},
    TuningField{"meleeReach", &T::melee_reach, 0.0, 4.0},
    TuningField{"meleeStandoff", &T::melee_standoff, 0.0, 4.0},
    TuningField{"meleeSectorDeg", &T::melee_sector_deg, 1.0, 89.0},
    TuningField{"meleeEngageRadius", &T::melee_engage_radius, 0.0, 32.0},
    TuningField{"meleeWindup", &T::melee_windup, 0.0, 10.0},
    TuningField{"meleeActive", &T::melee_active, 0.02, 10.0},
    TuningField{"meleeRecovery", &T::melee_recovery, 0.0, 10.0},
    TuningField{"meleeChainWindow", &T::melee_chain_window, 0.0, 10.0},
    TuningField{"meleeChainRest", &T::melee_chain_rest, 0.0, 10.0},
    TuningField{"meleeDamage", &T::melee_damage, 0.0, 1000.0},
    TuningField{"meleeFinisherDamage", &T::melee_finisher_damage, 0.0, 1000.0},
    TuningField{"lungeSpeed", &T::lunge_speed, 0.0, 40.0},
    TuningField{"lungeAccel", &T::lunge_accel, 0.1, 1000.0},
    TuningField{"agentHp", &T::agent_hp, 0.1, 1.0e9},
    TuningField{"targetRadius", &T::target_radius, 0.05, 2.0},
    TuningField{"targetHp", &T::target_hp, 0.1, 1.0e9},
    TuningField{"hostileSpeed", &T::hostile_speed, 0.0, 20.0},
    TuningField{"hostileAccel", &T::hostile_accel, 0.1, 1000.0},
    TuningField{"hostileSense", &T::hostile_sense, 0.0, 4096.0},
    TuningField{"hostileDirectRadius", &T::hostile_direct_radius, 0.0, 64.0},
    TuningField{"hostileSeparation", &T::hostile_separation, 0.0, 8.0},
    TuningField{"hostileAttackRange", &T::hostile_attack_range, 0.0, 4.0},
    TuningField{"hostileAttackCooldown", &T::hostile_attack_cooldown, 0.02, 100.0},
    TuningField{"hostileDamage", &T::hostile_damage, 0.0, 1000.0},
    TuningField{"spawnInterval", &T::spawn_interval, 0.1, 3600.0},
    TuningField{"spawnCap", &T::spawn_cap, 0.0, 100000.0},
    TuningField{"spawnClearance", &T::spawn_clearance, 0.0, 64.0},
};

std::string shortest(float v) {
  return fmt::format("{}", v);
}

}  // namespace

std::span<const TuningField> tuning_fields() {
  return kFields;
}

const TuningField* find_tuning_field(std::string_view name) {
  for (const auto& f : kFields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

core::Status set_tuning_field(Tuning& tuning, std::string_view name, std::string_view value) {
  const TuningField* field = find_tuning_field(name);
  if (field == nullptr) {
    return core::fail(core::Diagnostic::error("squad.tuning.unknown", "unknown tuning field")
                          .expect("a field of docs/squad-maps.md", std::string(name)));
  }
  const auto range_error = [&] {
    return core::fail(core::Diagnostic::error("squad.tuning.range", fmt::format("{} is out of range", name))
                          .expect(fmt::format("{} .. {}", field->min, field->max), std::string(value)));
  };
  if (std::holds_alternative<bool Tuning::*>(field->member)) {
    if (value != "true" && value != "false") {
      return core::fail(core::Diagnostic::error("squad.tuning.value", fmt::format("{} takes true or false", name))
                            .expect("true or false", std::string(value)));
    }
    tuning.*std::get<bool Tuning::*>(field->member) = value == "true";
    return {};
  }
  if (std::holds_alternative<int Tuning::*>(field->member)) {
    int v = 0;
    const auto* end = value.data() + value.size();
    const auto r = std::from_chars(value.data(), end, v);
    if (r.ec != std::errc() || r.ptr != end) {
      return core::fail(core::Diagnostic::error("squad.tuning.value", fmt::format("{} takes a whole number", name))
                            .expect("an integer", std::string(value)));
    }
    if (v < field->min || v > field->max) return range_error();
    tuning.*std::get<int Tuning::*>(field->member) = v;
    return {};
  }
  float v = 0.0f;
  const auto* end = value.data() + value.size();
  const auto r = std::from_chars(value.data(), end, v);
  if (r.ec != std::errc() || r.ptr != end || !std::isfinite(v)) {
    return core::fail(core::Diagnostic::error("squad.tuning.value", fmt::format("{} takes a number", name))
                          .expect("a decimal number", std::string(value)));
  }
  if (static_cast<double>(v) < field->min || static_cast<double>(v) > field->max) return range_error();
  tuning.*std::get<float Tuning::*>(field->member) = v;
  return {};
}

std::string tuning_field_text(const Tuning& tuning, const TuningField& field) {
  if (std::holds_alternative<bool Tuning::*>(field.member)) {
    return tuning.*std::get<bool Tuning::*>(field.member) ? "true" : "false";
  }
  if (std::holds_alternative<int Tuning::*>(field.member)) {
    return std::to_string(tuning.*std::get<int Tuning::*>(field.member));
  }
  return shortest(tuning.*std::get<float Tuning::*>(field.member));
}

core::Status validate_tuning(const Tuning& t) {
  const auto relation = [](std::string message) {
    return core::fail(core::Diagnostic::error("squad.tuning.relation", std::move(message)));
  };
  if (!(t.anchor_leash < t.anchor_leash_max)) return relation("anchorLeash must be below anchorLeashMax");
  if (!(t.anchor_leash * t.urge_start_frac < t.anchor_leash_max)) {
    return relation("anchorLeash x urgeStartFrac must be below anchorLeashMax");
  }
  if (!(t.move_speed <= t.move_speed_fast)) return relation("moveSpeed must not exceed moveSpeedFast");
  if (!(t.anchor_speed <= t.anchor_speed_fast)) return relation("anchorSpeed must not exceed anchorSpeedFast");
  if (!(t.ring_radius_1 < t.ring_radius_2 && t.ring_radius_2 < t.ring_radius_3)) {
    return relation("ringRadius1 < ringRadius2 < ringRadius3 is required");
  }
  if (!(t.melee_standoff <= t.melee_reach)) return relation("meleeStandoff must not exceed meleeReach");
  return {};
}

}  // namespace sortie::squad
