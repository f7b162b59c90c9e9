#include "sortie/net/join_play.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sortie/mission/mission_scenario.hpp"
#include "sortie/move/components.hpp"
#include "sortie/scenario/super_ai.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net {

namespace {

const world::WorldObject* live(const world::World& w, world::ObjectId id) {
  const auto h = w.lookup(id);
  const world::WorldObject* o = h ? w.find(*h) : nullptr;
  return o != nullptr && !o->pending_delete() ? o : nullptr;
}

}  // namespace

JoinPlay::JoinPlay(Client& client, const mission::LoadedMission& mission, JoinPlayOptions options)
    : client_(client),
      mission_(mission),
      options_(std::move(options)),
      planner_(mission::map_bounds(*mission.data), options_.play) {}

core::Result<std::unique_ptr<JoinPlay>> JoinPlay::create(Client& client, const mission::LoadedMission& mission,
                                                         JoinPlayOptions options) {
  if (client.replica() == nullptr || !client.replica()->setup_complete() || mission.data == nullptr)
    return core::fail(core::Diagnostic::error("join.not_ready", "the session's setup or the mission is not there yet"));
  const auto& clans = mission.data->tma.clans;
  const std::string want = options.clan.empty() ? scenario::player_clan(mission.data->tma) : options.clan;
  std::unique_ptr<JoinPlay> p(new JoinPlay(client, mission, std::move(options)));
  for (std::size_t i = 0; i < clans.size(); ++i)
    if (!want.empty() && clans[i].name == want) p->clan_ = static_cast<std::int32_t>(i);
  if (!want.empty() && p->clan_ < 0) {
    std::string names;
    for (const auto& c : clans) names += (names.empty() ? "" : ", ") + c.name;
    return core::fail(core::Diagnostic::error("join.clan", "no clan of that name in the mission").expect(names, want));
  }
  p->clan_name_ = p->clan_ >= 0 ? want : std::string();
  return p;
}

const world::World& JoinPlay::world() const {
  return client_.replica()->world();
}

bool JoinPlay::playing() const {
  return client_.state() == ClientState::in_game && client_.ticks() >= client_.live_tick();
}

core::Status JoinPlay::step() {
  if (!playing()) return {};
  if (!claim_sent_ && options_.claim && clan_ >= 0) {
    claim_sent_ = true;
    claim_tick_ = client_.ticks();
    const world::World& w = world();
    std::vector<world::ObjectId> units;
    for (const world::Handle h : w.queue()) {
      const world::WorldObject* o = w.find(h);
      if (o == nullptr || o->pending_delete() || !w.classes().is_unit(o->class_id())) continue;
      if (o->ownership().owner != w.local_player()) continue;  // another player's already
      // Before its body arrives too (a player joined before the first tick): the server gives
      // every unit its body in tick 0's sequence.
      const auto c = o->properties.get_int("clan");
      if (c && *c == clan_) units.push_back(o->id());
    }
    std::sort(units.begin(), units.end());
    for (const auto& id : units) SORTIE_CHECK(client_.take(id));
    claimed_ = units.size();
  }
  return planner_.refresh_follows(world(), sink());
}

bool JoinPlay::decided() const {
  return mission::scenario_decided(world());
}

std::optional<std::int32_t> JoinPlay::clan_of(world::ObjectId id) const {
  const world::WorldObject* o = live(world(), id);
  if (o == nullptr) return std::nullopt;
  const auto c = o->properties.get_int("clan");
  if (!c) return std::nullopt;
  return static_cast<std::int32_t>(*c);
}

bool JoinPlay::commandable(world::ObjectId id) const {
  const world::World& w = world();
  const world::WorldObject* o = live(w, id);
  if (o == nullptr || !w.classes().is_unit(o->class_id()) || o->ownership().owner != client_.player()) return false;
  const move::Body* body = o->components.get<move::Body>();
  return body != nullptr && !body->is_static;
}

std::vector<world::ObjectId> JoinPlay::player_units() const {
  std::vector<world::ObjectId> out;
  const world::World& w = world();
  for (const world::Handle h : w.queue())
    if (const world::WorldObject* o = w.find(h); o != nullptr && commandable(o->id())) out.push_back(o->id());
  std::sort(out.begin(), out.end());
  return out;
}

mission::CommandSink JoinPlay::sink() {
  return [this](world::Command c) -> core::Status {
    SORTIE_CHECK(client_.order(c));
    ++orders_sent_;
    return {};
  };
}

std::size_t JoinPlay::give(mission::PlayAction a) {
  if (!playing() || decided()) return 0;
  auto units = mission::commandable_units(a.units, [this](world::ObjectId id) { return commandable(id); });
  if (units.empty()) return 0;
  if (a.kind == mission::ActionKind::follow && live(world(), a.target) == nullptr) return 0;
  if (a.kind != mission::ActionKind::drive)
    for (const auto& u : units) driving_.erase(u);
  a.units = units;
  a.tick = client_.ticks();
  if (auto st = planner_.act(world(), a, units, sink()); !st) return 0;
  last_ = std::move(a);
  return units.size();
}

std::size_t JoinPlay::go(std::span<const world::ObjectId> units, core::Vec2 point) {
  if (!std::isfinite(point.x) || !std::isfinite(point.y)) return 0;
  mission::PlayAction a;
  a.kind = mission::ActionKind::go;
  a.units.assign(units.begin(), units.end());
  a.point = point;
  return give(std::move(a));
}

std::size_t JoinPlay::follow(std::span<const world::ObjectId> units, world::ObjectId target) {
  mission::PlayAction a;
  a.kind = mission::ActionKind::follow;
  for (const auto& u : units)
    if (u != target) a.units.push_back(u);
  a.target = target;
  return give(std::move(a));
}

std::size_t JoinPlay::halt(std::span<const world::ObjectId> units) {
  mission::PlayAction a;
  a.kind = mission::ActionKind::halt;
  a.units.assign(units.begin(), units.end());
  return give(std::move(a));
}

std::size_t JoinPlay::drive(world::ObjectId unit, float speed, float turn) {
  const auto clamped = mission::clamp_drive(options_.play, speed, turn);
  if (!clamped) return 0;
  // The viewer drives every frame: a drive like the last one sent is not sent again.
  if (const auto it = driving_.find(unit); it != driving_.end() && it->second == *clamped) return 1;
  mission::PlayAction a;
  a.kind = mission::ActionKind::drive;
  a.units = {unit};
  a.speed = clamped->first;
  a.turn = clamped->second;
  const std::size_t n = give(std::move(a));
  if (n > 0) driving_[unit] = *clamped;
  return n;
}

std::optional<mission::ScenarioSummary> JoinPlay::summary() const {
  return mission::summarize_scenario(world(), nullptr);
}

const std::vector<scenario::TraceLine>& JoinPlay::messages() const {
  static const std::vector<scenario::TraceLine> kNone;  // the scripts run on the server
  return kNone;
}

}  // namespace sortie::net
