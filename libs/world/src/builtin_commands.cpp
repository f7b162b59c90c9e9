#include "sortie/world/builtin_commands.hpp"

#include <fmt/format.h>

#include "sortie/world/command_registry.hpp"
#include "sortie/world/legacy_fields.hpp"
#include "sortie/world/payload_fields.hpp"
#include "sortie/world/world.hpp"

namespace sortie::world {

using core::Diagnostic;
using core::fail;

// The built-in kinds change the game clock, which World keeps private (only commands may).
struct BuiltinCommandAccess {
  static GameClock& clock(World& world) { return world.clock_; }
};

namespace {

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

// ---------------------------------------------------------------- payload fields

template <class Self, class V>
void StopCommand::fields(Self& c, V& v) {
  v(c.target, "target");
}

template <class Self, class V>
void PauseCommand::fields(Self& c, V& v) {
  v(c.paused, "paused", field::Flag{"world.command.pause.flag"});
}

template <class Self, class V>
void SetSpeedCommand::fields(Self& c, V& v) {
  v(c.scale_permille, "scale_permille");
}

template <class Self, class V>
void SpawnCommand::fields(Self& c, V& v) {
  v(c.class_id, "class");
  v(c.prototype, "prototype");
  v(c.position.x, "x");
  v(c.position.y, "y");
  v(c.position.z, "z");
}

template <class Self, class V>
void RemoveCommand::fields(Self& c, V& v) {
  v(c.target, "target");
}

template <class Self, class V>
void SetPropertyCommand::fields(Self& c, V& v) {
  v(c.target, "target");
  v(c.key, "key");
  v(c.value, "value");
}

template struct PayloadCodec<StopCommand>;
template struct PayloadCodec<PauseCommand>;
template struct PayloadCodec<SetSpeedCommand>;
template struct PayloadCodec<SpawnCommand>;
template struct PayloadCodec<RemoveCommand>;
template struct PayloadCodec<SetPropertyCommand>;

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
