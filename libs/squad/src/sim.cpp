#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "sim_core.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/squad/leash.hpp"
#include "sortie/squad/solver.hpp"

namespace sortie::squad {

// ---- SimCore helpers ----

void SimCore::emit(const Event& e) {
  events.push_back(e);
  if (!config.keep_event_log) return;
  if (event_log.size() >= config.event_log_max && !event_log.empty()) {
    event_log.erase(event_log.begin(), event_log.begin() + static_cast<std::ptrdiff_t>(event_log.size() / 2));
  }
  event_log.push_back(e);
}

void SimCore::rebuild_agent_grid() {
  agent_grid.build(agents.size(), [&](std::size_t i, core::Vec2& p) {
    if (!agents[i].alive) return false;
    p = agents[i].pos;
    return true;
  });
}

void SimCore::rebuild_target_grid() {
  target_grid.build(targets.size(), [&](std::size_t i, core::Vec2& p) {
    if (!targets[i].alive) return false;
    p = targets[i].pos;
    return true;
  });
}

void SimCore::ensure_post_grid() {
  if (post_grid_tick == tick) return;
  post_grid_tick = tick;
  post_grid.build(agents.size(), [&](std::size_t k, core::Vec2& p) {
    const Agent& o = agents[k];
    if (!o.alive || squads[o.squad].state != SquadState::holding) return false;
    p = o.post;
    return true;
  });
}

core::Vec2 SimCore::slot_of(std::size_t agent) const {
  const Agent& a = agents[agent];
  const Squad& sq = squads[a.squad];
  const core::Vec2 off = formation_offset(sq.formation, a.slot, sq.agent_count);
  core::Vec2 w = slot_world(sq.disc, sq.heading, off, t.formation_spacing);
  if (const auto hit = walls.raycast(sq.disc, w)) {
    const float len = core::distance(sq.disc, w);
    const float back = std::max(0.0f, *hit * len - t.body_radius - 0.02f);
    w = sq.disc + core::normalize_or(w - sq.disc, {}) * back;
  }
  if (walls.circle_overlaps(w, t.body_radius)) w = walls.resolve_circle(w, t.body_radius);
  return w;
}

core::Vec2 SimCore::clamp_to_hard_limit(core::Vec2 p, core::Vec2 disc, std::span<const core::Vec2> taken) const {
  const float limit = hard_limit(t);
  const float d = core::distance(p, disc);
  if (d <= limit) return p;
  const float inside = limit - 0.1f;  // a little inside, so the body ends within the limit
  const float apart = 2.0f * t.body_radius + 0.04f;
  const auto fits = [&](core::Vec2 q) {
    if (walls.circle_overlaps(q, t.body_radius)) return false;
    return std::none_of(taken.begin(), taken.end(), [&](core::Vec2 o) { return core::distance(o, q) < apart; });
  };
  const core::Vec2 out = (p - disc) / d;
  for (const float angle : {0.0f, 0.25f, -0.25f, 0.5f, -0.5f}) {
    const core::Vec2 dir = angle == 0.0f ? out : rotate(out, det_sin_cos(angle));
    for (int k = 0; k <= 10; ++k) {
      const core::Vec2 cand = disc + dir * (inside * (1.0f - 0.1f * static_cast<float>(k)));
      if (fits(cand)) return cand;
    }
  }
  return p;
}

core::Vec2 SimCore::route_towards(std::size_t agent, core::Vec2 goal) {
  const Agent& a = agents[agent];
  if (!walls.blocked_thick(a.pos, goal, t.body_radius)) return goal;
  const Squad& sq = squads[a.squad];
  const int dcx = static_cast<int>(std::floor(sq.disc.x));
  const int dcy = static_cast<int>(std::floor(sq.disc.y));
  const std::int32_t disc_cell = dcy * walls.width() + dcx;
  if (squad_flow_cell[a.squad] != disc_cell) {
    const std::int32_t src[1] = {disc_cell};
    squad_flow[a.squad].compute(walls, src, dcx - kSquadFlowRadius, dcy - kSquadFlowRadius, dcx + kSquadFlowRadius,
                                dcy + kSquadFlowRadius, 4 * kSquadFlowRadius);
    squad_flow_cell[a.squad] = disc_cell;
  }
  if (const auto wp = squad_flow[a.squad].next_waypoint(a.pos)) return *wp;
  return goal;
}

core::Vec2 SimCore::leash_bound(std::size_t agent, core::Vec2 from, core::Vec2 to) const {
  const Squad& sq = squads[agents[agent].squad];
  const float bound = sq.state == SquadState::holding ? hard_limit(t) : t.anchor_leash_max;
  const float d = core::distance(to, sq.disc);
  if (d <= bound) return to;
  // Beyond the bound the leash draws the agent in by at least a creep per tick.
  const float allowed = std::max(bound, core::distance(from, sq.disc) - 0.2f * t.move_speed * kDt);
  if (d <= allowed) return to;
  return sq.disc + (to - sq.disc) * (allowed / d);
}

void SimCore::kill_agent(std::size_t agent, std::int32_t by) {
  Agent& a = agents[agent];
  if (!a.alive) return;
  a.alive = false;
  a.vel = {};
  a.melee_phase = MeleePhase::idle;
  --live_agents;
  ++stats.agents_down;
  emit({tick, EventKind::agent_down, by, static_cast<std::int32_t>(agent), a.pos, a.hp, 0});
}

Target SimCore::make_target(core::Vec2 pos, bool awake) {
  Target x;
  x.id = static_cast<std::uint32_t>(targets.size());
  x.hp = t.target_hp;
  x.radius = t.target_radius;
  x.speed = t.hostile_speed * (0.85f + 0.3f * spawn_rng.unit_f32());
  x.pos = pos;
  x.awake = awake;
  return x;
}

void SimCore::turn_facing(Agent& a, const Target* target) const {
  if (target != nullptr) {
    a.facing = turn_toward(a.facing, core::normalize_or(target->pos - a.pos, a.facing), turn_step);
  } else if (core::length_squared(a.vel) > 0.01f) {
    a.facing = turn_toward(a.facing, core::normalize_or(a.vel, a.facing), turn_step);
  }
}

SolverTrace& SimCore::begin_solve(std::size_t agent, std::int32_t main_target) {
  SolverTrace& tr = traces[agent];
  tr = SolverTrace{};
  tr.tick = tick;
  tr.main_target = main_target;
  ++stats.solves;
  return tr;
}

bool SimCore::finish_solve(std::size_t agent, int best, std::int32_t subject, core::Vec2 at) {
  SolverTrace& tr = traces[agent];
  const float best_score = tr.score[static_cast<std::size_t>(best)];
  tr.current_score = tr.score[0];
  tr.chosen = best;
  if (best == 0 || !should_commit(best_score, tr.score[0], t)) return false;
  agents[agent].commit_timer = t.commit_time;
  tr.committed = true;
  ++stats.commits;
  emit({tick, EventKind::commit, static_cast<std::int32_t>(agent), subject, at, best_score - tr.score[0], 0});
  return true;
}

void SimCore::damage_target(std::size_t target, float damage, std::int32_t by) {
  Target& x = targets[target];
  if (!x.alive) return;
  x.hp -= damage;
  x.awake = true;
  if (x.hp <= 0.0f) {
    x.alive = false;
    x.vel = {};
    --live_targets;
    ++stats.kills;
    emit({tick, EventKind::target_killed, by, static_cast<std::int32_t>(target), x.pos, 0.0f, 0});
  }
}

// ---- state hash: canonical little-endian encoding of everything that shapes the future ----

namespace {

void vec2(core::StateWriter& e, core::Vec2 p) {
  e.f32(p.x);
  e.f32(p.y);
}

}  // namespace

std::uint64_t compute_state_hash(SimCore& c) {
  core::StateWriter& e = c.hash_buf;
  e.clear();
  e.reserve(256 + c.squads.size() * 64 + c.agents.size() * 160 + c.targets.size() * 32 + c.bullets.size() * 32);
  e.u64(c.tick);
  e.u64(c.spawn_rng.state_hash());
  e.u32(c.next_bullet_id);
  const Stats& s = c.stats;
  for (std::uint64_t x : {s.shots, s.bullet_target_hits, s.bullet_wall_hits, s.bullets_expired, s.friendly_hits,
                          s.kills, s.agents_down, s.hostile_attacks, s.spawned, s.solves, s.commits, s.melee_strikes,
                          s.melee_hits, s.melee_withheld, s.shots_vetoed}) {
    e.u64(x);
  }
  e.u32(static_cast<std::uint32_t>(c.squads.size()));
  for (const Squad& q : c.squads) {
    vec2(e, q.disc);
    vec2(e, q.heading);
    e.u8(static_cast<std::uint8_t>(q.state));
    e.f32(q.idle_time);
    e.f32(q.hold_time);
    e.f32(q.leash_distance);
    e.f32(q.urgency);
    e.boolean(q.sprinting);
    e.boolean(q.shift);
    e.u8(static_cast<std::uint8_t>(q.formation));
    e.boolean(q.manual);
    vec2(e, q.aim);
    e.i32(q.assigned);
  }
  e.u32(static_cast<std::uint32_t>(c.agents.size()));
  for (const Agent& a : c.agents) {
    e.boolean(a.alive);
    e.f32(a.hp);
    vec2(e, a.pos);
    vec2(e, a.vel);
    vec2(e, a.facing);
    vec2(e, a.post);
    vec2(e, a.home);
    e.f32(a.commit_timer);
    e.f32(a.cooldown);
    vec2(e, a.tracked_post);
    e.f32(a.best_gap);
    e.f32(a.stuck_time);
    e.i32(a.target);
    e.i32(a.priority);
    e.u8(static_cast<std::uint8_t>((a.has_lane ? 1 : 0) | (a.blocked_by_ally ? 2 : 0) | (a.blocked_by_wall ? 4 : 0) |
                                   (a.lane_intent ? 8 : 0)));
    e.u8(static_cast<std::uint8_t>(a.melee_phase));
    e.f32(a.melee_timer);
    e.f32(a.chain_timer);
    e.u8(a.chain);
    e.boolean(a.strike_resolved);
    vec2(e, a.strike_axis);
    e.i32(a.melee_target);
    vec2(e, a.approach_dir);
  }
  e.u32(static_cast<std::uint32_t>(c.targets.size()));
  for (const Target& x : c.targets) {
    e.boolean(x.alive);
    e.boolean(x.awake);
    e.f32(x.hp);
    e.f32(x.speed);
    vec2(e, x.pos);
    vec2(e, x.vel);
    e.f32(x.attack_cooldown);
  }
  e.u32(static_cast<std::uint32_t>(c.bullets.size()));
  for (const Bullet& b : c.bullets) {
    e.u32(b.id);
    e.i32(b.shooter);
    e.i32(b.aimed_at);
    vec2(e, b.pos);
    vec2(e, b.dir);
    e.f32(b.remaining);
  }
  return core::hash64(c.hash_buf.view());
}

// ---- SquadSim ----

SquadSim::SquadSim(std::unique_ptr<SimCore> core) : core_(std::move(core)) {}
SquadSim::SquadSim(SquadSim&&) noexcept = default;
SquadSim& SquadSim::operator=(SquadSim&&) noexcept = default;
SquadSim::~SquadSim() = default;
SquadSim SquadSim::clone() const {
  return SquadSim(std::make_unique<SimCore>(*core_));
}

core::Result<SquadSim> SquadSim::create(const SquadMap& map, const SimConfig& config, const Tuning& base) {
  if (map.width <= 0 || map.height <= 0 ||
      map.solid.size() != static_cast<std::size_t>(map.width) * static_cast<std::size_t>(map.height)) {
    return core::fail(
        core::Diagnostic::error("squad.sim.map", "the map's wall grid does not match its size")
            .expect(fmt::format("{} x {} cells", map.width, map.height), fmt::format("{}", map.solid.size())));
  }
  SORTIE_TRY(Tuning t, map_tuning(map, base));
  const std::uint64_t agent_total = static_cast<std::uint64_t>(map.squads.size()) * map.squad_size;
  if (agent_total == 0) return core::fail(core::Diagnostic::error("squad.sim.empty", "the map has no agents"));
  if (map.squad_size > kSquadSizeMax) {
    return core::fail(core::Diagnostic::error("squad.sim.limit", "a squad has too many agents")
                          .expect(fmt::format("1 .. {}", kSquadSizeMax), fmt::format("{}", map.squad_size)));
  }
  if (agent_total > kAgentsMax || map.hostiles.size() > kAgentsMax) {
    return core::fail(core::Diagnostic::error("squad.sim.limit", "too many agents or hostiles")
                          .expect(fmt::format("<= {}", kAgentsMax),
                                  fmt::format("{} agents, {} hostiles", agent_total, map.hostiles.size())));
  }
  const auto in_map = [&](const CellPos& p) { return p.x >= 0 && p.y >= 0 && p.x < map.width && p.y < map.height; };
  for (const auto* list : {&map.squads, &map.hostiles, &map.lairs}) {
    for (const CellPos& p : *list) {
      if (!in_map(p)) {
        return core::fail(core::Diagnostic::error("squad.sim.map", "a marker lies outside the grid")
                              .expect(fmt::format("0 <= x < {}, 0 <= y < {}", map.width, map.height),
                                      fmt::format("({}, {})", p.x, p.y)));
      }
    }
  }
  auto c = std::make_unique<SimCore>();
  c->map = map;
  c->t = t;
  c->walls = map.walls();
  c->config = config;
  c->spawn_rng = core::Rng(config.seed, 1);
  const float w = static_cast<float>(map.width);
  const float h = static_cast<float>(map.height);
  c->agent_grid.reset(w, h, 1.0f);
  c->target_grid.reset(w, h, 2.0f);  // targets are looked up at weapon range: coarser cells
  c->post_grid.reset(w, h, 1.0f);
  c->lanes.reset(w, h);
  c->turn_step = det_sin_cos(t.turn_rate * kDt);
  c->aim_step = det_sin_cos(t.aim_rotate_speed * kDt);
  c->sector = det_sin_cos_deg(t.melee_sector_deg);
  c->cos_aim_tolerance = det_sin_cos_deg(t.aim_tolerance_deg).cos;
  c->cos_cycle_cone = det_sin_cos_deg(t.cycle_cone_deg).cos;
  c->max_target_radius = t.target_radius;
  c->solve_period = solve_period_ticks(t);
  c->spawn_period = std::max(1, static_cast<int>(t.spawn_interval * static_cast<float>(kTickRate) + 0.5f));

  const core::Vec2 heading = heading_vector(map.heading);
  for (const CellPos& start : map.squads) {
    Squad sq;
    sq.disc = start.centre();
    sq.heading = heading;
    sq.state = SquadState::holding;
    sq.formation = map.formation;
    sq.aim = heading;
    sq.first_agent = static_cast<std::uint32_t>(c->agents.size());
    sq.agent_count = map.squad_size;
    const auto squad_index = static_cast<std::uint32_t>(c->squads.size());
    c->squads.push_back(sq);
    for (std::uint32_t k = 0; k < map.squad_size; ++k) {
      Agent a;
      a.squad = squad_index;
      a.slot = k;
      a.role = static_cast<int>(k) < t.melee_count ? Role::blade : Role::rifle;
      a.hp = t.agent_hp;
      a.facing = heading;
      a.approach_dir = core::Vec2{} - heading;
      c->agents.push_back(a);
    }
  }
  // Agents start in their slots; where a slot is walled in (a narrow corridor) or taken, at the
  // nearest free spot around it (rings of 12 directions, 0.3 apart).
  const float apart = 2.0f * t.body_radius + 0.02f;
  for (std::size_t i = 0; i < c->agents.size(); ++i) {
    Agent& a = c->agents[i];
    const core::Vec2 slot = c->slot_of(i);
    const auto free = [&](core::Vec2 p) {
      if (c->walls.circle_overlaps(p, t.body_radius)) return false;
      for (std::size_t k = 0; k < i; ++k) {
        if (core::distance(c->agents[k].pos, p) < apart) return false;
      }
      return true;
    };
    a.pos = slot;
    for (int ring = 1; ring <= 12 && !free(a.pos); ++ring) {
      for (const core::Vec2 d : ring_directions()) {
        const core::Vec2 p = slot + d * (0.3f * static_cast<float>(ring));
        if (free(p)) {
          a.pos = p;
          break;
        }
      }
    }
    a.post = a.pos;
    a.home = a.pos;
    a.seek = a.pos;
  }
  for (const CellPos& p : map.hostiles) c->targets.push_back(c->make_target(p.centre(), false));
  c->live_agents = static_cast<std::uint32_t>(c->agents.size());
  c->live_targets = static_cast<std::uint32_t>(c->targets.size());
  c->traces.resize(c->agents.size());
  c->squad_flow.resize(c->squads.size());
  c->squad_flow_cell.assign(c->squads.size(), -1);
  for (Squad& sq : c->squads) {
    float farthest = 0.0f;
    for (std::uint32_t k = 0; k < sq.agent_count; ++k) {
      farthest = std::max(farthest, core::distance(sq.disc, c->agents[sq.first_agent + k].pos));
    }
    sq.leash_distance = farthest;
    sq.urgency = leash_urgency(farthest, t);
  }
  c->hash = compute_state_hash(*c);
  if (config.keep_hash_history) c->hash_history.push_back(c->hash);
  return SquadSim(std::move(c));
}

void SquadSim::step(const InputFrame& input) {
  SimCore& c = *core_;
  ++c.tick;
  c.events.clear();
  // Counted afresh: the edit hooks may have changed alive flags between steps.
  c.live_agents = static_cast<std::uint32_t>(
      std::count_if(c.agents.begin(), c.agents.end(), [](const Agent& a) { return a.alive; }));
  c.live_targets = static_cast<std::uint32_t>(
      std::count_if(c.targets.begin(), c.targets.end(), [](const Target& x) { return x.alive; }));
  apply_input(c, input);
  spawn_from_lairs(c);
  c.rebuild_agent_grid();
  c.rebuild_target_grid();
  update_hostiles(c);
  c.rebuild_agent_grid();  // claws may have downed agents
  c.rebuild_target_grid();
  evaluate_lanes(c);
  update_blade_posts(c);
  run_solver(c);
  move_agents(c);
  resolve_collisions(c);
  update_melee(c);
  fire_weapons(c);
  advance_bullets(c);
  c.hash = compute_state_hash(c);
  if (c.config.keep_hash_history) c.hash_history.push_back(c.hash);
}

std::uint64_t SquadSim::tick() const {
  return core_->tick;
}
double SquadSim::seconds() const {
  return static_cast<double>(core_->tick) / kTickRate;
}
std::uint64_t SquadSim::seed() const {
  return core_->config.seed;
}
const Tuning& SquadSim::tuning() const {
  return core_->t;
}
const SquadMap& SquadSim::map() const {
  return core_->map;
}
const WallGrid& SquadSim::walls() const {
  return core_->walls;
}
std::span<const Squad> SquadSim::squads() const {
  return core_->squads;
}
std::span<const Agent> SquadSim::agents() const {
  return core_->agents;
}
std::span<const Target> SquadSim::targets() const {
  return core_->targets;
}
std::span<const Bullet> SquadSim::bullets() const {
  return core_->bullets;
}
std::span<const Lane> SquadSim::lanes() const {
  return core_->lanes.lanes();
}
const SolverTrace& SquadSim::solver_trace(std::size_t agent) const {
  return core_->traces.at(agent);
}
std::span<const Event> SquadSim::events() const {
  return core_->events;
}
std::span<const Event> SquadSim::event_log() const {
  return core_->event_log;
}
const Stats& SquadSim::stats() const {
  return core_->stats;
}
std::uint32_t SquadSim::live_agents() const {
  return core_->live_agents;
}
std::uint32_t SquadSim::live_targets() const {
  return core_->live_targets;
}
core::Vec2 SquadSim::slot_position(std::size_t agent) const {
  return core_->slot_of(agent);
}
std::uint64_t SquadSim::state_hash() const {
  return core_->hash;
}
std::span<const std::uint64_t> SquadSim::hash_history() const {
  return core_->hash_history;
}

Agent& SquadSim::edit_agent(std::size_t i) {
  return core_->agents.at(i);
}
Target& SquadSim::edit_target(std::size_t i) {
  return core_->targets.at(i);
}
Squad& SquadSim::edit_squad(std::size_t i) {
  return core_->squads.at(i);
}

std::uint32_t SquadSim::add_target(core::Vec2 pos, bool awake) {
  SimCore& c = *core_;
  const Target x = c.make_target(pos, awake);
  c.targets.push_back(x);
  ++c.live_targets;
  return x.id;
}

std::uint32_t SquadSim::add_bullet(std::int32_t shooter, core::Vec2 from, core::Vec2 dir, float length) {
  SimCore& c = *core_;
  Bullet b;
  b.id = c.next_bullet_id++;
  b.shooter = shooter;
  b.pos = from;
  b.dir = core::normalize_or(dir, {1.0f, 0.0f});
  b.remaining = length;
  c.bullets.push_back(b);
  return b.id;
}

}  // namespace sortie::squad
