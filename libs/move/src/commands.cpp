#include "sortie/move/commands.hpp"

#include <fmt/format.h>

#include <optional>
#include <stdexcept>

#include "sortie/core/det_math.hpp"
#include "sortie/move/behavior.hpp"
#include "sortie/move/move_system.hpp"
#include "sortie/move/v1_commands.hpp"
#include "sortie/move/wizard.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/payload_fields.hpp"
#include "sortie/world/world.hpp"

namespace sortie::move {

using core::det_wrap;

using core::Diagnostic;
using core::fail;
using world::CommandOutcome;
using world::ObjectId;

namespace {

core::Status invalid(std::string_view kind, std::string what) {
  return fail(Diagnostic::error("world.command.invalid", std::move(what)).in(std::string(kind)));
}

// The system-level error states: no environment at all, no terrain interface.
core::Status require_environment(const MoveEnvironmentPtr& env, std::string_view kind) {
  if (!env) {
    return fail(Diagnostic::error("move.env.no_system_map", "the movement stack has no system map (no environment)")
                    .in(std::string(kind)));
  }
  if (!env->terrain) {
    return fail(Diagnostic::error("move.env.no_terrain", "the movement environment has no terrain interface")
                    .in(std::string(kind)));
  }
  return {};
}

bool finite_non_negative(float v) {
  return core::is_finite(v) && v >= 0.0f;
}

// The unit's stack; nullopt when the target is gone, static or not enabled. A mirror (an object a
// networked player owns) moves like any other: every replica runs the same orders on it.
struct UnitStack {
  Body& body;
  BehaviorState& behavior;
  WizardState& wizard;
  ControlState& control;
};

template <class T>
T& get_or_add(world::WorldObject& o) {
  if (T* c = o.components.get<T>()) return *c;
  return o.components.emplace(T{});
}

template <class P>
world::CommandKindInfo with_order_target(world::CommandKindInfo info) {
  info.order_target = world::order_target_of<P>();
  return info;
}

std::optional<UnitStack> enabled_unit(world::World& w, ObjectId id) {
  world::WorldObject* o = w.find_live(id);
  if (o == nullptr) return std::nullopt;
  Body* body = o->components.get<Body>();
  if (body == nullptr || body->is_static) return std::nullopt;
  return UnitStack{*body, get_or_add<BehaviorState>(*o), get_or_add<WizardState>(*o), get_or_add<ControlState>(*o)};
}

}  // namespace

// ---------------------------------------------------------------- payload fields

namespace {

constexpr std::string_view kShapeNames[] = {"circle", "capsule"};

// The fields a move.enable command gives a Body, in the one order of both the payload and the
// body's state encoding: u8 shape, f32 radius, height, max_speed, u32 category, collides_with,
// u8 static.
template <class Self, class V>
void body_fields(Self& b, V& v) {
  v(b.shape, "shape", world::field::Names{"world.command.move.shape", "unknown body shape", kShapeNames});
  v(b.radius, "radius");
  v(b.height, "height");
  v(b.max_speed, "max_speed");
  v(b.category, "category");
  v(b.collides_with, "collides_with");
  v(b.is_static, "static", world::field::Flag{"world.command.move.flag"});
}

}  // namespace

// Here, not in components.cpp: the body's state encoding shares move.enable's field list.
void Body::encode(world::StateWriter& out) const {
  world::field::ToBytes<world::StateWriter> v(out);
  body_fields(*this, v);
  out.u32(revision);
}

template <class Self, class V>
void EnableCommand::fields(Self& c, V& v) {
  v(c.target, "target");
  body_fields(c, v);
}

template <class Self, class V>
void GotoCommand::fields(Self& c, V& v) {
  v(c.target, "target");
  v(c.goal.x, "x");
  v(c.goal.y, "y");
  v(c.speed, "speed");
}

template <class Self, class V>
void HaltCommand::fields(Self& c, V& v) {
  v(c.target, "target");
}

template <class Self, class V>
void DriveCommand::fields(Self& c, V& v) {
  v(c.target, "target");
  v(c.speed, "speed");
  v(c.turn, "turn");
}

template <class Self, class V>
void DisableCommand::fields(Self& c, V& v) {
  v(c.target, "target");
}

// ---------------------------------------------------------------- registration

core::Status register_move_commands(world::CommandRegistry& registry, const MoveEnvironmentPtr& env) {
  auto slot = std::make_shared<MoveEnvironmentSlot>();
  slot->env = env;
  return register_move_commands_in(registry, std::move(slot));
}

core::Status register_move_commands_in(world::CommandRegistry& registry,
                                       std::shared_ptr<const MoveEnvironmentSlot> slot) {
  if (!slot) throw std::logic_error("register_move_commands_in: no environment slot");
  SORTIE_CHECK(registry.register_kind(with_order_target<EnableCommand>(world::command_kind<EnableCommand>(
      [slot](const world::World&, const EnableCommand& c) -> core::Status {
        SORTIE_CHECK(require_environment(slot->env, EnableCommand::kName));
        if (!core::is_finite(c.radius) || !(c.radius > 0.0f) || !finite_non_negative(c.height) ||
            !finite_non_negative(c.max_speed)) {
          return invalid(EnableCommand::kName, "move.enable needs a finite radius > 0, height >= 0 and max_speed >= 0");
        }
        return {};
      },
      [slot](world::World& w, const EnableCommand& c) -> core::Result<CommandOutcome> {
        world::WorldObject* o = w.find_live(c.target);
        if (o == nullptr) return CommandOutcome::skipped;
        Body body{c.shape, c.radius, c.height, c.max_speed, c.category, c.collides_with, c.is_static, 1};
        if (const Body* old = o->components.get<Body>()) body.revision = old->revision + 1;
        o->components.emplace(body);
        if (!o->components.has<ControlState>()) {
          ControlState control;
          control.heading = det_wrap(o->transform.orientation.z);
          if (!core::is_finite(control.heading)) control.heading = 0.0f;
          o->components.emplace(control);
        }
        get_or_add<BehaviorState>(*o);
        get_or_add<WizardState>(*o);
        SORTIE_TRY(MoveSystem * system, ensure_move_system(w, slot->env));
        system->add_member(c.target);
        if (auto* t = world::traced(w, "control"))
          t->write("control", fmt::format("{} body on: radius {} max speed {}{}", c.target.to_string(), c.radius,
                                          c.max_speed, c.is_static ? " static" : ""));
        return CommandOutcome::applied;
      }))));

  SORTIE_CHECK(registry.register_kind(with_order_target<GotoCommand>(world::command_kind<GotoCommand>(
      [slot](const world::World&, const GotoCommand& c) -> core::Status {
        SORTIE_CHECK(require_environment(slot->env, GotoCommand::kName));
        if (!core::is_finite(c.goal) || !core::is_finite(c.speed) || !(c.speed > 0.0f)) {
          return invalid(GotoCommand::kName, "move.goto needs a finite goal and a finite speed > 0");
        }
        return {};
      },
      [](world::World& w, const GotoCommand& c) -> core::Result<CommandOutcome> {
        auto unit = enabled_unit(w, c.target);
        if (!unit) return CommandOutcome::skipped;
        BehaviorState& b = unit->behavior;
        b.target = c.goal;
        b.speed = c.speed;
        b.mode = BehaviorMode::planning;
        b.failure = MoveFailure::none;
        b.replans_without_progress = 0;
        clear_paths(b);
        clear_wizard_path(unit->wizard);
        unit->control.manual_speed = 0.0f;
        unit->control.manual_turn = 0.0f;
        if (auto* t = world::traced(w, "control"))
          t->write("control", fmt::format("{} order start move.goto to ({:.2f}, {:.2f}) speed {}", c.target.to_string(),
                                          c.goal.x, c.goal.y, c.speed));
        return CommandOutcome::applied;
      }))));

  SORTIE_CHECK(registry.register_kind(with_order_target<HaltCommand>(world::command_kind<HaltCommand>(
      [slot](const world::World&, const HaltCommand&) -> core::Status {
        return require_environment(slot->env, HaltCommand::kName);
      },
      [](world::World& w, const HaltCommand& c) -> core::Result<CommandOutcome> {
        auto unit = enabled_unit(w, c.target);
        if (!unit) return CommandOutcome::skipped;
        if (auto* t = world::traced(w, "control"))
          t->write("control", fmt::format("{} order end move.halt (was {})", c.target.to_string(),
                                          to_string(unit->behavior.mode)));
        unit->behavior.mode = BehaviorMode::idle;
        unit->behavior.failure = MoveFailure::none;
        clear_paths(unit->behavior);
        clear_wizard_path(unit->wizard);
        unit->control.manual_speed = 0.0f;
        unit->control.manual_turn = 0.0f;
        return CommandOutcome::applied;
      }))));

  SORTIE_CHECK(registry.register_kind(with_order_target<DriveCommand>(world::command_kind<DriveCommand>(
      [slot](const world::World&, const DriveCommand& c) -> core::Status {
        SORTIE_CHECK(require_environment(slot->env, DriveCommand::kName));
        if (!core::is_finite(c.speed) || !core::is_finite(c.turn)) {
          return invalid(DriveCommand::kName, "move.drive needs a finite speed and turn");
        }
        return {};
      },
      [](world::World& w, const DriveCommand& c) -> core::Result<CommandOutcome> {
        auto unit = enabled_unit(w, c.target);
        if (!unit) return CommandOutcome::skipped;
        unit->behavior.mode = BehaviorMode::manual;
        unit->behavior.failure = MoveFailure::none;
        clear_paths(unit->behavior);
        clear_wizard_path(unit->wizard);
        unit->control.manual_speed = core::clamp(c.speed, -unit->body.max_speed, unit->body.max_speed);
        unit->control.manual_turn = c.turn;
        if (auto* t = world::traced(w, "control"))
          t->write("control", fmt::format("{} order start move.drive speed {} turn {}", c.target.to_string(),
                                          unit->control.manual_speed, c.turn));
        return CommandOutcome::applied;
      }))));

  return registry.register_kind(with_order_target<DisableCommand>(world::command_kind<DisableCommand>(
      [slot](const world::World&, const DisableCommand&) -> core::Status {
        return require_environment(slot->env, DisableCommand::kName);
      },
      [](world::World& w, const DisableCommand& c) -> core::Result<CommandOutcome> {
        world::WorldObject* o = w.find_live(c.target);
        if (o == nullptr || !o->components.has<Body>()) return CommandOutcome::skipped;
        o->components.remove<Body>();
        o->components.remove<BehaviorState>();
        o->components.remove<WizardState>();
        o->components.remove<ControlState>();
        o->components.remove<CollisionProxy>();
        if (auto* t = world::traced(w, "control")) t->write("control", c.target.to_string() + " body off");
        return CommandOutcome::applied;
      })));
}

std::shared_ptr<const world::CommandRegistry> move_command_registry(const MoveEnvironmentPtr& env) {
  world::CommandRegistry registry = world::CommandRegistry::standard();
  auto status = register_v1_move_commands(registry);
  if (status) status = register_move_commands(registry, env);
  if (!status)
    throw std::logic_error("movement command kinds collide with the standard set: " + status.error().to_string());
  return std::make_shared<const world::CommandRegistry>(std::move(registry));
}

}  // namespace sortie::move

template struct sortie::world::PayloadCodec<sortie::move::EnableCommand>;
template struct sortie::world::PayloadCodec<sortie::move::GotoCommand>;
template struct sortie::world::PayloadCodec<sortie::move::HaltCommand>;
template struct sortie::world::PayloadCodec<sortie::move::DriveCommand>;
template struct sortie::world::PayloadCodec<sortie::move::DisableCommand>;
