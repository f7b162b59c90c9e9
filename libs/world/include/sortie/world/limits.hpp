#pragma once
// Every absolute limit of the world's binary command log reader and of the command registry
// (issue #21 part 4). The command log is our own format (command_log.hpp,
// docs/decisions/0007-open-command-set.md): no spec sets these numbers. Exceeding one gives
// command_log.limit (command_log.string_too_long for a length-prefixed string,
// world.command.registry for a kind name the registry refuses). tests/world/limits_test.cpp feeds
// each limit and limit + 1.
#include <cstddef>
#include <cstdint>

namespace sortie::world {

// A command kind's name ("move.goto", "squad.formation"): 64 bytes, in the registry and in a log's
// kind table; the longest registered name is under 20.
inline constexpr std::uint32_t kMaxCommandKindName = 64;
// One string field of a payload (payload_fields.hpp Text's default) and version 1's legacy text:
// 64 KiB, far above any name or objective text a command carries.
inline constexpr std::uint32_t kMaxPayloadStringBytes = 64u * 1024;
// One command's payload in a version 2 log: 1 MiB (a payload is a fixed field list with a few
// strings of at most kMaxPayloadStringBytes); checked before the payload is copied.
inline constexpr std::uint32_t kMaxCommandPayloadBytes = 1024u * 1024;
// Kinds in a log's kind table: 65535, every wire id 1..0xffff once (ascending u16 ids, 0 is never
// a kind); checked before the table is reserved.
inline constexpr std::uint32_t kMaxLogKinds = 0xffff;
// Commands in one binary log: 2^24 (16.7 M); a four-hour game at 30 ticks/s with a
// command on every tick is 432,000. Checked before the command list is reserved. A JSON log is
// parsed whole before command_log_from_json sees it: the file reader's limit bounds it.
inline constexpr std::uint32_t kMaxLogCommands = 1u << 24;

}  // namespace sortie::world

namespace sortie::world {

// Lines one trace keeps (trace.hpp, TraceOptions::max_lines' default): 4 M lines, a few hundred
// MiB at most; a 600-tick run of the sample with every channel on writes a few thousand. More
// are counted as dropped, never kept.
inline constexpr std::size_t kMaxTraceLines = 4u * 1024 * 1024;

}  // namespace sortie::world
