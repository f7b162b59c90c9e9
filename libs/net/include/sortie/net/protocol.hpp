#pragma once
// The "modern multiplayer" protocol of seed 001 ("Сжатие и wire compatibility"): a versioned
// schema of our own that keeps the game-message semantics of World3D (the GMSG_* / SYSMSG_*
// names) and claims no wire compatibility with the DirectPlay client. A native adapter would be
// a separate Transport + codec pair (transport.hpp); nothing here pretends to be it.
//
// Every message has an explicit numeric id, a payload layout (messages.hpp), a maximum payload
// size, a delivery policy and a direction. The table is the one description the codec, the
// session, the tests and docs/net-protocol.md agree on.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "sortie/net/limits.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::net {

using PlayerNumber = world::PlayerId;  // game player number (1 = the authority / host)
using PeerId = std::uint32_t;          // a transport's connection id; 0 is never a live peer

inline constexpr PlayerNumber kNoPlayer = 0;

// Application GUID {3C1D1F01-A870-11D1-8400-000021B14415} in the Windows GUID memory layout
// (Data1 u32 LE, Data2 u16 LE, Data3 u16 LE, Data4 8 bytes): the bytes of the handshake.
inline constexpr std::array<std::uint8_t, 16> kApplicationGuid = {0x01, 0x1F, 0x1D, 0x3C, 0x70, 0xA8, 0xD1, 0x11,
                                                                  0x84, 0x00, 0x00, 0x00, 0x21, 0xB1, 0x44, 0x15};
inline constexpr std::string_view kApplicationGuidText = "{3C1D1F01-A870-11D1-8400-000021B14415}";
// 2: sessions move units with the movement stack (move.* kinds, the movement resource).
// 3: CREATE_MIRROR carries the object's raw property records (ADR 0020).
inline constexpr std::uint16_t kProtocolVersion = 3;

// Frame: u8 message id, u16 payload length (LE), payload. A packet is one or more frames of one
// delivery policy, at most kMaxPacketBytes (limits.hpp).
inline constexpr std::size_t kFrameHeaderBytes = 3;

// Limits of the variable parts: limits.hpp (docs/net-protocol.md).

enum class Delivery : std::uint8_t {
  reliable_ordered = 0,      // ENet channel 0, ENET_PACKET_FLAG_RELIABLE
  unreliable_sequenced = 1,  // ENet channel 1, no flag: late packets are dropped, never reordered
};
std::string_view to_string(Delivery delivery);

enum class Direction : std::uint8_t { server_to_client, client_to_server, both, local_only };

enum class MessageId : std::uint8_t {
  // The World3D message surface named by seed 001, in its order.
  create_remote_player = 1,  // GMSG_CREATE_REMOTE_PLAYER
  append_resource = 2,       // GMSG_APPEND_RESOURCE
  change_object_owner = 3,   // GMSG_CHANGE_OBJECT_OWNER
  set_player_data = 4,       // GMSG_SET_PLAYER_DATA
  mission_data_path = 5,     // GMSG_MISSION_DATA_PATH
  take_object = 6,           // GMSG_TAKE_OBJECT
  text_for_player = 7,       // GMSG_TEXT_FOR_PLAYER
  sync_state = 8,            // GMSG_SYNC_STATE
  create_mirror = 9,         // GMSG_CREATE_MIRROR
  pause_remote_player = 10,  // GMSG_PAUSE_REMOTE_PLAYER
  confirm_player_data = 11,  // GMSG_CONFIRM_PLAYER_DATA
  kill_player = 12,          // GMSG_KILL_PLAYER
  set_time = 13,             // SYSMSG_SET_TIME
  set_player_number = 14,    // SYSMSG_SET_PLAYER_NUMBER
  end_message_seq = 15,      // GMSG_END_MESSAGE_SEQ
  remove_resource = 16,      // GMSG_REMOVE_RESOURCE
  collision_detected = 17,   // GMSG_COLLISION_DETECTED: the local queue only, never on the wire
  // Additions of the modern mode (no seed name).
  hello = 32,    // NET_HELLO: application GUID, protocol version, player name
  welcome = 33,  // NET_WELCOME: the session parameters a replica needs
  reject = 34,   // NET_REJECT: why the server refuses or drops the peer
  order = 35,    // NET_ORDER: a client order as a world command
  command = 36,  // NET_COMMAND: a world command of a tick's sequence
  ack = 37,      // NET_ACK: the client's replica tick and newest applied sync state
};

struct MessageSpec {
  MessageId id;
  std::string_view name;  // "GMSG_CREATE_MIRROR"
  Delivery delivery;
  Direction direction;
  std::uint16_t max_payload;  // bytes; checked before the payload is read
  bool in_sequence;           // carries a tick and belongs to that tick's message sequence
  bool seed_named;            // one of seed 001's names
};

// Every message, ascending id.
std::span<const MessageSpec> message_table();
// nullptr for an unassigned id.
const MessageSpec* find_message(std::uint8_t id);
const MessageSpec& spec_of(MessageId id);
std::string_view message_name(MessageId id);

// Why a peer was disconnected or refused (REJECT, KILL_PLAYER, the transport's disconnect data,
// the resnet trace). Stable values.
enum class Reason : std::uint8_t {
  none = 0,
  left = 1,                // the peer disconnected by itself
  malformed = 2,           // a packet or frame that does not decode
  oversize = 3,            // a length beyond the packet or the message's maximum
  unknown_message = 4,     // an unassigned or local-only message id
  unexpected_message = 5,  // a valid message in the wrong direction, state or delivery policy
  flood = 6,               // more messages or bytes than the rate limit
  handshake_timeout = 7,   // no valid HELLO in time
  resource_timeout = 8,    // setup not confirmed within Network_ResourceTransferMaxDelay
  ack_timeout = 9,         // stopped answering during the game
  guid_mismatch = 10,      // another application
  version_mismatch = 11,   // another protocol version
  session_full = 12,
  name_invalid = 13,    // empty, too long, control characters or already taken
  session_end = 14,     // the server finished the session
  kicked = 15,          // the host removed the player
  transport_lost = 16,  // the transport gave up on the connection
  desync = 17,          // a replica's hash differs from the authority's
};
std::string_view to_string(Reason reason);
std::optional<Reason> reason_from(std::uint8_t value);

// What happens to a leaving player's objects (KILL_PLAYER, net.release_player).
enum class OwnedObjectPolicy : std::uint8_t {
  transfer = 0,  // ownership passes to the authority
  remove = 1,    // the objects are deleted
};
std::string_view to_string(OwnedObjectPolicy policy);

// Resource kinds of APPEND_RESOURCE.
enum class ResourceKind : std::uint8_t {
  prototypes = 1,  // the prototype keys mirrors may name (setup.hpp)
  terrain = 2,     // the ground triangle soup (setup.hpp)
  blob = 3,        // opaque bytes
  movement = 4,    // the areal map and the movement parameters (setup.hpp)
};
std::string_view to_string(ResourceKind kind);

}  // namespace sortie::net
