// The sandbox of Lua mission scripts: allocator with a cap, instruction budget, the libraries a
// script gets, forbidden stubs, deterministic pairs/tostring, and the encoding of the script's
// globals. See lua_mission.hpp for the rules and lua_script.hpp for the longjmp discipline.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "lua_script.hpp"
#include "sortie/core/det_math.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/scenario/limits.hpp"
#include "sortie/world/world.hpp"

namespace sortie::scenario {

namespace {

using Script = LuaMission::Script;

void count_hook(lua_State* L, lua_Debug*);

// Every further instruction raises (hooks of threads created before keep their count, but raise
// too once they fire, because the script is killed).
void arm_kill_hook(lua_State* L) {
  if (L != nullptr) lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
}

void* script_alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize) {
  Script& s = *static_cast<Script*>(ud);
  const std::size_t old = ptr != nullptr ? osize : 0;
  if (nsize == 0) {
    std::free(ptr);  // NOLINT(cppcoreguidelines-no-malloc): Lua's allocator contract
    s.in_use -= old;
    return nullptr;
  }
  if (nsize > old && (s.killed || s.in_use - old + nsize > s.options.memory_cap)) {
    if (!s.killed) {
      s.kill(StopKind::memory, s.L != nullptr ? lua_where(s.L, s.path) : s.path,
             fmt::format("memory cap exceeded ({} bytes held, {} more asked, cap {})", s.in_use, nsize - old,
                         s.options.memory_cap));
    }
    return nullptr;
  }
  void* p = std::realloc(ptr, nsize);  // NOLINT(cppcoreguidelines-no-malloc)
  if (p == nullptr) return nullptr;
  s.in_use = s.in_use - old + nsize;
  s.peak = std::max(s.peak, s.in_use);
  return p;
}

void count_hook(lua_State* L, lua_Debug*) {
  Script& s = script_of(L);
  if (!s.killed) {
    s.used += kHookEvery;
    if (s.used <= s.options.instruction_budget) return;
    s.kill(StopKind::budget, lua_where(L, s.path),
           fmt::format("instruction budget exceeded ({} instructions in one tick)", s.options.instruction_budget));
  }
  lua_pushstring(L, "script stopped");
  lua_error(L);
}

int raise_forbidden(lua_State* L, const char* name) {
  Script& s = script_of(L);
  if (!s.killed) {
    s.kill(StopKind::forbidden, lua_where(L, s.path),
           fmt::format("forbidden: '{}' is not available to mission scripts (sandbox)", name));
  }
  return luaL_error(L, "forbidden: '%s' is not available to mission scripts", name);
}

// A forbidden function: its name is upvalue 1.
int forbidden_function(lua_State* L) {
  return raise_forbidden(L, lua_tostring(L, lua_upvalueindex(1)));
}

// __index / __newindex of a forbidden library table: upvalue 1 is the library's name.
int forbidden_member(lua_State* L) {
  const char* lib = lua_tostring(L, lua_upvalueindex(1));
  const char* key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?";
  lua_pushfstring(L, "%s.%s", lib, key);
  return raise_forbidden(L, lua_tostring(L, -1));
}

void set_forbidden_function(lua_State* L, int table, const char* field, const char* shown) {
  lua_pushstring(L, shown);
  lua_pushcclosure(L, forbidden_function, 1);
  lua_setfield(L, table, field);
}

void set_forbidden_library(lua_State* L, const char* name) {
  lua_newtable(L);  // the library stand-in
  lua_newtable(L);  // its metatable
  lua_pushstring(L, name);
  lua_pushcclosure(L, forbidden_member, 1);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "__index");
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_setglobal(L, name);
}

// ---- deterministic replacements

int key_rank(int type) {
  switch (type) {
    case LUA_TNUMBER:
      return 0;
    case LUA_TSTRING:
      return 1;
    case LUA_TBOOLEAN:
      return 2;
    default:
      return -1;
  }
}

// Comparator for the key sequence (upvalue-free): numbers ascending, then strings bytewise,
// then false before true.
int key_less(lua_State* L) {
  const int ta = lua_type(L, 1), tb = lua_type(L, 2);
  if (ta != tb) {
    lua_pushboolean(L, key_rank(ta) < key_rank(tb));
    return 1;
  }
  if (ta == LUA_TNUMBER) {
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
  } else if (ta == LUA_TSTRING) {
    std::size_t la = 0, lb = 0;
    const char* a = lua_tolstring(L, 1, &la);
    const char* b = lua_tolstring(L, 2, &lb);
    const int c = std::memcmp(a, b, std::min(la, lb));
    lua_pushboolean(L, c < 0 || (c == 0 && la < lb));
  } else {
    lua_pushboolean(L, !lua_toboolean(L, 1) && lua_toboolean(L, 2));
  }
  return 1;
}

// pairs(t): an iterator over t's keys in the fixed order. Upvalues: the table, the key
// sequence, the position.
int pairs_next(lua_State* L) {
  const int table = lua_upvalueindex(1), keys = lua_upvalueindex(2);
  lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, keys));
  while (i < n) {
    ++i;
    lua_rawgeti(L, keys, i);
    lua_pushvalue(L, -1);
    if (lua_rawget(L, table) != LUA_TNIL) {
      lua_pushinteger(L, i);
      lua_replace(L, lua_upvalueindex(3));
      return 2;
    }
    lua_pop(L, 2);
  }
  lua_pushinteger(L, i);
  lua_replace(L, lua_upvalueindex(3));
  return 0;
}

int sorted_pairs(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  sorted_keys(L, 1);
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, pairs_next, 3);
  return 1;
}

// tostring without addresses: a table, function, thread or userdata without __tostring is its
// type name. Upvalue 1: the original tostring.
int safe_tostring(lua_State* L) {
  luaL_checkany(L, 1);
  const int t = lua_type(L, 1);
  if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TTHREAD || t == LUA_TUSERDATA || t == LUA_TLIGHTUSERDATA) {
    if (luaL_getmetafield(L, 1, "__tostring") == LUA_TNIL) {
      lua_pushstring(L, lua_typename(L, t));
      return 1;
    }
    lua_pop(L, 1);
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);
  return 1;
}

// string.format without %p (an address). Upvalue 1: the original.
int safe_format(lua_State* L) {
  std::size_t len = 0;
  const char* f = luaL_checklstring(L, 1, &len);
  for (std::size_t i = 0; i + 1 < len; ++i) {
    if (f[i] != '%') continue;
    std::size_t k = i + 1;
    while (k < len && std::strchr("-+ #0123456789.", f[k]) != nullptr) ++k;
    if (k < len && f[k] == 'p') return luaL_error(L, "string.format: %%p (an address) is not deterministic");
    i = k;
  }
  const int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, n, 1);
  return 1;
}

// string.rep with a bounded result. Upvalue 1: the original.
int safe_rep(lua_State* L) {
  std::size_t len = 0, sep = 0;
  luaL_checklstring(L, 1, &len);
  const lua_Integer n = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &sep);
  const double total = static_cast<double>(n) * static_cast<double>(len + sep);
  if (n > kLuaRepCountMax || total > static_cast<double>(script_of(L).options.memory_cap))
    return luaL_error(L, "string.rep: result too large");
  const int top = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, top, 1);
  return 1;
}

// setmetatable refusing __gc and __mode (collector timing would become script behaviour).
// Upvalue 1: the original.
int safe_setmetatable(lua_State* L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    for (const char* field : {"__gc", "__mode"}) {
      lua_pushstring(L, field);
      const bool has = lua_rawget(L, 2) != LUA_TNIL;
      lua_pop(L, 1);
      if (has) return raise_forbidden(L, field[2] == 'g' ? "setmetatable with __gc" : "setmetatable with __mode");
    }
  }
  const int top = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, top, 1);
  return 1;
}

// collectgarbage(): a full cycle; any argument is forbidden.
int safe_collectgarbage(lua_State* L) {
  if (lua_gettop(L) > 0) return raise_forbidden(L, "collectgarbage with arguments");
  lua_gc(L, LUA_GCCOLLECT);
  return 0;
}

// math.random from the script's core::Rng stream: () [0,1), (m) 1..m, (m, n) m..n.
int seeded_random(lua_State* L) {
  Script& s = script_of(L);
  const int n = lua_gettop(L);
  if (n == 0) {
    lua_pushnumber(L, s.rng.unit_f64());
    return 1;
  }
  const lua_Integer lo = n >= 2 ? luaL_checkinteger(L, 1) : 1;
  const lua_Integer hi = n >= 2 ? luaL_checkinteger(L, 2) : luaL_checkinteger(L, 1);
  luaL_argcheck(L, lo <= hi && hi - lo < 0xFFFFFFFFLL, n, "interval is empty or too large");
  const auto span = static_cast<std::uint32_t>(hi - lo + 1);
  lua_pushinteger(L, lo + static_cast<lua_Integer>(s.rng.below(span)));
  return 1;
}

int det_sin(lua_State* L) {
  lua_pushnumber(L, static_cast<double>(core::det_sin(static_cast<float>(luaL_checknumber(L, 1)))));
  return 1;
}
int det_cos(lua_State* L) {
  lua_pushnumber(L, static_cast<double>(core::det_cos(static_cast<float>(luaL_checknumber(L, 1)))));
  return 1;
}
int det_atan(lua_State* L) {
  const auto y = static_cast<float>(luaL_checknumber(L, 1));
  const auto x = static_cast<float>(luaL_optnumber(L, 2, 1.0));
  lua_pushnumber(L, static_cast<double>(core::det_atan2(y, x)));
  return 1;
}

void wrap_field(lua_State* L, int table, const char* field, lua_CFunction fn) {
  lua_getfield(L, table, field);
  lua_pushcclosure(L, fn, 1);
  lua_setfield(L, table, field);
}

void clear_field(lua_State* L, int table, const char* field) {
  lua_pushnil(L);
  lua_setfield(L, table, field);
}

// Opens the allowed libraries and patches them (runs protected: may raise on memory).
int open_sandbox(lua_State* L) {
  const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},        {LUA_TABLIBNAME, luaopen_table},
                           {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
                           {LUA_UTF8LIBNAME, luaopen_utf8},  {LUA_COLIBNAME, luaopen_coroutine}};
  for (const luaL_Reg& lib : libs) {
    luaL_requiref(L, lib.name, lib.func, 1);
    lua_pop(L, 1);
  }
  lua_pushglobaltable(L);
  const int g = lua_gettop(L);
  for (const char* name : {"dofile", "loadfile", "load", "loadstring", "require"})
    set_forbidden_function(L, g, name, name);
  clear_field(L, g, "next");  // its order depends on addresses and the string hash seed
  lua_pushcfunction(L, sorted_pairs);
  lua_setfield(L, g, "pairs");
  lua_pushcfunction(L, safe_collectgarbage);
  lua_setfield(L, g, "collectgarbage");
  wrap_field(L, g, "tostring", safe_tostring);
  wrap_field(L, g, "setmetatable", safe_setmetatable);
  for (const char* lib : {"io", "os", "debug", "package"}) set_forbidden_library(L, lib);

  lua_getglobal(L, LUA_STRLIBNAME);
  const int str = lua_gettop(L);
  set_forbidden_function(L, str, "dump", "string.dump");
  wrap_field(L, str, "format", safe_format);
  wrap_field(L, str, "rep", safe_rep);
  lua_pop(L, 1);

  lua_getglobal(L, LUA_MATHLIBNAME);
  const int math = lua_gettop(L);
  lua_pushcfunction(L, seeded_random);
  lua_setfield(L, math, "random");
  set_forbidden_function(L, math, "randomseed", "math.randomseed");
  lua_pushcfunction(L, det_sin);
  lua_setfield(L, math, "sin");
  lua_pushcfunction(L, det_cos);
  lua_setfield(L, math, "cos");
  lua_pushcfunction(L, det_atan);
  lua_setfield(L, math, "atan");
  for (const char* f : {"tan", "asin", "acos", "exp", "log"}) clear_field(L, math, f);
  lua_pop(L, 1);

  install_api(L);
  lua_pop(L, 1);  // the globals
  return 0;
}

int collect_baseline(lua_State* L) {
  Script& s = script_of(L);
  lua_pushglobaltable(L);
  const int n = sorted_keys(L, lua_gettop(L));
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L, -1, i);
    if (lua_type(L, -1) == LUA_TSTRING) s.baseline.emplace_back(lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  return 0;
}

// ---- the encoding of the script's globals

void encode_value(lua_State* L, Script& s, int index, int depth);

void encode_table(lua_State* L, Script& s, int table, int depth) {
  const void* p = lua_topointer(L, table);
  if (depth >= kLuaStateDepthMax || std::find(s.visiting.begin(), s.visiting.end(), p) != s.visiting.end()) {
    s.data.u8(0xFE);  // a cycle or too deep: the shape stops here
    return;
  }
  // Each level holds its keys table, a key and a value, and sorted_keys needs four more: a C
  // function only has LUA_MINSTACK (20) slots unless it asks, so deep tables would write past
  // the stack. Raises (inside the protected call) when the stack cannot grow.
  luaL_checkstack(L, 8, "state encoding");
  s.visiting.push_back(p);
  const int n = sorted_keys(L, table, true);  // keys of other types are left out
  const int keys = lua_gettop(L);
  s.data.u32(static_cast<std::uint32_t>(n));
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L, keys, i);
    encode_value(L, s, lua_gettop(L), depth + 1);
    lua_pushvalue(L, -1);
    lua_rawget(L, table);
    encode_value(L, s, lua_gettop(L), depth + 1);
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
  s.visiting.pop_back();
}

void encode_value(lua_State* L, Script& s, int index, int depth) {
  if (++s.encoded_values > kLuaStateValuesMax) {
    s.data.u8(0xFF);
    return;
  }
  const int t = lua_type(L, index);
  s.data.u8(static_cast<std::uint8_t>(t + 1));
  switch (t) {
    case LUA_TBOOLEAN:
      s.data.boolean(lua_toboolean(L, index) != 0);
      break;
    case LUA_TNUMBER:
      if (lua_isinteger(L, index)) {
        s.data.u8(0);
        s.data.i64(lua_tointeger(L, index));
      } else {
        s.data.u8(1);
        s.data.f64(lua_tonumber(L, index));
      }
      break;
    case LUA_TSTRING: {
      std::size_t len = 0;
      const char* str = lua_tolstring(L, index, &len);
      s.data.str(std::string_view(str, len));
      break;
    }
    case LUA_TTABLE:
      encode_table(L, s, index, depth);
      break;
    default:
      break;  // functions, threads, userdata: their type only
  }
}

int encode_globals_fn(lua_State* L) {
  Script& s = script_of(L);
  lua_pushglobaltable(L);
  const int g = lua_gettop(L);
  const int n = sorted_keys(L, g, true);
  const int keys = lua_gettop(L);
  std::uint32_t written = 0;
  const std::size_t count_at = s.data.placeholder_u32();
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L, keys, i);
    if (lua_type(L, -1) == LUA_TSTRING &&
        std::binary_search(s.baseline.begin(), s.baseline.end(), std::string_view(lua_tostring(L, -1)))) {
      lua_pop(L, 1);
      continue;
    }
    lua_pushvalue(L, -1);
    lua_rawget(L, g);
    if (lua_type(L, -1) != LUA_TFUNCTION) {
      encode_value(L, s, lua_gettop(L) - 1, 0);
      encode_value(L, s, lua_gettop(L), 0);
      ++written;
    }
    lua_pop(L, 2);
  }
  s.data.patch_u32(count_at, written);
  return 0;
}

int run_chunk_loader(lua_State* L) {
  Script& s = script_of(L);
  const int status = luaL_loadbufferx(L, s.source.data(), s.source.size(), ("=" + s.path).c_str(), "t");
  if (status != LUA_OK) return lua_error(L);
  s.chunk_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

}  // namespace

// ---------------------------------------------------------------- Script

LuaMission::Script::Script(std::string src, std::string file, LuaOptions opts)
    : source(std::move(src)),
      path(std::move(file)),
      options(std::move(opts)),
      rng(core::hash64(path), 0x4C554121) {}  // "LUA!"

LuaMission::Script::~Script() {
  if (L != nullptr) lua_close(L);
}

void LuaMission::Script::kill(StopKind kind, std::string where, std::string what) {
  killed = true;
  stop = kind;
  stop_where = std::move(where);
  stop_what = std::move(what);
  arm_kill_hook(L);
}

std::uint64_t LuaMission::Script::ticks_of(double seconds) const {
  const double step = ctx != nullptr ? static_cast<double>(ctx->world.clock().step_us) : 16000.0;
  if (!(seconds > 0)) return 1;
  const double t = std::ceil(seconds * 1e6 / step);
  return t < 1 ? 1 : (t > 1e12 ? static_cast<std::uint64_t>(1e12) : static_cast<std::uint64_t>(t));
}

// ---------------------------------------------------------------- shared helpers

LuaMission::Script& script_of(lua_State* L) {
  return **static_cast<Script**>(lua_getextraspace(L));
}

std::string lua_where(lua_State* L, const std::string& path) {
  lua_Debug ar;
  for (int level = 0; level < 12 && lua_getstack(L, level, &ar) != 0; ++level) {
    if (lua_getinfo(L, "Sl", &ar) == 0 || ar.currentline <= 0) continue;
    return fmt::format("{}:{}", ar.short_src, ar.currentline);
  }
  return path;
}

int sorted_keys(lua_State* L, int table, bool skip_unordered) {
  table = lua_absindex(L, table);
  lua_newtable(L);
  const int keys = lua_gettop(L);
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, table) != 0) {
    lua_pop(L, 1);
    if (key_rank(lua_type(L, -1)) < 0 && skip_unordered) continue;
    if (key_rank(lua_type(L, -1)) < 0)
      return luaL_error(L, "pairs: a table keyed by %s has no fixed order (key it by numbers or strings)",
                        luaL_typename(L, -1));
    lua_pushvalue(L, -1);
    lua_rawseti(L, keys, ++n);
  }
  if (n > 1) {
    lua_getglobal(L, LUA_TABLIBNAME);
    lua_getfield(L, -1, "sort");
    lua_remove(L, -2);
    if (lua_type(L, -1) != LUA_TFUNCTION) return luaL_error(L, "pairs: table.sort is not there");
    lua_pushvalue(L, keys);
    lua_pushcfunction(L, key_less);
    lua_call(L, 2, 0);
  }
  return n;
}

lua_State* new_sandbox(Script& s) {
  lua_State* L = lua_newstate(script_alloc, &s);
  if (L == nullptr) return nullptr;
  s.L = L;
  *static_cast<Script**>(lua_getextraspace(L)) = &s;
  lua_sethook(L, count_hook, LUA_MASKCOUNT, kHookEvery);
  if (!protected_call(s, open_sandbox, nullptr) || !protected_call(s, collect_baseline, nullptr)) return nullptr;
  std::sort(s.baseline.begin(), s.baseline.end());
  return L;
}

core::Status load_chunk(Script& s) {
  lua_pushcfunction(s.L, run_chunk_loader);
  const int status = lua_pcall(s.L, 0, 0, 0);
  if (status == LUA_OK) return {};
  std::string msg = lua_type(s.L, -1) == LUA_TSTRING ? lua_tostring(s.L, -1) : "error object is not a string";
  lua_pop(s.L, 1);
  if (status == LUA_ERRMEM || s.stop == StopKind::memory)
    return core::fail(core::Diagnostic::error("lua.memory", "memory cap exceeded while compiling").of(s.path));
  if (msg.find("attempt to load a binary chunk") != std::string::npos)
    return core::fail(
        core::Diagnostic::error("lua.bytecode", "precompiled chunks are not accepted; give Lua source").of(s.path));
  // "path:line: message": the place becomes the file of the diagnostic
  const std::string prefix = s.path + ":";
  std::string file = s.path;
  if (msg.rfind(prefix, 0) == 0) {
    const std::size_t colon = msg.find(':', prefix.size());
    if (colon != std::string::npos) {
      file = msg.substr(0, colon);
      msg = msg.substr(colon + 2 <= msg.size() ? colon + 2 : msg.size());
    }
  }
  return core::fail(core::Diagnostic::error("lua.syntax", msg).of(file));
}

core::Status protected_call(Script& s, lua_CFunction fn, void* arg) {
  lua_State* L = s.L;
  lua_pushcfunction(L, fn);
  lua_pushlightuserdata(L, arg);
  const int status = lua_pcall(L, 1, 0, 0);
  if (status == LUA_OK) return {};
  std::string msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                   : fmt::format("error object is a {} value", luaL_typename(L, -1));
  lua_pop(L, 1);
  const std::string at_tick = fmt::format("tick {}", s.tick);
  switch (s.stop) {
    case StopKind::budget:
      return core::fail(core::Diagnostic::error("lua.budget", s.stop_what).of(s.stop_where).in(at_tick));
    case StopKind::memory:
      return core::fail(core::Diagnostic::error("lua.memory", s.stop_what).of(s.stop_where).in(at_tick));
    case StopKind::forbidden:
      return core::fail(core::Diagnostic::error("lua.forbidden", s.stop_what).of(s.stop_where).in(at_tick));
    case StopKind::none:
      break;
  }
  if (status == LUA_ERRMEM)
    return core::fail(core::Diagnostic::error("lua.memory", "out of memory").of(s.path).in(at_tick));
  std::string file = s.path;
  const std::string prefix = s.path + ":";
  if (msg.rfind(prefix, 0) == 0) {
    const std::size_t colon = msg.find(':', prefix.size());
    if (colon != std::string::npos && colon + 1 < msg.size()) {
      file = msg.substr(0, colon);
      msg = msg.substr(msg[colon + 1] == ' ' ? colon + 2 : colon + 1);
    }
  }
  return core::fail(core::Diagnostic::error("lua.runtime", msg).of(file).in(at_tick));
}

namespace {

struct RefCall {
  int ref;
  const Arg* args;
  int count;
};

int call_ref_fn(lua_State* L) {
  const auto* c = static_cast<const RefCall*>(lua_touserdata(L, 1));
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->ref);
  for (int i = 0; i < c->count; ++i) {
    const Arg& a = c->args[i];
    switch (a.type) {
      case Arg::Type::nil:
        lua_pushnil(L);
        break;
      case Arg::Type::integer:
        lua_pushinteger(L, a.i);
        break;
      case Arg::Type::number:
        lua_pushnumber(L, a.n);
        break;
      case Arg::Type::string:
        lua_pushlstring(L, a.s.data(), a.s.size());
        break;
      case Arg::Type::boolean:
        lua_pushboolean(L, a.i != 0);
        break;
    }
  }
  lua_call(L, c->count, 0);
  return 0;
}

int encode_globals_entry(lua_State* L) {
  return encode_globals_fn(L);
}

}  // namespace

core::Status call_ref(Script& s, int ref, std::initializer_list<Arg> args) {
  RefCall c{ref, args.begin(), static_cast<int>(args.size())};
  return protected_call(s, call_ref_fn, &c);
}

core::Status encode_globals(Script& s) {
  s.data.clear();
  s.visiting.clear();
  s.encoded_values = 0;
  return protected_call(s, encode_globals_entry, nullptr);
}

core::Status check_lua_script(std::string_view source, std::string_view path) {
  LuaMission::Script s(std::string(source), std::string(path), LuaOptions{});
  if (new_sandbox(s) == nullptr)
    return core::fail(core::Diagnostic::error("lua.memory", "cannot create the Lua state").of(std::string(path)));
  return load_chunk(s);
}

}  // namespace sortie::scenario
