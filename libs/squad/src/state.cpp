#include "sortie/squad/state.hpp"

namespace sortie::squad {

std::string_view to_string(SquadState s) {
  switch (s) {
    case SquadState::advancing:
      return "advancing";
    case SquadState::holding:
      return "holding";
  }
  return "holding";
}

std::string_view to_string(Role r) {
  switch (r) {
    case Role::rifle:
      return "rifle";
    case Role::blade:
      return "blade";
  }
  return "rifle";
}

std::string_view to_string(MeleePhase p) {
  switch (p) {
    case MeleePhase::idle:
      return "idle";
    case MeleePhase::windup:
      return "windup";
    case MeleePhase::active:
      return "active";
    case MeleePhase::recovery:
      return "recovery";
    case MeleePhase::rest:
      return "rest";
  }
  return "idle";
}

std::string_view to_string(Reject r) {
  switch (r) {
    case Reject::none:
      return "none";
    case Reject::outside:
      return "outside";
    case Reject::wall:
      return "wall";
    case Reject::crowded:
      return "crowded";
    case Reject::hard_limit:
      return "hard_limit";
    case Reject::unreachable:
      return "unreachable";
    case Reject::unused:
      return "unused";
  }
  return "none";
}

std::string_view to_string(EventKind k) {
  switch (k) {
    case EventKind::state_changed:
      return "state_changed";
    case EventKind::formation_changed:
      return "formation_changed";
    case EventKind::manual_toggled:
      return "manual_toggled";
    case EventKind::target_assigned:
      return "target_assigned";
    case EventKind::commit:
      return "commit";
    case EventKind::shot:
      return "shot";
    case EventKind::bullet_wall:
      return "bullet_wall";
    case EventKind::bullet_target:
      return "bullet_target";
    case EventKind::friendly_hit:
      return "friendly_hit";
    case EventKind::target_killed:
      return "target_killed";
    case EventKind::agent_down:
      return "agent_down";
    case EventKind::hostile_attack:
      return "hostile_attack";
    case EventKind::hostile_awake:
      return "hostile_awake";
    case EventKind::hostile_spawned:
      return "hostile_spawned";
    case EventKind::melee_strike:
      return "melee_strike";
    case EventKind::melee_hit:
      return "melee_hit";
    case EventKind::melee_withheld:
      return "melee_withheld";
  }
  return "unknown";
}

}  // namespace sortie::squad
