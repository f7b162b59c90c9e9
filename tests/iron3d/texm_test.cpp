#include "sortie/iron3d/texm.hpp"

#include <gtest/gtest.h>

using namespace sortie;
using namespace sortie::iron3d;

namespace {

core::Bytes texm_1x1(std::uint32_t format, std::initializer_list<std::uint8_t> pixel) {
  core::ByteWriter w;
  w.u32(kTexmMagic), w.u32(1), w.u32(1), w.u32(1), w.u32(0), w.u32(0), w.u32(0), w.u32(format);
  for (auto b : pixel) w.u8(b);
  return w.take();
}

std::array<std::uint8_t, 4> decode_first(const core::Bytes& bytes) {
  auto t = read_texm(bytes);
  EXPECT_TRUE(t) << (t ? "" : t.error().to_string());
  auto img = decode_texm_rgba8(*t);
  EXPECT_TRUE(img);
  return {img->pixels[0], img->pixels[1], img->pixels[2], img->pixels[3]};
}

// §31.8
const core::Bytes kVector318 = *core::from_hex(
    "5465786d020000000100000002000000000000000000000000000000350200"
    "0000f8e0071f00506167650100000000000200000001"
    "00");

}  // namespace

TEST(Texm, decodes_spec_vector_31_8) {
  ASSERT_EQ(kVector318.size(), 54u);
  auto t = read_texm(kVector318);
  ASSERT_TRUE(t) << t.error().to_string();
  EXPECT_EQ(t->width, 2u);
  EXPECT_EQ(t->height, 1u);
  ASSERT_EQ(t->mips.size(), 2u);
  ASSERT_TRUE(t->page);
  ASSERT_EQ(t->page->size(), 1u);
  EXPECT_EQ((*t->page)[0], (TexmPageRect{0, 2, 0, 1}));
  auto m0 = decode_texm_rgba8(*t, 0);
  ASSERT_TRUE(m0);
  EXPECT_EQ(m0->pixels, (std::vector<std::uint8_t>{255, 0, 0, 255, 0, 255, 0, 255}));
  auto m1 = decode_texm_rgba8(*t, 1);
  ASSERT_TRUE(m1);
  EXPECT_EQ(m1->pixels, (std::vector<std::uint8_t>{0, 0, 255, 255}));
  EXPECT_EQ(write_texm(*t), kVector318);
  EXPECT_FALSE(decode_texm_rgba8(*t, 2));
}

TEST(Texm, decodes_each_pixel_format) {
  using A = std::array<std::uint8_t, 4>;
  EXPECT_EQ(decode_first(texm_1x1(565, {0xE0, 0xFF})), (A{255, 255, 0, 255}));  // 0xFFE0
  EXPECT_EQ(decode_first(texm_1x1(556, {0x00, 0xF8})), (A{255, 0, 0, 255}));    // 0xF800
  EXPECT_EQ(decode_first(texm_1x1(4444, {0x2E, 0xF1})), (A{0x11, 0x22, 0xEE, 0xFF}));
  EXPECT_EQ(decode_first(texm_1x1(88, {0x40, 0x7F})), (A{0x7F, 0x7F, 0x7F, 0x40}));
  EXPECT_EQ(decode_first(texm_1x1(888, {0x11, 0x22, 0x33, 0x99})), (A{0x11, 0x22, 0x33, 0xFF}));
  EXPECT_EQ(decode_first(texm_1x1(8888, {0x40, 0x11, 0x22, 0x33})), (A{0x11, 0x22, 0x33, 0x40}));
  // 5-bit value 3 expands by rounded division to 25 (bit replication would give 24).
  EXPECT_EQ(decode_first(texm_1x1(565, {0x00, 0x18}))[0], 25);
  EXPECT_EQ(decode_first(texm_1x1(565, {0x00, 0x00})), (A{0, 0, 0, 255}));
  EXPECT_EQ(decode_first(texm_1x1(565, {0xFF, 0xFF})), (A{255, 255, 255, 255}));
}

TEST(Texm, decodes_indexed_palette) {
  core::ByteWriter w;
  w.u32(kTexmMagic), w.u32(1), w.u32(1), w.u32(1), w.u32(0), w.u32(0), w.u32(0), w.u32(0);
  for (int i = 0; i < 256; ++i) {
    if (i == 1)
      w.u8(0x10), w.u8(0x20), w.u8(0x30), w.u8(0xFF);
    else
      w.u32(0);
  }
  w.u8(1);
  const auto bytes = w.take();
  EXPECT_EQ(decode_first(bytes), (std::array<std::uint8_t, 4>{0x10, 0x20, 0x30, 0xFF}));
  EXPECT_EQ(write_texm(*read_texm(bytes)), bytes);
}

TEST(Texm, three_level_chain_keeps_extra_levels_one_by_one) {
  core::ByteWriter w;
  w.u32(kTexmMagic), w.u32(3), w.u32(2), w.u32(3), w.u32(32), w.u32(0x04000000), w.u32(7), w.u32(565);
  w.zeros(3 * 2 * 2 + 2 + 2);
  const auto bytes = w.take();
  auto t = read_texm(bytes);
  ASSERT_TRUE(t) << t.error().to_string();
  EXPECT_EQ(t->mips[0].size(), 12u);
  EXPECT_EQ(t->mips[1].size(), 2u);
  EXPECT_EQ(t->mips[2].size(), 2u);
  EXPECT_EQ(t->flags4, 32u);
  EXPECT_EQ(t->unknown6, 7u);
  EXPECT_EQ(write_texm(*t), bytes);
}

TEST(Texm, builder_outputs_pass_strict_reader_for_every_format) {
  for (std::uint32_t f : {0u, 565u, 556u, 4444u, 88u, 888u, 8888u}) {
    auto t = build_texm(8, 4, f, 4);
    ASSERT_TRUE(t) << f;
    const auto bytes = write_texm(*t);
    auto back = read_texm(bytes);
    ASSERT_TRUE(back) << f << ": " << back.error().to_string();
    EXPECT_EQ(*back, *t);
    EXPECT_EQ(back->mips.size(), 4u);
    EXPECT_EQ(back->mips[3].size(), 1u * texm_bytes_per_pixel(f));
  }
  auto red = build_texm(2, 2, 8888, 1, [](std::uint32_t, std::uint32_t, std::uint32_t) {
    return TexmColor{200, 10, 20, 128};
  });
  ASSERT_TRUE(red);
  auto img = decode_texm_rgba8(*red);
  EXPECT_EQ(img->pixels[0], 200);
  EXPECT_EQ(img->pixels[3], 128);
  auto lm = build_lightmap(16, 16);
  ASSERT_TRUE(lm);
  EXPECT_EQ(lm->format, 565u);
  EXPECT_TRUE(lightmap_findings(*lm).empty());
  EXPECT_EQ(lightmap_findings(*red).size(), 1u);
}

TEST(Texm, mip_skip_follows_flags5_policy) {
  auto t = *build_texm(256, 256, 565, 3);
  EXPECT_EQ(texm_mip_skip(t), 0u);
  t.flags5 = 0x02000000;
  EXPECT_EQ(texm_mip_skip(t), 2u);
  t.flags5 = 0x20000000;
  EXPECT_EQ(texm_mip_skip(t), 1u);
  t.flags5 = 0x40000000;
  EXPECT_EQ(texm_mip_skip(t), 2u);
}

TEST(Texm, rejects_short_header) {
  auto t = read_texm(core::Bytes(31, 0));
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "texm.size");
}

TEST(Texm, rejects_bad_magic) {
  auto b = texm_1x1(565, {0, 0});
  b[0] = 'X';
  EXPECT_EQ(read_texm(b).error().code, "texm.magic");
}

TEST(Texm, rejects_zero_width) {
  auto b = texm_1x1(565, {0, 0});
  b[4] = 0;
  auto t = read_texm(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "texm.dimensions");
  EXPECT_EQ(t.error().offset, 4u);
}

TEST(Texm, rejects_zero_mip_count) {
  auto b = texm_1x1(565, {});
  b[12] = 0;
  EXPECT_EQ(read_texm(b).error().code, "texm.mip_count");
}

TEST(Texm, rejects_huge_mip_count_before_allocating) {
  auto b = texm_1x1(565, {0, 0});
  b[12] = b[13] = b[14] = b[15] = 0xFF;
  auto t = read_texm(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "texm.mip_count");
  EXPECT_EQ(t.error().found, "4294967295");
}

TEST(Texm, rejects_unknown_format) {
  EXPECT_EQ(read_texm(texm_1x1(1234, {0, 0})).error().code, "texm.format");
}

TEST(Texm, rejects_palette_of_1023_bytes) {
  core::ByteWriter w;
  w.u32(kTexmMagic), w.u32(1), w.u32(1), w.u32(1), w.u32(0), w.u32(0), w.u32(0), w.u32(0);
  w.zeros(1023);
  EXPECT_EQ(read_texm(w.take()).error().code, "texm.palette");
}

TEST(Texm, rejects_max_by_max_level_size_without_overflow) {
  auto b = texm_1x1(8888, {0, 0, 0, 0});
  for (int i = 4; i < 12; ++i) b[static_cast<std::size_t>(i)] = 0xFF;
  auto t = read_texm(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "texm.mip_data");
}

TEST(Texm, rejects_tail_without_page_magic) {
  auto b = texm_1x1(565, {0, 0, 't', 'a', 'i', 'l'});
  EXPECT_EQ(read_texm(b).error().code, "texm.tail");
}

TEST(Texm, rejects_page_count_two_with_one_rect) {
  auto b = kVector318;
  b[0x2A] = 2;
  auto t = read_texm(b);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "texm.page_count");
}

TEST(Texm, format_info_detects_magic) {
  const auto info = texm_format_info();
  EXPECT_EQ(info.detect(kVector318, "x"), kDetectContent);
  EXPECT_EQ(info.detect(core::Bytes{1, 2, 3, 4}, "x"), kDetectNone);
  auto j = info.inspect(kVector318, {});
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["pixel_format"], 565);
  EXPECT_EQ(*info.roundtrip(kVector318, {}), kVector318);
}
