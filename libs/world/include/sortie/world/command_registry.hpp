#pragma once
// The open command set. Every command kind registers its name, numeric wire id, payload codecs
// (bytes, JSON, and optionally the legacy v1 record), validation (on submit) and application
// (at the start of the command's tick). A World applies only kinds of its registry
// (WorldConfig::commands); the log readers decode only kinds of the registry they are given.
//
// Adding a kind from another area (squad orders, network messages, script actions) needs no
// edit of libs/world:
//
//   struct RallyCommand {                          // the payload
//     static constexpr std::string_view kName = "squad.rally";
//     static constexpr CommandKindId kWireId = 16;
//     ObjectId target;
//     std::int32_t boost = 0;
//     template <class Self, class Visitor>        // the fields, listed once in the .cpp:
//     static void fields(Self& self, Visitor& v);  // bytes and JSON (payload_fields.hpp)
//   };
//   CommandRegistry registry = CommandRegistry::standard();   // world's own kinds only
//   registry.register_kind(command_kind<RallyCommand>(validate_rally, apply_rally));
//   World world(WorldConfig{.commands = std::make_shared<const CommandRegistry>(std::move(registry))});
//
// Each area registers its own kinds and callers compose the registry they need (the movement
// stack: move::move_command_registry; a networked session: net::session_command_registry).
//
// Assigned wire ids (a wire id and a name never change meaning once logs exist; add your row):
//   1 move, 8 route                 v1 movers, only to replay old logs (libs/move v1_commands.hpp)
//   2 stop, 3 pause, 4 set_speed,
//   5 spawn, 6 remove, 7 set_property   world (builtin_commands.hpp)
//   9..15                           free
//   16 move.enable, 17 move.goto, 18 move.halt, 19 move.drive,
//   20 move.disable                 movement stack (libs/move commands.hpp)
//   21..23                          reserved: movement stack
//   24 squad.move, 25 squad.aim, 26 squad.manual, 27 squad.cycle,
//   28 squad.formation, 29 squad.session   squad tactics (libs/squad squad_world.hpp)
//   30..31                          reserved: squad tactics
//   32 net.change_owner, 33 net.release_player,
//   34 net.spawn_for                networked play (libs/net net_commands.hpp)
//   35..47                          reserved: networked play (session, ownership, sync)
//   48 scenario.objective, 49 scenario.outcome, 50 scenario.start,
//   51 scenario.digest, 52 scenario.spawn   a mission's scenario (libs/scenario commands.hpp)
//   53 fx.start                     effects (libs/env effect_world.hpp)
//   54..55                          reserved: scripts and environment
//   56..63                          free
//   1000..                          tests and local experiments; never in shipped logs
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::world {

class World;

// The one record shape of the v1 logs ("SCLG" version 1, "sortie-command-log-v1"): every kind
// used the same fields. Kinds that existed then convert it to their payload (from_legacy).
struct LegacyCommandFields {
  ObjectId target;
  float x = 0.0f;
  float y = 0.0f;
  float z = 0.0f;
  float speed = 0.0f;
  std::int64_t value = 0;
  std::string text;
};

struct CommandKindInfo {
  std::string name;           // stable: JSON logs, diagnostics; [a-z0-9_.], 1..64 characters
  CommandKindId wire_id = 0;  // stable: byte logs; 1..65535
  // Reads one payload from `in` (bounded); the caller checks that it ends at the payload end.
  std::function<core::Status(core::ByteReader& in)> check;
  // Checks a payload `check` accepted, on World::submit (errors: world.command.invalid, ...).
  // May be empty.
  std::function<core::Status(const World& world, core::ByteView payload)> validate;
  // Applies a validated payload at the start of its tick.
  std::function<core::Result<CommandOutcome>(World& world, core::ByteView payload)> apply;
  // The payload as a JSON object, and back (`path` locates the payload in diagnostics).
  std::function<core::Status(core::ByteView payload, nlohmann::json& out)> to_json;
  std::function<core::Result<core::Bytes>(const nlohmann::json& in, const std::string& path)> from_json;
  // Only for kinds that existed in v1: the payload of a v1 record. May be empty.
  std::function<core::Result<core::Bytes>(const LegacyCommandFields& fields)> from_legacy;
  // Which object an order of this kind acts on, for kinds a player may give (a networked
  // session lets a player order only objects routed to it). Empty: not a player order.
  // Errors: the payload's decoding diagnostics.
  std::function<core::Result<ObjectId>(core::ByteView payload)> order_target;
};

class CommandRegistry {
 public:
  // Errors: world.command.registry (wire id 0, a malformed name, a missing hook, the wire id or
  // the name already registered).
  core::Status register_kind(CommandKindInfo info);

  [[nodiscard]] const CommandKindInfo* find(CommandKindId wire_id) const;
  [[nodiscard]] const CommandKindInfo* find(std::string_view name) const;
  [[nodiscard]] std::size_t size() const { return by_id_.size(); }
  // Every kind, ascending wire id.
  [[nodiscard]] std::vector<const CommandKindInfo*> kinds() const;
  // "1 move, 2 stop, ..." (for diagnostics).
  [[nodiscard]] std::string describe() const;

  // World's built-in kinds (builtin_commands.hpp) and nothing of another area: the set every
  // World gets by default. A copy, to extend with register_kind().
  static CommandRegistry standard();

 private:
  std::map<CommandKindId, CommandKindInfo> by_id_;
};

// The shared, immutable standard registry (CommandRegistry::standard()).
const std::shared_ptr<const CommandRegistry>& standard_command_registry();

// A payload type with a JSON codec (see the example above).
template <class P>
concept JsonCommandPayload = CommandPayload<P> &&
    (DescribedPayload<P> ||
     requires(const P& p, nlohmann::json& out, const nlohmann::json& in, const std::string& path) {
       p.to_json(out);
       { P::from_json(in, path) } -> std::same_as<core::Result<P>>;
     });

// The order_target hook of a payload type whose `target` names the object it acts on.
template <CommandPayload P>
requires requires(const P& p) {
  { p.target } -> std::convertible_to<ObjectId>;
}
std::function<core::Result<ObjectId>(core::ByteView)> order_target_of() {
  return [](core::ByteView payload) -> core::Result<ObjectId> {
    SORTIE_TRY(P p, decode_payload<P>(payload));
    return ObjectId(p.target);
  };
}

// Builds the registry entry of a payload type from its typed validation and application.
// `validate` may be empty (every payload that decodes is valid).
template <JsonCommandPayload P>
CommandKindInfo command_kind(std::function<core::Status(const World&, const P&)> validate,
                             std::function<core::Result<CommandOutcome>(World&, const P&)> apply) {
  CommandKindInfo k;
  k.name = std::string(P::kName);
  k.wire_id = P::kWireId;
  k.check = [](core::ByteReader& in) -> core::Status {
    SORTIE_TRY(P p, PayloadCodec<P>::read(in));
    (void)p;
    return {};
  };
  k.validate = [validate = std::move(validate)](const World& world, core::ByteView payload) -> core::Status {
    SORTIE_TRY(P p, decode_payload<P>(payload));
    if (validate) return validate(world, p);
    return {};
  };
  k.apply = [apply = std::move(apply)](World& world, core::ByteView payload) -> core::Result<CommandOutcome> {
    SORTIE_TRY(P p, decode_payload<P>(payload));
    return apply(world, p);
  };
  k.to_json = [](core::ByteView payload, nlohmann::json& out) -> core::Status {
    SORTIE_TRY(P p, decode_payload<P>(payload));
    PayloadCodec<P>::to_json(p, out);
    return {};
  };
  k.from_json = [](const nlohmann::json& in, const std::string& path) -> core::Result<core::Bytes> {
    SORTIE_TRY(P p, PayloadCodec<P>::from_json(in, path));
    return encode_payload(p);
  };
  return k;
}

}  // namespace sortie::world
