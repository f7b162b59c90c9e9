#include <gtest/gtest.h>

#include <filesystem>

#include "render_fixtures.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/render/image_io.hpp"

namespace sortie::render {
namespace {

namespace fs = std::filesystem;

Framebuffer gradient() {
  Framebuffer fb = Framebuffer::create(7, 5).value();
  for (std::uint32_t y = 0; y < 5; ++y)
    for (std::uint32_t x = 0; x < 7; ++x)
      fb.set_pixel(x, y,
                   {static_cast<std::uint8_t>(x * 40), static_cast<std::uint8_t>(y * 60), 77,
                    static_cast<std::uint8_t>(x * 30 + y)});
  return fb;
}

PngOptions with_alpha() {
  PngOptions o;
  o.alpha = true;
  return o;
}

TEST(Png, rgb_round_trip_drops_alpha) {
  const Framebuffer fb = gradient();
  const auto bytes = encode_png(fb);
  ASSERT_TRUE(bytes);
  const auto img = test::decode_png(*bytes);
  ASSERT_TRUE(img);
  ASSERT_EQ(img->width, 7u);
  ASSERT_EQ(img->height, 5u);
  for (std::uint32_t y = 0; y < 5; ++y)
    for (std::uint32_t x = 0; x < 7; ++x) {
      const std::size_t i = (y * 7 + x) * 4;
      const Rgba8 c = fb.pixel(x, y);
      EXPECT_EQ(img->rgba[i], c.r);
      EXPECT_EQ(img->rgba[i + 1], c.g);
      EXPECT_EQ(img->rgba[i + 2], c.b);
      EXPECT_EQ(img->rgba[i + 3], 255);
    }
}

TEST(Png, rgba_round_trip_keeps_alpha) {
  const Framebuffer fb = gradient();
  const auto bytes = encode_png(fb, with_alpha());
  ASSERT_TRUE(bytes);
  const auto img = test::decode_png(*bytes);
  ASSERT_TRUE(img);
  const auto src = fb.rgba_bytes();
  EXPECT_TRUE(std::equal(src.begin(), src.end(), img->rgba.begin(), img->rgba.end()));
}

// The signature, then IHDR: 7 x 5, bit depth 8, colour type 2 (RGB) or 6 (RGBA); the same
// pixels give the same bytes.
TEST(Png, header_names_the_colour_type_and_bytes_repeat) {
  const auto rgb = encode_png(gradient());
  const auto rgba = encode_png(gradient(), with_alpha());
  ASSERT_TRUE(rgb);
  ASSERT_TRUE(rgba);
  ASSERT_GT(rgb->size(), 33u);
  ASSERT_GT(rgba->size(), 33u);
  const std::vector<std::uint8_t> head(rgb->begin(), rgb->begin() + 26);
  const std::vector<std::uint8_t> want = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I',
                                          'H',  'D', 'R', 0,   0,    0,    7,    0,    0, 0, 5, 8,  2};
  EXPECT_EQ(head, want);
  EXPECT_EQ((*rgba)[25], 6);
  EXPECT_EQ(*encode_png(gradient()), *rgb);
}

TEST(Png, writes_atomically_and_reports_io_errors) {
  const fs::path dir = fs::path(::testing::TempDir()) / "sortie_png_test";
  fs::create_directories(dir);
  const fs::path file = dir / "out.png";
  ASSERT_TRUE(write_png(file, gradient()));
  const auto bytes = core::read_file(file);
  ASSERT_TRUE(bytes);
  EXPECT_TRUE(test::decode_png(*bytes));
  for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().filename(), "out.png");  // no temporaries left
  const auto bad = write_png(dir / "missing" / "x.png", gradient());
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "io.write");
  fs::remove_all(dir);
}

TEST(Png, rejects_size_mismatch_and_empty_images) {
  const std::vector<std::uint8_t> px(15);
  auto r = encode_png(2, 2, px);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.png.size");
  r = encode_png(Framebuffer{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "render.png.size");
}

}  // namespace
}  // namespace sortie::render
