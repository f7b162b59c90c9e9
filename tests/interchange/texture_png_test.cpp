// Texm <-> PNG (issue #20 part 3): byte-exact export -> import of every level for every format,
// PNGs from elsewhere (mips box-filtered), and hostile PNGs.
#include "sortie/interchange/texture_png.hpp"

#include <gtest/gtest.h>

#include "sortie/assets/prepared_visual.hpp"
#include "sortie/render/image_io.hpp"

namespace sortie::interchange {
namespace {

iron3d::TexmColor busy(std::uint32_t level, std::uint32_t x, std::uint32_t y) {
  const std::uint32_t h = (x * 73856093u) ^ (y * 19349663u) ^ (level * 83492791u);
  return {static_cast<std::uint8_t>(h), static_cast<std::uint8_t>(h >> 8), static_cast<std::uint8_t>(h >> 16),
          static_cast<std::uint8_t>(h >> 24)};
}

iron3d::Texm make(std::uint32_t format, std::uint32_t w, std::uint32_t h, std::uint32_t mips) {
  auto t = iron3d::build_texm(w, h, format, mips, &busy);
  EXPECT_TRUE(t.has_value());
  t->flags4 = 0x11;
  t->flags5 = 0x20000000u;
  t->unknown6 = 7;
  if (format == 888)  // one pad byte everywhere, as stored
    for (auto& level : t->mips)
      for (std::size_t i = 3; i < level.size(); i += 4) level[i] = 0x5A;
  return *t;
}

iron3d::Texm round_trip(const iron3d::Texm& texm, std::uint32_t levels) {
  auto pngs = export_texture_png(texm, levels);
  EXPECT_TRUE(pngs.has_value()) << (pngs ? "" : pngs.error().to_string());
  std::vector<core::ByteView> views(pngs->begin(), pngs->end());
  auto back = import_texture_png(views, {});
  EXPECT_TRUE(back.has_value()) << (back ? "" : back.error().to_string());
  return back ? *back : iron3d::Texm{};
}

TEST(TexturePng, every_format_comes_back_byte_exact_with_every_level) {
  for (std::uint32_t format : {565u, 556u, 4444u, 88u, 888u, 8888u, 0u}) {
    SCOPED_TRACE(format);
    iron3d::Texm t = make(format, 37, 20, 4);  // odd sizes: the levels are 37x20, 18x10, 9x5, 4x2
    t.page = std::vector<iron3d::TexmPageRect>{{1, 8, 2, 4}, {9, 16, 0, 20}};
    const iron3d::Texm back = round_trip(t, 0);
    EXPECT_EQ(iron3d::write_texm(back), iron3d::write_texm(t));
  }
}

TEST(TexturePng, level_zero_alone_keeps_the_header_and_box_filters_the_levels) {
  const iron3d::Texm t = make(8888, 16, 8, 5);
  const iron3d::Texm back = round_trip(t, 1);
  ASSERT_EQ(back.mips.size(), 5u);
  EXPECT_EQ(back.flags5, t.flags5);
  EXPECT_EQ(back.mips[0], t.mips[0]);
  auto level0 = iron3d::decode_texm_rgba8(t, 0);
  ASSERT_TRUE(level0.has_value());
  const auto level1 = assets::downsample_rgba8(*level0);
  auto got1 = iron3d::decode_texm_rgba8(back, 1);
  ASSERT_TRUE(got1.has_value());
  EXPECT_EQ(got1->pixels, level1.pixels);
}

TEST(TexturePng, a_png_from_elsewhere_gets_the_chosen_format_and_a_full_chain) {
  std::vector<std::uint8_t> rgba(64 * 32 * 4);
  for (std::size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<std::uint8_t>(i * 7);
  auto png = render::encode_png(64, 32, rgba, {true, {}});
  ASSERT_TRUE(png.has_value());
  const core::ByteView view(*png);
  auto t = import_texture_png(std::span(&view, 1), {565u, std::nullopt, 4096});
  ASSERT_TRUE(t.has_value()) << t.error().to_string();
  EXPECT_EQ(t->format, 565u);
  EXPECT_EQ(t->mips.size(), 7u);  // 64x32 .. 1x1
  EXPECT_EQ(t->mips.back().size(), 2u);
  auto defaults = import_texture_png(std::span(&view, 1), {});
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->format, 8888u);
  auto decoded = iron3d::decode_texm_rgba8(*defaults, 0);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->pixels, rgba);  // 8888 is lossless
}

TEST(TexturePng, refusals_name_their_reason) {
  std::vector<std::uint8_t> rgba(4 * 4 * 4, 200);
  auto png = render::encode_png(4, 4, rgba, {true, {}});
  ASSERT_TRUE(png.has_value());
  const core::ByteView whole(*png);
  auto palette = import_texture_png(std::span(&whole, 1), {0u, std::nullopt, 4096});
  ASSERT_FALSE(palette.has_value());
  EXPECT_EQ(palette.error().code, "texture.palette");
  auto unknown = import_texture_png(std::span(&whole, 1), {123u, std::nullopt, 4096});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code, "texture.format");
  const core::ByteView cut = whole.subspan(0, whole.size() / 2);
  auto truncated = import_texture_png(std::span(&cut, 1), {});
  ASSERT_FALSE(truncated.has_value());
  EXPECT_EQ(truncated.error().code, "render.png.decode");
  const core::Bytes garbage(100, 0x42);
  EXPECT_EQ(render::decode_png(garbage).error().code, "render.png.decode");
  render::PngReadLimits small;
  small.max_side = 2;
  EXPECT_EQ(render::decode_png(whole, small).error().code, "render.png.limit");
  auto big = import_texture_png(std::span(&whole, 1), {std::nullopt, std::nullopt, 2});
  ASSERT_FALSE(big.has_value());
  EXPECT_EQ(big.error().code, "render.png.limit");
  // A level of the wrong size.
  const std::array<core::ByteView, 2> two{whole, whole};
  auto wrong = import_texture_png(two, {});
  ASSERT_FALSE(wrong.has_value());
  EXPECT_EQ(wrong.error().code, "texture.size");
  // A damaged metadata chunk.
  auto bad_meta = render::encode_png(4, 4, rgba, {true, {{kTexmPngKeyword, "{not json"}}});
  ASSERT_TRUE(bad_meta.has_value());
  const core::ByteView bm(*bad_meta);
  auto meta = import_texture_png(std::span(&bm, 1), {});
  ASSERT_FALSE(meta.has_value());
  EXPECT_EQ(meta.error().code, "texture.metadata");
}

// fuzz_texture_png found this: a 200-byte file declaring a 2 GB tEXt chunk made libpng ask for
// 2 GB. Chunk lengths are now checked against the file before libpng reads it.
TEST(TexturePng, a_chunk_longer_than_the_file_is_refused_before_libpng_allocates) {
  std::vector<std::uint8_t> rgba(4 * 4 * 4, 1);
  auto png = render::encode_png(4, 4, rgba, {true, {}});
  ASSERT_TRUE(png.has_value());
  core::Bytes bad(png->begin(), png->begin() + 33);  // signature + IHDR
  const std::uint8_t chunk[] = {0x7A, 0x00, 0x00, 0x00, 't', 'E', 'X', 't', 'k', 0, 'v'};
  bad.insert(bad.end(), std::begin(chunk), std::end(chunk));
  bad.insert(bad.end(), png->begin() + 33, png->end());
  auto r = render::decode_png(bad);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "render.png.decode");
  EXPECT_NE(r.error().message.find("declares"), std::string::npos) << r.error().message;
}

TEST(TexturePng, text_chunks_survive_a_png_round_trip) {
  std::vector<std::uint8_t> rgba(2 * 2 * 4, 9);
  auto png = render::encode_png(2, 2, rgba, {true, {{"a", "one"}, {"b", "two"}}});
  ASSERT_TRUE(png.has_value());
  auto back = render::decode_png(*png);
  ASSERT_TRUE(back.has_value());
  ASSERT_EQ(back->text.size(), 2u);
  EXPECT_EQ(back->text[1].second, "two");
  EXPECT_EQ(back->rgba, rgba);
  EXPECT_EQ(render::encode_png(2, 2, rgba, {true, {{"", "x"}}}).error().code, "render.png.text");
}

}  // namespace
}  // namespace sortie::interchange
