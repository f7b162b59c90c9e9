// The script API of Lua mission scripts (docs/mission-scripts.md): events, queries, orders,
// objectives. Each C function reads its arguments, calls C++ that never calls Lua (results land
// in members of the Script), then pushes plain values; see lua_script.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "lua_script.hpp"
#include "sortie/env/effect_world.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/scenario/class_ids.hpp"
#include "sortie/scenario/commands.hpp"
#include "sortie/scenario/super_ai.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/world.hpp"

namespace sortie::scenario {

namespace {

using Script = LuaMission::Script;
using world::ObjectId;

// Results of the C++ side, read by the C function after it returns (no destructor on a frame
// Lua may jump over).
struct Scratch {
  std::vector<ObjectId> ids;
  std::string text;
};
Scratch& scratch() {
  static thread_local Scratch s;
  return s;
}

ObjectId id_arg(lua_State* L, int i) {
  return ObjectId::from_raw(static_cast<std::uint64_t>(luaL_checkinteger(L, i)));
}

void push_id(lua_State* L, ObjectId id) {
  lua_pushinteger(L, static_cast<lua_Integer>(id.raw()));
}

int push_ids(lua_State* L) {
  const auto& ids = scratch().ids;
  lua_createtable(L, static_cast<int>(ids.size()), 0);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    push_id(L, ids[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

// A unit is an object of a class its area registered as one (world/class_registry.hpp).
bool is_unit(const Script& s, const world::WorldObject& o) {
  return s.ctx->world.classes().is_unit(o.class_id());
}

std::optional<std::int64_t> clan_of(const world::WorldObject& o) {
  return o.properties.get_int("clan");
}

// Live objects (registered, not pending deletion, not the scenario object) in ascending id.
template <class Pred>
void collect(Script& s, Pred pred) {
  auto& out = scratch().ids;
  out.clear();
  const world::World& w = s.ctx->world;
  for (const world::Handle& h : w.queue()) {
    const world::WorldObject* o = w.find(h);
    if (o == nullptr || o->pending_delete() || o->class_id() == scenario::class_ids::kScenario) continue;
    if (pred(*o)) out.push_back(o->id());
  }
  std::sort(out.begin(), out.end());
}

// An order for an object that is gone: a warning and a trace line, never an error.
bool check_live(Script& s, lua_State* L, const char* order, ObjectId id) {
  if (s.ctx->world.find_live(id) != nullptr) return true;
  // spawned in this step: its commands apply after the spawn, in the same tick
  if (std::find(s.spawned_now.begin(), s.spawned_now.end(), id) != s.spawned_now.end()) return true;
  const std::string where = lua_where(L, s.path);
  const std::string what =
      fmt::format("{}: object {} is gone (deleted or never created); order ignored", order, id.to_string());
  s.ctx->trace(s.options.channel, where + ": " + what);
  if (s.ctx->warn)
    s.ctx->warn(core::Diagnostic::warning("lua.order.gone", what).of(where).in(fmt::format("tick {}", s.tick)));
  return false;
}

// Submits for the current tick; a refusal becomes scratch().text (the caller raises).
bool submit(Script& s, world::Command c) {
  auto st = s.ctx->submit(std::move(c));
  if (st) {
    ++s.orders;
    return true;
  }
  scratch().text = st.error().to_string();
  return false;
}

int raise_scratch(lua_State* L) {
  return luaL_error(L, "%s", scratch().text.c_str());
}

// ---- events

int add_handler(lua_State* L, HandlerKind kind, int fn_index, std::uint32_t zone) {
  luaL_checktype(L, fn_index, LUA_TFUNCTION);
  lua_pushvalue(L, fn_index);
  const int ref = luaL_ref(L, LUA_REGISTRYINDEX);
  script_of(L).handlers.push_back(Handler{kind, zone, ref});
  return 0;
}

template <HandlerKind K>
int on_event(lua_State* L) {
  return add_handler(L, K, 1, 0);
}

std::optional<std::uint32_t> zone_index(const Script& s, std::string_view name) {
  for (std::size_t i = 0; i < s.zones.size(); ++i)
    if (s.zones[i].name == name) return static_cast<std::uint32_t>(i);
  return std::nullopt;
}

template <HandlerKind K>
int on_zone(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  const auto zone = zone_index(script_of(L), name);
  if (!zone) return luaL_error(L, "no zone named '%s' (define it with zone_circle, zone_rect or zone_areal)", name);
  return add_handler(L, K, 2, *zone);
}

int add_timer(lua_State* L, bool repeat) {
  Script& s = script_of(L);
  const double seconds = luaL_checknumber(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  if (!std::isfinite(seconds) || seconds < 0) return luaL_error(L, "a timer needs a finite number of seconds >= 0");
  lua_pushvalue(L, 2);
  const int ref = luaL_ref(L, LUA_REGISTRYINDEX);
  const std::uint64_t ticks = s.ticks_of(seconds);
  const std::uint32_t id = ++s.next_timer;
  s.timers.push_back(Timer{id, s.tick + ticks,
                           repeat ? static_cast<std::uint32_t>(std::min<std::uint64_t>(ticks, 0xFFFFFFFFu)) : 0u, ref});
  lua_pushinteger(L, id);
  return 1;
}

int l_after(lua_State* L) {
  return add_timer(L, false);
}
int l_every(lua_State* L) {
  return add_timer(L, true);
}

int l_cancel(lua_State* L) {
  Script& s = script_of(L);
  const lua_Integer id = luaL_checkinteger(L, 1);
  for (Timer& t : s.timers) {
    if (t.id != id || t.ref == LUA_NOREF) continue;
    luaL_unref(L, LUA_REGISTRYINDEX, t.ref);
    t.ref = LUA_NOREF;  // removed after the step
  }
  return 0;
}

int add_zone(lua_State* L, Zone zone) {
  Script& s = script_of(L);
  if (zone_index(s, zone.name)) return luaL_error(L, "zone '%s' is defined already", zone.name.c_str());
  s.zones.push_back(std::move(zone));
  return 0;
}

int l_zone_circle(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  const double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3), r = luaL_checknumber(L, 4);
  if (!std::isfinite(x) || !std::isfinite(y) || !(r > 0) || !std::isfinite(r))
    return luaL_error(L, "zone_circle needs a finite centre and radius > 0");
  Zone z;
  z.name = name;
  z.shape = ZoneShape::circle;
  z.a = x;
  z.b = y;
  z.c = r;
  return add_zone(L, std::move(z));
}

int l_zone_rect(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  const double x0 = luaL_checknumber(L, 2), y0 = luaL_checknumber(L, 3);
  const double x1 = luaL_checknumber(L, 4), y1 = luaL_checknumber(L, 5);
  if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1))
    return luaL_error(L, "zone_rect needs finite corners");
  Zone z;
  z.name = name;
  z.shape = ZoneShape::rect;
  z.a = std::min(x0, x1);
  z.b = std::min(y0, y1);
  z.c = std::max(x0, x1);
  z.d = std::max(y0, y1);
  return add_zone(L, std::move(z));
}

int l_zone_areal(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  const lua_Integer areal = luaL_checkinteger(L, 2);
  if (areal < 0 || areal > 0x7FFFFFFF) return luaL_error(L, "zone_areal needs an areal index >= 0");
  Zone z;
  z.name = name;
  z.shape = ZoneShape::areal;
  z.areal = static_cast<std::uint32_t>(areal);
  return add_zone(L, std::move(z));
}

// ---- queries

int l_object(lua_State* L) {
  const Script& s = script_of(L);
  const lua_Integer i = luaL_checkinteger(L, 1);
  const auto& ids = s.ctx->facts.ids_by_placement;
  if (i < 0 || static_cast<std::size_t>(i) >= ids.size() || ids[static_cast<std::size_t>(i)] == ObjectId{}) {
    lua_pushnil(L);
    return 1;
  }
  push_id(L, ids[static_cast<std::size_t>(i)]);
  return 1;
}

int l_named(lua_State* L) {
  const Script& s = script_of(L);
  const char* name = luaL_checkstring(L, 1);
  const auto& data = s.ctx->facts.data;
  const auto& ids = s.ctx->facts.ids_by_placement;
  if (data) {
    const auto& objects = data->tma.objects;
    for (std::size_t i = 0; i < objects.size() && i < ids.size(); ++i) {
      if (objects[i].instance_name == name && ids[i] != ObjectId{}) {
        push_id(L, ids[i]);
        return 1;
      }
    }
  }
  lua_pushnil(L);
  return 1;
}

int l_alive(lua_State* L) {
  lua_pushboolean(L, script_of(L).ctx->world.find_live(id_arg(L, 1)) != nullptr);
  return 1;
}

int l_position(lua_State* L) {
  const world::WorldObject* o = script_of(L).ctx->world.find_live(id_arg(L, 1));
  if (o == nullptr) return 0;
  lua_pushnumber(L, static_cast<double>(o->transform.position.x));
  lua_pushnumber(L, static_cast<double>(o->transform.position.y));
  lua_pushnumber(L, static_cast<double>(o->transform.position.z));
  return 3;
}

int l_clan(lua_State* L) {
  const world::WorldObject* o = script_of(L).ctx->world.find_live(id_arg(L, 1));
  const auto clan = o != nullptr ? clan_of(*o) : std::nullopt;
  if (!clan) return 0;
  lua_pushinteger(L, *clan);
  return 1;
}

int l_prototype(lua_State* L) {
  const world::WorldObject* o = script_of(L).ctx->world.find_live(id_arg(L, 1));
  if (o == nullptr) return 0;
  lua_pushlstring(L, o->prototype_key.data(), o->prototype_key.size());
  return 1;
}

// The object's source property records (data.tma's, ADR 0020), in file order with repeated names:
// {{name = "Life state", words = {w0, w1, w2, w3}[, bytes = <CP1251 name bytes>]}, ...}; with a
// name, only the records of that name. Nothing when the object is gone.
int l_properties(lua_State* L) {
  const world::WorldObject* o = script_of(L).ctx->world.find_live(id_arg(L, 1));
  const bool filtered = !lua_isnoneornil(L, 2);
  std::size_t name_size = 0;
  const char* name = filtered ? luaL_checklstring(L, 2, &name_size) : nullptr;
  if (o == nullptr) return 0;
  lua_createtable(L, 0, 0);
  lua_Integer n = 0;
  for (const world::RawProperty& p : o->raw_properties.items()) {
    if (filtered && std::string_view(name, name_size) != p.name) continue;
    lua_createtable(L, 0, 3);
    lua_pushlstring(L, p.name.data(), p.name.size());
    lua_setfield(L, -2, "name");
    lua_createtable(L, 4, 0);
    for (std::size_t k = 0; k < p.words.size(); ++k) {
      lua_pushinteger(L, static_cast<lua_Integer>(p.words[k]));
      lua_rawseti(L, -2, static_cast<lua_Integer>(k + 1));
    }
    lua_setfield(L, -2, "words");
    if (!p.name_bytes.empty()) {
      lua_pushlstring(L, p.name_bytes.data(), p.name_bytes.size());
      lua_setfield(L, -2, "bytes");
    }
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

int l_units(lua_State* L) {
  Script& s = script_of(L);
  const bool any = lua_isnoneornil(L, 1);
  const lua_Integer clan = any ? 0 : luaL_checkinteger(L, 1);
  collect(s, [&](const world::WorldObject& o) { return is_unit(s, o) && (any || clan_of(o) == clan); });
  return push_ids(L);
}

int l_objects_of(lua_State* L) {
  Script& s = script_of(L);
  const char* key = luaL_checkstring(L, 1);
  collect(s, [&](const world::WorldObject& o) { return o.prototype_key == key; });
  return push_ids(L);
}

int l_within(lua_State* L) {
  Script& s = script_of(L);
  const double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2), r = luaL_checknumber(L, 3);
  collect(s, [&](const world::WorldObject& o) {
    const double dx = static_cast<double>(o.transform.position.x) - x;
    const double dy = static_cast<double>(o.transform.position.y) - y;
    return dx * dx + dy * dy <= r * r;
  });
  return push_ids(L);
}

std::optional<std::uint32_t> areal_of(const Script& s, double x, double y) {
  const auto& env = s.ctx->facts.movement;
  if (!env || !env->areals) return std::nullopt;
  return env->areals->locate(static_cast<float>(x), static_cast<float>(y));
}

int l_in_areal(lua_State* L) {
  Script& s = script_of(L);
  const lua_Integer areal = luaL_checkinteger(L, 1);
  collect(s, [&](const world::WorldObject& o) {
    if (!is_unit(s, o)) return false;
    const auto a =
        areal_of(s, static_cast<double>(o.transform.position.x), static_cast<double>(o.transform.position.y));
    return a && static_cast<lua_Integer>(*a) == areal;
  });
  return push_ids(L);
}

int l_areal_at(lua_State* L) {
  const auto a = areal_of(script_of(L), luaL_checknumber(L, 1), luaL_checknumber(L, 2));
  if (!a) return 0;
  lua_pushinteger(L, *a);
  return 1;
}

const iron3d::TmaClan* clan_at(const Script& s, lua_Integer index) {
  const auto& data = s.ctx->facts.data;
  if (!data || index < 0 || static_cast<std::size_t>(index) >= data->tma.clans.size()) return nullptr;
  return &data->tma.clans[static_cast<std::size_t>(index)];
}

int l_clan_name(lua_State* L) {
  const iron3d::TmaClan* c = clan_at(script_of(L), luaL_checkinteger(L, 1));
  if (c == nullptr) return 0;
  lua_pushlstring(L, c->name.data(), c->name.size());
  return 1;
}

int l_relation(lua_State* L) {
  const Script& s = script_of(L);
  const iron3d::TmaClan* a = clan_at(s, luaL_checkinteger(L, 1));
  const iron3d::TmaClan* b = clan_at(s, luaL_checkinteger(L, 2));
  if (a == nullptr || b == nullptr) return 0;
  for (const iron3d::TmaRelation& r : a->relations) {
    if (r.other_clan == b->name) {
      lua_pushinteger(L, r.value);
      return 1;
    }
  }
  return 0;
}

int l_bounds(lua_State* L) {
  const auto& data = script_of(L).ctx->facts.data;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  if (data && !data->land_msh.positions.empty()) {
    x0 = x1 = data->land_msh.positions.front().x;
    y0 = y1 = data->land_msh.positions.front().y;
    for (const auto& p : data->land_msh.positions) {
      x0 = std::min(x0, p.x);
      y0 = std::min(y0, p.y);
      x1 = std::max(x1, p.x);
      y1 = std::max(y1, p.y);
    }
  }
  for (float v : {x0, y0, x1, y1}) lua_pushnumber(L, static_cast<double>(v));
  return 4;
}

std::optional<float> ground_at(const Script& s, double x, double y) {
  const auto& env = s.ctx->facts.movement;
  if (!env || !env->terrain) return std::nullopt;
  return env->terrain->height_at(static_cast<float>(x), static_cast<float>(y));
}

int l_ground(lua_State* L) {
  const auto z = ground_at(script_of(L), luaL_checknumber(L, 1), luaL_checknumber(L, 2));
  if (!z) return 0;
  lua_pushnumber(L, static_cast<double>(*z));
  return 1;
}

int l_tick(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(script_of(L).tick));
  return 1;
}

int l_time(lua_State* L) {
  const Script& s = script_of(L);
  lua_pushnumber(L, static_cast<double>(s.ctx->world.clock().time_us) / 1e6);
  return 1;
}

// ---- orders

float speed_arg(lua_State* L, int i) {
  return static_cast<float>(luaL_optnumber(L, i, static_cast<double>(script_of(L).options.default_speed)));
}

int l_go(lua_State* L) {
  Script& s = script_of(L);
  const ObjectId id = id_arg(L, 1);
  const auto x = static_cast<float>(luaL_checknumber(L, 2));
  const auto y = static_cast<float>(luaL_checknumber(L, 3));
  const float speed = speed_arg(L, 4);
  if (!check_live(s, L, "go", id)) return lua_pushboolean(L, 0), 1;
  if (!submit(s, world::make_command(s.tick, move::GotoCommand{id, core::Vec2{x, y}, speed}))) return raise_scratch(L);
  lua_pushboolean(L, 1);
  return 1;
}

int l_stop(lua_State* L) {
  Script& s = script_of(L);
  const ObjectId id = id_arg(L, 1);
  if (!check_live(s, L, "stop", id)) return lua_pushboolean(L, 0), 1;
  std::erase_if(s.follows, [&](const Follow& f) { return f.follower == id; });
  if (!submit(s, world::make_command(s.tick, move::HaltCommand{id}))) return raise_scratch(L);
  lua_pushboolean(L, 1);
  return 1;
}

int l_follow(lua_State* L) {
  Script& s = script_of(L);
  const ObjectId id = id_arg(L, 1);
  const ObjectId leader = id_arg(L, 2);
  const float speed = speed_arg(L, 3);
  if (!(speed > 0) || !std::isfinite(speed)) return luaL_error(L, "follow needs a finite speed > 0");
  // A unit spawned in this step exists from the next tick on: its first goto waits for it.
  const bool spawning = std::find(s.spawned_now.begin(), s.spawned_now.end(), id) != s.spawned_now.end();
  if (!check_live(s, L, "follow", id) || !check_live(s, L, "follow (leader)", leader)) return lua_pushboolean(L, 0), 1;
  std::erase_if(s.follows, [&](const Follow& f) { return f.follower == id; });
  s.follows.push_back(Follow{id, leader, speed, spawning ? s.tick + 1 : s.tick});
  lua_pushboolean(L, 1);
  return 1;
}

int l_unfollow(lua_State* L) {
  Script& s = script_of(L);
  const ObjectId id = id_arg(L, 1);
  std::erase_if(s.follows, [&](const Follow& f) { return f.follower == id; });
  return 0;
}

bool spawn_unit(Script& s, const char* prototype, float x, float y, std::int32_t clan, ObjectId& id) {
  id = s.ctx->allocate_id ? s.ctx->allocate_id() : ObjectId{};
  const float z = ground_at(s, static_cast<double>(x), static_cast<double>(y)).value_or(0.0f);
  if (!submit(s, world::make_command(s.tick, SpawnCommand{id, prototype, core::Vec3{x, y, z}, clan}))) return false;
  s.spawned_now.push_back(id);
  move::EnableCommand e;
  e.target = id;
  e.radius = s.options.unit_radius;
  e.height = s.options.unit_height;
  e.max_speed = s.options.default_speed;
  return submit(s, world::make_command(s.tick, e));
}

int l_spawn(lua_State* L) {
  Script& s = script_of(L);
  const char* prototype = luaL_checkstring(L, 1);
  const auto x = static_cast<float>(luaL_checknumber(L, 2));
  const auto y = static_cast<float>(luaL_checknumber(L, 3));
  const auto clan = static_cast<std::int32_t>(luaL_optinteger(L, 4, 0));
  ObjectId id;
  if (!spawn_unit(s, prototype, x, y, clan, id)) return raise_scratch(L);
  push_id(L, id);
  return 1;
}

int l_remove(lua_State* L) {
  Script& s = script_of(L);
  const ObjectId id = id_arg(L, 1);
  if (!check_live(s, L, "remove", id)) return lua_pushboolean(L, 0), 1;
  if (!submit(s, world::make_command(s.tick, world::RemoveCommand{id}))) return raise_scratch(L);
  lua_pushboolean(L, 1);
  return 1;
}

int l_set_property(lua_State* L) {
  Script& s = script_of(L);
  const ObjectId id = id_arg(L, 1);
  const char* key = luaL_checkstring(L, 2);
  const lua_Integer value = luaL_checkinteger(L, 3);
  if (!check_live(s, L, "set_property", id)) return lua_pushboolean(L, 0), 1;
  if (!submit(s, world::make_command(s.tick, world::SetPropertyCommand{id, key, value}))) return raise_scratch(L);
  lua_pushboolean(L, 1);
  return 1;
}

// ---- effects

// fx.start for the mission's effect `name` (its header's lifetime) at x, y and z (nullopt: the
// ground there, else 0), traced on the "fx" channel; a refusal becomes scratch().text.
bool start_effect(Script& s, const char* name, double x, double y, std::optional<double> z) {
  const auto& effects = s.ctx->facts.effects;
  if (!effects) {
    scratch().text = fmt::format("effect: no effect '{}': the mission prepared no effects", name);
    return false;
  }
  const float zf = z ? static_cast<float>(*z) : ground_at(s, x, y).value_or(0.0f);
  const core::Vec3 at{static_cast<float>(x), static_cast<float>(y), zf};
  auto c = env::start_effect_command(*effects, name, at);
  if (!c) {
    scratch().text = "effect: " + c.error().message;
    return false;
  }
  const auto e = effects->find(name);
  s.ctx->trace("fx", fmt::format("effect '{}' ({}) at ({:.1f}, {:.1f}, {:.1f}) for {:.3f} s from tick {}: {}", name,
                                 e->label(), at.x, at.y, at.z, static_cast<double>(c->lifetime_ms) / 1000.0, s.tick,
                                 env::describe_effect(*e)));
  return submit(s, world::make_command(s.tick, *c));
}

// effect(name, x, y[, z]): starts one of the mission's effects there (docs/effects.md).
int l_effect(lua_State* L) {
  Script& s = script_of(L);
  const char* name = luaL_checkstring(L, 1);
  const double x = luaL_checknumber(L, 2);
  const double y = luaL_checknumber(L, 3);
  const bool has_z = !lua_isnoneornil(L, 4);
  const double z = has_z ? luaL_checknumber(L, 4) : 0.0;
  if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z) || std::abs(x) > 3.0e38 || std::abs(y) > 3.0e38 ||
      std::abs(z) > 3.0e38)
    return luaL_error(L, "effect: the position must be finite numbers");
  if (!start_effect(s, name, x, y, has_z ? std::optional<double>(z) : std::nullopt)) return raise_scratch(L);
  lua_pushboolean(L, 1);
  return 1;
}

// ---- objectives and the outcome

template <ObjectiveAction A>
int l_objective(lua_State* L) {
  Script& s = script_of(L);
  const char* id = luaL_checkstring(L, 1);
  const char* text = A == ObjectiveAction::add ? luaL_checkstring(L, 2) : "";
  if (!submit(s, world::make_command(s.tick, ObjectiveCommand{A, id, text}))) return raise_scratch(L);
  return 0;
}

template <Outcome O>
int l_outcome(lua_State* L) {
  Script& s = script_of(L);
  const char* reason = luaL_optstring(L, 1, "");
  if (!submit(s, world::make_command(s.tick, OutcomeCommand{O, reason}))) return raise_scratch(L);
  return 0;
}

// ---- SuperAI of a clan
// The options are read without raising a Lua error while C++ objects are alive (Lua's errors
// long-jump past destructors): readers return the option that was wrong, a string literal.

// The point on top of the stack: {x, y} or {x = .., y = ..}; pops it.
bool pop_point(lua_State* L, core::Vec2& out) {
  const int index = lua_gettop(L);
  bool ok = lua_istable(L, index);
  double xy[2] = {0, 0};
  for (int k = 0; ok && k < 2; ++k) {
    if (lua_rawgeti(L, index, k + 1) == LUA_TNIL) {
      lua_pop(L, 1);
      lua_pushstring(L, k == 0 ? "x" : "y");
      lua_rawget(L, index);
    }
    ok = lua_isnumber(L, -1) != 0;
    if (ok) xy[k] = lua_tonumber(L, -1);
    ok = ok && std::isfinite(xy[k]);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (ok) out = {static_cast<float>(xy[0]), static_cast<float>(xy[1])};
  return ok;
}

// Field `name` of the options table (index 2) into `out` when present: a finite number >= min
// (a whole number <= 1e9 when `whole`).
template <class T>
bool number_field(lua_State* L, const char* name, T& out, double min, bool whole = false) {
  lua_pushstring(L, name);
  bool ok = true;
  if (lua_rawget(L, 2) != LUA_TNIL) {
    const double v = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : std::nan("");
    ok = std::isfinite(v) && v >= min && (!whole || (v == std::floor(v) && v <= 1e9));
    if (ok) out = static_cast<T>(v);
  }
  lua_pop(L, 1);
  return ok;
}

// Reads the options table into `c`; nullptr, or the name of the option that was wrong.
const char* read_superai_options(lua_State* L, SuperAIConfig& c) {
  lua_pushstring(L, "patrol");
  if (lua_rawget(L, 2) != LUA_TNIL) {
    const int route = lua_gettop(L);
    if (!lua_istable(L, route) || lua_rawlen(L, route) > 256) return "patrol";
    c.patrol_route.clear();
    const auto n = static_cast<lua_Integer>(lua_rawlen(L, route));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, route, i);
      core::Vec2 p{};
      if (!pop_point(L, p)) return "patrol";
      c.patrol_route.push_back(p);
    }
  }
  lua_pop(L, 1);
  lua_pushstring(L, "guard");
  if (lua_rawget(L, 2) != LUA_TNIL) {
    core::Vec2 p{};
    if (!pop_point(L, p)) return "guard";
    c.guard_point = p;
  } else {
    lua_pop(L, 1);
  }
  lua_pushstring(L, "engage");
  if (lua_rawget(L, 2) != LUA_TNIL) c.engage = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  if (!number_field(L, "cadence", c.cadence_ticks, 1, true)) return "cadence";
  if (!number_field(L, "sensor_range", c.sensor_range, 0)) return "sensor_range";
  if (!number_field(L, "max_tracks", c.max_tracks, 1, true)) return "max_tracks";
  if (!number_field(L, "speed", c.speed, 0)) return "speed";
  if (!number_field(L, "guard_radius", c.guard_radius, 0)) return "guard_radius";
  if (!number_field(L, "leash", c.leash, 0)) return "leash";
  if (!number_field(L, "fall_back_ratio", c.fall_back_ratio, 0)) return "fall_back_ratio";
  if (!number_field(L, "engage_radius", c.engage_radius, 0)) return "engage_radius";
  if (!number_field(L, "engage_ticks", c.engage_ticks, 1, true)) return "engage_ticks";
  return nullptr;
}

// superai(clan, options): changes the configuration of that clan's SuperAI (docs/superai.md)
// from its next decision; false when the clan has none.
int l_superai(lua_State* L) {
  Script& s = script_of(L);
  const iron3d::TmaClan* clan = clan_at(s, luaL_checkinteger(L, 1));
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  SuperAI* ai = nullptr;
  if (clan != nullptr && s.ctx->find_part) ai = dynamic_cast<SuperAI*>(s.ctx->find_part("superai:" + clan->name));
  if (ai == nullptr) return lua_pushboolean(L, 0), 1;
  const char* wrong = nullptr;
  {
    SuperAIConfig c = ai->config();
    wrong = read_superai_options(L, c);
    if (wrong == nullptr) ai->configure(std::move(c));
  }
  if (wrong != nullptr) return luaL_error(L, "superai: option '%s' is not valid (docs/superai.md)", wrong);
  lua_pushboolean(L, 1);
  return 1;
}

void trace_text(Script& s, const char* text) {
  s.ctx->trace(s.options.channel, text);
}

// The values through tostring, tab-separated.
std::string joined_text(lua_State* L) {
  const int n = lua_gettop(L);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; ++i) {
    lua_getglobal(L, "tostring");
    lua_pushvalue(L, i);
    lua_call(L, 1, 1);
    if (i > 1) luaL_addchar(&b, '\t');
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  std::string text = lua_tostring(L, -1);
  lua_pop(L, 1);
  return text;
}

// print(...) / trace(...): to the script's trace channel.
int l_print(lua_State* L) {
  const std::string text = joined_text(L);
  trace_text(script_of(L), text.c_str());
  return 0;
}

// message(...): to the player (the "message" channel, which the runtime always keeps).
int l_message(lua_State* L) {
  const std::string text = joined_text(L);
  script_of(L).ctx->trace("message", text);
  return 0;
}

// human(): whether a person plays the player's clan.
int l_human(lua_State* L) {
  lua_pushboolean(L, script_of(L).ctx->facts.human ? 1 : 0);
  return 1;
}

constexpr luaL_Reg kApi[] = {
    {"on_start", on_event<HandlerKind::start>},
    {"on_arrive", on_event<HandlerKind::arrive>},
    {"on_collision", on_event<HandlerKind::collision>},
    {"on_created", on_event<HandlerKind::created>},
    {"on_destroyed", on_event<HandlerKind::destroyed>},
    {"on_player_joined", on_event<HandlerKind::player_joined>},
    {"on_player_left", on_event<HandlerKind::player_left>},
    {"on_enter", on_zone<HandlerKind::enter>},
    {"on_leave", on_zone<HandlerKind::leave>},
    {"after", l_after},
    {"every", l_every},
    {"cancel", l_cancel},
    {"zone_circle", l_zone_circle},
    {"zone_rect", l_zone_rect},
    {"zone_areal", l_zone_areal},
    {"object", l_object},
    {"named", l_named},
    {"alive", l_alive},
    {"position", l_position},
    {"clan", l_clan},
    {"prototype", l_prototype},
    {"properties", l_properties},
    {"units", l_units},
    {"objects_of", l_objects_of},
    {"within", l_within},
    {"in_areal", l_in_areal},
    {"areal_at", l_areal_at},
    {"clan_name", l_clan_name},
    {"relation", l_relation},
    {"bounds", l_bounds},
    {"ground", l_ground},
    {"tick", l_tick},
    {"time", l_time},
    {"go", l_go},
    {"stop", l_stop},
    {"follow", l_follow},
    {"unfollow", l_unfollow},
    {"spawn", l_spawn},
    {"remove", l_remove},
    {"set_property", l_set_property},
    {"effect", l_effect},
    {"objective_add", l_objective<ObjectiveAction::add>},
    {"objective_complete", l_objective<ObjectiveAction::complete>},
    {"objective_fail", l_objective<ObjectiveAction::fail>},
    {"win", l_outcome<Outcome::win>},
    {"lose", l_outcome<Outcome::lose>},
    {"superai", l_superai},
    {"print", l_print},
    {"trace", l_print},
    {"message", l_message},
    {"human", l_human},
};

}  // namespace

void install_api(lua_State* L) {
  lua_pushglobaltable(L);
  for (const luaL_Reg& r : kApi) {
    lua_pushcfunction(L, r.func);
    lua_setfield(L, -2, r.name);
  }
  lua_pop(L, 1);
}

}  // namespace sortie::scenario
