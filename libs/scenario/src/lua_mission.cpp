#include "sortie/scenario/lua_mission.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lua_script.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/world/world.hpp"

namespace sortie::scenario {

namespace {

using Script = LuaMission::Script;
using world::ObjectId;

Arg id_arg(ObjectId id) {
  return Arg{Arg::Type::integer, static_cast<lua_Integer>(id.raw()), 0, {}};
}
Arg int_arg(std::int64_t v) {
  return Arg{Arg::Type::integer, v, 0, {}};
}
Arg bool_arg(bool v) {
  return Arg{Arg::Type::boolean, v ? 1 : 0, 0, {}};
}
Arg text_arg(std::string_view s) {
  return Arg{Arg::Type::string, 0, 0, s};
}

// Calls every handler of `kind` (registered before the call; zone handlers of `zone` only).
core::Status dispatch(Script& s, HandlerKind kind, std::uint32_t zone, std::initializer_list<Arg> args) {
  const std::size_t n = s.handlers.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Handler h = s.handlers[i];
    if (h.kind != kind) continue;
    if ((kind == HandlerKind::enter || kind == HandlerKind::leave) && h.zone != zone) continue;
    SORTIE_CHECK(call_ref(s, h.ref, args));
  }
  return {};
}

core::Status dispatch_world_events(Script& s, const ScenarioContext& ctx) {
  for (std::size_t i = 0; i < ctx.events.size() && i < ctx.event_ids.size(); ++i) {
    const world::Event& e = ctx.events[i];
    const EventIds& ids = ctx.event_ids[i];
    if (e.type == world::EventType::arrived) {
      SORTIE_CHECK(dispatch(s, HandlerKind::arrive, 0, {id_arg(ids.target), bool_arg(e.b == 0)}));
    } else if (e.type == world::EventType::collision) {
      SORTIE_CHECK(dispatch(s, HandlerKind::collision, 0,
                            {id_arg(ids.target), ids.other == ObjectId{} ? Arg{} : id_arg(ids.other)}));
    }
  }
  for (const ObjectId& id : ctx.created) SORTIE_CHECK(dispatch(s, HandlerKind::created, 0, {id_arg(id)}));
  for (const ObjectId& id : ctx.destroyed) SORTIE_CHECK(dispatch(s, HandlerKind::destroyed, 0, {id_arg(id)}));
  for (const PlayerChange& p : ctx.players) {
    SORTIE_CHECK(dispatch(s, p.joined ? HandlerKind::player_joined : HandlerKind::player_left, 0, {int_arg(p.player)}));
  }
  return {};
}

struct UnitAt {
  ObjectId id;
  float x, y;
  std::optional<std::uint32_t> areal;
};

std::vector<UnitAt> units_now(const Script& s, const ScenarioContext& ctx) {
  const bool areals =
      std::any_of(s.zones.begin(), s.zones.end(), [](const Zone& z) { return z.shape == ZoneShape::areal; });
  const auto& env = ctx.facts.movement;
  std::vector<UnitAt> out;
  for (const world::Handle& h : ctx.world.queue()) {
    const world::WorldObject* o = ctx.world.find(h);
    if (o == nullptr || o->pending_delete() || !ctx.world.classes().is_unit(o->class_id())) continue;
    UnitAt u{o->id(), o->transform.position.x, o->transform.position.y, std::nullopt};
    if (areals && env && env->areals) u.areal = env->areals->locate(u.x, u.y);
    out.push_back(u);
  }
  std::sort(out.begin(), out.end(), [](const UnitAt& a, const UnitAt& b) { return a.id < b.id; });
  return out;
}

bool inside(const Zone& z, const UnitAt& u) {
  const double x = static_cast<double>(u.x), y = static_cast<double>(u.y);
  switch (z.shape) {
    case ZoneShape::circle:
      return (x - z.a) * (x - z.a) + (y - z.b) * (y - z.b) <= z.c * z.c;
    case ZoneShape::rect:
      return x >= z.a && x <= z.c && y >= z.b && y <= z.d;
    case ZoneShape::areal:
      return u.areal && *u.areal == z.areal;
  }
  return false;
}

// Enter/leave per zone (definition order): entered ids ascending, then left ids ascending.
core::Status update_zones(Script& s, const ScenarioContext& ctx) {
  if (s.zones.empty()) return {};
  const std::vector<UnitAt> units = units_now(s, ctx);
  for (std::size_t zi = 0; zi < s.zones.size(); ++zi) {
    std::vector<ObjectId> now;
    for (const UnitAt& u : units)
      if (inside(s.zones[zi], u)) now.push_back(u.id);
    std::vector<ObjectId> entered, left;
    const std::vector<ObjectId>& before = s.zones[zi].inside;
    std::set_difference(now.begin(), now.end(), before.begin(), before.end(), std::back_inserter(entered));
    std::set_difference(before.begin(), before.end(), now.begin(), now.end(), std::back_inserter(left));
    s.zones[zi].inside = std::move(now);
    const std::string name = s.zones[zi].name;  // handlers may define zones (the vector grows)
    const auto z = static_cast<std::uint32_t>(zi);
    for (const ObjectId& id : entered) SORTIE_CHECK(dispatch(s, HandlerKind::enter, z, {id_arg(id), text_arg(name)}));
    for (const ObjectId& id : left) SORTIE_CHECK(dispatch(s, HandlerKind::leave, z, {id_arg(id), text_arg(name)}));
  }
  return {};
}

// Timers due at this tick, in (due, id) order; a repeating one is due again `period` later.
core::Status run_timers(Script& s) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> due;
  for (const Timer& t : s.timers)
    if (t.ref != LUA_NOREF && t.due <= s.tick) due.emplace_back(t.due, t.id);
  std::sort(due.begin(), due.end());
  for (const auto& entry : due) {
    const std::uint32_t id = entry.second;
    auto it = std::find_if(s.timers.begin(), s.timers.end(), [&](const Timer& t) { return t.id == id; });
    if (it == s.timers.end() || it->ref == LUA_NOREF) continue;  // cancelled by an earlier one
    const int ref = it->ref;
    if (it->period > 0) {
      it->due = s.tick + it->period;
    } else {
      it->ref = LUA_NOREF;  // fired; the function is released below
      s.timers.erase(it);
      SORTIE_CHECK(call_ref(s, ref, {}));
      luaL_unref(s.L, LUA_REGISTRYINDEX, ref);
      continue;
    }
    SORTIE_CHECK(call_ref(s, ref, {}));
  }
  std::erase_if(s.timers, [](const Timer& t) { return t.ref == LUA_NOREF; });
  return {};
}

// follow(): a goto to the leader's position every follow_interval ticks.
core::Status run_follows(Script& s, ScenarioContext& ctx) {
  for (auto it = s.follows.begin(); it != s.follows.end();) {
    if (it->next > s.tick) {
      ++it;
      continue;
    }
    const world::WorldObject* f = ctx.world.find_live(it->follower);
    const world::WorldObject* l = ctx.world.find_live(it->leader);
    if (f == nullptr || l == nullptr) {
      ctx.trace(s.options.channel, fmt::format("follow {} -> {} ends: {} is gone", it->follower.to_string(),
                                               it->leader.to_string(), f == nullptr ? "the follower" : "the leader"));
      it = s.follows.erase(it);
      continue;
    }
    const core::Vec2 goal{l->transform.position.x, l->transform.position.y};
    SORTIE_CHECK(ctx.submit(world::make_command(s.tick, move::GotoCommand{it->follower, goal, it->speed})));
    ++s.orders;
    it->next = s.tick + std::max<std::uint32_t>(1, s.options.follow_interval);
    ++it;
  }
  return {};
}

void begin(Script& s, ScenarioContext& ctx) {
  s.ctx = &ctx;
  s.tick = ctx.tick;
  s.used = 0;
  s.spawned_now.clear();
}

core::Status end(Script& s, core::Status status) {
  if (status && s.running) status = encode_globals(s);
  s.last_used = s.used;
  s.ctx = nullptr;
  if (!status) s.running = false;
  return status;
}

}  // namespace

LuaMission::LuaMission(std::unique_ptr<Script> script) : script_(std::move(script)) {}
LuaMission::~LuaMission() = default;

core::Result<std::unique_ptr<LuaMission>> LuaMission::load(std::string source, std::string path, LuaOptions options) {
  auto s = std::make_unique<Script>(std::move(source), std::move(path), std::move(options));
  if (new_sandbox(*s) == nullptr)
    return core::fail(core::Diagnostic::error("lua.memory", "cannot create the Lua state").of(s->path));
  SORTIE_CHECK(load_chunk(*s));
  return std::unique_ptr<LuaMission>(new LuaMission(std::move(s)));
}

std::string LuaMission::name() const {
  return "lua:" + script_->path;
}

core::Status LuaMission::start(ScenarioContext& ctx) {
  Script& s = *script_;
  if (!s.running) return {};
  begin(s, ctx);
  s.rng = core::Rng(ctx.seed ^ core::hash64(s.path), 0x4C554121);  // "LUA!"
  ctx.trace(s.options.channel, "start " + s.path);
  core::Status st = call_ref(s, s.chunk_ref, {});
  if (st) st = dispatch(s, HandlerKind::start, 0, {});
  return end(s, std::move(st));
}

core::Status LuaMission::step(ScenarioContext& ctx) {
  Script& s = *script_;
  if (!s.running) return {};
  begin(s, ctx);
  core::Status st = dispatch_world_events(s, ctx);
  if (st) st = update_zones(s, ctx);
  if (st) st = run_timers(s);
  if (st) st = run_follows(s, ctx);
  return end(s, std::move(st));
}

void LuaMission::encode(world::StateWriter& out) const {
  const Script& s = *script_;
  out.boolean(s.running);
  out.u8(static_cast<std::uint8_t>(s.stop));
  out.u64(s.rng.state_hash());
  out.u64(s.orders);
  out.u32(static_cast<std::uint32_t>(s.handlers.size()));
  for (const Handler& h : s.handlers) {
    out.u8(static_cast<std::uint8_t>(h.kind));
    out.u32(h.zone);
  }
  out.u32(s.next_timer);
  out.u32(static_cast<std::uint32_t>(s.timers.size()));
  for (const Timer& t : s.timers) {
    out.u32(t.id);
    out.u64(t.due);
    out.u32(t.period);
  }
  out.u32(static_cast<std::uint32_t>(s.zones.size()));
  for (const Zone& z : s.zones) {
    out.str(z.name);
    out.u8(static_cast<std::uint8_t>(z.shape));
    for (double v : {z.a, z.b, z.c, z.d}) out.f64(v);
    out.u32(z.areal);
    out.u32(static_cast<std::uint32_t>(z.inside.size()));
    for (const ObjectId& id : z.inside) out.u64(id.raw());
  }
  out.u32(static_cast<std::uint32_t>(s.follows.size()));
  for (const Follow& f : s.follows) {
    out.u64(f.follower.raw());
    out.u64(f.leader.raw());
    out.f32(f.speed);
    out.u64(f.next);
  }
  out.u32(static_cast<std::uint32_t>(s.data.size()));
  out.bytes(s.data.view());
}

std::uint64_t LuaMission::instructions_last_step() const {
  return script_->last_used;
}

std::size_t LuaMission::memory_in_use() const {
  return script_->in_use;
}

std::size_t LuaMission::handler_count() const {
  return script_->handlers.size() + script_->timers.size();
}

}  // namespace sortie::scenario
