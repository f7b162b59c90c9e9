#include "sortie/squad/accept.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sortie/core/hash.hpp"
#include "sortie/squad/det_math.hpp"
#include "sortie/squad/run.hpp"
#include "sortie/squad/spatial.hpp"

namespace sortie::squad {

double CombatFigures::uptime() const {
  if (holding_rifle_ticks_engageable == 0) return 1.0;
  return static_cast<double>(holding_rifle_ticks_with_lane) / static_cast<double>(holding_rifle_ticks_engageable);
}

void CombatObserver::observe(const SquadSim& sim) {
  const Tuning& t = sim.tuning();
  const auto agents = sim.agents();
  const auto targets = sim.targets();
  if (!ready_) {
    agents_.reset(static_cast<float>(sim.walls().width()), static_cast<float>(sim.walls().height()), 1.0f);
    targets_.reset(static_cast<float>(sim.walls().width()), static_cast<float>(sim.walls().height()), 1.0f);
    ready_ = true;
  }
  agents_.build(agents.size(), [&](std::size_t i, core::Vec2& p) {
    p = agents[i].pos;
    return agents[i].alive;
  });
  targets_.build(targets.size(), [&](std::size_t i, core::Vec2& p) {
    p = targets[i].pos;
    return targets[i].alive;
  });
  ++f_.ticks;
  std::uint32_t live = 0;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const Agent& a = agents[i];
    if (!a.alive) continue;
    ++live;
    // Bodies inside bodies.
    agents_.for_each_in_circle(a.pos, 2.0f * t.body_radius, [&](const BodyGrid::Item& it) {
      if (it.index <= i) return false;
      f_.max_overlap =
          std::max(f_.max_overlap, static_cast<double>(2.0f * t.body_radius - core::distance(a.pos, it.pos)));
      return false;
    });
    targets_.for_each_in_circle(a.pos, t.body_radius + t.target_radius, [&](const BodyGrid::Item& it) {
      const float overlap = t.body_radius + targets[it.index].radius - core::distance(a.pos, it.pos);
      f_.max_overlap = std::max(f_.max_overlap, static_cast<double>(overlap));
      return false;
    });
    // Distance from the disc.
    const Squad& sq = sim.squads()[a.squad];
    const auto d = static_cast<double>(core::distance(a.pos, sq.disc));
    if (sq.state == SquadState::advancing) {
      f_.max_disc_distance_advancing = std::max(f_.max_disc_distance_advancing, d);
    } else if (static_cast<double>(sq.hold_time) >= kHoldSettleSeconds &&
               static_cast<double>(core::length(a.vel)) < kStandingSpeed) {
      f_.max_disc_distance_holding = std::max(f_.max_disc_distance_holding, d);
    }
    // Fire uptime: a holding rifle with a live target it may shoot in range and in sight (walls
    // only). In manual aim a holding rifle may shoot only the assigned target.
    if (a.role == Role::rifle && sq.state == SquadState::holding) {
      const float reach = t.weapon_range + t.muzzle_offset;
      const auto shootable = [&](core::Vec2 p) {
        return core::distance(a.pos, p) <= reach && !sim.walls().blocked(a.pos, p);
      };
      const bool engageable =
          sq.manual && sq.assigned >= 0
              ? shootable(targets[static_cast<std::size_t>(sq.assigned)].pos)
              : targets_.for_each_in_circle(a.pos, reach, [&](const BodyGrid::Item& it) { return shootable(it.pos); });
      if (engageable) {
        ++f_.holding_rifle_ticks_engageable;
        if (a.has_lane) ++f_.holding_rifle_ticks_with_lane;
      }
    }
  }
  f_.agent_seconds += static_cast<double>(live) / kTickRate;
  // Melee hits: did the blade's line to the target cross an ally's body?
  for (const Event& e : sim.events()) {
    if (e.kind != EventKind::melee_hit) continue;
    ++f_.melee_hits;
    const core::Vec2 blade = agents[static_cast<std::size_t>(e.actor)].pos;
    const core::Vec2 victim = targets[static_cast<std::size_t>(e.subject)].pos;
    const float reach = core::distance(blade, victim);
    const bool through = agents_.for_each_near_segment(blade, victim, t.body_radius, [&](const BodyGrid::Item& it) {
      if (static_cast<std::int32_t>(it.index) == e.actor) return false;
      return distance_point_segment(it.pos, blade, victim) < t.body_radius && core::distance(it.pos, blade) < reach;
    });
    if (through) ++f_.melee_through_ally;
  }
  const Stats& s = sim.stats();
  f_.friendly_hits = s.friendly_hits;
  f_.commits = s.commits;
  f_.shots = s.shots;
  f_.kills = s.kills;
  f_.final_hash = sim.state_hash();
}

bool AcceptReport::ok() const {
  return !criteria.empty() && std::all_of(criteria.begin(), criteria.end(), [](const Criterion& c) { return c.pass; });
}

core::Json AcceptReport::to_json() const {
  core::Json list = core::Json::array();
  for (const Criterion& c : criteria) {
    list.push_back({{"scope", c.scope},
                    {"name", c.name},
                    {"value", c.value},
                    {"figure", c.figure},
                    {"need", c.need},
                    {"pass", c.pass}});
  }
  const auto passed = static_cast<std::size_t>(
      std::count_if(criteria.begin(), criteria.end(), [](const Criterion& c) { return c.pass; }));
  return core::Json{{"seed", seed}, {"ok", ok()}, {"passed", passed}, {"total", criteria.size()}, {"criteria", list}};
}

std::string AcceptReport::to_text() const {
  std::size_t scope_w = 8;
  std::size_t name_w = 8;
  for (const Criterion& c : criteria) {
    scope_w = std::max(scope_w, c.scope.size());
    name_w = std::max(name_w, c.name.size());
  }
  std::string out;
  std::size_t passed = 0;
  for (const Criterion& c : criteria) {
    passed += c.pass ? 1 : 0;
    out += fmt::format("{}  {:<{}}  {:<{}}  {:<18}  need {}\n", c.pass ? "PASS" : "FAIL", c.scope, scope_w, c.name,
                       name_w, c.figure, c.need);
  }
  out += fmt::format("{}: {} of {} criteria pass (seed {})\n", ok() ? "ACCEPTED" : "REJECTED", passed, criteria.size(),
                     seed);
  return out;
}

core::Result<AcceptReport> run_acceptance(std::span<const NamedMap> maps, const AcceptOptions& options) {
  AcceptReport rep;
  rep.seed = options.seed;
  const std::size_t total = maps.size() + (options.scenarios ? 1 : 0);
  std::size_t done = 0;
  if (options.scenarios) {
    if (options.progress) options.progress("scenarios", done, total);
    auto list = run_scenarios(options.seed);
    rep.criteria.insert(rep.criteria.end(), list.begin(), list.end());
    ++done;
  }
  for (const NamedMap& nm : maps) {
    if (options.progress) options.progress(nm.label, done, total);
    RunOptions ro;
    ro.seconds = options.combat_seconds;
    ro.seed = options.seed;
    CombatObserver obs;
    SORTIE_TRY(const RunReport first, run_squad(nm.map, ro, [&](const SquadSim& sim) { obs.observe(sim); }));
    SORTIE_TRY(const RunReport second, run_squad(nm.map, ro));
    RunOptions replay;
    replay.replay = &first.log;
    SORTIE_TRY(const RunReport replayed, run_squad(nm.map, replay));
    const CombatFigures& f = obs.figures();
    const auto add = [&](std::string name, double value, std::string figure, std::string need, bool pass) {
      rep.criteria.push_back({nm.label, std::move(name), value, std::move(figure), std::move(need), pass});
    };
    const Tuning tuning = map_tuning(nm.map).value_or(Tuning{});
    const auto limit = static_cast<double>(hard_limit(tuning));
    const auto leash_max = static_cast<double>(tuning.anchor_leash_max);
    add("COMBAT_SECONDS", static_cast<double>(f.ticks) / kTickRate,
        fmt::format("{:.0f} s, {} shots, {} kills", static_cast<double>(f.ticks) / kTickRate, f.shots, f.kills),
        fmt::format(">= {:.0f} s", options.combat_seconds),
        static_cast<double>(f.ticks) / kTickRate >= options.combat_seconds - 1e-9);
    add("FRIENDLY_HITS", static_cast<double>(f.friendly_hits), fmt::format("{}", f.friendly_hits), "= 0",
        f.friendly_hits == 0);
    add("FIRE_UPTIME_HOLDING", f.uptime(),
        fmt::format("{:.3f} ({}/{})", f.uptime(), f.holding_rifle_ticks_with_lane, f.holding_rifle_ticks_engageable),
        fmt::format(">= {:.2f}", kUptimeMin), f.uptime() >= kUptimeMin);
    add("DISC_DISTANCE_HOLDING", f.max_disc_distance_holding, fmt::format("{:.2f}", f.max_disc_distance_holding),
        fmt::format("<= {:.2f} (hard limit)", limit), f.max_disc_distance_holding <= limit + kDistanceRounding);
    add("DISC_DISTANCE_ADVANCING", f.max_disc_distance_advancing, fmt::format("{:.2f}", f.max_disc_distance_advancing),
        fmt::format("<= {:.2f} (anchorLeashMax)", leash_max),
        f.max_disc_distance_advancing <= leash_max + kDistanceRounding);
    add("BODY_OVERLAP_MAX", f.max_overlap, fmt::format("{:.3f}", f.max_overlap), fmt::format("<= {:.2f}", kOverlapMax),
        f.max_overlap <= kOverlapMax);
    const double cps = f.agent_seconds > 0.0 ? static_cast<double>(f.commits) / f.agent_seconds : 0.0;
    add("COMMITS_PER_AGENT_SECOND", cps, fmt::format("{:.3f} ({} commits)", cps, f.commits),
        fmt::format("<= {:.2f}", kCommitsPerAgentSecondMax), cps <= kCommitsPerAgentSecondMax);
    add("MELEE_THROUGH_ALLY", static_cast<double>(f.melee_through_ally),
        fmt::format("{} of {} hits", f.melee_through_ally, f.melee_hits), "= 0", f.melee_through_ally == 0);
    const bool same = first.final_hash == second.final_hash;
    add("SAME_SEED_SAME_HASH", same ? 1.0 : 0.0,
        fmt::format("{} {} {}", core::hash_hex(first.final_hash),
                    same ? "==" : "!=", core::hash_hex(second.final_hash)),
        "equal", same);
    const bool replay_same = first.final_hash == replayed.final_hash;
    add("REPLAY_SAME_HASH", replay_same ? 1.0 : 0.0,
        fmt::format("{} {} {}", core::hash_hex(replayed.final_hash),
                    replay_same ? "==" : "!=", core::hash_hex(first.final_hash)),
        "equal", replay_same);
    ++done;
  }
  if (options.progress) options.progress("done", done, total);
  return rep;
}

}  // namespace sortie::squad
