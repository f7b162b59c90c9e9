#include "sortie/move/commands.hpp"

#include <fmt/format.h>

#include <optional>
#include <stdexcept>

#include "body_fields.hpp"
#include "sortie/core/det_math.hpp"
#include "sortie/move/behavior.hpp"
#include "sortie/move/move_system.hpp"
#include "sortie/move/v1_commands.hpp"
#include "sortie/move/wizard.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/world.hpp"

namespace sortie::move {

using core::det_wrap;

using core::Diagnostic;
using core::fail;
using core::Json;
using world::CommandOutcome;
using world::ObjectId;

namespace {

core::Result<ObjectId> read_id(core::ByteReader& in) {
  SORTIE_TRY(auto raw, in.u64());
  return ObjectId::from_raw(raw);
}

core::Result<bool> read_flag(core::ByteReader& in, std::string_view what) {
  const std::size_t at = in.offset();
  SORTIE_TRY(auto v, in.u8());
  if (v > 1)
    return fail(in.error_at(at, "world.command.move.flag", std::string(what) + " must be 0 or 1")
                    .expect("0|1", std::to_string(v)));
  return v == 1;
}

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

// The unit's stack; nullopt when the target is gone, a mirror, static or not enabled.
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
  if (o == nullptr || o->is_mirror()) return std::nullopt;
  Body* body = o->components.get<Body>();
  if (body == nullptr || body->is_static) return std::nullopt;
  return UnitStack{*body, get_or_add<BehaviorState>(*o), get_or_add<WizardState>(*o), get_or_add<ControlState>(*o)};
}

}  // namespace

// ---------------------------------------------------------------- codecs

void EnableCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  detail::write_body_fields(out, *this);
}

core::Result<EnableCommand> EnableCommand::read(core::ByteReader& in) {
  EnableCommand c;
  SORTIE_TRY(c.target, read_id(in));
  const std::size_t at = in.offset();
  SORTIE_TRY(auto shape, in.u8());
  if (shape > 1)
    return fail(in.error_at(at, "world.command.move.shape", "shape must be 0 (circle) or 1 (capsule)")
                    .expect("0|1", std::to_string(shape)));
  c.shape = static_cast<Shape>(shape);
  SORTIE_TRY(c.radius, in.f32());
  SORTIE_TRY(c.height, in.f32());
  SORTIE_TRY(c.max_speed, in.f32());
  SORTIE_TRY(c.category, in.u32());
  SORTIE_TRY(c.collides_with, in.u32());
  SORTIE_TRY(c.is_static, read_flag(in, "static"));
  return c;
}

void EnableCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
  out["shape"] = shape == Shape::circle ? "circle" : "capsule";
  world::json_put_f32(out, "radius", radius);
  world::json_put_f32(out, "height", height);
  world::json_put_f32(out, "max_speed", max_speed);
  out["category"] = category;
  out["collides_with"] = collides_with;
  out["static"] = is_static;
}

core::Result<EnableCommand> EnableCommand::from_json(const Json& in, const std::string& path) {
  EnableCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  SORTIE_TRY(auto shape, world::json_get<std::string>(in, "shape", path));
  if (shape != "circle" && shape != "capsule") {
    return fail(Diagnostic::error("command_log.field_type", "field has the wrong type or range")
                    .in(path + ".shape")
                    .expect("\"circle\" or \"capsule\"", shape));
  }
  c.shape = shape == "circle" ? Shape::circle : Shape::capsule;
  SORTIE_TRY(c.radius, world::json_get_f32(in, "radius", path));
  SORTIE_TRY(c.height, world::json_get_f32(in, "height", path));
  SORTIE_TRY(c.max_speed, world::json_get_f32(in, "max_speed", path));
  SORTIE_TRY(c.category, world::json_get<std::uint32_t>(in, "category", path));
  SORTIE_TRY(c.collides_with, world::json_get<std::uint32_t>(in, "collides_with", path));
  SORTIE_TRY(c.is_static, world::json_get<bool>(in, "static", path));
  return c;
}

void GotoCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.f32(goal.x);
  out.f32(goal.y);
  out.f32(speed);
}

core::Result<GotoCommand> GotoCommand::read(core::ByteReader& in) {
  GotoCommand c;
  SORTIE_TRY(c.target, read_id(in));
  SORTIE_TRY(c.goal.x, in.f32());
  SORTIE_TRY(c.goal.y, in.f32());
  SORTIE_TRY(c.speed, in.f32());
  return c;
}

void GotoCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
  world::json_put_f32(out, "x", goal.x);
  world::json_put_f32(out, "y", goal.y);
  world::json_put_f32(out, "speed", speed);
}

core::Result<GotoCommand> GotoCommand::from_json(const Json& in, const std::string& path) {
  GotoCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  SORTIE_TRY(c.goal.x, world::json_get_f32(in, "x", path));
  SORTIE_TRY(c.goal.y, world::json_get_f32(in, "y", path));
  SORTIE_TRY(c.speed, world::json_get_f32(in, "speed", path));
  return c;
}

void HaltCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
}
core::Result<HaltCommand> HaltCommand::read(core::ByteReader& in) {
  HaltCommand c;
  SORTIE_TRY(c.target, read_id(in));
  return c;
}
void HaltCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
}
core::Result<HaltCommand> HaltCommand::from_json(const Json& in, const std::string& path) {
  HaltCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  return c;
}

void DriveCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.f32(speed);
  out.f32(turn);
}
core::Result<DriveCommand> DriveCommand::read(core::ByteReader& in) {
  DriveCommand c;
  SORTIE_TRY(c.target, read_id(in));
  SORTIE_TRY(c.speed, in.f32());
  SORTIE_TRY(c.turn, in.f32());
  return c;
}
void DriveCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
  world::json_put_f32(out, "speed", speed);
  world::json_put_f32(out, "turn", turn);
}
core::Result<DriveCommand> DriveCommand::from_json(const Json& in, const std::string& path) {
  DriveCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  SORTIE_TRY(c.speed, world::json_get_f32(in, "speed", path));
  SORTIE_TRY(c.turn, world::json_get_f32(in, "turn", path));
  return c;
}

void DisableCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
}
core::Result<DisableCommand> DisableCommand::read(core::ByteReader& in) {
  DisableCommand c;
  SORTIE_TRY(c.target, read_id(in));
  return c;
}
void DisableCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
}
core::Result<DisableCommand> DisableCommand::from_json(const Json& in, const std::string& path) {
  DisableCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  return c;
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
        if (o == nullptr || o->is_mirror()) return CommandOutcome::skipped;
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
        return CommandOutcome::applied;
      }))));

  SORTIE_CHECK(registry.register_kind(with_order_target<HaltCommand>(world::command_kind<HaltCommand>(
      [slot](const world::World&, const HaltCommand&) -> core::Status {
        return require_environment(slot->env, HaltCommand::kName);
      },
      [](world::World& w, const HaltCommand& c) -> core::Result<CommandOutcome> {
        auto unit = enabled_unit(w, c.target);
        if (!unit) return CommandOutcome::skipped;
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
