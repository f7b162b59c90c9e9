#include "sortie/world/builtin_commands.hpp"

#include <fmt/format.h>

#include "sortie/world/command_json.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/legacy_fields.hpp"
#include "sortie/world/world.hpp"

namespace sortie::world {

using core::Diagnostic;
using core::fail;
using core::Json;

// The built-in kinds change the game clock, which World keeps private (only commands may).
struct BuiltinCommandAccess {
  static GameClock& clock(World& world) { return world.clock_; }
};

namespace {

core::Result<ObjectId> read_id(core::ByteReader& in) {
  SORTIE_TRY(auto raw, in.u64());
  return ObjectId::from_raw(raw);
}

core::Status invalid(std::string_view kind, std::string what) {
  return fail(Diagnostic::error("world.command.invalid", std::move(what)).in(std::string(kind)));
}

// The live target of a command, or skipped.
template <class Fn>
core::Result<CommandOutcome> on_target(World& world, ObjectId id, Fn&& fn) {
  WorldObject* o = world.find_live(id);
  if (o == nullptr) return CommandOutcome::skipped;
  return fn(*o);
}

}  // namespace

// ---------------------------------------------------------------- stop

void StopCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
}
core::Result<StopCommand> StopCommand::read(core::ByteReader& in) {
  StopCommand c;
  SORTIE_TRY(c.target, read_id(in));
  return c;
}
void StopCommand::to_json(Json& out) const {
  json_put_object_id(out, "target", target);
}
core::Result<StopCommand> StopCommand::from_json(const Json& in, const std::string& path) {
  StopCommand c;
  SORTIE_TRY(c.target, json_get_object_id(in, "target", path));
  return c;
}

// ---------------------------------------------------------------- pause

void PauseCommand::write(core::ByteWriter& out) const {
  out.u8(paused ? 1 : 0);
}
core::Result<PauseCommand> PauseCommand::read(core::ByteReader& in) {
  const std::size_t at = in.offset();
  SORTIE_TRY(auto v, in.u8());
  if (v > 1) {
    return fail(
        in.error_at(at, "world.command.pause.flag", "pause flag must be 0 or 1").expect("0|1", std::to_string(v)));
  }
  return PauseCommand{v == 1};
}
void PauseCommand::to_json(Json& out) const {
  out["paused"] = paused;
}
core::Result<PauseCommand> PauseCommand::from_json(const Json& in, const std::string& path) {
  PauseCommand c;
  SORTIE_TRY(c.paused, json_get<bool>(in, "paused", path));
  return c;
}

// ---------------------------------------------------------------- set_speed

void SetSpeedCommand::write(core::ByteWriter& out) const {
  out.u32(scale_permille);
}
core::Result<SetSpeedCommand> SetSpeedCommand::read(core::ByteReader& in) {
  SetSpeedCommand c;
  SORTIE_TRY(c.scale_permille, in.u32());
  return c;
}
void SetSpeedCommand::to_json(Json& out) const {
  out["scale_permille"] = scale_permille;
}
core::Result<SetSpeedCommand> SetSpeedCommand::from_json(const Json& in, const std::string& path) {
  SetSpeedCommand c;
  SORTIE_TRY(c.scale_permille, json_get<std::uint32_t>(in, "scale_permille", path));
  return c;
}

// ---------------------------------------------------------------- spawn

void SpawnCommand::write(core::ByteWriter& out) const {
  out.u16(class_id);
  out.lp_string(prototype);
  out.f32(position.x);
  out.f32(position.y);
  out.f32(position.z);
}
core::Result<SpawnCommand> SpawnCommand::read(core::ByteReader& in) {
  SpawnCommand c;
  SORTIE_TRY(c.class_id, in.u16());
  SORTIE_TRY(c.prototype, in.lp_string());
  SORTIE_TRY(c.position.x, in.f32());
  SORTIE_TRY(c.position.y, in.f32());
  SORTIE_TRY(c.position.z, in.f32());
  return c;
}
void SpawnCommand::to_json(Json& out) const {
  out["class"] = class_id;
  out["prototype"] = prototype;
  json_put_f32(out, "x", position.x);
  json_put_f32(out, "y", position.y);
  json_put_f32(out, "z", position.z);
}
core::Result<SpawnCommand> SpawnCommand::from_json(const Json& in, const std::string& path) {
  SpawnCommand c;
  SORTIE_TRY(c.class_id, json_get<ClassId>(in, "class", path));
  SORTIE_TRY(c.prototype, json_get<std::string>(in, "prototype", path));
  SORTIE_TRY(c.position.x, json_get_f32(in, "x", path));
  SORTIE_TRY(c.position.y, json_get_f32(in, "y", path));
  SORTIE_TRY(c.position.z, json_get_f32(in, "z", path));
  return c;
}

// ---------------------------------------------------------------- remove

void RemoveCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
}
core::Result<RemoveCommand> RemoveCommand::read(core::ByteReader& in) {
  RemoveCommand c;
  SORTIE_TRY(c.target, read_id(in));
  return c;
}
void RemoveCommand::to_json(Json& out) const {
  json_put_object_id(out, "target", target);
}
core::Result<RemoveCommand> RemoveCommand::from_json(const Json& in, const std::string& path) {
  RemoveCommand c;
  SORTIE_TRY(c.target, json_get_object_id(in, "target", path));
  return c;
}

// ---------------------------------------------------------------- set_property

void SetPropertyCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.lp_string(key);
  out.u64(static_cast<std::uint64_t>(value));
}
core::Result<SetPropertyCommand> SetPropertyCommand::read(core::ByteReader& in) {
  SetPropertyCommand c;
  SORTIE_TRY(c.target, read_id(in));
  SORTIE_TRY(c.key, in.lp_string());
  SORTIE_TRY(auto v, in.u64());
  c.value = static_cast<std::int64_t>(v);
  return c;
}
void SetPropertyCommand::to_json(Json& out) const {
  json_put_object_id(out, "target", target);
  out["key"] = key;
  out["value"] = value;
}
core::Result<SetPropertyCommand> SetPropertyCommand::from_json(const Json& in, const std::string& path) {
  SetPropertyCommand c;
  SORTIE_TRY(c.target, json_get_object_id(in, "target", path));
  SORTIE_TRY(c.key, json_get<std::string>(in, "key", path));
  SORTIE_TRY(c.value, json_get<std::int64_t>(in, "value", path));
  return c;
}

// ---------------------------------------------------------------- registration

core::Status register_builtin_commands(CommandRegistry& registry) {
  using legacy::Field;

  CommandKindInfo stop = command_kind<StopCommand>(nullptr, [](World& w, const StopCommand& c) {
    return on_target(w, c.target, [](WorldObject& o) -> core::Result<CommandOutcome> {
      o.controller.reset();
      return CommandOutcome::applied;
    });
  });
  stop.from_legacy = [](const LegacyCommandFields& f) -> core::Result<core::Bytes> {
    SORTIE_CHECK(legacy::require_unused(f, Field::kTarget, StopCommand::kName));
    return encode_payload(StopCommand{f.target});
  };
  stop.order_target = order_target_of<StopCommand>();
  SORTIE_CHECK(registry.register_kind(std::move(stop)));

  CommandKindInfo pause = command_kind<PauseCommand>(nullptr, [](World& w, const PauseCommand& c) {
    BuiltinCommandAccess::clock(w).paused = c.paused;
    return core::Result<CommandOutcome>(CommandOutcome::applied);
  });
  pause.from_legacy = [](const LegacyCommandFields& f) -> core::Result<core::Bytes> {
    SORTIE_CHECK(legacy::require_unused(f, Field::kValue, PauseCommand::kName));
    if (f.value != 0 && f.value != 1) {
      return fail(legacy::field_error(PauseCommand::kName, "value", "pause value must be 0 or 1", "0|1",
                                      std::to_string(f.value)));
    }
    return encode_payload(PauseCommand{f.value == 1});
  };
  SORTIE_CHECK(registry.register_kind(std::move(pause)));

  CommandKindInfo set_speed = command_kind<SetSpeedCommand>(
      [](const World&, const SetSpeedCommand& c) -> core::Status {
        if (c.scale_permille < 1 || c.scale_permille > kMaxSpeedScale) {
          return invalid(SetSpeedCommand::kName, "speed scale must be 1..100000 per mille");
        }
        return {};
      },
      [](World& w, const SetSpeedCommand& c) {
        BuiltinCommandAccess::clock(w).scale_permille = c.scale_permille;
        return core::Result<CommandOutcome>(CommandOutcome::applied);
      });
  set_speed.from_legacy = [](const LegacyCommandFields& f) -> core::Result<core::Bytes> {
    SORTIE_CHECK(legacy::require_unused(f, Field::kValue, SetSpeedCommand::kName));
    if (f.value < 0 || f.value > 0xffffffffLL) {
      return fail(legacy::field_error(SetSpeedCommand::kName, "value", "speed scale must fit 32 bits", "0..4294967295",
                                      std::to_string(f.value)));
    }
    return encode_payload(SetSpeedCommand{static_cast<std::uint32_t>(f.value)});
  };
  SORTIE_CHECK(registry.register_kind(std::move(set_speed)));

  CommandKindInfo spawn = command_kind<SpawnCommand>(
      [](const World&, const SpawnCommand& c) -> core::Status {
        if (!core::is_finite(c.position)) return invalid(SpawnCommand::kName, "spawn position must be finite");
        return {};
      },
      [](World& w, const SpawnCommand& c) -> core::Result<CommandOutcome> {
        core::Transform t;
        t.position = c.position;
        SORTIE_TRY(Handle h, w.add_new_object(c.class_id, c.prototype, t));
        w.post(Event{0, EventType::spawned, h, {}, 0, 0});
        return CommandOutcome::applied;
      });
  spawn.from_legacy = [](const LegacyCommandFields& f) -> core::Result<core::Bytes> {
    SORTIE_CHECK(legacy::require_unused(f, Field::kX | Field::kY | Field::kZ | Field::kValue | Field::kText,
                                        SpawnCommand::kName));
    if (f.value < 0 || f.value > 0xffff) {
      return fail(legacy::field_error(SpawnCommand::kName, "value", "class id must be 0..65535", "0..65535",
                                      std::to_string(f.value)));
    }
    return encode_payload(SpawnCommand{static_cast<ClassId>(f.value), f.text, core::Vec3{f.x, f.y, f.z}});
  };
  SORTIE_CHECK(registry.register_kind(std::move(spawn)));

  CommandKindInfo remove = command_kind<RemoveCommand>(nullptr, [](World& w, const RemoveCommand& c) {
    return on_target(w, c.target, [&](WorldObject& o) -> core::Result<CommandOutcome> {
      SORTIE_CHECK(w.request_delete(o.handle()));
      return CommandOutcome::applied;
    });
  });
  remove.from_legacy = [](const LegacyCommandFields& f) -> core::Result<core::Bytes> {
    SORTIE_CHECK(legacy::require_unused(f, Field::kTarget, RemoveCommand::kName));
    return encode_payload(RemoveCommand{f.target});
  };
  remove.order_target = order_target_of<RemoveCommand>();
  SORTIE_CHECK(registry.register_kind(std::move(remove)));

  CommandKindInfo set_property = command_kind<SetPropertyCommand>(nullptr, [](World& w, const SetPropertyCommand& c) {
    return on_target(w, c.target, [&](WorldObject& o) -> core::Result<CommandOutcome> {
      o.properties.set(c.key, c.value);
      return CommandOutcome::applied;
    });
  });
  set_property.from_legacy = [](const LegacyCommandFields& f) -> core::Result<core::Bytes> {
    SORTIE_CHECK(legacy::require_unused(f, Field::kTarget | Field::kText | Field::kValue, SetPropertyCommand::kName));
    return encode_payload(SetPropertyCommand{f.target, f.text, f.value});
  };
  set_property.order_target = order_target_of<SetPropertyCommand>();
  return registry.register_kind(std::move(set_property));
}

}  // namespace sortie::world
