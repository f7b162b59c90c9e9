#include "sortie/core/bytes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace sortie::core;

TEST(ByteReader, reads_little_endian_values) {
  const Bytes data = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x00, 0x00, 0x80, 0x3f, 0xff, 0xff, 0xff, 0xff};
  ByteReader r(data);
  EXPECT_EQ(*r.u8(), 0x01);
  EXPECT_EQ(*r.u16(), 0x0302);
  EXPECT_EQ(*r.u8(), 0x04);
  EXPECT_EQ(*r.u16(), 0x0605);
  EXPECT_EQ(*r.f32(), std::bit_cast<float>(std::uint32_t{0x3f800000}));
  EXPECT_EQ(*r.i32(), -1);
  EXPECT_TRUE(r.at_end());
  EXPECT_TRUE(r.require_end().has_value());
}

TEST(ByteReader, reports_eof_with_offset_and_sizes) {
  const Bytes data = {0x01, 0x02, 0x03};
  ByteReader r(data, "x.bin", 0x100);
  r.set_code_prefix("tma");
  ASSERT_TRUE(r.u8().has_value());
  auto v = r.u32();
  ASSERT_FALSE(v.has_value());
  EXPECT_EQ(v.error().code, "tma.eof");
  EXPECT_EQ(v.error().offset, 0x101u);
  EXPECT_EQ(v.error().file, "x.bin");
  EXPECT_EQ(v.error().expected, "4 bytes");
  EXPECT_EQ(v.error().found, "2 bytes left");
  EXPECT_EQ(r.offset(), 1u);  // a failed read does not move the cursor
}

TEST(ByteReader, rejects_count_times_stride_overflow) {
  const Bytes data(16, 0);
  ByteReader r(data);
  auto c = r.check_count(std::numeric_limits<std::uint64_t>::max() / 2, 4, "points");
  ASSERT_FALSE(c.has_value());
  EXPECT_EQ(c.error().code, "bytes.overflow");
}

TEST(ByteReader, rejects_count_past_remaining_bytes_before_allocation) {
  const Bytes data(16, 0);
  ByteReader r(data);
  EXPECT_EQ(*r.check_count(4, 4, "points"), 16u);
  auto c = r.check_count(5, 4, "points");
  ASSERT_FALSE(c.has_value());
  EXPECT_EQ(c.error().code, "bytes.eof");
  auto l = r.check_count(2000000, 0, "items", 1000000);
  ASSERT_FALSE(l.has_value());
  EXPECT_EQ(l.error().code, "bytes.limit");
}

TEST(ByteReader, rejects_oversize_lp_string_before_reading_payload) {
  ByteWriter w;
  w.u32(2048);
  w.zeros(2048);
  const Bytes data = w.take();
  ByteReader r(data);
  auto s = r.lp_string(1024);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, "bytes.string_too_long");
  EXPECT_EQ(s.error().offset, 0u);
}

TEST(ByteReader, lp_string_keeps_embedded_nul) {
  ByteWriter w;
  w.lp_string(std::string_view("A\0B", 3));
  w.u32(7);
  const Bytes data = w.take();
  ByteReader r(data);
  auto s = r.lp_string();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, std::string("A\0B", 3));
  EXPECT_EQ(*r.u32(), 7u);
}

TEST(ByteReader, keeps_bytes_after_nul_in_fixed_strings) {
  const std::string field("one\0TAIL!\0\0\0", 12);
  ByteReader r(as_bytes(field));
  auto s = r.fixed_string(12);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->text(), "one");
  EXPECT_TRUE(s->has_tail());
  ByteWriter w;
  w.fixed_string(*s);
  EXPECT_EQ(as_chars(w.buffer()), field);
}

TEST(ByteReader, full_fixed_string_without_nul_is_whole_text) {
  const std::string field = "ABCDEFGHIJKL";
  ByteReader r(as_bytes(field));
  auto s = r.fixed_string(12);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->text(), field);
  EXPECT_FALSE(s->has_nul());
}

TEST(ByteReader, reports_trailing_bytes) {
  const Bytes data = {1, 2, 3};
  ByteReader r(data);
  ASSERT_TRUE(r.u8().has_value());
  auto e = r.require_end("Land.map");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code, "bytes.trailing");
  EXPECT_EQ(e.error().found, "2 more bytes");
}

TEST(ByteWriter, writes_little_endian_and_pads) {
  ByteWriter w;
  w.u16(0x0102);
  w.u32(0x03040506);
  w.f32(1.0f);
  w.pad_to(8);
  w.i16(-2);
  const Bytes expect = {0x02, 0x01, 0x06, 0x05, 0x04, 0x03, 0x00, 0x00, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0xfe, 0xff};
  EXPECT_EQ(w.buffer(), expect);
}

TEST(Hex, round_trips_and_rejects_bad_digits) {
  const Bytes b = {0x00, 0xab, 0x7f};
  EXPECT_EQ(to_hex(b), "00ab7f");
  EXPECT_EQ(*from_hex("00 AB 7f"), b);
  EXPECT_FALSE(from_hex("0g").has_value());
  EXPECT_FALSE(from_hex("abc").has_value());
}
