#include "sortie/scenario/commands.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "sortie/env/effect_world.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/scenario/class_ids.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/payload_fields.hpp"
#include "sortie/world/world.hpp"

namespace sortie::scenario {

using core::Diagnostic;
using core::fail;
using world::CommandOutcome;
using world::World;

namespace {

constexpr std::string_view kActionNames[] = {"add", "complete", "fail"};
constexpr std::string_view kOutcomeNames[] = {"none", "win", "lose"};

core::Status invalid(std::string_view kind, std::string what) {
  return fail(Diagnostic::error("world.command.invalid", std::move(what)).in(std::string(kind)));
}

world::WorldObject* scenario_object(World& w) {
  return w.find_live(scenario_object_id(w));
}

// The state a decided scenario still takes: none (objectives and outcome are frozen).
ScenarioState* open_state(World& w) {
  world::WorldObject* o = scenario_object(w);
  if (o == nullptr) return nullptr;
  ScenarioState* s = o->components.get<ScenarioState>();
  if (s == nullptr || s->outcome != Outcome::none) return nullptr;
  return s;
}

core::Status validate_objective(const World&, const ObjectiveCommand& c) {
  if (c.id.empty() || c.id.size() > kMaxObjectiveId)
    return invalid(ObjectiveCommand::kName, fmt::format("an objective id has 1..{} bytes", kMaxObjectiveId));
  if (c.text.size() > kMaxObjectiveText)
    return invalid(ObjectiveCommand::kName, fmt::format("an objective text has at most {} bytes", kMaxObjectiveText));
  if (c.action != ObjectiveAction::add && !c.text.empty())
    return invalid(ObjectiveCommand::kName, "only `add` carries a text");
  return {};
}

core::Result<CommandOutcome> apply_objective(World& w, const ObjectiveCommand& c) {
  ScenarioState* s = open_state(w);
  if (s == nullptr) return CommandOutcome::skipped;
  Objective* o = s->find(c.id);
  if (c.action == ObjectiveAction::add) {
    if (o != nullptr) return CommandOutcome::skipped;  // ids are unique; the first add stands
    s->objectives.push_back(Objective{c.id, c.text, ObjectiveStatus::active, w.clock().tick});
    return CommandOutcome::applied;
  }
  if (o == nullptr || o->status != ObjectiveStatus::active) return CommandOutcome::skipped;
  o->status = c.action == ObjectiveAction::complete ? ObjectiveStatus::completed : ObjectiveStatus::failed;
  o->changed_tick = w.clock().tick;
  return CommandOutcome::applied;
}

core::Result<CommandOutcome> apply_start(World& w, const StartCommand&) {
  const world::ObjectId id = scenario_object_id(w);
  if (w.lookup(id)) return CommandOutcome::skipped;
  SORTIE_CHECK(w.classes().add(kClasses));
  SORTIE_TRY(const world::Handle h, w.create_object(id, "scenario"));
  world::WorldObject* o = w.find(h);
  o->visible = false;  // not drawn, not in snapshots
  o->components.emplace(ScenarioState{});
  o->components.emplace(ScenarioDigest{});
  SORTIE_CHECK(w.add_to_game(h));
  return CommandOutcome::applied;
}

core::Result<CommandOutcome> apply_spawn(World& w, const SpawnCommand& c) {
  if (scenario_object(w) == nullptr || w.lookup(c.id)) return CommandOutcome::skipped;
  core::Transform t;
  t.position = c.position;
  SORTIE_TRY(const world::Handle h, w.create_object(c.id, c.prototype, t));
  world::WorldObject* o = w.find(h);
  o->properties.set("clan", static_cast<std::int64_t>(c.clan));
  o->properties.set("spawned", std::int64_t{1});
  SORTIE_CHECK(w.add_to_game(h));
  w.post(world::Event{0, world::EventType::spawned, h, {}, 0, 0});
  return CommandOutcome::applied;
}

core::Status register_objective_and_outcome(world::CommandRegistry& registry) {
  SORTIE_CHECK(registry.register_kind(world::command_kind<ObjectiveCommand>(validate_objective, apply_objective)));
  return registry.register_kind(world::command_kind<OutcomeCommand>(
      [](const World&, const OutcomeCommand& c) -> core::Status {
        if (c.outcome == Outcome::none) return invalid(OutcomeCommand::kName, "the outcome is win or lose");
        if (c.reason.size() > kMaxReason)
          return invalid(OutcomeCommand::kName, fmt::format("a reason has at most {} bytes", kMaxReason));
        return {};
      },
      [](World& w, const OutcomeCommand& c) -> core::Result<CommandOutcome> {
        ScenarioState* s = open_state(w);
        if (s == nullptr) return CommandOutcome::skipped;  // no scenario, or decided before
        s->outcome = c.outcome;
        s->reason = c.reason;
        s->outcome_tick = w.clock().tick;
        return CommandOutcome::applied;
      }));
}

}  // namespace

// ---------------------------------------------------------------- payload fields

template <class Self, class V>
void ObjectiveCommand::fields(Self& c, V& v) {
  v(c.action, "action", world::field::Names{"world.command.scenario.action", "unknown objective action", kActionNames});
  v(c.id, "id", world::field::Text{static_cast<std::uint32_t>(kMaxObjectiveId)});
  v(c.text, "text", world::field::Text{static_cast<std::uint32_t>(kMaxObjectiveText)});
}

template <class Self, class V>
void OutcomeCommand::fields(Self& c, V& v) {
  v(c.outcome, "outcome", world::field::Names{"world.command.scenario.outcome", "unknown outcome", kOutcomeNames});
  v(c.reason, "reason", world::field::Text{static_cast<std::uint32_t>(kMaxReason)});
}

template <class Self, class V>
void StartCommand::fields(Self& c, V& v) {
  v(c.mission, "mission", world::field::Text{255});
}

template <class Self, class V>
void DigestCommand::fields(Self& c, V& v) {
  v(c.digest, "digest");
}

template <class Self, class V>
void SpawnCommand::fields(Self& c, V& v) {
  v(c.id, "id");
  v(c.prototype, "prototype", world::field::Text{255});
  v(c.position.x, "x");
  v(c.position.y, "y");
  v(c.position.z, "z");
  v(c.clan, "clan");
}

// ---------------------------------------------------------------- lookups

world::ObjectId scenario_object_id(const World& world) {
  return world::ObjectId{world.local_player(), scenario::class_ids::kScenario, 1};
}

const ScenarioState* find_scenario_state(const World& world) {
  const auto h = world.lookup(scenario_object_id(world));
  const world::WorldObject* o = h ? world.find(*h) : nullptr;
  return o != nullptr ? o->components.get<ScenarioState>() : nullptr;
}

const ScenarioDigest* find_scenario_digest(const World& world) {
  const auto h = world.lookup(scenario_object_id(world));
  const world::WorldObject* o = h ? world.find(*h) : nullptr;
  return o != nullptr ? o->components.get<ScenarioDigest>() : nullptr;
}

// ---------------------------------------------------------------- registration

core::Status register_scenario_commands(world::CommandRegistry& registry) {
  SORTIE_CHECK(register_objective_and_outcome(registry));
  SORTIE_CHECK(registry.register_kind(world::command_kind<StartCommand>(nullptr, apply_start)));
  SORTIE_CHECK(registry.register_kind(
      world::command_kind<DigestCommand>(nullptr, [](World& w, const DigestCommand& c) -> core::Result<CommandOutcome> {
        world::WorldObject* o = scenario_object(w);
        if (o == nullptr) return CommandOutcome::skipped;
        o->components.emplace(ScenarioDigest{c.digest, w.clock().tick});
        return CommandOutcome::applied;
      })));
  return registry.register_kind(world::command_kind<SpawnCommand>(
      [](const World& w, const SpawnCommand& c) -> core::Status {
        if (c.id.class_id != scenario::class_ids::kScenarioUnit || c.id.owner != w.local_player() || c.id.index == 0)
          return invalid(SpawnCommand::kName, "a spawned object's id is {local player, class 43, index >= 1}");
        if (c.prototype.empty()) return invalid(SpawnCommand::kName, "prototype key must not be empty");
        if (!core::is_finite(c.position)) return invalid(SpawnCommand::kName, "spawn position must be finite");
        return {};
      },
      apply_spawn));
}

std::shared_ptr<const world::CommandRegistry> scenario_command_registry(
    const move::MoveEnvironmentPtr& env, std::shared_ptr<const env::EffectLibrary> effects) {
  world::CommandRegistry registry = *move::move_command_registry(env);
  auto status = register_scenario_commands(registry);
  if (status) status = env::register_effect_commands(registry, std::move(effects));
  if (!status) throw std::logic_error("scenario and effect command kinds collide: " + status.error().to_string());
  return std::make_shared<const world::CommandRegistry>(std::move(registry));
}

}  // namespace sortie::scenario

template struct sortie::world::PayloadCodec<sortie::scenario::ObjectiveCommand>;
template struct sortie::world::PayloadCodec<sortie::scenario::OutcomeCommand>;
template struct sortie::world::PayloadCodec<sortie::scenario::StartCommand>;
template struct sortie::world::PayloadCodec<sortie::scenario::DigestCommand>;
template struct sortie::world::PayloadCodec<sortie::scenario::SpawnCommand>;
