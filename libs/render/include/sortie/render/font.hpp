#pragma once
// A small bitmap font of our own for labels: printable ASCII (0x20..0x7E), each glyph 5 x 9
// pixels (capitals and digits in rows 0..6, descenders in rows 7..8) in a 6 x 10 cell (one
// column and one row of spacing). Other bytes draw as a hollow box.
#include <array>
#include <cstdint>
#include <string_view>

#include "sortie/render/color.hpp"

namespace sortie::render {

class Framebuffer;

inline constexpr int kGlyphWidth = 5;
inline constexpr int kGlyphHeight = 9;
inline constexpr int kGlyphAdvance = 6;  // cell width
inline constexpr int kLineHeight = 10;   // cell height

// Row r (0 = top) of glyph `c`: bit 4 is the leftmost pixel, bit 0 the rightmost.
using GlyphRows = std::array<std::uint8_t, kGlyphHeight>;
const GlyphRows& glyph(char c);

// Pixel size of `text` at `scale` (newlines start a new line).
int text_width(std::string_view text, int scale = 1);
int text_height(std::string_view text, int scale = 1);

// Immediate 2-D text straight into the colour plane, clipped to the framebuffer; (x, y) is the
// top-left of the first cell. Depth is neither tested nor written.
void draw_text(Framebuffer& target, int x, int y, std::string_view text, Rgba8 color, int scale = 1);

}  // namespace sortie::render
