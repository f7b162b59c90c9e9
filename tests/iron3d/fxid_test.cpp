#include "sortie/iron3d/fxid.hpp"

#include <gtest/gtest.h>

using namespace sortie;
using namespace sortie::iron3d;

namespace {

core::Bytes header(std::uint32_t count) {
  core::ByteWriter w;
  w.u32(count), w.u32(1), w.f32(1.0f);
  w.zeros(60 - 12);
  return w.take();
}

// §31.6: header + opcode 6 + opcode 2 with sounds.lib/boom.wav at +84.
core::Bytes vector_31_6() {
  core::ByteWriter w;
  w.bytes(core::ByteView(header(2)));
  w.u32(0x106);
  w.u32(0x102);
  w.zeros(80);
  w.fixed_string(core::FixedString::make("sounds.lib", 32));
  w.fixed_string(core::FixedString::make("boom.wav", 32));
  return w.take();
}

}  // namespace

TEST(Fxid, decodes_spec_vector_31_6) {
  const auto bytes = vector_31_6();
  ASSERT_EQ(bytes.size(), 212u);
  auto fx = read_fxid(bytes);
  ASSERT_TRUE(fx) << fx.error().to_string();
  ASSERT_EQ(fx->commands.size(), 2u);
  EXPECT_EQ(fx->commands[0].opcode(), 6u);
  EXPECT_TRUE(fx->commands[0].enabled());
  EXPECT_EQ(fx->commands[1].opcode(), 2u);
  EXPECT_EQ(fx->header.time_mode, 1u);
  EXPECT_EQ(fx->header.duration_seconds, 1.0f);
  const auto refs = fxid_references(*fx);
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0].command, 1u);
  EXPECT_EQ(refs[0].archive, "sounds.lib");
  EXPECT_EQ(refs[0].name, "boom.wav");
  EXPECT_EQ(write_fxid(*fx), bytes);
}

TEST(Fxid, all_ten_opcodes_with_their_sizes_round_trip) {
  Fxid fx;
  fx.header.time_mode = 2;
  for (std::uint32_t op = 1; op <= 10; ++op) fx.commands.push_back(*make_fxid_command(op, op % 2 == 0));
  const auto bytes = write_fxid(fx);
  std::size_t expect = 60;
  for (std::uint32_t op = 1; op <= 10; ++op) expect += fxid_command_size(op);
  EXPECT_EQ(bytes.size(), expect);
  auto back = read_fxid(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, fx);
  EXPECT_TRUE(fxid_references(*back).empty());
}

TEST(Fxid, builder_places_references_at_opcode_offsets_and_keeps_tails) {
  Fxid fx;
  fx.commands.push_back(*make_fxid_command(3, true, "material.lib", "fire"));
  fx.commands.push_back(*make_fxid_command(8, true, "material.lib", "smoke"));
  fx.commands.push_back(*make_fxid_command(1, true, "material.lib", "light_w"));
  auto bytes = write_fxid(fx);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data() + 60 + 136), 12), "material.lib");
  bytes[60 + 136 + 32 + 6] = 'Z';  // after "fire\0"
  auto back = read_fxid(bytes);
  ASSERT_TRUE(back);
  auto refs = fxid_references(*back);
  ASSERT_EQ(refs.size(), 3u);
  EXPECT_EQ(refs[0].name, "fire");
  EXPECT_TRUE(refs[0].name_raw.has_tail());
  EXPECT_EQ(refs[1].name, "smoke");
  EXPECT_EQ(refs[2].opcode, 1u);
  EXPECT_EQ(write_fxid(*back), bytes);
  auto no_reference = make_fxid_command(6, true, "a", "b");
  ASSERT_FALSE(no_reference);
  EXPECT_EQ(no_reference.error().code, "builder.fxid");
  EXPECT_EQ(no_reference.error().expected, "opcode with a reference");
  EXPECT_EQ(no_reference.error().found, "6");
  auto unknown = make_fxid_command(11, true);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, "builder.fxid");
  EXPECT_EQ(unknown.error().expected, "1..10");
  EXPECT_EQ(unknown.error().found, "11");
}

TEST(Fxid, rejects_short_header) {
  auto fx = read_fxid(core::Bytes(59, 0));
  ASSERT_FALSE(fx);
  EXPECT_EQ(fx.error().code, "fxid.size");
}

TEST(Fxid, rejects_opcode_99) {
  auto b = header(1);
  core::ByteWriter w;
  w.bytes(core::ByteView(b));
  w.u32(99);
  auto fx = read_fxid(w.take());
  ASSERT_FALSE(fx);
  EXPECT_EQ(fx.error().code, "fxid.opcode_unknown");
  EXPECT_EQ(fx.error().offset, 60u);
  EXPECT_EQ(fx.error().found, "99");
}

TEST(Fxid, rejects_count_2_with_one_command) {
  auto b = header(2);
  core::ByteWriter w;
  w.bytes(core::ByteView(b));
  w.u32(0x106);
  auto fx = read_fxid(w.take());
  ASSERT_FALSE(fx);
  EXPECT_EQ(fx.error().code, "fxid.command_count");
}

TEST(Fxid, rejects_zero_opcode_word) {
  auto b = header(2);
  core::ByteWriter w;
  w.bytes(core::ByteView(b));
  w.u32(0x106);
  w.zeros(4 + 2);  // second word 0x00000000: opcode 0 is not a command
  auto fx = read_fxid(w.take());
  ASSERT_FALSE(fx);
  EXPECT_EQ(fx.error().code, "fxid.opcode_unknown");
  EXPECT_EQ(fx.error().offset, 64u);
}

TEST(Fxid, rejects_command_missing_its_word) {
  auto b = header(2);
  core::ByteWriter w;
  w.bytes(core::ByteView(b));
  w.u32(0x102);
  w.zeros(144 + 2);  // opcode 2 body, then only 2 bytes where the next word should be
  auto fx = read_fxid(w.take());
  ASSERT_FALSE(fx);
  EXPECT_EQ(fx.error().code, "fxid.command_eof");
  EXPECT_EQ(fx.error().offset, 60u + 148u);
  EXPECT_EQ(fx.error().field, "commands[1]");
}

TEST(Fxid, rejects_command_past_the_end) {
  auto b = header(1);
  core::ByteWriter w;
  w.bytes(core::ByteView(b));
  w.u32(0x102);
  w.zeros(10);
  auto fx = read_fxid(w.take());
  ASSERT_FALSE(fx);
  EXPECT_EQ(fx.error().code, "fxid.command_size");
}

TEST(Fxid, rejects_huge_command_count_before_allocating) {
  auto b = header(0xFFFFFFFF);
  auto fx = read_fxid(b);
  ASSERT_FALSE(fx);
  EXPECT_EQ(fx.error().code, "fxid.command_count");
}

TEST(Fxid, rejects_one_trailing_byte) {
  auto b = vector_31_6();
  b.push_back(0);
  auto fx = read_fxid(b);
  ASSERT_FALSE(fx);
  EXPECT_EQ(fx.error().code, "fxid.trailing");
  EXPECT_EQ(fx.error().offset, 212u);
}

TEST(Fxid, format_info_by_name) {
  const auto info = fxid_format_info();
  EXPECT_EQ(info.detect(vector_31_6(), "boom.fxid"), 2);
  EXPECT_EQ(info.detect(vector_31_6(), "boom.bin"), 0);
  auto j = info.inspect(vector_31_6(), {});
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["references"][0]["name"]["text"], "boom.wav");
}
