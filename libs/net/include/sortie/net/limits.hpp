#pragma once
// Every absolute limit of the network decoder and of what a replica accepts from a server
// (issue #21 part 4). The protocol table (protocol.cpp) derives each message's maximum payload
// from these; docs/net-protocol.md states them for peers. The protocol is ours: no spec sets them.
// Exceeding a length gives net.message.too_long (net.packet.oversize for a whole packet); a
// session-level count gives its own net.* code, named beside it. tests/net/limits_test.cpp feeds
// each limit and limit + 1.
#include <cstddef>
#include <cstdint>

namespace sortie::net {

// One packet (all frames of one datagram): 32 KiB keeps a reliable burst of setup frames in a
// few packets and a hostile packet small; net.packet.oversize.
inline constexpr std::size_t kMaxPacketBytes = std::size_t{32} * 1024;
// Player name (HELLO, CREATE_REMOTE_PLAYER): 32 bytes, room for any name a lobby shows.
inline constexpr std::size_t kMaxNameBytes = 32;
// Opaque player data (SET/CONFIRM_PLAYER_DATA): 256 bytes is far above what any client sends.
inline constexpr std::size_t kMaxPlayerDataBytes = 256;
// Mission data path: 260 bytes, Windows MAX_PATH (the game's paths are Windows paths).
inline constexpr std::size_t kMaxPathBytes = 260;
// Text for a player (TEXT_FOR_PLAYER): 512 bytes, two screen lines of chat.
inline constexpr std::size_t kMaxTextBytes = 512;
// Resource name of APPEND_RESOURCE: 64 bytes (ours are "prototypes", "terrain", "movement").
inline constexpr std::size_t kMaxResourceNameBytes = 64;
// One APPEND_RESOURCE chunk: 1 KiB keeps a chunk inside one datagram with room for the frame.
inline constexpr std::size_t kMaxResourceChunkBytes = 1024;
// A resource's declared total: 64 MiB, room for a large terrain soup; refused before any reserve.
inline constexpr std::uint32_t kMaxResourceBytes = 64u * 1024 * 1024;
// Prototype key of CREATE_MIRROR: 255 bytes, what its u8 length can say.
inline constexpr std::size_t kMaxPrototypeBytes = 255;
// Properties of one CREATE_MIRROR: 64 (a mirror carries a handful); the message stays < 32 KiB.
inline constexpr std::size_t kMaxMirrorProperties = 64;
// A property key: 64 bytes (the world's property names are short identifiers).
inline constexpr std::size_t kMaxPropertyKeyBytes = 64;
// A string property value: 255 bytes, what its u8 length can say.
inline constexpr std::size_t kMaxPropertyStringBytes = 255;
// Raw property records of one CREATE_MIRROR (the source file's list, ADR 0020): 64, above any
// object the sample or a mission of ours carries; with the keyed ones the message stays < 32 KiB.
inline constexpr std::size_t kMaxMirrorRawProperties = 64;
// A raw property's name, and its source bytes when kept (str8 each): 64 bytes, like a key.
inline constexpr std::size_t kMaxRawPropertyNameBytes = 64;
// Reject text of NET_REJECT: 256 bytes, one diagnostic line.
inline constexpr std::size_t kMaxRejectTextBytes = 256;
// A world command inside ORDER / COMMAND: 4 KiB, above every registered kind's largest payload.
inline constexpr std::size_t kMaxCommandPayloadBytes = 4096;
// SYNC_STATE payload: 1200 bytes fits one datagram under a 1280-byte IPv6 minimum MTU.
inline constexpr std::size_t kMaxSyncPayloadBytes = 1200;
// Sequence messages a replica holds for one open tick: 65535 (net.sequence.count); a server
// sends a few per unit and tick.
inline constexpr std::size_t kMaxMessagesPerTick = 0xffff;
// Resource transfers one replica accepts: 16 (net.resource.limit); a setup sends three
// (prototypes, terrain, movement), each reserving up to 1 MiB before its bytes arrive.
inline constexpr std::size_t kMaxResources = 16;

}  // namespace sortie::net
