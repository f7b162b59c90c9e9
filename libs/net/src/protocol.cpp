#include "sortie/net/protocol.hpp"

#include <array>
#include <cstdlib>

namespace sortie::net {

namespace {

using D = Delivery;
using Dir = Direction;
constexpr D kReliable = D::reliable_ordered;
constexpr D kSequenced = D::unreliable_sequenced;

// Maximum payloads, from the layouts in messages.hpp.
constexpr std::size_t kTransformBytes = 9 * 4;
constexpr std::size_t kMaxPropertyBytes = 1 + kMaxPropertyKeyBytes + 1 + 1 + kMaxPropertyStringBytes;
constexpr std::size_t kMaxRawPropertyBytes = 1 + kMaxRawPropertyNameBytes + 1 + kMaxRawPropertyNameBytes + 4 * 4;
constexpr std::size_t kCreateMirrorMax = 8 + 2 + 1 + 1 + kMaxPrototypeBytes + kTransformBytes + 1 +
                                         kMaxMirrorProperties * kMaxPropertyBytes + 2 +
                                         kMaxMirrorRawProperties * kMaxRawPropertyBytes;
static_assert(kCreateMirrorMax <= 0xffff && kCreateMirrorMax + kFrameHeaderBytes <= kMaxPacketBytes);

constexpr auto u16(std::size_t v) {
  return static_cast<std::uint16_t>(v);
}

constexpr std::array kTable{
    MessageSpec{MessageId::create_remote_player, "GMSG_CREATE_REMOTE_PLAYER", kReliable, Dir::server_to_client,
                u16(8 + 2 + 1 + 1 + kMaxNameBytes + 2 + kMaxPlayerDataBytes), true, true},
    MessageSpec{MessageId::append_resource, "GMSG_APPEND_RESOURCE", kReliable, Dir::server_to_client,
                u16(4 + 1 + 1 + kMaxResourceNameBytes + 4 + 8 + 4 + 2 + kMaxResourceChunkBytes), false, true},
    MessageSpec{MessageId::change_object_owner, "GMSG_CHANGE_OBJECT_OWNER", kReliable, Dir::server_to_client,
                u16(8 + 8 + 2), true, true},
    MessageSpec{MessageId::set_player_data, "GMSG_SET_PLAYER_DATA", kReliable, Dir::both,
                u16(2 + 2 + kMaxPlayerDataBytes), false, true},
    MessageSpec{MessageId::mission_data_path, "GMSG_MISSION_DATA_PATH", kReliable, Dir::server_to_client,
                u16(2 + kMaxPathBytes), false, true},
    MessageSpec{MessageId::take_object, "GMSG_TAKE_OBJECT", kReliable, Dir::client_to_server, u16(8), false, true},
    MessageSpec{MessageId::text_for_player, "GMSG_TEXT_FOR_PLAYER", kReliable, Dir::both,
                u16(2 + 2 + 2 + kMaxTextBytes), false, true},
    MessageSpec{MessageId::sync_state, "GMSG_SYNC_STATE", kSequenced, Dir::server_to_client, u16(kMaxSyncPayloadBytes),
                false, true},
    MessageSpec{MessageId::create_mirror, "GMSG_CREATE_MIRROR", kReliable, Dir::server_to_client, u16(kCreateMirrorMax),
                false, true},
    MessageSpec{MessageId::pause_remote_player, "GMSG_PAUSE_REMOTE_PLAYER", kReliable, Dir::both, u16(8 + 2 + 1), true,
                true},
    MessageSpec{MessageId::confirm_player_data, "GMSG_CONFIRM_PLAYER_DATA", kReliable, Dir::server_to_client,
                u16(2 + 1 + 8), false, true},
    MessageSpec{MessageId::kill_player, "GMSG_KILL_PLAYER", kReliable, Dir::server_to_client, u16(8 + 2 + 1 + 1), true,
                true},
    MessageSpec{MessageId::set_time, "SYSMSG_SET_TIME", kReliable, Dir::server_to_client, u16(8 + 4), true, true},
    MessageSpec{MessageId::set_player_number, "SYSMSG_SET_PLAYER_NUMBER", kReliable, Dir::server_to_client, u16(2),
                false, true},
    MessageSpec{MessageId::end_message_seq, "GMSG_END_MESSAGE_SEQ", kReliable, Dir::server_to_client, u16(8 + 2 + 8),
                false, true},
    MessageSpec{MessageId::remove_resource, "GMSG_REMOVE_RESOURCE", kReliable, Dir::both, u16(4 + 1), false, true},
    MessageSpec{MessageId::collision_detected, "GMSG_COLLISION_DETECTED", kReliable, Dir::local_only, u16(8 + 8), false,
                true},
    MessageSpec{MessageId::hello, "NET_HELLO", kReliable, Dir::client_to_server, u16(16 + 2 + 1 + kMaxNameBytes), false,
                false},
    MessageSpec{MessageId::welcome, "NET_WELCOME", kReliable, Dir::server_to_client, u16(2 + 2 + 4 + 8 + 8 + 4 + 8 + 8),
                false, false},
    MessageSpec{MessageId::reject, "NET_REJECT", kReliable, Dir::server_to_client, u16(1 + 2 + kMaxRejectTextBytes),
                false, false},
    MessageSpec{MessageId::order, "NET_ORDER", kReliable, Dir::client_to_server, u16(2 + 2 + kMaxCommandPayloadBytes),
                false, false},
    MessageSpec{MessageId::command, "NET_COMMAND", kReliable, Dir::server_to_client,
                u16(8 + 2 + 2 + kMaxCommandPayloadBytes), true, false},
    MessageSpec{MessageId::ack, "NET_ACK", kSequenced, Dir::client_to_server, u16(8 + 8), false, false},
};

constexpr bool ascending() {
  for (std::size_t i = 1; i < kTable.size(); ++i) {
    if (!(static_cast<unsigned>(kTable[i - 1].id) < static_cast<unsigned>(kTable[i].id))) return false;
  }
  return true;
}
static_assert(ascending(), "message table must be sorted by id without duplicates");

}  // namespace

std::span<const MessageSpec> message_table() {
  return kTable;
}

const MessageSpec* find_message(std::uint8_t id) {
  for (const MessageSpec& s : kTable) {
    if (static_cast<std::uint8_t>(s.id) == id) return &s;
  }
  return nullptr;
}

const MessageSpec& spec_of(MessageId id) {
  const MessageSpec* s = find_message(static_cast<std::uint8_t>(id));
  if (s == nullptr) std::abort();  // every enumerator is in the table (programming error otherwise)
  return *s;
}

std::string_view message_name(MessageId id) {
  return spec_of(id).name;
}

std::string_view to_string(Delivery delivery) {
  return delivery == Delivery::reliable_ordered ? "reliable_ordered" : "unreliable_sequenced";
}

std::string_view to_string(Reason reason) {
  switch (reason) {
    case Reason::none:
      return "none";
    case Reason::left:
      return "left";
    case Reason::malformed:
      return "malformed";
    case Reason::oversize:
      return "oversize";
    case Reason::unknown_message:
      return "unknown_message";
    case Reason::unexpected_message:
      return "unexpected_message";
    case Reason::flood:
      return "flood";
    case Reason::handshake_timeout:
      return "handshake_timeout";
    case Reason::resource_timeout:
      return "resource_timeout";
    case Reason::ack_timeout:
      return "ack_timeout";
    case Reason::guid_mismatch:
      return "guid_mismatch";
    case Reason::version_mismatch:
      return "version_mismatch";
    case Reason::session_full:
      return "session_full";
    case Reason::name_invalid:
      return "name_invalid";
    case Reason::session_end:
      return "session_end";
    case Reason::kicked:
      return "kicked";
    case Reason::transport_lost:
      return "transport_lost";
    case Reason::desync:
      return "desync";
  }
  return "unknown";
}

std::optional<Reason> reason_from(std::uint8_t value) {
  if (value > static_cast<std::uint8_t>(Reason::desync)) return std::nullopt;
  return static_cast<Reason>(value);
}

std::string_view to_string(OwnedObjectPolicy policy) {
  return policy == OwnedObjectPolicy::transfer ? "transfer" : "remove";
}

std::string_view to_string(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::prototypes:
      return "prototypes";
    case ResourceKind::terrain:
      return "terrain";
    case ResourceKind::blob:
      return "blob";
    case ResourceKind::movement:
      return "movement";
  }
  return "unknown";
}

}  // namespace sortie::net
