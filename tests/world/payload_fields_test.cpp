// The generic payload codec (payload_fields.hpp): one field list gives the bytes, the JSON and
// the bounded read with a diagnostic that names the field. A test payload uses every kind of
// field, the way an area outside libs/world declares its own.
#include "sortie/world/payload_fields.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>

#include "sortie/world/command.hpp"
#include "sortie/world/state_writer.hpp"

namespace sortie::world::payload_fields_test {

enum class Mode : std::uint8_t { first = 0, second = 1 };

struct Probe {
  static constexpr std::string_view kName = "test.probe";
  static constexpr CommandKindId kWireId = 1001;
  ObjectId target{};
  std::int8_t axis = 0;
  std::uint16_t count = 0;
  std::int64_t value = 0;
  float speed = 0.0f;
  std::string label{};
  bool on = false;
  Mode mode = Mode::first;
  bool left = false;
  bool right = false;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);
  friend bool operator==(const Probe&, const Probe&) = default;
};

constexpr std::string_view kModes[] = {"first", "second"};
constexpr std::string_view kSides[] = {"left", "right"};

template <class Self, class V>
void Probe::fields(Self& c, V& v) {
  v(c.target, "target");
  v(c.axis, "axis", field::Range<std::int8_t>{"test.axis", "axis -128 is not used", -127, 127});
  v(c.count, "count");
  v(c.value, "value");
  v(c.speed, "speed");
  v(c.label, "label", field::Text{8});
  v(c.on, "on", field::Flag{"test.flag"});
  v(c.mode, "mode", field::Names{"test.mode", "unknown mode", kModes});
  v.bits(field::Bits{"test.bits", "reserved side bits are set", kSides}, c.left, c.right);
}

}  // namespace sortie::world::payload_fields_test

template struct sortie::world::PayloadCodec<sortie::world::payload_fields_test::Probe>;

namespace sortie::world::payload_fields_test {
namespace {

using Codec = PayloadCodec<Probe>;

Probe sample() {
  return Probe{ObjectId{2, 7, 40}, -5, 513, -3, 1.5f, "scout", true, Mode::second, false, true};
}

// The sample's bytes, written field by field.
core::Bytes sample_bytes() {
  core::ByteWriter w;
  w.u64(ObjectId{2, 7, 40}.raw());
  w.u8(0xFB);  // -5
  w.u16(513);
  w.u64(static_cast<std::uint64_t>(std::int64_t{-3}));
  w.f32(1.5f);
  w.lp_string("scout");
  w.u8(1);
  w.u8(1);
  w.u8(2);  // right only
  return w.take();
}

// Offsets of the one-byte fields in sample_bytes().
constexpr std::size_t kAxisAt = 8;
constexpr std::size_t kLabelAt = 8 + 1 + 2 + 8 + 4;
constexpr std::size_t kFlagAt = kLabelAt + 4 + 5;
constexpr std::size_t kModeAt = kFlagAt + 1;
constexpr std::size_t kBitsAt = kModeAt + 1;

TEST(PayloadFields, writes_the_fields_in_order_and_reads_them_back) {
  const core::Bytes bytes = encode_payload(sample());
  EXPECT_EQ(bytes, sample_bytes());
  auto back = decode_payload<Probe>(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, sample());
}

TEST(PayloadFields, state_encoding_uses_the_same_list) {
  StateWriter state;
  field::ToBytes<StateWriter> v(state);
  const Probe p = sample();
  Probe::fields(p, v);
  const core::Bytes bytes = sample_bytes();
  ASSERT_EQ(state.view().size(), bytes.size());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), state.view().begin()));
}

TEST(PayloadFields, json_names_every_field_and_reads_back) {
  core::Json j = core::Json::object();
  Codec::to_json(sample(), j);
  EXPECT_EQ(j.at("target"), (core::Json{{"owner", 2}, {"class", 7}, {"index", 40}}));
  EXPECT_EQ(j.at("axis"), -5);
  EXPECT_EQ(j.at("count"), 513);
  EXPECT_EQ(j.at("value"), -3);
  EXPECT_EQ(j.at("speed"), 1.5);
  EXPECT_EQ(j.at("speed_bits"), std::bit_cast<std::uint32_t>(1.5f));
  EXPECT_EQ(j.at("label"), "scout");
  EXPECT_EQ(j.at("on"), true);
  EXPECT_EQ(j.at("mode"), "second");
  EXPECT_EQ(j.at("left"), false);
  EXPECT_EQ(j.at("right"), true);
  EXPECT_EQ(j.size(), 11u);
  auto back = Codec::from_json(j, "p");
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, sample());
}

// The byte reader's diagnostic for `bytes`: code, field path, offset, expected, found.
core::Diagnostic read_error(const core::Bytes& bytes) {
  auto r = decode_payload<Probe>(bytes);
  EXPECT_FALSE(r);
  return r ? core::Diagnostic{} : r.error();
}

TEST(PayloadFields, rejects_bad_bytes_naming_the_field) {
  core::Bytes b = sample_bytes();
  b[kAxisAt] = 0x80;
  core::Diagnostic d = read_error(b);
  EXPECT_EQ(d.code, "test.axis");
  EXPECT_EQ(d.field, "test.probe.axis");
  EXPECT_EQ(d.offset.value_or(0), kAxisAt);
  EXPECT_EQ(d.expected, "-127..127");
  EXPECT_EQ(d.found, "-128");

  b = sample_bytes();
  b[kFlagAt] = 2;
  d = read_error(b);
  EXPECT_EQ(d.code, "test.flag");
  EXPECT_EQ(d.field, "test.probe.on");
  EXPECT_EQ(d.found, "2");

  b = sample_bytes();
  b[kModeAt] = 2;
  d = read_error(b);
  EXPECT_EQ(d.code, "test.mode");
  EXPECT_EQ(d.field, "test.probe.mode");
  EXPECT_EQ(d.expected, "0 first, 1 second");

  b = sample_bytes();
  b[kBitsAt] = 4;
  d = read_error(b);
  EXPECT_EQ(d.code, "test.bits");
  EXPECT_EQ(d.field, "test.probe.left|right");
  EXPECT_EQ(d.expected, "bits 2..7 clear");
  EXPECT_EQ(d.found, "0x04");

  b = sample_bytes();
  b[kLabelAt] = 9;  // length 9 > Text{8}
  d = read_error(b);
  EXPECT_EQ(d.code, "world.command.payload.string_too_long");
  EXPECT_EQ(d.field, "test.probe.label");

  b = sample_bytes();
  b.resize(kAxisAt + 2);  // cut inside count
  d = read_error(b);
  EXPECT_EQ(d.code, "world.command.payload.eof");
  EXPECT_EQ(d.field, "test.probe.count");

  b = sample_bytes();
  b.push_back(0);
  d = read_error(b);
  EXPECT_EQ(d.code, "world.command.payload.trailing");
}

TEST(PayloadFields, rejects_bad_json_naming_the_field) {
  auto error_of = [](const core::Json& j) {
    auto r = Codec::from_json(j, "commands[0].payload");
    EXPECT_FALSE(r);
    return r ? core::Diagnostic{} : r.error();
  };
  core::Json good = core::Json::object();
  Codec::to_json(sample(), good);

  core::Json j = good;
  j["axis"] = -128;
  core::Diagnostic d = error_of(j);
  EXPECT_EQ(d.code, "command_log.field_type");
  EXPECT_EQ(d.field, "commands[0].payload.axis");
  EXPECT_EQ(d.expected, "-127..127");

  j = good;
  j["axis"] = 200;  // outside int8 altogether
  EXPECT_EQ(error_of(j).field, "commands[0].payload.axis");

  j = good;
  j.erase("count");
  d = error_of(j);
  EXPECT_EQ(d.code, "command_log.field_missing");
  EXPECT_EQ(d.field, "commands[0].payload.count");

  j = good;
  j.erase("speed_bits");
  EXPECT_EQ(error_of(j).field, "commands[0].payload.speed_bits");

  j = good;
  j["mode"] = "third";
  d = error_of(j);
  EXPECT_EQ(d.code, "command_log.field_type");
  EXPECT_EQ(d.expected, "first|second");
  EXPECT_EQ(d.found, "third");

  j = good;
  j["label"] = "ninechars";
  d = error_of(j);
  EXPECT_EQ(d.code, "command_log.field_type");
  EXPECT_EQ(d.field, "commands[0].payload.label");
  EXPECT_EQ(d.expected, "<= 8 bytes");

  j = good;
  j["right"] = 1;
  d = error_of(j);
  EXPECT_EQ(d.code, "command_log.field_type");
  EXPECT_EQ(d.field, "commands[0].payload.right");

  j = good;
  j["target"]["owner"] = -1;
  EXPECT_EQ(error_of(j).field, "commands[0].payload.target.owner");
}

}  // namespace
}  // namespace sortie::world::payload_fields_test
