#pragma once
// Commands: the only input of the simulation. Each is stamped with the tick it applies on and
// applied at the start of that tick's calculation pass, in submission order. A recorded log
// replays to the same per-tick state hashes (replay.hpp).
//
// The command set is open: a command is a kind (a numeric wire id registered in a
// CommandRegistry, command_registry.hpp) and that kind's payload, kept as its canonical bytes.
// A kind's payload is a struct that lists its fields once (payload_fields.hpp: the list drives
// the bytes and the JSON), or one with hand-written codec members; make_command() and
// payload_of() convert:
//
//   world.submit(make_command(tick, StopCommand{unit}));
//   if (auto stop = payload_of<StopCommand>(command)) ...
//
// World's own kinds are in builtin_commands.hpp; other areas (movement: libs/move commands.hpp,
// networked play, squad tactics) define and register theirs the same way. Logs: command_log.hpp (bytes),
// command_json.hpp (JSON).
#include <concepts>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::world {

// Numeric id of a command kind: the kind in byte logs, the key of the registry. 0 is never a kind.
using CommandKindId = std::uint16_t;

struct Command {
  std::uint64_t tick = 0;  // applies at the start of this tick (the tick counter before it runs)
  CommandKindId kind = 0;  // wire id of a registered kind
  core::Bytes payload;     // the kind's canonical payload encoding
  friend bool operator==(const Command&, const Command&) = default;
};

// Commands in application order (non-decreasing tick).
struct CommandLog {
  std::vector<Command> commands;
  friend bool operator==(const CommandLog&, const CommandLog&) = default;
};

// What applying a command did: `skipped` when its target is gone (deleted or pending deletion).
// Both are counted in the state hash.
enum class CommandOutcome : std::uint8_t { applied, skipped };

// A described payload lists its fields once, in payload order, in a static member template
//   template <class Self, class Visitor> static void fields(Self& self, Visitor& v);
// defined in its .cpp; payload_fields.hpp turns the list into the byte and JSON codecs there.
struct FieldProbe;
template <class P>
concept DescribedPayload = requires(P& p, const P& cp, FieldProbe& v) {
  P::fields(p, v);
  P::fields(cp, v);
};

// A payload with hand-written codec members (read/write; to_json/from_json for JSON logs).
template <class P>
concept CodedPayload = requires(const P& p, core::ByteWriter& w, core::ByteReader& r) {
  p.write(w);
  { P::read(r) } -> std::same_as<core::Result<P>>;
};

// A payload type: a stable name and wire id, and a byte codec. read() reads exactly one payload
// (the caller checks that it ends at the payload end) and rejects non-canonical bytes, so that
// write(read(bytes)) == bytes for every payload that reads.
template <class P>
concept CommandPayload = requires {
  { P::kName } -> std::convertible_to<std::string_view>;
  { P::kWireId } -> std::convertible_to<CommandKindId>;
}
&&(DescribedPayload<P> || CodedPayload<P>);

// The codecs of a payload type: its members, or for a described payload the ones
// payload_fields.hpp generates from the field list, instantiated once next to that list
// (`template struct sortie::world::PayloadCodec<P>;`) and linked from everywhere else.
template <class P, bool kDescribed = DescribedPayload<P>>
struct PayloadCodec {
  static void write(const P& p, core::ByteWriter& out) { p.write(out); }
  static core::Result<P> read(core::ByteReader& in) { return P::read(in); }
  static void to_json(const P& p, nlohmann::json& out) { p.to_json(out); }
  static core::Result<P> from_json(const nlohmann::json& in, const std::string& path) { return P::from_json(in, path); }
};
template <class P>
struct PayloadCodec<P, true> {
  static void write(const P& p, core::ByteWriter& out);
  static core::Result<P> read(core::ByteReader& in);
  static void to_json(const P& p, nlohmann::json& out);
  static core::Result<P> from_json(const nlohmann::json& in, const std::string& path);
};

template <CommandPayload P>
core::Bytes encode_payload(const P& payload) {
  core::ByteWriter w;
  PayloadCodec<P>::write(payload, w);
  return w.take();
}

template <CommandPayload P>
Command make_command(std::uint64_t tick, const P& payload) {
  return Command{tick, P::kWireId, encode_payload(payload)};
}

// Decodes one payload of type P; it must end exactly at the end of `payload`.
// Errors: world.command.payload.* (malformed payload bytes).
template <CommandPayload P>
core::Result<P> decode_payload(core::ByteView payload) {
  core::ByteReader r(payload, "command payload");
  r.set_code_prefix("world.command.payload");
  r.set_field(std::string(P::kName));
  SORTIE_TRY(P p, PayloadCodec<P>::read(r));
  SORTIE_CHECK(r.require_end("command payload"));
  return p;
}

// Decodes the payload of a command of kind P. Errors: world.command.kind_mismatch (the command
// is of another kind), world.command.payload.* (malformed payload bytes).
template <CommandPayload P>
core::Result<P> payload_of(const Command& command) {
  if (command.kind != P::kWireId) {
    return core::fail(
        core::Diagnostic::error("world.command.kind_mismatch", "command is of another kind")
            .expect(std::string(P::kName) + " (" + std::to_string(P::kWireId) + ")", std::to_string(command.kind)));
  }
  return decode_payload<P>(command.payload);
}

}  // namespace sortie::world
