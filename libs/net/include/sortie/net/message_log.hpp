#pragma once
// The server's recorded message log: everything the authority's world was built and driven
// from, in the wire encoding. `sortie replay LOG` feeds it to a Replica - the code path of every
// client - and reproduces the world state hash.
//
// Layout: "SNLG", u32 version = 1, u16 protocol version, 16-byte application GUID, then frames
// (codec.hpp) to the end: NET_WELCOME (live tick 0), the setup messages (setup.hpp), then each
// tick's sequence closed by GMSG_END_MESSAGE_SEQ. Only messages of the authoritative stream may
// appear. The reader is bounded, and write(read(bytes)) == bytes.
#include <cstdint>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/net/messages.hpp"
#include "sortie/net/trace.hpp"

namespace sortie::net {

inline constexpr std::uint32_t kMessageLogVersion = 1;

struct MessageLog {
  Welcome welcome;
  std::vector<Message> messages;  // setup, then sequences
};

// From already encoded frames (the server's recording).
core::Bytes write_message_log(const Welcome& welcome, const std::vector<core::Bytes>& setup_frames,
                              const std::vector<std::vector<core::Bytes>>& tick_frames);
// Errors: net.encode.* (a message beyond its limits).
core::Result<core::Bytes> write_message_log(const MessageLog& log);
// Errors: net_log.magic, net_log.version, net_log.guid, net_log.welcome (the first frame is not
// NET_WELCOME), net_log.message (a message outside the authoritative stream), and the codec's
// diagnostics.
core::Result<MessageLog> read_message_log(core::ByteView bytes);

struct ReplayOutcome {
  std::uint64_t ticks = 0;
  std::uint64_t final_hash = 0;  // after the last tick (after the setup when there is none)
  std::size_t objects = 0;
  std::size_t players = 0;
  std::string mission_path;
};

// Builds the world from the log and runs every sequence; each END's hash is checked.
// Errors: the Replica's (net.replica.desync names the first tick that differs), and
// net_log.truncated when the last sequence has no END.
core::Result<ReplayOutcome> replay_message_log(const MessageLog& log, Tracer* tracer = nullptr);

}  // namespace sortie::net
