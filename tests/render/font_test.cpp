#include "sortie/render/font.hpp"

#include <gtest/gtest.h>

#include "sortie/render/framebuffer.hpp"

namespace sortie::render {
namespace {

TEST(Font, every_printable_glyph_is_drawn_and_fits_its_cell) {
  for (int c = 0x21; c < 0x7F; ++c) {
    const GlyphRows& g = glyph(static_cast<char>(c));
    int on = 0;
    for (const std::uint8_t row : g) {
      EXPECT_EQ(row >> kGlyphWidth, 0) << static_cast<char>(c);
      on += __builtin_popcount(row);
    }
    EXPECT_GT(on, 0) << static_cast<char>(c);
  }
  for (const std::uint8_t row : glyph(' ')) EXPECT_EQ(row, 0);
  // Glyphs differ from each other (no copy-paste slips), 'O' and '0' included.
  for (int a = 0x21; a < 0x7F; ++a)
    for (int b = a + 1; b < 0x7F; ++b)
      EXPECT_NE(glyph(static_cast<char>(a)), glyph(static_cast<char>(b))) << char(a) << char(b);
  // Non-printable bytes share the box glyph.
  EXPECT_EQ(glyph('\x01'), glyph('\x7f'));
  EXPECT_EQ(glyph('\x01'), glyph(static_cast<char>(0xC8)));
  EXPECT_EQ(glyph('\x01')[0], 0x1F);
  // Descenders reach below the baseline (rows 7, 8); capitals do not.
  EXPECT_NE(glyph('g')[8], 0);
  EXPECT_EQ(glyph('G')[7], 0);
}

TEST(Font, text_size_counts_cells_and_lines) {
  EXPECT_EQ(text_width("abc"), 18);
  EXPECT_EQ(text_width("ab\nabcd", 2), 48);
  EXPECT_EQ(text_height("ab\nabcd", 2), 40);
  EXPECT_EQ(text_height(""), 0);
}

TEST(Font, draw_text_sets_glyph_pixels_and_clips) {
  Framebuffer fb = Framebuffer::create(10, 12).value();
  draw_text(fb, 1, 2, "T", kWhite);
  // 'T': top bar of 5 at row 0, stem in column 2 below.
  for (int x = 0; x < 10; ++x) EXPECT_EQ(fb.pixel(static_cast<std::uint32_t>(x), 2) == kWhite, x >= 1 && x <= 5) << x;
  EXPECT_EQ(fb.pixel(3, 5), kWhite);
  EXPECT_EQ(fb.pixel(2, 5), kBlack);
  // Off the edges: clipped, no crash.
  draw_text(fb, -3, -4, "WWW\nWWW", kWhite, 3);
  draw_text(fb, 2147483000, 5, "far", kWhite);
  // First scaled 'W' (3 x 3 pixel blocks from (-3, -4)): column 2 is on in rows 3..5, i.e.
  // pixels x 3..5, y 5..13; column 1 is off in rows 0..5.
  EXPECT_EQ(fb.pixel(5, 9), kWhite);
  EXPECT_EQ(fb.pixel(0, 0), kBlack);
}

}  // namespace
}  // namespace sortie::render
