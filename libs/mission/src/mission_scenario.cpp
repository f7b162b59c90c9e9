#include "sortie/mission/mission_scenario.hpp"

#include <fmt/format.h>

#include "sortie/core/hash.hpp"
#include "sortie/scenario/commands.hpp"
#include "sortie/scenario/lua_mission.hpp"
#include "sortie/scenario/native_bundle.hpp"
#include "sortie/scenario/super_ai.hpp"

namespace sortie::mission {

scenario::MissionFacts mission_facts(const LoadedMission& mission, std::string name) {
  scenario::MissionFacts facts;
  facts.mission = std::move(name);
  facts.data = mission.data;
  facts.movement = mission.movement;
  facts.ids_by_placement = mission.ids_by_placement();
  facts.effects = mission.effects;
  return facts;
}

core::Result<std::unique_ptr<scenario::ScenarioRuntime>> make_scenario_runtime(LoadedMission& mission,
                                                                               const scenario::RuntimeOptions& options,
                                                                               bool human, world::World* on) {
  std::vector<std::unique_ptr<scenario::ScenarioPart>> parts;
  if (mission.script) {
    SORTIE_TRY(auto lua, scenario::LuaMission::load(mission.script->source, mission.script->path));
    parts.push_back(std::move(lua));
  }
  if (mission.data && !mission.data->scripts.empty()) {
    // The host's "mission failed / complete" callback (handlers 30, 57) decides the outcome.
    parts.push_back(std::make_unique<scenario::NativeBundlePart>(
        [](scenario::ScenarioContext& ctx, scenario::Outcome outcome, std::string reason) {
          return ctx.submit(world::make_command(ctx.tick, scenario::OutcomeCommand{outcome, std::move(reason)}));
        }));
  }
  if (mission.data) {
    // SuperAI plays every hostile clan but the player's (docs/superai.md).
    for (auto& clan : scenario::superai_clans(mission.data->tma, scenario::player_clan(mission.data->tma)))
      parts.push_back(std::make_unique<scenario::SuperAI>(std::move(clan)));
  }
  if (parts.empty()) return std::unique_ptr<scenario::ScenarioRuntime>();
  const std::string name = mission.data ? std::string(mission.data->tma_path.parent()) : std::string();
  scenario::MissionFacts facts = mission_facts(mission, name);
  facts.human = human;
  auto runtime =
      std::make_unique<scenario::ScenarioRuntime>(on != nullptr ? *on : *mission.world, std::move(facts), options);
  for (auto& p : parts) runtime->add(std::move(p));
  return runtime;
}

core::Status scenario_before_tick(scenario::ScenarioRuntime& runtime, const world::World& world) {
  const scenario::ScenarioState* state = scenario::find_scenario_state(world);
  if (state != nullptr && state->outcome != scenario::Outcome::none) return {};
  return runtime.step();
}

std::optional<ScenarioSummary> summarize_scenario(const world::World& world, const scenario::ScenarioRuntime* runtime) {
  const scenario::ScenarioState* state = scenario::find_scenario_state(world);
  if (state == nullptr) return std::nullopt;
  ScenarioSummary s;
  s.objectives = state->objectives;
  s.outcome = state->outcome;
  s.reason = state->reason;
  s.tick = state->outcome_tick;
  if (const scenario::ScenarioDigest* d = scenario::find_scenario_digest(world)) s.digest = d->value;
  if (runtime != nullptr) {
    s.parts = runtime->parts();
    s.diagnostics = runtime->diagnostics();
  }
  return s;
}

core::Json ScenarioSummary::to_json() const {
  core::Json objs = core::Json::array();
  for (const auto& o : objectives)
    objs.push_back(
        {{"id", o.id}, {"text", o.text}, {"status", scenario::to_string(o.status)}, {"tick", o.changed_tick}});
  core::Json ps = core::Json::array();
  for (const auto& p : parts) {
    core::Json j{{"name", p.name}, {"running", p.running}};
    if (p.error) j["error"] = p.error->to_json();
    ps.push_back(std::move(j));
  }
  core::Json diags = core::Json::array();
  for (const auto& d : diagnostics) diags.push_back(d.to_json());
  return core::Json{{"objectives", objs},  {"outcome", scenario::to_string(outcome)}, {"reason", reason},
                    {"tick", tick},        {"digest", core::hash_hex(digest)},        {"parts", ps},
                    {"diagnostics", diags}};
}

std::string ScenarioSummary::to_text() const {
  std::string out = "scenario objectives:\n";
  for (const auto& o : objectives) out += fmt::format("  [{}] {}: {}\n", scenario::to_string(o.status), o.id, o.text);
  if (objectives.empty()) out += "  (none)\n";
  for (const auto& p : parts)
    if (p.error) out += fmt::format("scenario part {} stopped: {}\n", p.name, p.error->to_string());
  for (const auto& d : diagnostics)
    if (d.severity != core::Severity::error) out += "scenario note: " + d.to_string() + "\n";
  if (outcome == scenario::Outcome::none) return out + "scenario result: undecided\n";
  return out + fmt::format("scenario result: {} at tick {} ({})\n", scenario::to_string(outcome), tick, reason);
}

}  // namespace sortie::mission
