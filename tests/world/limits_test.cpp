// Every limit of world/limits.hpp, fed at the limit (accepted) and one above (refused with its
// code). Counts and the payload size are declared without their bytes: at the limit the reader
// passes the limit check and stops at the end of the data (command_log.eof), one above it stops
// at the limit (command_log.limit).
#include "sortie/world/limits.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/command_log.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/trace.hpp"
#include "sortie/world/world.hpp"

using namespace sortie;
using namespace sortie::world;

namespace {

core::ByteWriter log_header(std::uint32_t version) {
  core::ByteWriter w;
  w.bytes(std::string_view("SCLG"));
  w.u32(version);
  return w;
}

// A set_property payload (u64 target, lp_string key, i64 value) with a key of `key_bytes`.
core::Bytes set_property_payload(std::size_t key_bytes) {
  core::ByteWriter w;
  w.u64(0);
  w.lp_string(std::string(key_bytes, 'k'));
  w.u64(1);
  return w.take();
}

// A version 2 log of one set_property command up to its payload size field, declaring `size`.
core::ByteWriter set_property_log_head(std::uint32_t size) {
  core::ByteWriter w = log_header(2);
  w.u32(1);
  w.u16(SetPropertyCommand::kWireId);
  w.lp_string(SetPropertyCommand::kName);
  w.u32(1);
  w.u64(0);
  w.u16(SetPropertyCommand::kWireId);
  w.u32(size);
  return w;
}

// A version 2 log of one set_property command with `payload`.
core::Bytes set_property_log(const core::Bytes& payload) {
  core::ByteWriter w = set_property_log_head(static_cast<std::uint32_t>(payload.size()));
  w.bytes(payload);
  return w.take();
}

void expect_code(const core::Bytes& bytes, std::string_view code) {
  const auto log = read_command_log(bytes);
  ASSERT_FALSE(log.has_value()) << "accepted, expected " << code;
  EXPECT_EQ(log.error().code, code) << log.error().to_string();
}

CommandKindInfo named_kind(std::string name) {
  CommandKindInfo k = command_kind<PauseCommand>(
      nullptr, [](World&, const PauseCommand&) { return core::Result<CommandOutcome>(CommandOutcome::applied); });
  k.name = std::move(name);
  k.wire_id = 200;
  return k;
}

}  // namespace

TEST(WorldLimits, command_kind_name_in_the_registry) {
  CommandRegistry at_limit;
  const auto ok = at_limit.register_kind(named_kind(std::string(kMaxCommandKindName, 'n')));
  EXPECT_TRUE(ok.has_value()) << ok.error().to_string();
  CommandRegistry over;
  const auto refused = over.register_kind(named_kind(std::string(kMaxCommandKindName + 1, 'n')));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, "world.command.registry");
}

TEST(WorldLimits, command_kind_name_in_a_log) {
  auto table_of = [](std::size_t name_bytes) {
    core::ByteWriter w = log_header(2);
    w.u32(1);
    w.u16(200);
    w.lp_string(std::string(name_bytes, 'n'));
    w.u32(0);
    return w.take();
  };
  // At the limit the name is read and then looked up (no kind 200 in the standard registry).
  expect_code(table_of(kMaxCommandKindName), "command_log.kind_unknown");
  expect_code(table_of(kMaxCommandKindName + 1), "command_log.string_too_long");
  // A registry with a name of the limit writes a log that reads back.
  CommandRegistry registry;
  ASSERT_TRUE(registry.register_kind(named_kind(std::string(kMaxCommandKindName, 'n'))).has_value());
  CommandLog log;
  log.commands.push_back(Command{3, 200, encode_payload(PauseCommand{true})});
  const auto bytes = write_command_log(log, registry);
  ASSERT_TRUE(bytes.has_value()) << bytes.error().to_string();
  const auto back = read_command_log(*bytes, registry);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(back->commands, log.commands);
}

TEST(WorldLimits, payload_string) {
  const auto at_limit = read_command_log(set_property_log(set_property_payload(kMaxPayloadStringBytes)));
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().to_string();
  ASSERT_EQ(at_limit->commands.size(), 1u);
  const auto decoded = decode_payload<SetPropertyCommand>(at_limit->commands[0].payload);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().to_string();
  EXPECT_EQ(decoded->key.size(), kMaxPayloadStringBytes);
  expect_code(set_property_log(set_property_payload(kMaxPayloadStringBytes + 1)),
              "command_log.payload.string_too_long");
}

TEST(WorldLimits, legacy_text) {
  auto v1_of = [](std::size_t text_bytes) {
    core::ByteWriter w = log_header(1);
    w.u32(1);
    w.u64(0);
    w.u8(static_cast<std::uint8_t>(SetPropertyCommand::kWireId));
    w.u64(ObjectId{}.raw());
    for (int i = 0; i < 4; ++i) w.f32(0.0f);
    w.u64(1);
    w.lp_string(std::string(text_bytes, 't'));
    return w.take();
  };
  const auto at_limit = read_command_log(v1_of(kMaxPayloadStringBytes));
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().to_string();
  EXPECT_EQ(at_limit->commands.size(), 1u);
  expect_code(v1_of(kMaxPayloadStringBytes + 1), "command_log.string_too_long");
}

TEST(WorldLimits, command_payload_bytes) {
  auto declared = [](std::uint32_t size) { return set_property_log_head(size).take(); };
  expect_code(declared(kMaxCommandPayloadBytes), "command_log.eof");
  expect_code(declared(kMaxCommandPayloadBytes + 1), "command_log.limit");
  // The writer refuses what the reader would.
  CommandLog log;
  log.commands.push_back(Command{0, SetPropertyCommand::kWireId, core::Bytes(kMaxCommandPayloadBytes + 1, 0)});
  const auto bytes = write_command_log(log);
  ASSERT_FALSE(bytes.has_value());
  EXPECT_EQ(bytes.error().code, "command_log.limit");
}

TEST(WorldLimits, log_kinds) {
  auto declared = [](std::uint32_t count) {
    core::ByteWriter w = log_header(2);
    w.u32(count);
    return w.take();
  };
  expect_code(declared(kMaxLogKinds), "command_log.eof");
  expect_code(declared(kMaxLogKinds + 1), "command_log.limit");
}

TEST(WorldLimits, log_commands) {
  auto declared = [](std::uint32_t version, std::uint32_t count) {
    core::ByteWriter w = log_header(version);
    if (version == 2) w.u32(0);  // no kinds
    w.u32(count);
    return w.take();
  };
  for (std::uint32_t version : {1u, 2u}) {
    SCOPED_TRACE(version);
    expect_code(declared(version, kMaxLogCommands), "command_log.eof");
    expect_code(declared(version, kMaxLogCommands + 1), "command_log.limit");
  }
}

namespace {

// kMaxTraceLines is TraceOptions::max_lines' default (hundreds of MiB at most): a small override
// is fed at its limit (every line kept) and one above (the extra line counted as dropped).
TEST(WorldLimits, trace_lines) {
  EXPECT_EQ(sortie::world::TraceOptions{}.max_lines, kMaxTraceLines);
  TraceOptions o;
  o.channels = {"queue"};
  o.max_lines = 3;
  Trace t(o);
  for (int i = 0; i < 3; ++i) t.write("queue", "line");
  EXPECT_EQ(t.lines().size(), 3u);
  EXPECT_EQ(t.dropped(), 0u);
  t.write("queue", "one more");
  EXPECT_EQ(t.lines().size(), 3u);
  EXPECT_EQ(t.dropped(), 1u);
}

}  // namespace
