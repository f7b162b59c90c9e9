// Command logs: version 2 bytes and JSON (written), version 1 bytes and JSON (still read).
#include "sortie/world/command_log.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include "sortie/core/hash.hpp"
#include "sortie/move/demo_world.hpp"
#include "sortie/move/v1_commands.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/replay.hpp"
#include "v1_world.hpp"

using namespace sortie::world;
using namespace sortie::move;
using sortie::move::test::v1_registry;
namespace core = sortie::core;
using core::Vec2;

namespace {

CommandLog sample() {
  CommandLog log;
  log.commands.push_back(make_command(0, SpawnCommand{4, "тест.dat", {1.5f, -0.0f, 3.0f}}));
  log.commands.push_back(make_command(3, MoveCommand{ObjectId{1, 4, 1}, {0.1f, 1e-30f}, 7.25f}));
  log.commands.push_back(make_command(9, PauseCommand{true}));
  log.commands.push_back(make_command(9, SetSpeedCommand{500}));
  log.commands.push_back(make_command(11, SetPropertyCommand{ObjectId{2, 4, 7}, "hp", -5}));
  log.commands.push_back(make_command(12, RemoveCommand{ObjectId{1, 4, 1}}));
  log.commands.push_back(make_command(12, StopCommand{ObjectId{1, 4, 2}}));
  log.commands.push_back(make_command(13, RouteCommand{ObjectId{1, 4, 2}, {{1.0f, -0.0f}, {2.5f, 1e-30f}}, 3.0f}));
  return log;
}

core::Bytes bytes_of(const CommandLog& log) {
  auto bytes = write_command_log(log, *v1_registry());
  EXPECT_TRUE(bytes) << bytes.error().to_string();
  return bytes ? *bytes : core::Bytes{};
}

core::Bytes file_bytes(const std::string& name) {
  std::ifstream in(std::string(SORTIE_TEST_DATA_DIR) + "/golden/command_log_v1/" + name, std::ios::binary);
  return core::Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// One version 1 record, byte by byte (the v1 layout; only the reader exists any more).
void v1_record(core::ByteWriter& w, std::uint64_t tick, std::uint8_t kind, ObjectId target, float x, float y, float z,
               float speed, std::int64_t value, std::string_view text) {
  w.u64(tick);
  w.u8(kind);
  w.u64(target.raw());
  w.f32(x);
  w.f32(y);
  w.f32(z);
  w.f32(speed);
  w.u64(static_cast<std::uint64_t>(value));
  w.lp_string(text);
}

core::ByteWriter v1_header(std::uint32_t count) {
  core::ByteWriter w;
  w.bytes(std::string_view("SCLG"));
  w.u32(1);
  w.u32(count);
  return w;
}

// A version 2 log with one kind table entry and one command, for hostile edits.
core::ByteWriter v2_one(std::uint16_t table_id, std::string_view table_name, std::uint16_t command_id,
                        const core::Bytes& payload) {
  core::ByteWriter w;
  w.bytes(std::string_view("SCLG"));
  w.u32(2);
  w.u32(1);
  w.u16(table_id);
  w.lp_string(table_name);
  w.u32(1);
  w.u64(9);
  w.u16(command_id);
  w.u32(static_cast<std::uint32_t>(payload.size()));
  w.bytes(payload);
  return w;
}

}  // namespace

// ---------------------------------------------------------------- version 2 bytes

TEST(CommandLogTest, bytes_round_trip_is_exact) {
  const CommandLog log = sample();
  const core::Bytes bytes = bytes_of(log);
  auto back = read_command_log(bytes, *v1_registry());
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, log);
  auto spawn = payload_of<SpawnCommand>(back->commands[0]);
  ASSERT_TRUE(spawn);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(spawn->position.y), 0x80000000u);
  EXPECT_EQ(spawn->prototype, "тест.dat");
  EXPECT_EQ(bytes_of(*back), bytes);
}

TEST(CommandLogTest, writes_the_version_2_layout) {
  CommandLog log;
  log.commands.push_back(make_command(9, PauseCommand{true}));
  log.commands.push_back(make_command(10, StopCommand{ObjectId{1, 2, 3}}));
  log.commands.push_back(make_command(11, PauseCommand{false}));
  const core::Bytes expected = {
      'S', 'C', 'L', 'G', 2, 0, 0,   0,                               // magic, version 2
      2,   0,   0,   0,                                               // two kinds, ascending wire id
      2,   0,   4,   0,   0, 0, 's', 't', 'o', 'p',                   // 2 "stop"
      3,   0,   5,   0,   0, 0, 'p', 'a', 'u', 's', 'e',              // 3 "pause"
      3,   0,   0,   0,                                               // three commands
      9,   0,   0,   0,   0, 0, 0,   0,   3,   0,   1,   0, 0, 0, 1,  // tick 9, pause, 1 byte: 1
      10,  0,   0,   0,   0, 0, 0,   0,   2,   0,   8,   0, 0, 0, 3, 0, 0, 0, 2, 0, 1, 0,  // stop p1:c2:#3
      11,  0,   0,   0,   0, 0, 0,   0,   3,   0,   1,   0, 0, 0, 0,                       // tick 11, pause 0
  };
  EXPECT_EQ(bytes_of(log), expected);
}

TEST(CommandLogTest, empty_log_round_trips) {
  const core::Bytes bytes = bytes_of(CommandLog{});
  EXPECT_EQ(bytes.size(), 16u);
  auto back = read_command_log(bytes, *v1_registry());
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->commands.empty());
}

TEST(CommandLogTest, rejects_bad_magic_and_unknown_version) {
  core::Bytes bytes = bytes_of(sample());
  bytes[0] = 'X';
  auto r = read_command_log(bytes, *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.magic");
  core::Bytes v3 = bytes_of(sample());
  v3[4] = 3;
  auto v = read_command_log(v3, *v1_registry());
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "command_log.version");
  EXPECT_EQ(v.error().found, "3");
}

TEST(CommandLogTest, rejects_command_count_overflow) {
  core::ByteWriter w;
  w.bytes(std::string_view("SCLG"));
  w.u32(2);
  w.u32(0);
  w.u32(0xffffffffu);
  auto r = read_command_log(w.buffer(), *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.limit");  // world/limits.hpp kMaxLogCommands, before the bytes left
}

TEST(CommandLogTest, rejects_kind_count_overflow) {
  core::ByteWriter w;
  w.bytes(std::string_view("SCLG"));
  w.u32(2);
  w.u32(0x40000000u);
  auto r = read_command_log(w.buffer(), *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.limit");  // world/limits.hpp kMaxLogKinds
}

TEST(CommandLogTest, rejects_unknown_kind_naming_it) {
  auto r = read_command_log(v2_one(99, "teleport", 99, {1}).buffer(), *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.kind_unknown");
  EXPECT_NE(r.error().message.find("'teleport' (wire id 99)"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().field, "kinds[0]");
  EXPECT_EQ(r.error().offset, 12u);
}

TEST(CommandLogTest, rejects_wire_id_of_another_kind) {
  auto r = read_command_log(v2_one(3, "stop", 3, {1}).buffer(), *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.kind_mismatch");
  EXPECT_EQ(r.error().expected, "pause");
  EXPECT_EQ(r.error().found, "stop");
}

TEST(CommandLogTest, rejects_command_of_a_kind_missing_from_the_table) {
  auto r = read_command_log(v2_one(3, "pause", 2, core::Bytes(8, 0)).buffer(), *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.kind_undeclared");
  EXPECT_EQ(r.error().field, "commands[0].kind");
}

TEST(CommandLogTest, rejects_kind_table_out_of_order_or_unused) {
  CommandLog log;
  log.commands.push_back(make_command(1, PauseCommand{true}));
  log.commands.push_back(make_command(1, StopCommand{}));
  core::Bytes bytes = bytes_of(log);
  // Swap the two table entries: 2 "stop" (10 bytes) then 3 "pause" (11 bytes).
  core::Bytes swapped(bytes.begin(), bytes.begin() + 12);
  swapped.insert(swapped.end(), bytes.begin() + 22, bytes.begin() + 33);
  swapped.insert(swapped.end(), bytes.begin() + 12, bytes.begin() + 22);
  swapped.insert(swapped.end(), bytes.begin() + 33, bytes.end());
  ASSERT_EQ(swapped.size(), bytes.size());
  auto order = read_command_log(swapped, *v1_registry());
  ASSERT_FALSE(order);
  EXPECT_EQ(order.error().code, "command_log.kind_order");

  core::ByteWriter w;
  w.bytes(std::string_view("SCLG"));
  w.u32(2);
  w.u32(1);
  w.u16(3);
  w.lp_string("pause");
  w.u32(0);
  auto unused = read_command_log(w.buffer(), *v1_registry());
  ASSERT_FALSE(unused);
  EXPECT_EQ(unused.error().code, "command_log.kind_unused");
  EXPECT_EQ(unused.error().found, "pause");
}

TEST(CommandLogTest, rejects_malformed_payloads) {
  auto bad_bool = read_command_log(v2_one(3, "pause", 3, {2}).buffer(), *v1_registry());
  ASSERT_FALSE(bad_bool);
  EXPECT_EQ(bad_bool.error().code, "world.command.pause.flag");
  EXPECT_EQ(bad_bool.error().field, "commands[0].payload.paused");
  auto short_move = read_command_log(v2_one(1, "move", 1, core::Bytes(15, 0)).buffer(), *v1_registry());
  ASSERT_FALSE(short_move);
  EXPECT_EQ(short_move.error().code, "command_log.payload.eof");
  auto long_pause = read_command_log(v2_one(3, "pause", 3, {1, 0}).buffer(), *v1_registry());
  ASSERT_FALSE(long_pause);
  EXPECT_EQ(long_pause.error().code, "command_log.payload.trailing");
  // the payload size runs past the end of the log
  core::Bytes past = v2_one(3, "pause", 3, {1}).take();
  past[past.size() - 5] = 2;
  auto p = read_command_log(past, *v1_registry());
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code, "command_log.eof");
}

TEST(CommandLogTest, rejects_truncation_and_trailing_bytes) {
  const core::Bytes bytes = bytes_of(sample());
  for (std::size_t cut = 1; cut < bytes.size(); cut += 7) {
    core::Bytes shorter(bytes.begin(), bytes.end() - static_cast<std::ptrdiff_t>(cut));
    EXPECT_FALSE(read_command_log(shorter, *v1_registry())) << cut;
  }
  core::Bytes longer = bytes;
  longer.push_back(0);
  auto extra = read_command_log(longer, *v1_registry());
  ASSERT_FALSE(extra);
  EXPECT_EQ(extra.error().code, "command_log.trailing");
}

TEST(CommandLogTest, writer_rejects_unknown_kinds_and_malformed_payloads) {
  CommandLog log;
  log.commands.push_back(Command{1, 777, {}});
  auto r = write_command_log(log, *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.kind_unknown");
  EXPECT_EQ(r.error().field, "commands[0].kind");
  CommandLog bad;
  bad.commands.push_back(Command{1, PauseCommand::kWireId, {}});
  auto p = write_command_log(bad, *v1_registry());
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().code, "command_log.payload.eof");
  EXPECT_FALSE(command_log_json(bad, *v1_registry()));
}

// ---------------------------------------------------------------- version 2 JSON

TEST(CommandLogTest, json_round_trip_keeps_float_bits) {
  const CommandLog log = sample();
  auto j = command_log_json(log, *v1_registry());
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["format"], "sortie-command-log-v2");
  EXPECT_EQ((*j)["commands"][1]["kind"], "move");
  EXPECT_EQ((*j)["commands"][1]["tick"], 3);
  EXPECT_EQ((*j)["commands"][1]["payload"]["target"]["index"], 1);
  EXPECT_EQ((*j)["commands"][1]["payload"]["x_bits"], std::bit_cast<std::uint32_t>(0.1f));
  EXPECT_EQ((*j)["commands"][0]["payload"]["y_bits"], 0x80000000u);
  EXPECT_EQ((*j)["commands"][2]["payload"]["paused"], true);
  EXPECT_EQ((*j)["commands"][7]["payload"]["waypoints"][1]["y_bits"], std::bit_cast<std::uint32_t>(1e-30f));
  auto back = command_log_from_json(core::Json::parse(core::dump_json(*j)), *v1_registry());
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, log);
}

TEST(CommandLogTest, rejects_json_with_unknown_kind_or_bad_fields) {
  core::Json j = *command_log_json(sample(), *v1_registry());
  j["commands"][2]["kind"] = "teleport";
  auto r = command_log_from_json(j, *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.kind_unknown");
  EXPECT_EQ(r.error().field, "commands[2].kind");
  EXPECT_NE(r.error().message.find("'teleport'"), std::string::npos);

  core::Json k = *command_log_json(sample(), *v1_registry());
  k["commands"][1]["payload"].erase("x_bits");
  auto m = command_log_from_json(k, *v1_registry());
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "command_log.field_missing");
  EXPECT_EQ(m.error().field, "commands[1].payload.x_bits");

  core::Json t = *command_log_json(sample(), *v1_registry());
  t["commands"][1]["payload"]["target"]["owner"] = 70000;  // does not fit u16
  auto o = command_log_from_json(t, *v1_registry());
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().code, "command_log.field_type");
  EXPECT_EQ(o.error().field, "commands[1].payload.target.owner");

  core::Json n = *command_log_json(sample(), *v1_registry());
  n["commands"][3]["payload"]["scale_permille"] = -1;
  EXPECT_EQ(command_log_from_json(n, *v1_registry()).error().code, "command_log.field_type");

  core::Json p = *command_log_json(sample(), *v1_registry());
  p["commands"][0].erase("payload");
  EXPECT_EQ(command_log_from_json(p, *v1_registry()).error().field, "commands[0].payload");

  core::Json f = *command_log_json(sample(), *v1_registry());
  f["format"] = "sortie-command-log-v9";
  EXPECT_EQ(command_log_from_json(f, *v1_registry()).error().code, "command_log.format");
}

// ---------------------------------------------------------------- version 1 (read only)

namespace {

// The commands of golden/command_log_v1, written by the pre-registry world (see hashes.txt).
CommandLog golden_v1_log() {
  CommandLog log;
  log.commands.push_back(make_command(3, MoveCommand{ObjectId{1, 1, 2}, {10.0f, -0.0f}, 6.0f}));
  log.commands.push_back(make_command(5, SpawnCommand{9, "crate", {1.0f, 2.0f, 0.0f}}));
  log.commands.push_back(make_command(6, SetPropertyCommand{ObjectId{1, 9, 1}, "loot", 42}));
  log.commands.push_back(make_command(50, PauseCommand{true}));
  log.commands.push_back(make_command(60, PauseCommand{false}));
  log.commands.push_back(make_command(70, SetSpeedCommand{2500}));
  log.commands.push_back(
      make_command(80, RouteCommand{ObjectId{1, 1, 3}, {{1.0f, 2.0f}, {30.5f, 2.0f}, {30.5f, 1e-30f}}, 5.0f}));
  log.commands.push_back(make_command(150, StopCommand{ObjectId{1, 1, 3}}));
  log.commands.push_back(make_command(151, MoveCommand{ObjectId{1, 1, 77}, {1.0f, 1.0f}, 1.0f}));
  log.commands.push_back(make_command(200, RemoveCommand{ObjectId{1, 9, 1}}));
  log.commands.push_back(make_command(201, SetSpeedCommand{1000}));
  return log;
}

}  // namespace

TEST(CommandLogV1Test, reads_golden_bytes_and_json_written_by_the_old_world) {
  const core::Bytes bytes = file_bytes("commands.sclg");
  ASSERT_EQ(bytes.size(), 569u);
  auto from_bytes = read_command_log(bytes, *v1_registry());
  ASSERT_TRUE(from_bytes) << from_bytes.error().to_string();
  EXPECT_EQ(*from_bytes, golden_v1_log());
  const core::Bytes text = file_bytes("commands.json");
  auto from_json = command_log_from_json(core::Json::parse(text.begin(), text.end()), *v1_registry());
  ASSERT_TRUE(from_json) << from_json.error().to_string();
  EXPECT_EQ(*from_json, golden_v1_log());
  // Once read, a v1 log is written as version 2 and reads back the same.
  auto again = read_command_log(bytes_of(*from_bytes), *v1_registry());
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *from_bytes);
}

TEST(CommandLogV1Test, golden_v1_log_replays_to_the_hashes_of_the_old_world) {
  std::map<std::size_t, std::string> expected;  // tick -> hash, from hashes.txt
  {
    const core::Bytes text = file_bytes("hashes.txt");
    std::istringstream in(std::string(text.begin(), text.end()));
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::size_t tick = 0;
      std::string hash;
      fields >> tick >> hash;
      expected[tick] = hash;
    }
  }
  ASSERT_EQ(expected.size(), 8u);
  auto log = read_command_log(file_bytes("commands.sclg"), *v1_registry());
  ASSERT_TRUE(log);
  const WorldSetup setup = [](World& w) { return populate_demo_world(w, DemoConfig{.units = 8}); };
  auto result = replay(*log, WorldConfig{.seed = 0x5eed'0003, .commands = v1_registry()}, setup, 400);
  ASSERT_TRUE(result) << result.error().to_string();
  for (const auto& [tick, hash] : expected) {
    EXPECT_EQ(core::hash_hex(result->hashes.at(tick - 1)), hash) << "after tick " << tick;
  }
  EXPECT_EQ(core::hash_hex(result->final_hash), "9deb3ed989ce6a71");
}

TEST(CommandLogV1Test, rejects_unknown_v1_kind) {
  core::ByteWriter w = v1_header(1);
  v1_record(w, 0, 99, {}, 0, 0, 0, 0, 0, "");
  auto r = read_command_log(w.buffer(), *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.kind_unknown");
  EXPECT_EQ(r.error().offset, 20u);
  EXPECT_EQ(r.error().field, "commands[0].kind");
  EXPECT_EQ(r.error().found, "99");
}

TEST(CommandLogV1Test, rejects_v1_count_overflow) {
  core::ByteWriter w = v1_header(0xffffffffu);
  auto r = read_command_log(w.buffer(), *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.limit");  // world/limits.hpp kMaxLogCommands
}

TEST(CommandLogV1Test, rejects_v1_fields_the_kind_does_not_use) {
  core::ByteWriter z = v1_header(1);
  v1_record(z, 0, MoveCommand::kWireId, ObjectId{1, 1, 1}, 1.0f, 2.0f, 3.0f, 4.0f, 0, "");
  auto r = read_command_log(z.buffer(), *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.legacy_field");
  EXPECT_EQ(r.error().field, "commands[0].z");
  EXPECT_EQ(r.error().offset, 12u);

  core::ByteWriter text = v1_header(1);
  v1_record(text, 0, PauseCommand::kWireId, {}, 0, 0, 0, 0, 1, "x");
  EXPECT_EQ(read_command_log(text.buffer(), *v1_registry()).error().field, "commands[0].text");

  core::ByteWriter pause = v1_header(1);
  v1_record(pause, 0, PauseCommand::kWireId, {}, 0, 0, 0, 0, 2, "");
  EXPECT_EQ(read_command_log(pause.buffer(), *v1_registry()).error().field, "commands[0].value");

  core::ByteWriter spawn = v1_header(1);
  v1_record(spawn, 0, SpawnCommand::kWireId, {}, 0, 0, 0, 0, 70000, "crate");
  EXPECT_EQ(read_command_log(spawn.buffer(), *v1_registry()).error().code, "command_log.legacy_field");

  core::ByteWriter route = v1_header(1);
  v1_record(route, 0, RouteCommand::kWireId, ObjectId{1, 1, 1}, 1.0f, 9.0f, 0, 2.0f, 0, "3f800000,40000000");
  auto mismatch = read_command_log(route.buffer(), *v1_registry());
  ASSERT_FALSE(mismatch);
  EXPECT_EQ(mismatch.error().code, "command_log.legacy_field");
  EXPECT_EQ(mismatch.error().expected, "3f800000,40000000");
}

TEST(CommandLogV1Test, reads_each_v1_kind_into_its_payload) {
  core::ByteWriter w = v1_header(3);
  v1_record(w, 4, RouteCommand::kWireId, ObjectId{1, 1, 1}, 1.0f, 2.0f, 0, 2.0f, 0, "3f800000,40000000");
  v1_record(w, 5, SetPropertyCommand::kWireId, ObjectId{1, 2, 3}, 0, 0, 0, 0, -7, "hp");
  v1_record(w, 6, SpawnCommand::kWireId, {}, 1.0f, -0.0f, 2.0f, 0, 65535, "jeep");
  auto r = read_command_log(w.buffer(), *v1_registry());
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->commands.size(), 3u);
  auto route = payload_of<RouteCommand>(r->commands[0]);
  ASSERT_TRUE(route);
  EXPECT_EQ(*route, (RouteCommand{ObjectId{1, 1, 1}, {{1.0f, 2.0f}}, 2.0f}));
  EXPECT_EQ(r->commands[0].tick, 4u);
  EXPECT_EQ(payload_of<SetPropertyCommand>(r->commands[1]).value(), (SetPropertyCommand{ObjectId{1, 2, 3}, "hp", -7}));
  auto spawn = payload_of<SpawnCommand>(r->commands[2]);
  ASSERT_TRUE(spawn);
  EXPECT_EQ(spawn->class_id, 65535);
  EXPECT_EQ(spawn->prototype, "jeep");
  EXPECT_EQ(std::bit_cast<std::uint32_t>(spawn->position.y), 0x80000000u);
  EXPECT_FALSE(payload_of<MoveCommand>(r->commands[2]));  // another kind
}

TEST(CommandLogV1Test, rejects_v1_json_route_whose_xy_is_not_the_last_waypoint) {
  const core::Bytes text = file_bytes("commands.json");
  core::Json j = core::Json::parse(text.begin(), text.end());
  ASSERT_EQ(j["commands"][6]["kind"], "route");
  j["commands"][6]["x_bits"] = 0;
  auto r = command_log_from_json(j, *v1_registry());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "command_log.legacy_field");
  EXPECT_EQ(r.error().field, "commands[6].x");
  j["commands"][6]["kind"] = "warp";
  EXPECT_EQ(command_log_from_json(j, *v1_registry()).error().code, "command_log.kind_unknown");
}

// ---------------------------------------------------------------- v1 route text

TEST(CommandLogV1Test, route_waypoint_text_round_trips_exact_bits) {
  const std::vector<Vec2> pts{{1.0f, -0.0f}, {std::numeric_limits<float>::denorm_min(), -123.456f}};
  const std::string text = encode_waypoints(pts);
  EXPECT_EQ(text, "3f800000,80000000;00000001,c2f6e979");
  auto back = decode_waypoints(text);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>((*back)[0].y), 0x80000000u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>((*back)[1].x), 1u);
  EXPECT_EQ((*back)[1].y, -123.456f);
}

TEST(CommandLogV1Test, rejects_malformed_route_waypoint_text) {
  for (const char* bad : {"", "3f800000,8000000", "3f800000;80000000", "3F800000,80000000",
                          "3f800000,80000000,3f800000,80000000", "3f800000,80000000;00000001,c2f6e97g"}) {
    auto r = decode_waypoints(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, "world.command.waypoints") << bad;
  }
}
