#pragma once
// Sortie's own mission scripts: a `MISSIONS/<m>/mission.lua` run by Lua 5.4 in a sandbox, as one
// scenario part (part.hpp). This is not the native script layer of Iron3D (native_bundle.hpp)
// and claims no compatibility with it. docs/mission-scripts.md is the script API; ADR 0016 says
// why and how.
//
// Sandbox: only base (without load, loadfile, dofile, next, collectgarbage with arguments),
// string (without dump), table, math (math.random is a seeded core::Rng stream; no
// randomseed), utf8 and coroutine. `io`, `os`, `debug`, `package` and `require`/`load` are
// stubs that stop the script with lua.forbidden. Text chunks only (no bytecode). `pairs` visits
// keys in a fixed order (numbers, then strings, then booleans), `tostring` never shows an
// address, `setmetatable` refuses __gc and __mode: nothing a script sees depends on memory
// addresses or collector timing.
//
// Budgets: an instruction budget per tick (a count hook) and a memory cap (the allocator).
// Exceeding either, a runtime error, or a forbidden call stops the script with a diagnostic
// naming file:line and the tick; the world goes on (the runtime stops only this part).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/scenario/limits.hpp"
#include "sortie/scenario/part.hpp"

namespace sortie::scenario {

struct LuaOptions {
  std::uint64_t instruction_budget = kLuaInstructionBudget;  // VM instructions per tick (start: the chunk too)
  std::size_t memory_cap = kLuaMemoryCap;                    // bytes the script's Lua state may hold
  float default_speed = 6.0f;                                // go/follow without a speed; spawned units' max
  float unit_radius = 1.5f;                                  // bodies of spawned units (move.enable)
  float unit_height = 3.0f;
  std::uint32_t follow_interval = 30;  // ticks between the re-issued orders of follow()
  std::string channel = "lua";         // trace channel
};

// Compiles `source` as a text chunk without running it. Errors: lua.syntax ("path:line: ..."),
// lua.bytecode (a precompiled chunk), lua.memory.
core::Status check_lua_script(std::string_view source, std::string_view path);

// The effect names a script gives as literals: the first argument of every call `effect("name",
// ...)`, `effect('name', ...)` or `effect "name"` outside comments and strings, in source order,
// each once (ASCII case-insensitively). What the mission loader resolves at load (the
// lua_script_to_effect edges, docs/effects.md); a name computed at run time is checked when the
// call runs.
std::vector<std::string> lua_effect_names(std::string_view source);

class LuaMission final : public ScenarioPart {
 public:
  // Compiles the chunk (errors as check_lua_script); it runs at start().
  static core::Result<std::unique_ptr<LuaMission>> load(std::string source, std::string path, LuaOptions options = {});
  ~LuaMission() override;
  LuaMission(const LuaMission&) = delete;
  LuaMission& operator=(const LuaMission&) = delete;

  [[nodiscard]] std::string name() const override;  // "lua:<path>"
  core::Status start(ScenarioContext& ctx) override;
  core::Status step(ScenarioContext& ctx) override;
  void encode(world::StateWriter& out) const override;
  // The script's state that is data (lua_image.cpp): {"running", "stop", "rng": [4 words],
  // "orders", "handlers": [[kind, zone], ...], "next_timer", "timers": [[id, due, period], ...],
  // "zones": [[name, shape, a, b, c, d, areal, [inside ids]], ...], "follows": [[follower, leader,
  // speed, next], ...], "globals": the script's own globals that are not functions}. Closures
  // (the handlers' and timers' functions) are not data: a load re-runs the script (ADR 0021).
  void image(nlohmann::json& out) const override;

  // Instructions the last start/step used, and bytes the Lua state holds now (benchmarks, tests).
  [[nodiscard]] std::uint64_t instructions_last_step() const;
  [[nodiscard]] std::size_t memory_in_use() const;
  // Handlers registered (timers, zone and event handlers).
  [[nodiscard]] std::size_t handler_count() const;

  struct Script;  // lua_script.hpp

 private:
  explicit LuaMission(std::unique_ptr<Script> script);
  std::unique_ptr<Script> script_;
};

}  // namespace sortie::scenario
