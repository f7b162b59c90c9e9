// Every limit of net/limits.hpp, fed at the limit (accepted) and one above (refused with its
// diagnostic). Field lengths go through the message's own reader (the frame's maximum is derived
// from the same limits, so a whole frame one byte over is refused earlier, as net.frame.oversize;
// that check has its own case, kMaxSyncPayloadBytes).
#include "sortie/net/limits.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "sortie/mission/class_ids.hpp"
#include "sortie/net/codec.hpp"
#include "sortie/net/replica.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;

namespace {

// Writes `m` with its own writer and reads it back with its reader (which must end at the end).
template <class T>
core::Result<T> reread(const T& m) {
  core::ByteWriter w;
  m.write(w);
  const core::Bytes bytes = w.take();
  core::ByteReader in(bytes, "payload");
  in.set_code_prefix("net.message");
  SORTIE_TRY(T back, T::read(in));
  SORTIE_CHECK(in.require_end("payload"));
  return back;
}

template <class T>
void expect_limit(const T& at_limit, const T& over, std::string_view code = "net.message.too_long") {
  const auto ok = reread(at_limit);
  EXPECT_TRUE(ok.has_value()) << (ok ? "" : ok.error().to_string());
  const auto bad = reread(over);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, code) << bad.error().to_string();
}

std::string text(std::size_t n) {
  return std::string(n, 'a');
}
core::Bytes blob(std::size_t n) {
  return core::Bytes(n, 0x5a);
}

AppendResource resource(std::string name, std::uint32_t total, core::Bytes chunk, std::uint32_t id = 7) {
  return AppendResource{id, ResourceKind::blob, std::move(name), total, 1, 0, std::move(chunk)};
}

CreateMirror mirror_with(std::size_t properties, std::size_t key_bytes = 4) {
  CreateMirror m;
  m.id = world::ObjectId{1, mission::class_ids::kTmaUnit, 1};
  m.owner = 1;
  m.prototype = "unit_tank.dat";
  for (std::size_t i = 0; i < properties; ++i) {
    std::string key = fmt::format("{:0{}}", i, key_bytes);
    m.properties.set(key, std::int64_t{1});
  }
  return m;
}

// `records` raw property records, all named alike (repeated names are what the world keeps).
CreateMirror mirror_with_raw(std::size_t records, std::size_t name_bytes = 4, std::size_t raw_name_bytes = 0) {
  CreateMirror m = mirror_with(0);
  for (std::size_t i = 0; i < records; ++i)
    m.raw_properties.add(
        {text(name_bytes), std::string(raw_name_bytes, '\x98'), {static_cast<std::uint32_t>(i), 1, 2, 0xffffffffu}});
  return m;
}

Welcome welcome(std::uint32_t setup_count) {
  return net::test::welcome_for(net::test::small_setup(1), setup_count);
}

}  // namespace

TEST(NetLimitsTest, name_bytes) {
  expect_limit(Hello{kApplicationGuid, kProtocolVersion, text(kMaxNameBytes)},
               Hello{kApplicationGuid, kProtocolVersion, text(kMaxNameBytes + 1)});
  expect_limit(CreateRemotePlayer{1, 2, 0, text(kMaxNameBytes), {}},
               CreateRemotePlayer{1, 2, 0, text(kMaxNameBytes + 1), {}});
}

TEST(NetLimitsTest, player_data_bytes) {
  expect_limit(SetPlayerData{2, blob(kMaxPlayerDataBytes)}, SetPlayerData{2, blob(kMaxPlayerDataBytes + 1)});
}

TEST(NetLimitsTest, path_bytes) {
  expect_limit(MissionDataPath{text(kMaxPathBytes)}, MissionDataPath{text(kMaxPathBytes + 1)});
}

TEST(NetLimitsTest, text_bytes) {
  expect_limit(TextForPlayer{1, 0, text(kMaxTextBytes)}, TextForPlayer{1, 0, text(kMaxTextBytes + 1)});
}

TEST(NetLimitsTest, reject_text_bytes) {
  expect_limit(Reject{Reason::flood, text(kMaxRejectTextBytes)}, Reject{Reason::flood, text(kMaxRejectTextBytes + 1)});
}

TEST(NetLimitsTest, resource_name_chunk_and_total) {
  expect_limit(resource(text(kMaxResourceNameBytes), 1, blob(1)),
               resource(text(kMaxResourceNameBytes + 1), 1, blob(1)));
  expect_limit(resource("r", kMaxResourceChunkBytes, blob(kMaxResourceChunkBytes)),
               resource("r", kMaxResourceChunkBytes + 1, blob(kMaxResourceChunkBytes + 1)));
  expect_limit(resource("r", kMaxResourceBytes, blob(1)), resource("r", kMaxResourceBytes + 1, blob(1)));
}

TEST(NetLimitsTest, command_payload_bytes) {
  expect_limit(Order{1, blob(kMaxCommandPayloadBytes)}, Order{1, blob(kMaxCommandPayloadBytes + 1)});
  expect_limit(TickCommand{1, 1, blob(kMaxCommandPayloadBytes)}, TickCommand{1, 1, blob(kMaxCommandPayloadBytes + 1)});
}

TEST(NetLimitsTest, mirror_properties_and_key_bytes) {
  expect_limit(mirror_with(kMaxMirrorProperties), mirror_with(kMaxMirrorProperties + 1));
  expect_limit(mirror_with(1, kMaxPropertyKeyBytes), mirror_with(1, kMaxPropertyKeyBytes + 1));
}

TEST(NetLimitsTest, mirror_raw_properties_and_name_bytes) {
  expect_limit(mirror_with_raw(kMaxMirrorRawProperties), mirror_with_raw(kMaxMirrorRawProperties + 1));
  expect_limit(mirror_with_raw(1, kMaxRawPropertyNameBytes), mirror_with_raw(1, kMaxRawPropertyNameBytes + 1));
  expect_limit(mirror_with_raw(1, 1, kMaxRawPropertyNameBytes), mirror_with_raw(1, 1, kMaxRawPropertyNameBytes + 1));
}

TEST(NetLimitsTest, largest_mirror_fits_one_packet) {
  // Every keyed property and every raw record at its largest: the message's declared maximum
  // (protocol.cpp) holds it, and it reads back whole.
  CreateMirror m = mirror_with_raw(kMaxMirrorRawProperties, kMaxRawPropertyNameBytes, kMaxRawPropertyNameBytes);
  m.prototype = text(kMaxPrototypeBytes);
  for (std::size_t i = 0; i < kMaxMirrorProperties; ++i)
    m.properties.set(fmt::format("{:0{}}", i, kMaxPropertyKeyBytes), text(kMaxPropertyStringBytes));
  const auto framed = encode_message(m);
  ASSERT_TRUE(framed.has_value()) << framed.error().to_string();
  EXPECT_LE(framed->size(), kMaxPacketBytes);
  const auto back = decode_packet(*framed);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  ASSERT_EQ(back->size(), 1u);
  const auto* read = std::get_if<CreateMirror>(&(*back)[0]);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(*read, m);
}

TEST(NetLimitsTest, u8_lengths_reach_their_limit) {
  // The prototype key and a string property have a u8 length: the limit is the largest value it
  // can say (limit + 1 cannot be written), so the limit itself must be accepted.
  static_assert(kMaxPrototypeBytes == 255 && kMaxPropertyStringBytes == 255);
  CreateMirror m = mirror_with(0);
  m.prototype = text(kMaxPrototypeBytes);
  m.properties.set("s", text(kMaxPropertyStringBytes));
  const auto back = reread(m);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(back->prototype.size(), kMaxPrototypeBytes);
}

TEST(NetLimitsTest, sync_payload_bytes) {
  // A SYNC_STATE frame whose header declares the largest payload passes the length check (and
  // fails later, on its made-up bytes); one byte more is refused before the payload is read.
  auto frame = [](std::size_t length) {
    core::ByteWriter w;
    w.u8(static_cast<std::uint8_t>(MessageId::sync_state));
    w.u16(static_cast<std::uint16_t>(length));
    w.bytes(core::Bytes(length, 0));
    return w.take();
  };
  const auto at_limit = decode_packet(frame(kMaxSyncPayloadBytes));
  ASSERT_FALSE(at_limit.has_value());
  EXPECT_TRUE(at_limit.error().code.starts_with("net.message.")) << at_limit.error().to_string();
  const auto over = decode_packet(frame(kMaxSyncPayloadBytes + 1));
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "net.frame.oversize");
}

TEST(NetLimitsTest, packet_bytes) {
  // Text frames that fill a packet to exactly kMaxPacketBytes, then one byte more.
  auto packet = [](std::size_t size) {
    core::Bytes out;
    while (out.size() < size) {
      const std::size_t overhead = encode_message(TextForPlayer{1, 0, ""}).value().size();
      const std::size_t want = std::min(kMaxTextBytes, size - out.size() - overhead);
      const core::Bytes f = encode_message(TextForPlayer{1, 0, text(want)}).value();
      out.insert(out.end(), f.begin(), f.end());
    }
    EXPECT_EQ(out.size(), size);
    return out;
  };
  const auto ok = decode_packet(packet(kMaxPacketBytes));
  ASSERT_TRUE(ok.has_value()) << ok.error().to_string();
  const auto over = decode_packet(packet(kMaxPacketBytes + 1));
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "net.packet.oversize");
}

TEST(NetLimitsTest, resources_per_replica) {
  auto replica = Replica::create(welcome(1000)).value();
  for (std::uint32_t id = 1; id <= kMaxResources; ++id) {
    ASSERT_TRUE(replica->feed(resource("r", 3, blob(1), id)).has_value()) << id;
  }
  const auto over = replica->feed(resource("r", 3, blob(1), static_cast<std::uint32_t>(kMaxResources + 1)));
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "net.resource.limit");
  // A further chunk of a resource already under way is still accepted.
  AppendResource next = resource("r", 3, blob(1), 1);
  next.offset = 1;
  EXPECT_TRUE(replica->feed(next).has_value());
}

TEST(NetLimitsTest, messages_per_tick) {
  const SessionSetup setup = net::test::small_setup(1);
  const std::vector<Message> messages = setup_messages(setup).value();
  auto replica = Replica::create(welcome(static_cast<std::uint32_t>(messages.size()))).value();
  for (const Message& m : messages) ASSERT_TRUE(replica->feed(m).has_value());
  const Message one = TickCommand{0, 1, blob(4)};
  for (std::size_t i = 0; i < kMaxMessagesPerTick; ++i) {
    auto st = replica->feed(one);
    ASSERT_TRUE(st.has_value()) << i << ": " << st.error().to_string();
  }
  const auto over = replica->feed(one);
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "net.sequence.count");
}
