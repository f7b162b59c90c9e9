// Scripted behaviour scenarios of the acceptance run: small arenas written in the map format,
// agents placed through the edit hooks, each rule watched on its own.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "sortie/squad/accept.hpp"
#include "sortie/squad/det_math.hpp"
#include "sortie/squad/leash.hpp"

namespace sortie::squad {
namespace {

struct Cell {
  int x = 0;
  int y = 0;
  char c = '.';
};

// A walled arena with the squad's disc at `disc`, extra cells, and a hostile sealed in a pocket at
// the top-right corner (maps need one; it can neither wake nor be shot). The sealed hostile comes
// first in reading order: target 0; the arena's own hostiles (rows >= 4) follow in reading order.
std::string arena(int w, int h, Cell disc, const std::vector<Cell>& cells, std::string_view header) {
  std::vector<std::string> rows(static_cast<std::size_t>(h), std::string(static_cast<std::size_t>(w), '.'));
  for (int x = 0; x < w; ++x)
    rows.front()[static_cast<std::size_t>(x)] = rows.back()[static_cast<std::size_t>(x)] = '#';
  for (auto& r : rows) r.front() = r.back() = '#';
  const auto put = [&](int x, int y, char c) { rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] = c; };
  for (int y = 0; y < 4; ++y) {
    for (int x = w - 4; x < w; ++x) put(x, y, '#');
  }
  put(w - 2, 1, 'h');
  for (const Cell& c : cells) put(c.x, c.y, c.c);
  put(disc.x, disc.y, '@');
  std::string text = "squad-map 1\n";
  text += header;
  text += fmt::format("grid {} {}\n", w, h);
  for (const auto& r : rows) text += r + "\n";
  return text;
}

// The arenas are constants of this file: a failure is a bug here, not bad input.
SquadSim make(const std::string& text, std::uint64_t seed) {
  auto map = parse_squad_map(text, "<scenario>");
  if (!map) throw std::logic_error("scenario map: " + map.error().to_string());  // a bug in this file
  auto sim = SquadSim::create(*map, SimConfig{.seed = seed});
  if (!sim) throw std::logic_error("scenario sim: " + sim.error().to_string());
  return std::move(*sim);
}

void place(SquadSim& sim, std::size_t i, core::Vec2 p) {
  Agent& a = sim.edit_agent(i);
  a.pos = a.post = a.home = a.seek = p;
  a.vel = {};
}

Criterion crit(std::string name, double value, std::string figure, std::string need, bool pass) {
  return {"scenario", std::move(name), value, std::move(figure), std::move(need), pass};
}

InputFrame idle() {
  return {};
}
InputFrame towards(float x, float y, bool sprint = false) {
  InputFrame f = InputFrame::moving_towards({x, y});
  f.sprint = sprint;
  return f;
}

constexpr std::string_view kRifles = "tune meleeCount 0\ntune targetHp 1000\ntune hostileSpeed 0\n";

// HOLDING 0.15 s after the last movement input; posts are where the agents stood.
Criterion hold_state(std::uint64_t seed) {
  SquadSim sim = make(arena(30, 16, {8, 7}, {}, "squad 3\ntune meleeCount 0\n"), seed);
  for (int k = 0; k < 40; ++k) sim.step(towards(1.0f, 0.0f));
  const bool advancing = sim.squads()[0].state == SquadState::advancing;
  int ticks = 0;
  while (sim.squads()[0].state == SquadState::advancing && ticks < 120) {
    sim.step(idle());
    ++ticks;
  }
  bool posts = true;
  for (const Agent& a : sim.agents()) posts = posts && core::distance(a.post, a.pos) < 0.05f && a.commit_timer <= 0.0f;
  const double seconds = ticks * static_cast<double>(kDt);
  const auto hold_delay = static_cast<double>(sim.tuning().hold_delay);
  const bool pass =
      advancing && posts && seconds > hold_delay && seconds <= hold_delay + static_cast<double>(kDt) + 1e-6;
  return crit("HOLD_AFTER_HOLD_DELAY", seconds, fmt::format("{:.3f} s, posts {}", seconds, posts ? "set" : "wrong"),
              fmt::format("({:.2f}, {:.3f}] s", hold_delay, hold_delay + static_cast<double>(kDt)), pass);
}

// An ally in the lane: no shot, the flags and the intent lane, then the ally is pushed aside (or
// the shooter moves) and the lane clears.
std::vector<Criterion> lane_blocked(std::uint64_t seed) {
  SquadSim sim = make(arena(30, 14, {6, 6}, {{12, 6, 'h'}}, std::string("squad 2\n") + std::string(kRifles)), seed);
  place(sim, 0, {4.5f, 6.5f});
  place(sim, 1, {8.5f, 6.5f});
  sim.step(idle());
  const Agent& a0 = sim.agents()[0];
  bool intent_lane = false;
  for (const Lane& l : sim.lanes()) intent_lane = intent_lane || (l.agent == 0 && l.intent);
  const bool flags = !a0.has_lane && a0.blocked_by_ally && a0.lane_intent && a0.blocking_ally == 1 && intent_lane;
  std::uint64_t shots_blocked = 0;
  int ticks = 0;
  while (!sim.agents()[0].has_lane && ticks < 600) {
    sim.step(idle());
    ++ticks;
    for (const Event& e : sim.events()) shots_blocked += (e.kind == EventKind::shot && e.actor == 0) ? 1 : 0;
  }
  for (int k = 0; k < 120; ++k) sim.step(idle());
  const double seconds = ticks * static_cast<double>(kDt);
  return {crit("LANE_FLAGS_BLOCKED_BY_ALLY", flags ? 1.0 : 0.0, flags ? "blocked, intent lane" : "missing", "all set",
               flags),
          crit("LANE_CLEARS_WITHOUT_FIRING", seconds, fmt::format("{:.2f} s, {} shots blocked", seconds, shots_blocked),
               "<= 2.00 s, 0 shots",
               sim.agents()[0].has_lane && seconds <= 2.0 && shots_blocked == 0 && sim.stats().friendly_hits == 0)};
}

// A pillar between a holding rifle and its target: the solver commits to a post with a lane, once.
Criterion solver_repositions(std::uint64_t seed) {
  const std::vector<Cell> cells{{14, 6, 'h'}, {10, 6, '#'}};
  SquadSim sim = make(arena(30, 16, {7, 6}, cells, std::string("squad 1\n") + std::string(kRifles)), seed);
  place(sim, 0, {7.5f, 6.5f});
  int ticks = 0;
  while (!sim.agents()[0].has_lane && ticks < 600) {
    sim.step(idle());
    ++ticks;
  }
  const std::uint64_t commits_first = sim.stats().commits;
  for (int k = 0; k < 300; ++k) sim.step(idle());
  const std::uint64_t commits_after = sim.stats().commits - commits_first;
  const double seconds = ticks * static_cast<double>(kDt);
  const bool pass = sim.agents()[0].has_lane && seconds <= 2.0 && commits_first >= 1 && commits_after == 0;
  return crit("SOLVER_FINDS_LANE_AND_STAYS", seconds,
              fmt::format("{:.2f} s, {} commit(s), {} after", seconds, commits_first, commits_after),
              "<= 2.00 s, no commit after", pass);
}

// Holding a direction: the disc and the squad settle at the leash equilibrium.
std::vector<Criterion> leash(std::uint64_t seed) {
  SquadSim sim = make(arena(84, 11, {4, 5}, {}, "squad 5\nformation wedge\n"), seed);
  double dist = 0.0;
  double urgency = 0.0;
  int samples = 0;
  int sprinting = 0;
  for (int k = 0; k < 20 * kTickRate; ++k) {
    sim.step(towards(1.0f, 0.0f));
    const Squad& sq = sim.squads()[0];
    if (k >= 12 * kTickRate) {
      dist += static_cast<double>(sq.leash_distance);
      urgency += static_cast<double>(sq.urgency);
      ++samples;
      sprinting += sq.sprinting ? 1 : 0;
    }
  }
  dist /= samples;
  urgency /= samples;
  const LeashEquilibrium eq = leash_equilibrium(sim.tuning(), false);
  return {crit("LEASH_EQUILIBRIUM_DISTANCE", dist, fmt::format("{:.2f} (model {:.2f})", dist, eq.distance),
               "3.40 +- 0.20", std::fabs(dist - 3.4) <= 0.2),
          crit("LEASH_EQUILIBRIUM_URGENCY", urgency, fmt::format("{:.2f}, sprinting {} ticks", urgency, sprinting),
               "0.55 +- 0.10, no sprint", std::fabs(urgency - 0.55) <= 0.1 && sprinting == 0)};
}

// Shift: no shot while sprinting; walking again, the rifles fire.
Criterion sprint_stops_fire(std::uint64_t seed) {
  SquadSim sim =
      make(arena(60, 20, {5, 10}, {{16, 4, 'h'}, {30, 4, 'h'}}, std::string("squad 3\n") + std::string(kRifles)), seed);
  std::uint64_t sprint_shots = 0;
  std::uint64_t walk_shots = 0;
  int sprint_ticks = 0;
  for (int k = 0; k < 6 * kTickRate; ++k) {
    const bool shift = k < 3 * kTickRate;
    sim.step(towards(1.0f, 0.0f, shift));
    const bool sprinting = sim.squads()[0].sprinting;
    sprint_ticks += sprinting ? 1 : 0;
    for (const Event& e : sim.events()) {
      if (e.kind != EventKind::shot) continue;
      (sprinting ? sprint_shots : walk_shots) += 1;
    }
  }
  return crit("SPRINT_STOPS_FIRE", static_cast<double>(sprint_shots),
              fmt::format("{} shots in {} sprint ticks, {} walking", sprint_shots, sprint_ticks, walk_shots),
              "0 sprinting, > 0 walking", sprint_shots == 0 && sprint_ticks > 0 && walk_shots > 0);
}

// Manual aim: Space takes the nearest target in the cone, Tab the next by distance; holding rifles
// fire only at the assigned one.
std::vector<Criterion> manual_aim(std::uint64_t seed) {
  SquadSim sim = make(arena(40, 20, {5, 8}, {{10, 8, 'h'}, {13, 10, 'h'}},
                            std::string("squad 3\nformation line\nheading south\n") + std::string(kRifles)),
                      seed);
  for (int k = 0; k < 30; ++k) sim.step(idle());
  InputFrame space;
  space.toggle_manual = true;
  sim.step(space);
  const std::int32_t first = sim.squads()[0].assigned;
  InputFrame tab;
  tab.cycle_target = true;
  sim.step(tab);
  const std::int32_t second = sim.squads()[0].assigned;
  std::uint64_t at_assigned = 0;
  std::uint64_t at_other = 0;
  for (int k = 0; k < 4 * kTickRate; ++k) {
    sim.step(idle());
    for (const Event& e : sim.events()) {
      if (e.kind == EventKind::shot) (e.subject == second ? at_assigned : at_other) += 1;
    }
  }
  // Targets: index 0 is the sealed one, 1 at (10,8), 2 at (13,10).
  const bool cycle = first == 1 && second == 2;
  return {crit("MANUAL_TAB_CYCLES_BY_DISTANCE", cycle ? 1.0 : 0.0, fmt::format("{} then {}", first, second), "1 then 2",
               cycle),
          crit("MANUAL_FIRES_AT_ASSIGNED_ONLY", static_cast<double>(at_other),
               fmt::format("{} at assigned, {} at others", at_assigned, at_other), "> 0 and 0",
               at_assigned > 0 && at_other == 0 && sim.stats().friendly_hits == 0)};
}

// A blade next to a tough, still target: three strikes in a chain, the third a finisher.
Criterion melee_chain(std::uint64_t seed) {
  SquadSim sim =
      make(arena(24, 14, {6, 6}, {{9, 6, 'h'}}, "squad 1\ntune meleeCount 1\ntune targetHp 20\ntune hostileSpeed 0\n"),
           seed);
  place(sim, 0, {8.5f, 6.5f});
  std::vector<float> strikes;
  std::vector<float> damage;
  for (int k = 0; k < 3 * kTickRate; ++k) {
    sim.step(idle());
    for (const Event& e : sim.events()) {
      if (e.kind == EventKind::melee_strike) strikes.push_back(e.value);
      if (e.kind == EventKind::melee_hit) damage.push_back(e.value);
    }
  }
  const bool chain = strikes.size() >= 3 && strikes[0] == 1.0f && strikes[1] == 2.0f && strikes[2] == 3.0f &&
                     damage.size() >= 3 && damage[2] == sim.tuning().melee_finisher_damage;
  return crit("MELEE_CHAIN_OF_THREE", static_cast<double>(damage.size()),
              fmt::format("{} strikes, {} hits", strikes.size(), damage.size()), "strikes 1,2,3; third a finisher",
              chain);
}

// An ally between the blade and its target: no blow through it; the blade goes round and lands.
// Then an ally stepping into the sector during a windup: that blow is withheld.
std::vector<Criterion> melee_discipline(std::uint64_t seed) {
  SquadSim sim = make(
      arena(24, 14, {7, 6}, {{10, 6, 'h'}}, "squad 2\ntune meleeCount 1\ntune targetHp 1000\ntune hostileSpeed 0\n"),
      seed);
  place(sim, 0, {8.0f, 6.5f});
  place(sim, 1, {9.25f, 6.5f});
  sim.edit_agent(1).role = Role::rifle;
  std::uint64_t through = 0;
  std::uint64_t hits = 0;
  for (int k = 0; k < 5 * kTickRate; ++k) {
    sim.step(idle());
    for (const Event& e : sim.events()) {
      if (e.kind != EventKind::melee_hit) continue;
      ++hits;
      const core::Vec2 blade = sim.agents()[0].pos;
      const core::Vec2 victim = sim.targets()[static_cast<std::size_t>(e.subject)].pos;
      const core::Vec2 ally = sim.agents()[1].pos;
      if (distance_point_segment(ally, blade, victim) < sim.tuning().body_radius &&
          core::distance(ally, blade) < core::distance(victim, blade)) {
        ++through;
      }
    }
  }
  // Windup, then the ally steps into the strike sector, beside the line to the target.
  int guard = 0;
  while (sim.agents()[0].melee_phase != MeleePhase::windup && guard++ < 600) sim.step(idle());
  const core::Vec2 blade = sim.agents()[0].pos;
  const core::Vec2 victim = sim.targets()[1].pos;
  const core::Vec2 axis = core::normalize_or(victim - blade, {1.0f, 0.0f});
  place(sim, 1, blade + rotate(axis, det_sin_cos_deg(35.0f)) * 0.6f);
  std::uint64_t withheld = 0;
  std::uint64_t late_hits = 0;
  for (int k = 0; k < 30; ++k) {
    sim.step(idle());
    for (const Event& e : sim.events()) {
      withheld += e.kind == EventKind::melee_withheld ? 1 : 0;
      late_hits += e.kind == EventKind::melee_hit ? 1 : 0;
    }
  }
  return {
      crit("MELEE_GOES_ROUND_ALLY", static_cast<double>(through),
           fmt::format("{} hits, {} through the ally", hits, through), "> 0 hits, 0 through", hits > 0 && through == 0),
      crit("MELEE_WITHHELD_FOR_ALLY", static_cast<double>(withheld),
           fmt::format("{} withheld, {} landed", withheld, late_hits), "1 withheld, 0 landed",
           guard < 600 && withheld == 1 && late_hits == 0)};
}

// Friendly fire is physical: an unchecked bullet hits an ally; a wall in front stops it first.
Criterion friendly_fire_physical(std::uint64_t seed) {
  SquadSim sim = make(arena(30, 14, {6, 6}, {{8, 9, '#'}}, std::string("squad 3\n") + std::string(kRifles)), seed);
  place(sim, 0, {4.5f, 6.5f});
  place(sim, 1, {9.5f, 6.5f});
  place(sim, 2, {9.5f, 9.5f});
  sim.add_bullet(0, {5.0f, 6.5f}, {1.0f, 0.0f}, 8.0f);  // open line to agent 1
  sim.add_bullet(0, {5.0f, 9.5f}, {1.0f, 0.0f}, 8.0f);  // wall cell (8,9) before agent 2
  for (int k = 0; k < 30; ++k) sim.step(idle());
  std::uint64_t victims_1 = 0;
  std::uint64_t victims_2 = 0;
  const Stats& s = sim.stats();
  victims_1 = sim.agents()[1].hp < sim.tuning().agent_hp ? 1 : 0;
  victims_2 = sim.agents()[2].hp < sim.tuning().agent_hp ? 1 : 0;
  const bool pass = s.friendly_hits == 1 && victims_1 == 1 && victims_2 == 0 && s.bullet_wall_hits >= 1;
  return crit("FRIENDLY_FIRE_IS_PHYSICAL", static_cast<double>(s.friendly_hits),
              fmt::format("{} ally hit, {} wall hit first", s.friendly_hits, s.bullet_wall_hits), "1 and 1", pass);
}

// Formations: advancing with the disc almost still, the agents stand in their slots.
Criterion formations(std::uint64_t seed) {
  std::string figure;
  bool pass = true;
  double worst = 0.0;
  for (Formation f : {Formation::wedge, Formation::line, Formation::ring}) {
    SquadSim sim = make(arena(30, 20, {12, 9}, {}, fmt::format("squad 5\nformation {}\n", to_string(f))), seed);
    InputFrame creep;
    creep.move_x = 1;  // 1/127 of full speed: ADVANCING, the disc nearly still
    for (int k = 0; k < 5 * kTickRate; ++k) sim.step(creep);
    double sum = 0.0;
    for (std::size_t i = 0; i < sim.agents().size(); ++i)
      sum += static_cast<double>(core::distance(sim.agents()[i].pos, sim.slot_position(i)));
    const double mean = sum / static_cast<double>(sim.agents().size());
    worst = std::max(worst, mean);
    const bool blades = sim.agents()[0].role == Role::blade && sim.agents()[1].role == Role::blade &&
                        sim.agents()[2].role == Role::rifle;
    pass = pass && mean <= 0.25 && blades && sim.squads()[0].state == SquadState::advancing;
    figure += fmt::format("{}{} {:.2f}", figure.empty() ? "" : ", ", to_string(f), mean);
  }
  return crit("FORMATION_SLOTS_HELD", worst, figure, "mean <= 0.25 each; slots 0-1 blades", pass);
}

// Hostiles close in on the squad.
Criterion hostiles_close_in(std::uint64_t seed) {
  SquadSim sim = make(arena(40, 16, {5, 7}, {{14, 7, 'h'}}, "squad 3\ntune targetHp 1000\n"), seed);
  const auto nearest = [&] {
    float best = 1e9f;
    for (const Agent& a : sim.agents())
      best = std::min(best, core::distance(a.pos, sim.targets()[1].pos));  // 0 is sealed
    return best;
  };
  const float before = nearest();
  for (int k = 0; k < 5 * kTickRate; ++k) sim.step(idle());
  const float after = nearest();
  return crit("HOSTILES_CLOSE_IN", static_cast<double>(before - after), fmt::format("{:.1f} -> {:.1f}", before, after),
              "closer by >= 4", before - after >= 4.0f);
}

}  // namespace

std::vector<Criterion> run_scenarios(std::uint64_t seed) {
  std::vector<Criterion> out;
  const auto add = [&](std::vector<Criterion> v) { out.insert(out.end(), v.begin(), v.end()); };
  out.push_back(hold_state(seed));
  add(lane_blocked(seed));
  out.push_back(solver_repositions(seed));
  add(leash(seed));
  out.push_back(sprint_stops_fire(seed));
  add(manual_aim(seed));
  out.push_back(formations(seed));
  out.push_back(melee_chain(seed));
  add(melee_discipline(seed));
  out.push_back(friendly_fire_physical(seed));
  out.push_back(hostiles_close_in(seed));
  return out;
}

}  // namespace sortie::squad
