#pragma once
// Internal: the state of one Lua mission script (lua_mission.hpp) shared by the sandbox
// (lua_sandbox.cpp), the script API (lua_api.cpp) and the part (lua_mission.cpp).
//
// Lua is C: its errors are longjmps. Every call into Lua that may raise runs inside lua_pcall
// (protected_call), and the C functions of the API read their arguments first, then do their C++
// work in functions that never call Lua, then push plain results: no C++ object with a
// destructor lives on a frame a Lua error jumps over.
#include <cstdint>
#include <lua.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/rng.hpp"
#include "sortie/core/state_writer.hpp"
#include "sortie/scenario/lua_mission.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::scenario {

inline constexpr int kHookEvery = 1000;  // instructions between two count-hook calls

// Why the script stopped (none: it runs, or it stopped on a plain runtime error).
enum class StopKind : std::uint8_t { none, budget, memory, forbidden };

enum class HandlerKind : std::uint8_t {
  start,
  enter,
  leave,
  arrive,
  collision,
  created,
  destroyed,
  player_joined,
  player_left,
};

enum class ZoneShape : std::uint8_t { circle, rect, areal };

struct Zone {
  std::string name;
  ZoneShape shape = ZoneShape::circle;
  double a = 0, b = 0, c = 0, d = 0;  // circle: x, y, r; rect: x0, y0, x1, y1
  std::uint32_t areal = 0;
  std::vector<world::ObjectId> inside;  // ascending
};

struct Handler {
  HandlerKind kind = HandlerKind::start;
  std::uint32_t zone = 0;  // enter/leave: index into zones
  int ref = LUA_NOREF;
};

struct Timer {
  std::uint32_t id = 0;
  std::uint64_t due = 0;     // tick
  std::uint32_t period = 0;  // ticks; 0 = once
  int ref = LUA_NOREF;
};

struct Follow {
  world::ObjectId follower;
  world::ObjectId leader;
  float speed = 0;
  std::uint64_t next = 0;  // tick of the next re-issued goto
};

// One argument of a handler call.
struct Arg {
  enum class Type : std::uint8_t { nil, integer, number, string, boolean } type = Type::nil;
  lua_Integer i = 0;
  double n = 0;
  std::string_view s;
};

struct LuaMission::Script {
  Script(std::string src, std::string file, LuaOptions opts);
  ~Script();
  Script(const Script&) = delete;
  Script& operator=(const Script&) = delete;

  std::string source;
  std::string path;
  LuaOptions options;
  lua_State* L = nullptr;
  int chunk_ref = LUA_NOREF;  // the compiled chunk, run by start()

  // memory (the allocator) and instructions (the count hook)
  std::size_t in_use = 0;
  std::size_t peak = 0;
  std::uint64_t used = 0;  // instructions in the current start/step
  std::uint64_t last_used = 0;
  bool killed = false;  // a budget, the cap or a forbidden call: every further instruction raises
  StopKind stop = StopKind::none;
  std::string stop_where;  // "path:line" of the instruction that stopped it
  std::string stop_what;

  // scenario
  ScenarioContext* ctx = nullptr;  // set during start/step
  std::uint64_t tick = 0;
  bool running = true;
  std::vector<Handler> handlers;
  std::vector<Zone> zones;
  std::vector<Timer> timers;  // in creation order
  std::uint32_t next_timer = 0;
  std::vector<Follow> follows;
  std::vector<world::ObjectId> spawned_now;  // spawned in this start/step: not in the world until its tick
  core::Rng rng;
  std::vector<std::string> baseline;  // global names the sandbox defines (not the script's data)
  core::StateWriter data;             // the script's globals after the last step (encode_globals)
  std::vector<const void*> visiting;  // tables on the encoding path (cycles)
  std::uint32_t encoded_values = 0;
  std::uint64_t orders = 0;  // commands submitted

  // Stops the script from inside Lua: records why and where, makes every further instruction
  // raise. The caller then raises (lua_error) itself.
  void kill(StopKind kind, std::string where, std::string what);
  [[nodiscard]] std::uint64_t ticks_of(double seconds) const;
};

// ---- lua_sandbox.cpp
LuaMission::Script& script_of(lua_State* L);
// "path:line" of the innermost Lua function on L's stack ("path" when there is none).
std::string lua_where(lua_State* L, const std::string& path);
// A new state with the sandboxed libraries. nullptr: out of memory.
lua_State* new_sandbox(LuaMission::Script& s);
// Loads the chunk (text only) and leaves it on the stack. Errors: lua.syntax, lua.bytecode, lua.memory.
core::Status load_chunk(LuaMission::Script& s);
// Runs `fn(L)` with `arg` as a light userdata, protected; a failure is the stop diagnostic.
core::Status protected_call(LuaMission::Script& s, lua_CFunction fn, void* arg);
// Calls the function in registry slot `ref` with `args`, protected.
core::Status call_ref(LuaMission::Script& s, int ref, std::initializer_list<Arg> args);
// The script's own globals (not the baseline) in a fixed order, into s.data. Protected.
core::Status encode_globals(LuaMission::Script& s);
// Pushes a sequence of t's keys in the fixed order (numbers, strings, booleans) and returns its
// length; keys of other types raise, or are left out with skip_unordered. `pairs` and the encoder.
int sorted_keys(lua_State* L, int table, bool skip_unordered = false);

// ---- lua_api.cpp
// The script API (docs/mission-scripts.md) as globals of the sandbox.
void install_api(lua_State* L);

}  // namespace sortie::scenario
