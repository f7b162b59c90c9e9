#pragma once
// Command logs as bytes.
//
// Version 2 (written):
//   "SCLG" u32 version=2
//   u32 kind count, per kind (ascending wire id, each used by at least one command):
//     u16 wire id, lp_string name
//   u32 command count, per command: u64 tick, u16 wire id (one of the table), u32 payload size,
//     payload bytes (the kind's codec)
// The kind table makes a log self-describing: a kind the reader's registry lacks is reported by
// name, and a wire id that means another kind in the reader's registry is rejected.
//
// Version 1 (read only; docs/decisions/0007-open-command-set.md):
//   "SCLG" u32 version=1, u32 count, per command: u64 tick, u8 kind, u64 target raw,
//   f32 x y z speed, u64 value, lp_string text
// Each record becomes its kind's payload through the kind's from_legacy hook.
//
// Readers are bounded, check every payload with its kind's codec and end at the payload end;
// write(read(bytes)) == bytes for every version 2 log that reads.
#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/command_registry.hpp"

namespace sortie::world {

inline constexpr std::uint32_t kCommandLogVersion = 2;

// Errors: command_log.kind_unknown (a command's kind is not in `registry`),
// command_log.payload.* (a payload its kind does not read), command_log.limit (more commands or a
// larger payload than the reader accepts, world/limits.hpp).
core::Result<core::Bytes> write_command_log(const CommandLog& log,
                                            const CommandRegistry& registry = *standard_command_registry());

// Errors: command_log.magic, command_log.version, command_log.kind_unknown (names the kind),
// command_log.kind_mismatch, command_log.kind_order, command_log.kind_undeclared,
// command_log.kind_unused, command_log.legacy_field, command_log.payload.*, and the bounded
// reader's command_log.eof / overflow / limit / trailing. The limits are world/limits.hpp.
core::Result<CommandLog> read_command_log(core::ByteView bytes,
                                          const CommandRegistry& registry = *standard_command_registry());

}  // namespace sortie::world
