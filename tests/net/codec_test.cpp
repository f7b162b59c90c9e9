// The message schema and its codec: every message round-trips byte for byte, the table holds
// every name of seed 001 with its id, size and delivery policy, and hostile frames are refused
// before their payload is read.
#include "sortie/net/codec.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "sortie/net/wire.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;
using net::test::frame;

namespace {

std::vector<Message> one_of_each() {
  CreateMirror mirror;
  mirror.id = world::ObjectId{1, 20, 3};
  mirror.owner = 2;
  mirror.flags = CreateMirror::kActive;
  mirror.prototype = "unit_tank.dat";
  mirror.transform.position = {1.5f, -2.25f, 0.0f};
  mirror.transform.orientation = {0.0f, -0.0f, 3.0f};
  mirror.properties.set("hp", std::int64_t{-5});
  mirror.properties.set("ratio", 0.125);
  mirror.properties.set("label", std::string("alpha"));
  mirror.raw_properties.add({"Life state", "", {0x3f800000u, 1, 2, 3}});
  mirror.raw_properties.add({"A\xEF\xBF\xBD", "A\x98", {7, 0, 0, 0xffffffffu}});
  mirror.raw_properties.add({"Life state", "", {0, 0, 0, 9}});  // a repeated name is kept
  SyncState sync;
  sync.tick = 40;
  SyncEntry a;
  a.id = world::ObjectId{1, 20, 1};
  a.age = 3;
  a.mask = SyncEntry::kPosX | SyncEntry::kPosY;
  a.delta = {-7, 300, 0, 0, 0, 0};
  SyncEntry b;
  b.id = world::ObjectId{1, 20, 2};
  b.mask = SyncEntry::kRemoved;
  SyncEntry c;
  c.id = world::ObjectId{2, 40, 1};
  c.mask = SyncEntry::kOriZ | SyncEntry::kOwner | SyncEntry::kFlags;
  c.delta = {0, 0, 0, 0, 0, -SyncEntry::kMaxDelta};
  c.owner = 3;
  c.flags = 2;
  sync.entries = {a, b, c};
  return {
      CreateRemotePlayer{5, 2, CreateRemotePlayer::kHost, "alice", {1, 2, 3}},
      AppendResource{7, ResourceKind::terrain, "terrain", 10, 0x1122334455667788ull, 4, {9, 8, 7}},
      ChangeObjectOwner{9, world::ObjectId{1, 20, 4}, 3},
      SetPlayerData{2, {0xff, 0}},
      MissionDataPath{"MISSIONS/m01/data.tma"},
      TakeObject{world::ObjectId{1, 20, 4}},
      TextForPlayer{2, 0, "hello all"},
      sync,
      mirror,
      PauseRemotePlayer{12, 2, true},
      ConfirmPlayerData{2, 1, 77},
      KillPlayer{13, 2, Reason::flood, OwnedObjectPolicy::remove},
      SetTime{14, 2000},
      SetPlayerNumber{4},
      EndMessageSeq{15, 3, 0xdeadbeefcafef00dull},
      RemoveResource{7, Reason::resource_timeout},
      Hello{kApplicationGuid, kProtocolVersion, "bob"},
      Welcome{kProtocolVersion, 1, 16000, 99, 5, 20, 0xabc, 100},
      Reject{Reason::session_full, "64 players at most"},
      Order{1, {1, 2, 3, 4}},
      TickCommand{16, 8, {5, 6}},
      Ack{17, 16},
  };
}

}  // namespace

TEST(NetSchemaTest, names_every_message_of_the_seed_with_its_id) {
  const std::vector<std::pair<std::string_view, int>> seed = {
      {"GMSG_CREATE_REMOTE_PLAYER", 1}, {"GMSG_APPEND_RESOURCE", 2},      {"GMSG_CHANGE_OBJECT_OWNER", 3},
      {"GMSG_SET_PLAYER_DATA", 4},      {"GMSG_MISSION_DATA_PATH", 5},    {"GMSG_TAKE_OBJECT", 6},
      {"GMSG_TEXT_FOR_PLAYER", 7},      {"GMSG_SYNC_STATE", 8},           {"GMSG_CREATE_MIRROR", 9},
      {"GMSG_PAUSE_REMOTE_PLAYER", 10}, {"GMSG_CONFIRM_PLAYER_DATA", 11}, {"GMSG_KILL_PLAYER", 12},
      {"SYSMSG_SET_TIME", 13},          {"SYSMSG_SET_PLAYER_NUMBER", 14}, {"GMSG_END_MESSAGE_SEQ", 15},
      {"GMSG_REMOVE_RESOURCE", 16},     {"GMSG_COLLISION_DETECTED", 17}};
  for (const auto& [name, id] : seed) {
    const MessageSpec* spec = find_message(static_cast<std::uint8_t>(id));
    ASSERT_NE(spec, nullptr) << name;
    EXPECT_EQ(spec->name, name);
    EXPECT_TRUE(spec->seed_named);
  }
  EXPECT_EQ(message_table().size(), 23u);
  EXPECT_EQ(find_message(0), nullptr);
  EXPECT_EQ(find_message(18), nullptr);
}

TEST(NetSchemaTest, sizes_and_delivery_policies_are_explicit) {
  std::set<std::string_view> names;
  for (const MessageSpec& s : message_table()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
    EXPECT_GT(s.max_payload, 0u) << s.name;
    EXPECT_LE(s.max_payload + kFrameHeaderBytes, kMaxPacketBytes) << s.name;
  }
  // Worked out from the layouts in messages.hpp.
  EXPECT_EQ(spec_of(MessageId::end_message_seq).max_payload, 18u);
  EXPECT_EQ(spec_of(MessageId::change_object_owner).max_payload, 18u);
  EXPECT_EQ(spec_of(MessageId::hello).max_payload, 16u + 2 + 1 + 32);
  EXPECT_EQ(spec_of(MessageId::append_resource).max_payload, 4u + 1 + 1 + 64 + 4 + 8 + 4 + 2 + 1024);
  EXPECT_EQ(spec_of(MessageId::create_mirror).max_payload,
            8u + 2 + 1 + 1 + 255 + 36 + 1 + 64 * (1 + 64 + 1 + 1 + 255) + 2 + 64 * (1 + 64 + 1 + 64 + 16));
  EXPECT_EQ(spec_of(MessageId::create_mirror).max_payload, 30258u);
  EXPECT_EQ(spec_of(MessageId::sync_state).delivery, Delivery::unreliable_sequenced);
  EXPECT_EQ(spec_of(MessageId::ack).delivery, Delivery::unreliable_sequenced);
  EXPECT_EQ(spec_of(MessageId::end_message_seq).delivery, Delivery::reliable_ordered);
  EXPECT_EQ(spec_of(MessageId::create_mirror).delivery, Delivery::reliable_ordered);
  EXPECT_EQ(spec_of(MessageId::collision_detected).direction, Direction::local_only);
}

TEST(NetSchemaTest, application_guid_bytes_follow_the_guid_text) {
  // {3C1D1F01-A870-11D1-8400-000021B14415}: Data1..Data3 little-endian, Data4 as written.
  const std::array<std::uint8_t, 16> expected = {0x01, 0x1F, 0x1D, 0x3C, 0x70, 0xA8, 0xD1, 0x11,
                                                 0x84, 0x00, 0x00, 0x00, 0x21, 0xB1, 0x44, 0x15};
  EXPECT_EQ(kApplicationGuid, expected);
  EXPECT_EQ(kApplicationGuidText, "{3C1D1F01-A870-11D1-8400-000021B14415}");
}

TEST(NetCodecTest, every_message_round_trips_byte_for_byte) {
  for (const Message& m : one_of_each()) {
    const core::Bytes bytes = frame(m);
    EXPECT_EQ(bytes[0], static_cast<std::uint8_t>(id_of(m)));
    EXPECT_EQ(core::load_u16(bytes.data() + 1), bytes.size() - 3);
    auto back = decode_packet(bytes);
    ASSERT_TRUE(back.has_value()) << message_name(id_of(m)) << ": " << back.error().to_string();
    ASSERT_EQ(back->size(), 1u);
    EXPECT_TRUE(back->front() == m) << message_name(id_of(m));
    EXPECT_EQ(frame(back->front()), bytes) << message_name(id_of(m));
  }
}

TEST(NetCodecTest, mirror_keeps_repeated_raw_names_and_refuses_a_repeated_key) {
  // Raw records repeat names as the world keeps them (ADR 0020); the keyed bag has one value per
  // key, so a second key on the wire is a malformed message.
  CreateMirror m;
  m.id = world::ObjectId{1, 20, 3};
  m.owner = 1;
  m.prototype = "p";
  m.raw_properties.add({"n", "", {1, 2, 3, 4}});
  m.raw_properties.add({"n", "", {5, 6, 7, 8}});
  const auto back = decode_packet(frame(m));
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  const auto& read = std::get<CreateMirror>(back->front());
  ASSERT_EQ(read.raw_properties.size(), 2u);
  EXPECT_EQ(read.raw_properties.items()[1].words, (world::RawWords{5, 6, 7, 8}));

  m.properties.set("k", std::int64_t{1});
  m.properties.set("l", std::int64_t{2});
  core::Bytes bytes = frame(m);
  const auto at = std::search(bytes.begin(), bytes.end(), std::begin("\x01l"), std::end("\x01l") - 1);
  ASSERT_NE(at, bytes.end());
  *(at + 1) = 'k';  // the second key becomes the first's
  const auto dup = decode_packet(bytes);
  ASSERT_FALSE(dup.has_value());
  EXPECT_EQ(dup.error().code, "net.message.property_duplicate") << dup.error().to_string();
}

TEST(NetCodecTest, end_marker_layout_is_little_endian_without_padding) {
  const core::Bytes b = frame(EndMessageSeq{0x0102030405060708ull, 0x0a0b, 0x1112131415161718ull});
  const core::Bytes expected = {15,   18,   0,    0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
                                0x0b, 0x0a, 0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11};
  EXPECT_EQ(b, expected);
}

TEST(NetCodecTest, packet_of_several_frames_decodes_in_order) {
  const auto all = one_of_each();
  std::vector<Message> reliable;
  for (const Message& m : all) {
    if (spec_of(id_of(m)).delivery == Delivery::reliable_ordered) reliable.push_back(m);
  }
  auto packet = encode_packet(reliable);
  ASSERT_TRUE(packet.has_value());
  auto back = decode_packet(*packet, Delivery::reliable_ordered);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  ASSERT_EQ(back->size(), reliable.size());
  for (std::size_t i = 0; i < reliable.size(); ++i) EXPECT_TRUE((*back)[i] == reliable[i]) << i;
  EXPECT_EQ(encode_packet(all).error().code, "net.encode.mixed_delivery");
}

TEST(NetCodecTest, messages_check_length_before_reading_payload) {
  // A frame that claims more than CHANGE_OBJECT_OWNER's 18 bytes is refused from its header,
  // whatever follows (here: nothing); one that claims more than the packet holds, too.
  const core::Bytes oversize = {3, 19, 0};
  auto r = decode_packet(oversize);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.frame.oversize");
  EXPECT_EQ(r.error().offset, 0u);
  EXPECT_EQ(reason_for(r.error()), Reason::oversize);
  const core::Bytes truncated = {3, 18, 0, 1, 2, 3};
  r = decode_packet(truncated);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.frame.truncated");
  EXPECT_EQ(reason_for(r.error()), Reason::oversize);
  // A payload shorter than its fixed fields: the field reader stops at the frame's end, never
  // in the next frame.
  core::Bytes two = {3, 4, 0, 1, 2, 3, 4};
  const core::Bytes next = frame(TakeObject{world::ObjectId{1, 1, 1}});
  two.insert(two.end(), next.begin(), next.end());
  r = decode_packet(two);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.message.eof");
  // A header cut short.
  r = decode_packet(core::Bytes{3, 18});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.frame.truncated");
}

TEST(NetCodecTest, rejects_unknown_and_local_only_ids) {
  auto r = decode_packet(core::Bytes{200, 0, 0});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.message.unknown_id");
  EXPECT_EQ(reason_for(r.error()), Reason::unknown_message);
  r = decode_packet(core::Bytes{17, 0, 0});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.message.local_only");
}

TEST(NetCodecTest, rejects_empty_and_oversize_packets) {
  EXPECT_EQ(decode_packet(core::Bytes{}).error().code, "net.packet.empty");
  EXPECT_EQ(decode_packet(core::Bytes(kMaxPacketBytes + 1, 0)).error().code, "net.packet.oversize");
}

TEST(NetCodecTest, rejects_trailing_bytes_inside_a_frame) {
  core::Bytes b = frame(TakeObject{world::ObjectId{1, 1, 1}});
  b[1] = 9;  // claims one byte more than TAKE_OBJECT's payload
  b.push_back(0);
  auto r = decode_packet(b);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.frame.oversize");  // 9 > TAKE_OBJECT's maximum of 8
  core::Bytes t = frame(TextForPlayer{1, 0, "x"});
  t[1] = static_cast<std::uint8_t>(t[1] + 1);
  t.push_back('!');
  r = decode_packet(t);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.message.trailing");
}

TEST(NetCodecTest, rejects_string_longer_than_its_limit) {
  core::ByteWriter w;
  w.u8(static_cast<std::uint8_t>(MessageId::hello));
  w.u16(16 + 2 + 1 + 33);
  w.bytes(core::ByteView(kApplicationGuid.data(), 16));
  w.u16(kProtocolVersion);
  w.u8(33);
  w.bytes(std::string(33, 'n'));
  auto r = decode_packet(w.buffer());
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.frame.oversize");  // the frame is already beyond HELLO's maximum
  core::ByteWriter v;
  v.u8(static_cast<std::uint8_t>(MessageId::hello));
  v.u16(16 + 2 + 1 + 10);
  v.bytes(core::ByteView(kApplicationGuid.data(), 16));
  v.u16(kProtocolVersion);
  v.u8(33);  // the name claims 33 bytes: more than 32, checked before the bytes
  v.bytes(std::string(10, 'n'));
  r = decode_packet(v.buffer());
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.message.too_long");
  EXPECT_EQ(reason_for(r.error()), Reason::oversize);
}

TEST(NetCodecTest, rejects_sync_count_beyond_the_payload) {
  core::ByteWriter w;
  w.u8(static_cast<std::uint8_t>(MessageId::sync_state));
  w.u16(10);
  w.u64(5);
  w.u16(0xffff);  // 65535 entries of >= 3 bytes in 0 bytes: refused before any allocation
  auto r = decode_packet(w.buffer());
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.message.eof");
}

TEST(NetCodecTest, rejects_sync_entries_out_of_order_or_with_bad_masks) {
  auto with_entries = [](const std::vector<std::uint8_t>& body, std::uint16_t count) {
    core::ByteWriter w;
    w.u8(static_cast<std::uint8_t>(MessageId::sync_state));
    w.u16(static_cast<std::uint16_t>(10 + body.size()));
    w.u64(5);
    w.u16(count);
    w.bytes(core::ByteView(body.data(), body.size()));
    return decode_packet(w.buffer());
  };
  EXPECT_EQ(with_entries({0, 0, 1, 0}, 1).error().code, "net.message.sync_order");       // id step 0
  EXPECT_EQ(with_entries({1, 0, 0}, 1).error().code, "net.message.sync_mask");           // empty mask
  EXPECT_EQ(with_entries({1, 2, 0x80, 0x02}, 1).error().code, "net.message.sync_mask");  // removal with an age
  EXPECT_EQ(with_entries({1, 5, 1, 0}, 1).error().code, "net.message.sync_age");         // baseline before tick 1
  EXPECT_EQ(with_entries({1, 0, 0x81, 0x00}, 1).error().code, "net.message.varint");     // not shortest
  EXPECT_TRUE(with_entries({1, 0, 0x80, 0x02}, 1).has_value());                          // removal of id 1
}

TEST(NetCodecTest, varints_are_canonical_and_bounded) {
  for (std::uint64_t v : {0ull, 1ull, 127ull, 128ull, 300ull, 0xffffffffull, ~0ull}) {
    core::ByteWriter w;
    wire::put_varint(w, v);
    EXPECT_EQ(w.size(), wire::varint_size(v));
    core::ByteReader r(w.buffer());
    EXPECT_EQ(wire::get_varint(r).value(), v);
    EXPECT_TRUE(r.at_end());
  }
  const core::Bytes eleven(11, 0x80);
  core::ByteReader r(eleven);
  EXPECT_EQ(wire::get_varint(r).error().code, "net.message.varint");
  for (std::int64_t v : {0ll, -1ll, 1ll, -4294967295ll, 4294967295ll}) EXPECT_EQ(wire::unzigzag(wire::zigzag(v)), v);
}

TEST(NetCodecTest, rejects_frames_on_the_wrong_channel) {
  auto r = decode_packet(frame(EndMessageSeq{1, 0, 2}), Delivery::unreliable_sequenced);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "net.message.delivery");
  EXPECT_EQ(reason_for(r.error()), Reason::unexpected_message);
}

TEST(NetCodecTest, rejects_unknown_enum_values_and_flags) {
  core::Bytes k = frame(KillPlayer{1, 2, Reason::left, OwnedObjectPolicy::transfer});
  k[3 + 8 + 2] = 99;  // reason
  EXPECT_EQ(decode_packet(k).error().code, "net.message.reason");
  core::Bytes p = frame(PauseRemotePlayer{1, 2, true});
  p.back() = 2;
  EXPECT_EQ(decode_packet(p).error().code, "net.message.bool");
  core::Bytes c = frame(ChangeObjectOwner{1, world::ObjectId{1, 1, 1}, 2});
  c[3 + 8 + 8] = 0;
  c[3 + 8 + 9] = 0;  // owner 0
  EXPECT_EQ(decode_packet(c).error().code, "net.message.player");
}

TEST(NetCodecTest, packet_builder_splits_at_the_limit) {
  PacketBuilder b(64);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(b.add(EndMessageSeq{static_cast<std::uint64_t>(i), 0, 0}).has_value());
  const auto packets = b.take();
  ASSERT_EQ(packets.size(), 2u);  // 21-byte frames, three to a 64-byte packet: 3 + 2
  EXPECT_EQ(packets[0].size(), 63u);
  EXPECT_EQ(decode_packet(packets[1]).value().size(), 2u);
  EXPECT_TRUE(b.empty());
}
