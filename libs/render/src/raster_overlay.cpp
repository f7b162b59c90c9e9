// Lines, points and labels: scalar per pixel (they are few), into the same tile buffers and
// with the same blend arithmetic as the triangle kernels.
#include <algorithm>
#include <cmath>

#include "pipeline.hpp"
#include "sortie/render/font.hpp"

namespace sortie::render::detail {
namespace {

std::uint32_t div255(std::uint32_t x) {
  const std::uint32_t t = x + 128u;
  return (t + (t >> 8)) >> 8;
}

std::uint32_t blend_pixel(std::uint32_t src, std::uint32_t dst, Blend blend) {
  switch (blend) {
    case Blend::opaque:
      return src;
    case Blend::alpha: {
      const std::uint32_t a = src >> 24;
      std::uint32_t out = 0;
      for (int k = 0; k < 32; k += 8) out |= div255(((src >> k) & 0xFFu) * a + ((dst >> k) & 0xFFu) * (255u - a)) << k;
      return out;
    }
    case Blend::additive: {
      std::uint32_t out = 0;
      for (int k = 0; k < 32; k += 8) out |= std::min(255u, ((src >> k) & 0xFFu) + ((dst >> k) & 0xFFu)) << k;
      return out;
    }
  }
  return src;
}

std::uint32_t to_byte(float v) {
  return v > 0.0f ? (v < 255.0f ? static_cast<std::uint32_t>(std::nearbyint(v)) : 255u) : 0u;
}

// One fragment of a line or point: depth test, alpha test, blend, depth write.
void fragment(TileContext& t, std::int32_t px, std::int32_t py, float z, std::uint32_t color, const Material& mat) {
  const int idx = quad_offset(px - t.tile_x, py - t.tile_y);
  if (mat.depth_test && !(z < t.depth[idx])) return;
  if (mat.alpha_ref > 0 && (color >> 24) < mat.alpha_ref) return;
  t.color[idx] = blend_pixel(color, t.color[idx], mat.blend);
  if (mat.depth_write) {
    t.depth[idx] = z;
    const int lx = px - t.tile_x, ly = py - t.tile_y;
    if (mat.depth_test)
      t.mark_depth(lx, ly);
    else
      t.depth_unbounded(lx, lx + 1, ly, ly + 1);
  }
}

}  // namespace

void raster_line(const SetupLine& l, const DrawState& d, TileContext& t) {
  const std::int32_t bx0 = std::max(l.bx0, t.x0), bx1 = std::min(l.bx1, t.x1);
  const std::int32_t by0 = std::max(l.by0, t.y0), by1 = std::min(l.by1, t.y1);
  if (bx0 >= bx1 || by0 >= by1) return;
  const Material& mat = d.call->material;
  const float m0 = l.x_major ? l.x0 : l.y0, m1 = l.x_major ? l.x1 : l.y1;
  const float n0 = l.x_major ? l.y0 : l.x0, n1 = l.x_major ? l.y1 : l.x1;
  const float dm = m1 - m0;
  const std::int32_t i_begin = l.x_major ? bx0 : by0, i_end = l.x_major ? bx1 : by1;
  for (std::int32_t i = i_begin; i < i_end; ++i) {
    // Parameter at this major-axis pixel centre; the minor pixel is the one the line crosses there.
    float s = dm > 0.0f ? ((static_cast<float>(i) + 0.5f) - m0) / dm : 0.0f;
    s = std::clamp(s, 0.0f, 1.0f);
    const auto j = static_cast<std::int32_t>(std::floor(n0 + (n1 - n0) * s));
    const std::int32_t px = l.x_major ? i : j, py = l.x_major ? j : i;
    if (px < bx0 || px >= bx1 || py < by0 || py >= by1) continue;
    const float z = l.z0 + (l.z1 - l.z0) * s;
    std::uint32_t color = 0;
    for (int k = 0; k < 4; ++k) color |= to_byte(l.c0[k] + (l.c1[k] - l.c0[k]) * s) << (8 * k);
    fragment(t, px, py, z, color, mat);
  }
}

void raster_point(const SetupPoint& p, const DrawState& d, TileContext& t) {
  const std::int32_t x0 = std::max(p.x0, t.x0), x1 = std::min(p.x1, t.x1);
  const std::int32_t y0 = std::max(p.y0, t.y0), y1 = std::min(p.y1, t.y1);
  const Material& mat = d.call->material;
  for (std::int32_t y = y0; y < y1; ++y)
    for (std::int32_t x = x0; x < x1; ++x) fragment(t, x, y, p.z, p.color, mat);
}

void raster_label(const SetupLabel& l, TileContext& t) {
  const std::int32_t rx0 = std::max(l.x0, t.x0), rx1 = std::min(l.x1, t.x1);
  const std::int32_t ry0 = std::max(l.y0, t.y0), ry1 = std::min(l.y1, t.y1);
  if (rx0 >= rx1 || ry0 >= ry1) return;
  const std::int32_t s = l.scale;
  for (int pass = l.has_shadow ? 0 : 1; pass < 2; ++pass) {
    const std::int32_t shift = pass == 0 ? s : 0;
    const std::uint32_t color = pass == 0 ? l.shadow : l.color;
    std::int64_t cx = l.x + shift, cy = l.y + shift;
    for (const char c : l.text) {
      if (c == '\n') {
        cx = l.x + shift;
        cy += static_cast<std::int64_t>(kLineHeight) * s;
        continue;
      }
      const std::int64_t gx0 = cx, gy0 = cy;
      cx += static_cast<std::int64_t>(kGlyphAdvance) * s;
      if (gx0 >= rx1 || gx0 + kGlyphWidth * s <= rx0 || gy0 >= ry1 || gy0 + kGlyphHeight * s <= ry0) continue;
      const GlyphRows& g = glyph(c);
      for (int r = 0; r < kGlyphHeight; ++r) {
        const std::uint8_t row = g[static_cast<std::size_t>(r)];
        if (!row) continue;
        for (int col = 0; col < kGlyphWidth; ++col) {
          if (!(row & (1u << (kGlyphWidth - 1 - col)))) continue;
          for (std::int32_t sy = 0; sy < s; ++sy) {
            const std::int64_t py = gy0 + r * s + sy;
            if (py < ry0 || py >= ry1) continue;
            for (std::int32_t sx = 0; sx < s; ++sx) {
              const std::int64_t px = gx0 + col * s + sx;
              if (px < rx0 || px >= rx1) continue;
              const int idx = quad_offset(static_cast<int>(px - t.tile_x), static_cast<int>(py - t.tile_y));
              if (l.depth_test && !(l.depth < t.depth[idx])) continue;
              t.color[idx] = color;
            }
          }
        }
      }
    }
  }
}

}  // namespace sortie::render::detail
