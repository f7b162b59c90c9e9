#pragma once
// The payload of every message of protocol.hpp, one struct each, with a symmetric byte codec:
// write() emits exactly the layout of docs/net-protocol.md, read() reads it from a reader that
// is bounded to the frame's payload (codec.hpp) and rejects every non-canonical value, so that
// write(read(bytes)) == bytes. All integers little-endian, floats as their bit patterns, no
// padding, no pointers.
#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/net/protocol.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/properties.hpp"

namespace sortie::net {

// GMSG_CREATE_REMOTE_PLAYER: player `player` takes part from tick `tick` (0 in the setup).
// tick u64, player u16 (!= 0), flags u8 (bit 0 host), name str8 (1..32), data blob16 (<= 256).
struct CreateRemotePlayer {
  static constexpr MessageId kId = MessageId::create_remote_player;
  static constexpr std::uint8_t kHost = 1;
  std::uint64_t tick = 0;
  PlayerNumber player = 0;
  std::uint8_t flags = 0;
  std::string name;
  core::Bytes data;
  void write(core::ByteWriter& out) const;
  static core::Result<CreateRemotePlayer> read(core::ByteReader& in);
  friend bool operator==(const CreateRemotePlayer&, const CreateRemotePlayer&) = default;
};

// GMSG_APPEND_RESOURCE: one chunk of a resource. Every chunk repeats the header, so a chunk
// is understood on its own. resource u32, kind u8, name str8 (1..64), total u32 (<= 64 MiB),
// content hash u64 (xxh3 of the whole resource), offset u32, chunk blob16 (<= 1024;
// offset + size <= total; empty only when total is 0).
struct AppendResource {
  static constexpr MessageId kId = MessageId::append_resource;
  std::uint32_t resource = 0;
  ResourceKind kind = ResourceKind::blob;
  std::string name;
  std::uint32_t total = 0;
  std::uint64_t content_hash = 0;
  std::uint32_t offset = 0;
  core::Bytes chunk;
  void write(core::ByteWriter& out) const;
  static core::Result<AppendResource> read(core::ByteReader& in);
  friend bool operator==(const AppendResource&, const AppendResource&) = default;
};

// GMSG_CHANGE_OBJECT_OWNER: at tick `tick`, `object` passes to `owner` (net.change_owner).
// tick u64, object u64 (!= 0), owner u16 (!= 0).
struct ChangeObjectOwner {
  static constexpr MessageId kId = MessageId::change_object_owner;
  std::uint64_t tick = 0;
  world::ObjectId object;
  PlayerNumber owner = 0;
  void write(core::ByteWriter& out) const;
  static core::Result<ChangeObjectOwner> read(core::ByteReader& in);
  friend bool operator==(const ChangeObjectOwner&, const ChangeObjectOwner&) = default;
};

// GMSG_SET_PLAYER_DATA: player u16, data blob16 (<= 256). Client: its own data; server: a
// player's data changed.
struct SetPlayerData {
  static constexpr MessageId kId = MessageId::set_player_data;
  PlayerNumber player = 0;
  core::Bytes data;
  void write(core::ByteWriter& out) const;
  static core::Result<SetPlayerData> read(core::ByteReader& in);
  friend bool operator==(const SetPlayerData&, const SetPlayerData&) = default;
};

// GMSG_MISSION_DATA_PATH: path str16 (<= 260), the mission the session was built from.
struct MissionDataPath {
  static constexpr MessageId kId = MessageId::mission_data_path;
  std::string path;
  void write(core::ByteWriter& out) const;
  static core::Result<MissionDataPath> read(core::ByteReader& in);
  friend bool operator==(const MissionDataPath&, const MissionDataPath&) = default;
};

// GMSG_TAKE_OBJECT: the client asks for ownership of an authority-owned object. object u64 (!= 0).
struct TakeObject {
  static constexpr MessageId kId = MessageId::take_object;
  world::ObjectId object;
  void write(core::ByteWriter& out) const;
  static core::Result<TakeObject> read(core::ByteReader& in);
  friend bool operator==(const TakeObject&, const TakeObject&) = default;
};

// GMSG_TEXT_FOR_PLAYER: from u16, to u16 (0 = everyone), text str16 (<= 512).
struct TextForPlayer {
  static constexpr MessageId kId = MessageId::text_for_player;
  PlayerNumber from = 0;
  PlayerNumber to = 0;
  std::string text;
  void write(core::ByteWriter& out) const;
  static core::Result<TextForPlayer> read(core::ByteReader& in);
  friend bool operator==(const TextForPlayer&, const TextForPlayer&) = default;
};

// One object of a GMSG_SYNC_STATE: its quantised state (sync_state.hpp) as the difference to the
// state the client acknowledged for that object at tick `tick - age` (age 0: the difference to
// the zero state, i.e. absolute), or its removal.
struct SyncEntry {
  static constexpr std::uint16_t kPosX = 1u << 0, kPosY = 1u << 1, kPosZ = 1u << 2;
  static constexpr std::uint16_t kOriX = 1u << 3, kOriY = 1u << 4, kOriZ = 1u << 5;
  static constexpr std::uint16_t kOwner = 1u << 6, kFlags = 1u << 7, kRemoved = 1u << 8;
  static constexpr std::size_t kFields = 6;                // the six delta-coded quantised fields
  static constexpr std::int64_t kMaxDelta = 0xffffffffLL;  // a difference of two i32
  world::ObjectId id;
  std::uint64_t age = 0;  // ticks back to the baseline; 0 = absolute
  std::uint16_t mask = 0;
  std::array<std::int64_t, kFields> delta{};  // new - baseline, for the masked fields; 0 otherwise
  PlayerNumber owner = 0;                     // with kOwner (absolute)
  std::uint8_t flags = 0;                     // with kFlags (absolute; bit 0 active, bit 1 visible)
  friend bool operator==(const SyncEntry&, const SyncEntry&) = default;
};

// GMSG_SYNC_STATE: quantised state of mirrors after `tick` completed ticks, each object relative
// to its own acknowledged baseline. tick u64 (>= 1), count u16, entries in ascending raw id:
// varint id (the first absolute, then the difference to the previous, > 0), varint age (0, or < tick;
// 0 for a removal), varint mask (1..255 field bits, or 256 alone = removed), zigzag varint
// deltas of the masked fields 0..5, varint owner (kOwner, <= 65535), u8 flags (kFlags, 0..3).
struct SyncState {
  static constexpr MessageId kId = MessageId::sync_state;
  std::uint64_t tick = 0;
  std::vector<SyncEntry> entries;
  void write(core::ByteWriter& out) const;
  static core::Result<SyncState> read(core::ByteReader& in);
  friend bool operator==(const SyncState&, const SyncState&) = default;
};

// GMSG_CREATE_MIRROR: one object of the setup. id u64 (!= 0), owner u16 (!= 0), flags u8
// (bit 0 active, bit 1 visible), prototype str8 (1..255), transform 9 x f32, property count u8
// (<= 64), per property: key str8 (1..64, unique), tag u8 (0 int, 1 double, 2 string), value
// (i64 | f64 bits | str8 <= 255); raw property count u16 (<= 64), per record in file order
// (repeated names allowed, as the world keeps them): name str8 (<= 64), name bytes str8 (<= 64,
// empty when the name decodes them losslessly), words 4 x u32.
struct CreateMirror {
  static constexpr MessageId kId = MessageId::create_mirror;
  static constexpr std::uint8_t kActive = 1, kVisible = 2;
  world::ObjectId id;
  PlayerNumber owner = 0;
  std::uint8_t flags = kActive | kVisible;
  std::string prototype;
  core::Transform transform;
  world::Properties properties;
  world::RawProperties raw_properties;
  void write(core::ByteWriter& out) const;
  static core::Result<CreateMirror> read(core::ByteReader& in);
  // Bitwise on the transform (what the state hash sees).
  friend bool operator==(const CreateMirror& a, const CreateMirror& b);
};

// GMSG_PAUSE_REMOTE_PLAYER: tick u64 (0 from a client), player u16 (who asks), paused u8 0|1.
struct PauseRemotePlayer {
  static constexpr MessageId kId = MessageId::pause_remote_player;
  std::uint64_t tick = 0;
  PlayerNumber player = 0;
  bool paused = true;
  void write(core::ByteWriter& out) const;
  static core::Result<PauseRemotePlayer> read(core::ByteReader& in);
  friend bool operator==(const PauseRemotePlayer&, const PauseRemotePlayer&) = default;
};

// GMSG_CONFIRM_PLAYER_DATA: the server's answer to SET_PLAYER_DATA. player u16, status u8
// (0 accepted, 1 rejected), data hash u64 (xxh3 of the data now stored).
struct ConfirmPlayerData {
  static constexpr MessageId kId = MessageId::confirm_player_data;
  PlayerNumber player = 0;
  std::uint8_t status = 0;
  std::uint64_t data_hash = 0;
  void write(core::ByteWriter& out) const;
  static core::Result<ConfirmPlayerData> read(core::ByteReader& in);
  friend bool operator==(const ConfirmPlayerData&, const ConfirmPlayerData&) = default;
};

// GMSG_KILL_PLAYER: at tick `tick` the player leaves; its objects follow `policy`
// (net.release_player). tick u64, player u16 (!= 0), reason u8, policy u8.
struct KillPlayer {
  static constexpr MessageId kId = MessageId::kill_player;
  std::uint64_t tick = 0;
  PlayerNumber player = 0;
  Reason reason = Reason::left;
  OwnedObjectPolicy policy = OwnedObjectPolicy::transfer;
  void write(core::ByteWriter& out) const;
  static core::Result<KillPlayer> read(core::ByteReader& in);
  friend bool operator==(const KillPlayer&, const KillPlayer&) = default;
};

// SYSMSG_SET_TIME: from tick `tick` the game clock runs at `scale_permille` (world set_speed).
// tick u64, scale u32 (1..100000).
struct SetTime {
  static constexpr MessageId kId = MessageId::set_time;
  std::uint64_t tick = 0;
  std::uint32_t scale_permille = 1000;
  void write(core::ByteWriter& out) const;
  static core::Result<SetTime> read(core::ByteReader& in);
  friend bool operator==(const SetTime&, const SetTime&) = default;
};

// SYSMSG_SET_PLAYER_NUMBER: the receiver's own game player number. player u16 (the session
// refuses 0).
struct SetPlayerNumber {
  static constexpr MessageId kId = MessageId::set_player_number;
  PlayerNumber player = 0;
  void write(core::ByteWriter& out) const;
  static core::Result<SetPlayerNumber> read(core::ByteReader& in);
  friend bool operator==(const SetPlayerNumber&, const SetPlayerNumber&) = default;
};

// GMSG_END_MESSAGE_SEQ: the sequence of tick `tick` is complete: `count` sequence messages came
// before it; the authority's state hash after the tick. tick u64, count u16, hash u64.
struct EndMessageSeq {
  static constexpr MessageId kId = MessageId::end_message_seq;
  std::uint64_t tick = 0;
  std::uint16_t count = 0;
  std::uint64_t state_hash = 0;
  void write(core::ByteWriter& out) const;
  static core::Result<EndMessageSeq> read(core::ByteReader& in);
  friend bool operator==(const EndMessageSeq&, const EndMessageSeq&) = default;
};

// GMSG_REMOVE_RESOURCE: the sender drops resource `resource`. resource u32, reason u8.
struct RemoveResource {
  static constexpr MessageId kId = MessageId::remove_resource;
  std::uint32_t resource = 0;
  Reason reason = Reason::none;
  void write(core::ByteWriter& out) const;
  static core::Result<RemoveResource> read(core::ByteReader& in);
  friend bool operator==(const RemoveResource&, const RemoveResource&) = default;
};

// NET_HELLO: application GUID 16 bytes, protocol version u16, name str8 (1..32).
struct Hello {
  static constexpr MessageId kId = MessageId::hello;
  std::array<std::uint8_t, 16> guid = kApplicationGuid;
  std::uint16_t version = kProtocolVersion;
  std::string name;
  void write(core::ByteWriter& out) const;
  static core::Result<Hello> read(core::ByteReader& in);
  friend bool operator==(const Hello&, const Hello&) = default;
};

// NET_WELCOME: version u16, authority player u16, step_us u32, world seed u64, session id u64,
// setup message count u32, state hash after the setup u64, live tick u64 (sequences 0..live-1
// follow as catch-up).
struct Welcome {
  static constexpr MessageId kId = MessageId::welcome;
  std::uint16_t version = kProtocolVersion;
  PlayerNumber authority = 0;
  std::uint32_t step_us = 0;
  std::uint64_t seed = 0;
  std::uint64_t session_id = 0;
  std::uint32_t setup_count = 0;
  std::uint64_t setup_hash = 0;
  std::uint64_t live_tick = 0;
  void write(core::ByteWriter& out) const;
  static core::Result<Welcome> read(core::ByteReader& in);
  friend bool operator==(const Welcome&, const Welcome&) = default;
};

// NET_REJECT: reason u8, text str16 (<= 256).
struct Reject {
  static constexpr MessageId kId = MessageId::reject;
  Reason reason = Reason::none;
  std::string text;
  void write(core::ByteWriter& out) const;
  static core::Result<Reject> read(core::ByteReader& in);
  friend bool operator==(const Reject&, const Reject&) = default;
};

// NET_ORDER: a client order. kind u16 (!= 0; a world command kind), payload blob16 (<= 4096).
struct Order {
  static constexpr MessageId kId = MessageId::order;
  world::CommandKindId kind = 0;
  core::Bytes payload;
  void write(core::ByteWriter& out) const;
  static core::Result<Order> read(core::ByteReader& in);
  friend bool operator==(const Order&, const Order&) = default;
};

// NET_COMMAND: a world command of tick `tick`'s sequence. tick u64, kind u16 (!= 0), payload
// blob16 (<= 4096).
struct TickCommand {
  static constexpr MessageId kId = MessageId::command;
  std::uint64_t tick = 0;
  world::CommandKindId kind = 0;
  core::Bytes payload;
  void write(core::ByteWriter& out) const;
  static core::Result<TickCommand> read(core::ByteReader& in);
  friend bool operator==(const TickCommand&, const TickCommand&) = default;
};

// NET_ACK: the client's replica has run `tick` ticks; `sync_tick` is the newest sync state it
// applied (0 = none). tick u64, sync tick u64.
struct Ack {
  static constexpr MessageId kId = MessageId::ack;
  std::uint64_t tick = 0;
  std::uint64_t sync_tick = 0;
  void write(core::ByteWriter& out) const;
  static core::Result<Ack> read(core::ByteReader& in);
  friend bool operator==(const Ack&, const Ack&) = default;
};

using Message =
    std::variant<CreateRemotePlayer, AppendResource, ChangeObjectOwner, SetPlayerData, MissionDataPath, TakeObject,
                 TextForPlayer, SyncState, CreateMirror, PauseRemotePlayer, ConfirmPlayerData, KillPlayer, SetTime,
                 SetPlayerNumber, EndMessageSeq, RemoveResource, Hello, Welcome, Reject, Order, TickCommand, Ack>;

MessageId id_of(const Message& message);

}  // namespace sortie::net
