#include "sortie/scenario/super_ai.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sortie/core/hash.hpp"
#include "sortie/core/json.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/components.hpp"
#include "sortie/nav/terrain_world.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/world.hpp"

namespace sortie::scenario {

std::string_view to_string(AiOrder order) {
  switch (order) {
    case AiOrder::idle:
      return "idle";
    case AiOrder::patrol:
      return "patrol";
    case AiOrder::guard:
      return "guard";
    case AiOrder::pursue:
      return "pursue";
    case AiOrder::fall_back:
      return "fall_back";
  }
  return "unknown";
}

namespace {

float ground_distance_sq(const core::Vec3& a, const core::Vec3& b) {
  const float dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}

float ground_distance_sq(const core::Vec3& a, core::Vec2 b) {
  const float dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}

// The units of the world the radar can see: local or mirrored objects with a moving body and a
// clan, in ObjectId order; `played` marks those a networked player owns (taken or spawned).
std::vector<SuperAI::Seen> units_of(world::World& w) {
  std::vector<SuperAI::Seen> out;
  for (const world::Handle h : w.queue()) {
    auto o = w.object(h);
    if (!o || (*o)->pending_delete()) continue;
    const move::Body* body = (*o)->components.get<move::Body>();
    if (body == nullptr || body->is_static) continue;
    const auto clan = (*o)->properties.get_int("clan");
    if (!clan) continue;
    const bool played = (*o)->ownership().owner != w.local_player();
    out.push_back({(*o)->id(), static_cast<std::int32_t>(*clan), (*o)->transform.position, played});
  }
  std::sort(out.begin(), out.end(), [](const SuperAI::Seen& a, const SuperAI::Seen& b) { return a.id < b.id; });
  return out;
}

}  // namespace

SuperAI::SuperAI(std::string clan_name, SuperAIConfig config)
    : clan_name_(std::move(clan_name)), config_(std::move(config)) {}

bool SuperAI::hostile(std::int32_t clan) const {
  return std::binary_search(hostile_.begin(), hostile_.end(), clan);
}

core::Status SuperAI::start(ScenarioContext& ctx) {
  if (!ctx.facts.data)
    return core::fail(
        core::Diagnostic::error("scenario.superai.no_mission", "SuperAI needs the mission's data.tma").in(name()));
  const auto& clans = ctx.facts.data->tma.clans;
  const auto self = std::find_if(clans.begin(), clans.end(), [&](const auto& c) { return c.name == clan_name_; });
  if (self == clans.end())
    return core::fail(core::Diagnostic::error("scenario.superai.clan_unknown",
                                              fmt::format("data.tma has no clan named '{}'", clan_name_))
                          .in(name()));
  clan_id_ = static_cast<std::int32_t>(self - clans.begin());  // the clan index (handler 19's ClanID)
  anchor_ = {self->anchor_x, self->anchor_y};
  hostile_.clear();
  for (std::size_t i = 0; i < clans.size(); ++i) {
    const auto& other = clans[i];
    if (other.name == clan_name_) continue;
    bool enemy = false;
    for (const auto& r : self->relations) enemy = enemy || (r.other_clan == other.name && r.value < 0);
    for (const auto& r : other.relations) enemy = enemy || (r.other_clan == clan_name_ && r.value < 0);
    if (enemy) hostile_.push_back(static_cast<std::int32_t>(i));
  }
  std::sort(hostile_.begin(), hostile_.end());
  hostile_.erase(std::unique(hostile_.begin(), hostile_.end()), hostile_.end());
  ctx.trace("superai", fmt::format("{}: clan id {}, anchor ({}, {}), {} hostile clan(s)", clan_name_, clan_id_,
                                   anchor_.x, anchor_.y, hostile_.size()));
  return {};
}

bool SuperAI::in_sight(const ScenarioContext& ctx, const core::Vec3& from, const core::Vec3& to) {
  const auto& env = ctx.facts.movement;
  if (!env || !env->terrain) return true;  // no terrain: nothing blocks a sight line
  ++stats_.sight_rays;
  const core::Vec3 a{from.x, from.y, from.z + config_.eye_height};
  const core::Vec3 b{to.x, to.y, to.z + config_.eye_height};
  const core::Vec3 dir{b.x - a.x, b.y - a.y, b.z - a.z};
  const auto hit = env->terrain->raycast(a, dir);
  return !hit || hit->distance >= 1.0f;  // the ray parameter is in units of |dir|: 1 = the target
}

core::Status SuperAI::step(ScenarioContext& ctx) {
  const std::vector<Seen> all = units_of(ctx.world);
  // The clan's units as of this tick: radar entries follow them (a removed unit's entry goes, a
  // spawned one gets a fresh entry), in ObjectId order. A unit a networked player owns is the
  // player's to order: it still counts on the radars (and in contacts), but gets no orders.
  std::vector<UnitRadar> next;
  std::size_t old = 0;
  for (const Seen& s : all) {
    if (s.clan != clan_id_ || s.played) continue;
    while (old < radar_.size() && radar_[old].unit < s.id) ++old;
    if (old < radar_.size() && radar_[old].unit == s.id)
      next.push_back(radar_[old]);
    else
      next.push_back(UnitRadar{s.id, {}, 0, 0, AiOrder::idle, {s.position.x, s.position.y}, 0, kNeverDecided});
  }
  radar_ = std::move(next);

  const std::uint32_t cadence = std::max<std::uint32_t>(1, config_.cadence_ticks);
  std::size_t self = 0;
  for (std::size_t rank = 0; rank < radar_.size(); ++rank) {
    UnitRadar& unit = radar_[rank];
    while (all[self].id != unit.unit) ++self;  // every radar unit is in `all`
    // A unit new to the clan decides at once; then on its slot of the cadence.
    if (unit.decided_tick == kNeverDecided || (ctx.tick + rank) % cadence == 0) decide(ctx, unit, all[self], all);
  }
  if (config_.engage) engage(ctx, all);
  return {};
}

void SuperAI::decide(ScenarioContext& ctx, UnitRadar& unit, const Seen& self, const std::vector<Seen>& all) {
  ++stats_.decisions;
  unit.decided_tick = ctx.tick;
  const core::Vec2 home = config_.guard_point.value_or(anchor_);
  const float range_sq = config_.sensor_range * config_.sensor_range;
  const float leash_sq = config_.leash * config_.leash;
  // Hostile candidates in range, nearest first (equal distances: the lower ObjectId); sight
  // lines are cast in that order until the radar holds max_tracks enemies.
  struct Candidate {
    float d2;
    const Seen* seen;
  };
  std::vector<Candidate> candidates;
  std::uint32_t friends = 0;
  for (const Seen& other : all) {
    const float d2 = ground_distance_sq(self.position, other.position);
    if (d2 > range_sq) continue;
    if (other.clan == clan_id_) {
      ++friends;
      continue;
    }
    if (!hostile(other.clan)) continue;
    if (config_.leash > 0.0f && ground_distance_sq(other.position, home) > leash_sq) continue;
    candidates.push_back({d2, &other});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.d2 < b.d2; });  // `all` is in id order
  const Seen* nearest = nullptr;
  std::uint32_t enemies = 0;
  for (const Candidate& c : candidates) {
    if (enemies >= config_.max_tracks) break;
    if (!in_sight(ctx, self.position, c.seen->position)) continue;
    if (nearest == nullptr) nearest = c.seen;
    ++enemies;
  }
  unit.enemies_seen = enemies;
  unit.friends_near = friends;
  if (nearest != nullptr) {
    ++stats_.sightings;
    if (static_cast<float>(friends) < config_.fall_back_ratio * static_cast<float>(enemies)) {
      order(ctx, unit, AiOrder::fall_back, home, {});
    } else {
      order(ctx, unit, AiOrder::pursue, {nearest->position.x, nearest->position.y}, nearest->id);
    }
    return;
  }
  if (!config_.patrol_route.empty()) {
    std::uint32_t& i = unit.route_index;
    if (i >= config_.patrol_route.size()) i = 0;
    const float arrive_sq = config_.arrive_radius * config_.arrive_radius;
    if (unit.order == AiOrder::patrol && ground_distance_sq(self.position, config_.patrol_route[i]) <= arrive_sq)
      i = static_cast<std::uint32_t>((i + 1) % config_.patrol_route.size());
    order(ctx, unit, AiOrder::patrol, config_.patrol_route[i], {});
    return;
  }
  const float guard_sq = config_.guard_radius * config_.guard_radius;
  if (ground_distance_sq(self.position, home) > guard_sq || unit.order == AiOrder::fall_back)
    order(ctx, unit, AiOrder::guard, home, {});
  else if (unit.order != AiOrder::guard)
    order(ctx, unit, AiOrder::idle, {self.position.x, self.position.y}, {});
}

void SuperAI::order(ScenarioContext& ctx, UnitRadar& unit, AiOrder what, core::Vec2 goal, world::ObjectId target) {
  const float dx = goal.x - unit.goal.x, dy = goal.y - unit.goal.y;
  const bool moved = dx * dx + dy * dy > config_.regoal_distance * config_.regoal_distance;
  const bool changed = what != unit.order || target != unit.target;
  unit.target = target;
  if (!changed && !moved) return;
  const AiOrder before = unit.order;
  unit.order = what;
  unit.goal = goal;
  core::Status s;
  if (what == AiOrder::idle) {
    if (before == AiOrder::idle) return;  // nothing to stop
    s = ctx.submit(world::make_command(ctx.tick, move::HaltCommand{unit.unit}));
  } else {
    s = ctx.submit(world::make_command(ctx.tick, move::GotoCommand{unit.unit, goal, config_.speed}));
  }
  if (!s) {
    ctx.trace("superai",
              fmt::format("{}: order for {} refused: {}", clan_name_, unit.unit.to_string(), s.error().to_string()));
    return;
  }
  ++stats_.orders;
  if (changed)
    ctx.trace("superai", fmt::format("{}: {} {} -> {} ({}, {}){}", clan_name_, unit.unit.to_string(), to_string(before),
                                     to_string(what), goal.x, goal.y,
                                     target.raw() != 0 ? " target " + target.to_string() : std::string()));
}

void SuperAI::engage(ScenarioContext& ctx, const std::vector<Seen>& all) {
  const float r_sq = config_.engage_radius * config_.engage_radius;
  const std::uint32_t cadence = std::max<std::uint32_t>(1, config_.cadence_ticks);
  std::vector<Contact> now;
  for (const Seen& ours : all) {
    if (ours.clan != clan_id_) continue;
    for (const Seen& theirs : all) {
      if (!hostile(theirs.clan) || ground_distance_sq(ours.position, theirs.position) > r_sq) continue;
      Contact c{ours.id, theirs.id, 1};
      const auto prev = std::lower_bound(contacts_.begin(), contacts_.end(), c, [](const Contact& a, const Contact& b) {
        return std::tie(a.ours, a.theirs) < std::tie(b.ours, b.theirs);
      });
      if (prev != contacts_.end() && prev->ours == c.ours && prev->theirs == c.theirs) c.ticks = prev->ticks + 1;
      // The sight line of a contact is checked when it starts and then once per cadence.
      if ((c.ticks - 1) % cadence == 0 && !in_sight(ctx, ours.position, theirs.position)) continue;
      now.push_back(c);
    }
  }
  // A hostile unit reached by any contact that lasted engage_ticks is destroyed, once.
  std::vector<world::ObjectId> destroyed;
  for (const Contact& c : now)
    if (c.ticks >= config_.engage_ticks) destroyed.push_back(c.theirs);
  std::sort(destroyed.begin(), destroyed.end());
  destroyed.erase(std::unique(destroyed.begin(), destroyed.end()), destroyed.end());
  for (const world::ObjectId id : destroyed) {
    const auto s = ctx.submit(world::make_command(ctx.tick, world::RemoveCommand{id}));
    if (!s) {
      ctx.trace("superai",
                fmt::format("{}: removing {} refused: {}", clan_name_, id.to_string(), s.error().to_string()));
      continue;
    }
    ++stats_.kills;
    ctx.trace("superai", fmt::format("{}: {} destroyed on contact", clan_name_, id.to_string()));
  }
  std::erase_if(now,
                [&](const Contact& c) { return std::binary_search(destroyed.begin(), destroyed.end(), c.theirs); });
  contacts_ = std::move(now);
}

void SuperAI::encode(world::StateWriter& out) const {
  out.str(clan_name_);
  out.i32(clan_id_);
  out.u32(static_cast<std::uint32_t>(radar_.size()));
  for (const UnitRadar& u : radar_) {
    out.u64(u.unit.raw());
    out.u64(u.target.raw());
    out.u32(u.enemies_seen);
    out.u32(u.friends_near);
    out.u8(static_cast<std::uint8_t>(u.order));
    out.f32(u.goal.x);
    out.f32(u.goal.y);
    out.u32(u.route_index);
    out.u64(u.decided_tick);
  }
  out.u32(static_cast<std::uint32_t>(contacts_.size()));
  for (const Contact& c : contacts_) {
    out.u64(c.ours.raw());
    out.u64(c.theirs.raw());
    out.u32(c.ticks);
  }
}

void SuperAI::image(nlohmann::json& out) const {
  core::Json radar = core::Json::array();
  for (const UnitRadar& u : radar_)
    radar.push_back(
        core::Json{{"unit", core::hash_hex(u.unit.raw())},
                   {"target", core::hash_hex(u.target.raw())},
                   {"seen", u.enemies_seen},
                   {"near", u.friends_near},
                   {"order", to_string(u.order)},
                   {"goal", core::vec2_json(u.goal)},
                   {"route_index", u.route_index},
                   {"decided", u.decided_tick == kNeverDecided ? core::Json() : core::Json(u.decided_tick)}});
  core::Json contacts = core::Json::array();
  for (const Contact& c : contacts_)
    contacts.push_back(core::Json::array({core::hash_hex(c.ours.raw()), core::hash_hex(c.theirs.raw()), c.ticks}));
  out = core::Json{{"clan", core::bytes_text_json(clan_name_)},
                   {"clan_id", clan_id_},
                   {"cadence", config_.cadence_ticks},
                   {"radar", std::move(radar)},
                   {"contacts", std::move(contacts)},
                   {"stats", core::Json::array({stats_.decisions, stats_.orders, stats_.sightings, stats_.kills,
                                                stats_.sight_rays})}};
}

std::vector<std::string> superai_clans(const iron3d::Tma& tma, std::string_view player_clan) {
  std::vector<std::string> out;
  for (const auto& clan : tma.clans) {
    if (clan.is_spatial() || (!player_clan.empty() && clan.name == player_clan)) continue;
    bool hostile = false;
    for (const auto& r : clan.relations) hostile = hostile || r.value < 0;
    for (const auto& other : tma.clans)
      for (const auto& r : other.relations) hostile = hostile || (r.other_clan == clan.name && r.value < 0);
    if (hostile) out.push_back(clan.name);
  }
  return out;
}

std::string player_clan(const iron3d::Tma& tma) {
  for (const auto& clan : tma.clans)
    if (!clan.is_spatial()) return clan.name;
  return {};
}

}  // namespace sortie::scenario
