#pragma once
// A loaded mission's scenario: the parts libs/scenario runs (today the Lua mission script,
// MISSIONS/<m>/mission.lua; the native bundles and SuperAI join here), wired to the mission's
// world, and the summary `sortie run` reports (objectives, outcome, reason, tick, parts).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/mission/mission_loader.hpp"
#include "sortie/scenario/objectives.hpp"
#include "sortie/scenario/runtime.hpp"

namespace sortie::mission {

// The facts of a loaded mission as the scenario parts see them.
scenario::MissionFacts mission_facts(const LoadedMission& mission, std::string name);

// The runtime of the mission's scenario, its parts added; null when the mission has none (then
// `sortie run` runs exactly as without a scenario layer). Errors: lua.* (the script no longer
// compiles; the loader checked it). `human`: a person plays the player's clan (MissionFacts::human).
// `on`: the world the parts run on; null: the mission's own. A networked server passes its
// session world, built from the mission's setup (the same objects and ids; net::ServerScenario).
core::Result<std::unique_ptr<scenario::ScenarioRuntime>> make_scenario_runtime(LoadedMission& mission,
                                                                               const scenario::RuntimeOptions& options,
                                                                               bool human = false,
                                                                               world::World* on = nullptr);

// The scenario's part of a tick, before the world's tick: the runtime's step (the first one is
// its start()), nothing once the world's scenario has an outcome. `sortie run` (run_scenario),
// the played session (PlaySession) and a served session (net::ServerScenario) all call this.
// Errors: the runtime's.
core::Status scenario_before_tick(scenario::ScenarioRuntime& runtime, const world::World& world);

// What report.json's "scenario" holds.
struct ScenarioSummary {
  std::vector<scenario::Objective> objectives;
  scenario::Outcome outcome = scenario::Outcome::none;
  std::string reason;
  std::uint64_t tick = 0;  // the outcome's tick (0 while undecided)
  std::uint64_t digest = 0;
  std::vector<scenario::PartStatus> parts;  // empty on a replay (no part ran)
  std::vector<core::Diagnostic> diagnostics;
  [[nodiscard]] core::Json to_json() const;
  [[nodiscard]] std::string to_text() const;
};

// From the world's scenario state (and the runtime's parts when one ran); nullopt when the world
// has no scenario object.
std::optional<ScenarioSummary> summarize_scenario(const world::World& world, const scenario::ScenarioRuntime* runtime);

}  // namespace sortie::mission
