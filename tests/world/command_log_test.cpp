#include <bit>
#include <limits>

#include <gtest/gtest.h>

#include "sortie/world/command.hpp"

using namespace sortie::world;
namespace core = sortie::core;

namespace {

CommandLog sample() {
  CommandLog log;
  log.commands.push_back(Command::spawn(0, 4, "тест.dat", 1.5f, -0.0f, 3.0f));
  log.commands.push_back(Command::move(3, ObjectId{1, 4, 1}, 0.1f, 1e-30f, 7.25f));
  log.commands.push_back(Command::pause(9, true));
  log.commands.push_back(Command::set_speed(9, 500));
  log.commands.push_back(Command::set_property(11, ObjectId{2, 4, 7}, "hp", -5));
  log.commands.push_back(Command::remove(12, ObjectId{1, 4, 1}));
  log.commands.push_back(Command::stop(12, ObjectId{1, 4, 2}));
  log.commands.push_back(Command::route(13, ObjectId{1, 4, 2}, {{1.0f, -0.0f}, {2.5f, 1e-30f}}, 3.0f));
  return log;
}

}  // namespace

TEST(CommandLogTest, bytes_round_trip_is_exact) {
  const CommandLog log = sample();
  const core::Bytes bytes = write_command_log(log);
  auto back = read_command_log(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, log);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(back->commands[0].y), 0x80000000u);
  EXPECT_EQ(write_command_log(*back), bytes);
}

TEST(CommandLogTest, json_round_trip_keeps_float_bits) {
  const CommandLog log = sample();
  const core::Json j = command_log_json(log);
  EXPECT_EQ(j["format"], "sortie-command-log-v1");
  EXPECT_EQ(j["commands"][1]["kind"], "move");
  EXPECT_EQ(j["commands"][1]["target"]["index"], 1);
  auto back = command_log_from_json(core::Json::parse(core::dump_json(j)));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, log);
}

TEST(CommandLogTest, rejects_bad_magic) {
  core::Bytes bytes = write_command_log(sample());
  bytes[0] = 'X';
  auto r = read_command_log(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.magic");
}

TEST(CommandLogTest, rejects_command_count_overflow) {
  core::ByteWriter w;
  for (const char c : std::string_view("SCLG")) w.u8(static_cast<std::uint8_t>(c));
  w.u32(1);
  w.u32(0xffffffffu);
  auto r = read_command_log(w.buffer());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().code.find("command_log"), std::string::npos);
}

TEST(CommandLogTest, rejects_unknown_kind_and_truncation_and_trailing_bytes) {
  core::Bytes bytes = write_command_log(sample());
  core::Bytes bad_kind = bytes;
  bad_kind[12 + 8] = 99;
  auto r = read_command_log(bad_kind);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.kind_unknown");
  EXPECT_EQ(r.error().offset, 20u);

  core::Bytes cut(bytes.begin(), bytes.end() - 3);
  EXPECT_FALSE(read_command_log(cut));
  core::Bytes longer = bytes;
  longer.push_back(0);
  auto extra = read_command_log(longer);
  ASSERT_FALSE(extra);
}

TEST(CommandLogTest, rejects_json_with_unknown_kind_or_missing_fields) {
  core::Json j = command_log_json(sample());
  j["commands"][2]["kind"] = "teleport";
  auto r = command_log_from_json(j);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.kind_unknown");
  EXPECT_EQ(r.error().field, "commands[2].kind");

  core::Json k = command_log_json(sample());
  k["commands"][0].erase("x_bits");
  auto m = command_log_from_json(k);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "command_log.field_missing");
  EXPECT_EQ(m.error().field, "commands[0].x_bits");

  core::Json t = command_log_json(sample());
  t["commands"][0]["target"]["owner"] = 70000;  // does not fit u16
  auto o = command_log_from_json(t);
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().code, "command_log.field_type");
}

TEST(CommandLogTest, route_waypoints_round_trip_exact_bits) {
  const std::vector<sortie::core::Vec2> pts{{1.0f, -0.0f}, {std::numeric_limits<float>::denorm_min(), -123.456f}};
  const std::string text = encode_waypoints(pts);
  EXPECT_EQ(text, "3f800000,80000000;00000001,c2f6e979");
  auto back = decode_waypoints(text);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>((*back)[0].y), 0x80000000u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>((*back)[1].x), 1u);
  EXPECT_EQ((*back)[1].y, -123.456f);
  const Command c = Command::route(4, ObjectId{1, 2, 3}, pts, 2.0f);
  EXPECT_EQ(c.kind, CommandKind::route);
  EXPECT_EQ(c.x, pts.back().x);
  EXPECT_EQ(c.y, pts.back().y);
  EXPECT_EQ(c.text, text);
  EXPECT_EQ(to_string(CommandKind::route), "route");
}

TEST(CommandLogTest, rejects_malformed_route_waypoints) {
  for (const char* bad : {"", "3f800000,8000000", "3f800000;80000000", "3F800000,80000000",
                          "3f800000,80000000,3f800000,80000000", "3f800000,80000000;00000001,c2f6e97g"}) {
    auto r = decode_waypoints(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, "world.command.waypoints") << bad;
  }
}
