#include "sortie/render/texture.hpp"

#include <gtest/gtest.h>

namespace sortie::render {
namespace {

TEST(Texture, mip_counts_and_sizes) {
  EXPECT_EQ(full_mip_count(256, 256), 9u);
  EXPECT_EQ(full_mip_count(5, 3), 3u);  // 5x3, 2x1, 1x1
  EXPECT_EQ(full_mip_count(1, 1), 1u);
  EXPECT_EQ(full_mip_count(1, 8), 4u);
  EXPECT_EQ(mip_size(5, 1), 2u);
  EXPECT_EQ(mip_size(5, 7), 1u);
  EXPECT_EQ(mip_size(5, 40), 1u);
}

TEST(Texture, box_filter_rounds_the_mean) {
  // 2x2 -> 1x1: red (10 + 20 + 30 + 41 + 2) / 4 = 25; alpha (255 * 3 + 0 + 2) / 4 = 191.
  const std::uint32_t src[4] = {pack({10, 0, 0, 255}), pack({20, 4, 0, 255}), pack({30, 0, 1, 255}),
                                pack({41, 0, 1, 0})};
  const auto out = downsample_box(src, 2, 2);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(unpack(out[0]), (Rgba8{25, 1, 1, 191}));
  // 1x2 -> 1x1 averages two: (10 + 41 + 1) / 2 = 26.
  const std::uint32_t col[2] = {pack({10, 0, 0, 0}), pack({41, 0, 0, 0})};
  EXPECT_EQ(unpack(downsample_box(col, 1, 2)[0]).r, 26);
  // 4x2 -> 2x1.
  const std::uint32_t wide[8] = {pack({0, 0, 0, 0}), pack({4, 0, 0, 0}), pack({100, 0, 0, 0}), pack({100, 0, 0, 0}),
                                 pack({8, 0, 0, 0}), pack({0, 0, 0, 0}), pack({100, 0, 0, 0}), pack({0, 0, 0, 0})};
  const auto w = downsample_box(wide, 4, 2);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(unpack(w[0]).r, 3);   // (0 + 4 + 8 + 0 + 2) / 4
  EXPECT_EQ(unpack(w[1]).r, 75);  // (300 + 2) / 4
}

TEST(Texture, generated_chain_has_every_level) {
  std::vector<std::uint8_t> rgba(8 * 4 * 4, 200);
  const auto t = Texture::from_rgba8(8, 4, rgba);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->level_count(), 4u);  // 8x4, 4x2, 2x1, 1x1
  const TextureView v = t->view();
  ASSERT_EQ(v.level_count, 4u);
  EXPECT_EQ(v.levels[1].width, 4u);
  EXPECT_EQ(v.levels[1].height, 2u);
  EXPECT_EQ(v.levels[3].width, 1u);
  EXPECT_EQ(unpack(t->level(3)[0]), (Rgba8{200, 200, 200, 200}));
  EXPECT_TRUE(validate_texture(v));
  const auto none = Texture::from_rgba8(8, 4, rgba, MipChain::none);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->level_count(), 1u);
}

TEST(Texture, rejects_bad_sizes_and_data) {
  std::vector<std::uint8_t> rgba(16);
  auto t = Texture::from_rgba8(0, 4, rgba);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "render.texture.size");
  t = Texture::from_rgba8(kMaxTextureSize + 1, 1, rgba);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "render.texture.size");
  t = Texture::from_rgba8(2, 3, rgba);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, "render.texture.data");
  EXPECT_EQ(t.error().expected, "24");
  EXPECT_EQ(t.error().found, "16");
  const std::vector<std::uint32_t> l0(4), l1(2);
  const std::span<const std::uint32_t> levels[2] = {l0, l1};
  const auto f = Texture::from_levels(2, 2, levels);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code, "render.texture.levels");
  EXPECT_EQ(f.error().field, "levels[1]");
}

TEST(Texture, from_levels_keeps_callers_levels) {
  const std::vector<std::uint32_t> l0(4, pack({1, 2, 3, 4})), l1(1, pack({9, 9, 9, 9}));
  const std::span<const std::uint32_t> levels[2] = {l0, l1};
  const auto t = Texture::from_levels(2, 2, levels);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->level_count(), 2u);
  EXPECT_EQ(t->level(1)[0], pack({9, 9, 9, 9}));
  EXPECT_TRUE(t->level(2).empty());
}

}  // namespace
}  // namespace sortie::render
