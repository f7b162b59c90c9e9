// Every limit of render/limits.hpp fed at the limit (accepted) and limit + 1 (refused with its
// code). PNG sizes are declared in a header without their pixels: at the limit the decoder passes
// the size check and stops at the missing data (render.png.decode), one above it stops at the
// limit (render.png.limit). The orbit frame count is checked by render_mission before it opens
// anything: at the limit the request goes on to open the (missing) game, one above it stops.
#include "sortie/render/limits.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "sortie/render/framebuffer.hpp"
#include "sortie/render/image_io.hpp"
#include "sortie/render/iso_scene.hpp"
#include "sortie/render/mission_render.hpp"
#include "sortie/render/texture.hpp"

namespace sortie::render {
namespace {

std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xffffffffu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return c ^ 0xffffffffu;
}

void put_be32(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}

// A 1 x 1 PNG whose header declares `width` x `height` (CRC fixed), its pixel data unchanged.
core::Bytes declared_png(std::uint32_t width, std::uint32_t height) {
  const std::vector<std::uint8_t> rgba{1, 2, 3, 255};
  auto png = encode_png(1, 1, rgba, {});
  EXPECT_TRUE(png.has_value());
  core::Bytes b = png ? *png : core::Bytes{};
  // Signature (8), IHDR length (4), "IHDR" (4) at 12, width at 16, height at 20, CRC at 29.
  put_be32(b.data() + 16, width);
  put_be32(b.data() + 20, height);
  put_be32(b.data() + 29, crc32(b.data() + 12, 17));
  return b;
}

std::string png_code(std::uint32_t width, std::uint32_t height) {
  auto d = decode_png(declared_png(width, height));
  return d ? std::string("ok") : d.error().code;
}

TEST(RenderLimits, orbit_frames) {
  MissionRenderRequest rq;
  rq.source.dir = "/nonexistent/sortie-render-limits-game";
  rq.out = "/nonexistent/sortie-render-limits.png";
  rq.orbit = kMaxOrbitFrames;
  auto at = render_mission(rq);
  ASSERT_FALSE(at);
  EXPECT_EQ(at.error().code.rfind("io.", 0), 0u) << at.error().to_string();  // past the check
  rq.orbit = kMaxOrbitFrames + 1;
  auto over = render_mission(rq);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, "usage.orbit");
  EXPECT_EQ(over.error().field, "--orbit");
}

}  // namespace

TEST(RenderLimits, png_side) {
  EXPECT_EQ(png_code(1, 1), "ok");
  EXPECT_EQ(png_code(kPngSideMax, 1), "render.png.decode");
  EXPECT_EQ(png_code(kPngSideMax + 1, 1), "render.png.limit");
  EXPECT_EQ(png_code(1, kPngSideMax), "render.png.decode");
  EXPECT_EQ(png_code(1, kPngSideMax + 1), "render.png.limit");
  const PngReadLimits defaults;
  EXPECT_EQ(defaults.max_side, kPngSideMax);
  EXPECT_EQ(defaults.max_pixels, kPngPixelsMax);
}

TEST(RenderLimits, png_pixels) {
  static_assert(kPngPixelsMax == std::uint64_t{8192} * 8192);
  EXPECT_EQ(png_code(8192, 8192), "render.png.decode");
  EXPECT_EQ(png_code(8192, 8193), "render.png.limit");
}

TEST(RenderLimits, framebuffer_size) {
  auto at = Framebuffer::create(kMaxFramebufferSize, 1);
  ASSERT_TRUE(at.has_value()) << at.error().to_string();
  EXPECT_EQ(at->width(), kMaxFramebufferSize);
  auto over = Framebuffer::create(1, kMaxFramebufferSize + 1);
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "render.framebuffer.size");
}

TEST(RenderLimits, texture_size_and_levels) {
  const std::vector<std::uint8_t> row(std::size_t{kMaxTextureSize} * 4, 0x40);
  auto at = Texture::from_rgba8(kMaxTextureSize, 1, row);
  ASSERT_TRUE(at.has_value()) << at.error().to_string();
  EXPECT_EQ(at->level_count(), kMaxTextureLevels);  // the full chain, 8192 down to 1
  const std::vector<std::uint8_t> longer(std::size_t{kMaxTextureSize + 1} * 4, 0x40);
  auto over = Texture::from_rgba8(kMaxTextureSize + 1, 1, longer);
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "render.texture.size");
}

TEST(RenderLimits, iso_grid_side) {
  auto grid = [](std::size_t rows, std::size_t columns) {
    const std::string row(columns, '.');
    const std::vector<std::string_view> list(rows, row);
    auto g = iso_grid_from_rows(list);
    return g ? std::string("ok") : g.error().code;
  };
  EXPECT_EQ(grid(kMaxIsoGridSide, 1), "ok");
  EXPECT_EQ(grid(1, kMaxIsoGridSide), "ok");
  EXPECT_EQ(grid(kMaxIsoGridSide + 1, 1), "render.iso.grid");
  EXPECT_EQ(grid(1, kMaxIsoGridSide + 1), "render.iso.grid");
}

}  // namespace sortie::render
