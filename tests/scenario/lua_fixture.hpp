#pragma once
// The demo sample's mission m01 with a test's own mission.lua, its scenario runtime, and the
// run loop `sortie run` uses (mission::run_scenario: bodies at tick 0, the parts before every
// tick, no random orders).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sortie/mission/mission_scenario.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/scenario/lua_mission.hpp"
#include "sortie/scenario/runtime.hpp"
#include "sortie_test/demo_game.hpp"

namespace sortie::test {

inline constexpr const char* kScriptPath = "MISSIONS/m01/mission.lua";

struct LuaRun {
  mission::GameContext game;
  mission::LoadedMission* mission = nullptr;
  std::unique_ptr<scenario::ScenarioRuntime> runtime;

  world::World& world() { return *mission->world; }
};

// Loads m01 (the sample's own mission.lua replaced by `script`, or removed when empty) and adds
// the script as the runtime's one part with `options`.
inline std::unique_ptr<LuaRun> load_lua_run(const std::string& script, scenario::LuaOptions options = {},
                                            scenario::RuntimeOptions runtime = {}) {
  Files files = demo_files();
  files.erase(kScriptPath);
  auto run = std::make_unique<LuaRun>(LuaRun{game_over(files), nullptr, nullptr});
  auto report = run->game.load("m01");
  EXPECT_TRUE(report.has_value() && report->ok);
  run->mission = run->game.current();
  if (run->mission == nullptr) return nullptr;
  run->runtime = std::make_unique<scenario::ScenarioRuntime>(*run->mission->world,
                                                             mission::mission_facts(*run->mission, "m01"), runtime);
  auto part = scenario::LuaMission::load(script, kScriptPath, options);
  EXPECT_TRUE(part.has_value()) << (part ? "" : part.error().to_string());
  if (!part) return nullptr;
  run->runtime->add(std::move(*part));
  return run;
}

// `sortie run`'s loop for `ticks` ticks (it stops after the outcome's tick).
inline mission::ScenarioResult play(LuaRun& run, std::uint64_t ticks) {
  mission::ScenarioOptions so;
  so.ticks = ticks;
  so.wander = false;
  auto r = mission::run_scenario(*run.mission, so, nullptr, run.runtime.get());
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
  return r ? std::move(*r) : mission::ScenarioResult{};
}

inline const scenario::Objective* objective(LuaRun& run, std::string_view id) {
  const scenario::ScenarioState* s = run.runtime->state();
  return s != nullptr ? s->find(id) : nullptr;
}

inline std::string objective_text(LuaRun& run, std::string_view id) {
  const scenario::Objective* o = objective(run, id);
  return o != nullptr ? o->text : std::string("<no such objective>");
}

// The first error diagnostic of the runtime (a stopped part), or nullptr.
inline const core::Diagnostic* stop_diagnostic(const LuaRun& run) {
  for (const auto& d : run.runtime->diagnostics())
    if (d.severity == core::Severity::error) return &d;
  return nullptr;
}

}  // namespace sortie::test
