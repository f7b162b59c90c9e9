#include "atmosphere.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "simd.hpp"

namespace sortie::render::detail {
namespace {

std::uint32_t mix_word(Rgba8 a, Rgba8 b, float t) {
  const auto lerp = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(std::lround(static_cast<float>(x) + (static_cast<float>(y) - x) * t));
  };
  return pack({lerp(a.r, b.r), lerp(a.g, b.g), lerp(a.b, b.b), 255});
}

// Sky colour for a ray of elevation e (sine of its angle above the horizon).
std::uint32_t sky_word(const Atmosphere& at, float e) {
  if (!(e == e)) return pack(at.horizon);
  if (e < 0.0f) return mix_word(at.horizon, at.ground, std::min(1.0f, -e * 2.0f));
  const float t = std::min(1.0f, e / std::max(at.zenith_elevation, 1e-3f));
  return mix_word(at.horizon, at.zenith, std::sqrt(t));  // the horizon band stays narrow
}

}  // namespace

void prepare_atmosphere(const Frame& frame, const FrameGeometry& g, AtmosphereState& out) {
  out.active = frame.atmosphere.has_value();
  if (!out.active) return;
  const Atmosphere& at = *frame.atmosphere;
  out.first_row = g.scissor.y;
  out.sky_rows.resize(static_cast<std::size_t>(g.scissor.height));
  const float cx = static_cast<float>(g.viewport.x) + static_cast<float>(g.viewport.width) * 0.5f;
  for (int r = 0; r < g.scissor.height; ++r) {
    const float y = static_cast<float>(g.scissor.y + r) + 0.5f;
    const auto near_p = frame.camera.unproject(cx, y, 0.0f, g.viewport);
    const auto far_p = frame.camera.unproject(cx, y, 1.0f, g.viewport);
    float e = 0.0f;
    if (near_p && far_p) {
      const core::Vec3 d = *far_p - *near_p;
      const float len = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
      e = len > 0.0f ? d.z / len : 0.0f;
    }
    out.sky_rows[static_cast<std::size_t>(r)] = sky_word(at, e);
  }
  const core::Mat4& p = frame.camera.projection;
  out.p22 = p.at(2, 2);
  out.p23 = p.at(2, 3);
  out.p32 = p.at(3, 2);
  out.p33 = p.at(3, 3);
  out.fog = at.fog_end > at.fog_start && at.fog_max > 0.0f;
  out.fog_start = at.fog_start;
  out.fog_scale = out.fog ? std::min(1.0f, at.fog_max) / (at.fog_end - at.fog_start) : 0.0f;
  out.fog_max = std::clamp(at.fog_max, 0.0f, 1.0f);
  out.fog_r = at.horizon.r;
  out.fog_g = at.horizon.g;
  out.fog_b = at.horizon.b;
}

void clear_tile_to_sky(const AtmosphereState& a, TileContext& t) {
  const int last = static_cast<int>(a.sky_rows.size()) - 1;
  for (int y = 0; y < kTileSize; y += 2) {
    // A quad row: every quad holds two pixels of row y, then two of row y + 1.
    const std::uint32_t top = a.sky_rows[static_cast<std::size_t>(std::clamp(t.tile_y + y - a.first_row, 0, last))];
    const std::uint32_t bottom =
        a.sky_rows[static_cast<std::size_t>(std::clamp(t.tile_y + y + 1 - a.first_row, 0, last))];
    std::uint32_t* q = t.color + quad_offset(0, y);
    for (int k = 0; k < kTileQuads; ++k, q += 4) {
      q[0] = top;
      q[1] = top;
      q[2] = bottom;
      q[3] = bottom;
    }
  }
}

namespace {

// One pixel's fog: the view distance from the window depth (through the projection's z and w
// rows), the fog factor f in [0, fog_max] (0 where nothing was drawn: d >= clear_z, or NaN), and
// each colour channel moved toward the fog colour by f. Branch-free, so the span loop below
// vectorises; f = 0 leaves a channel exactly as it was (x + 0 + 0.5 truncates to x).
inline std::uint32_t fogged(const AtmosphereState& a, std::uint32_t c, float d, float clear_z) {
  const float n = 2.0f * d - 1.0f;
  const float denom = n * a.p32 - a.p22;
  const bool has_denom = denom != 0.0f;
  // View z (negative in front of the eye); an orthographic projection has p32 = 0, p33 = 1.
  const float quotient = (a.p23 - n * a.p33) / (has_denom ? denom : 1.0f);
  const float vz = has_denom ? quotient : 0.0f;
  const float scaled = (-vz - a.fog_start) * a.fog_scale;
  const float raw = scaled < a.fog_max ? scaled : a.fog_max;  // std::min(fog_max, scaled)
  const bool fog = static_cast<bool>(static_cast<int>(d < clear_z) & static_cast<int>(raw > 0.0f));
  const float f = fog ? raw : 0.0f;
  const auto blend = [f](std::uint32_t x0, float to) {
    const float x = static_cast<float>(static_cast<std::int32_t>(x0));
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(x + (to - x) * f + 0.5f));
  };
  return blend(c & 0xffu, a.fog_r) | (blend((c >> 8) & 0xffu, a.fog_g) << 8) |
         (blend((c >> 16) & 0xffu, a.fog_b) << 16) | (c & 0xff000000u);
}

// The same for four pixels at once (simd.hpp: SSE2, or its scalar emulation with the same
// results): fog_lanes over four lanes.
struct Lanes4 {
  using F = simd::F4;
  using I = simd::I4;
  static F fs(float x) { return simd::f4(x); }
  static I is(std::int32_t x) { return simd::i4(x); }
  static F load_depth(const float* p) { return simd::load(p); }
  static I load_color(const std::uint32_t* p) { return simd::load(p); }
  static void store_color(std::uint32_t* p, I v) { simd::store(p, v); }
};

#include "fog_lanes.inl"

inline void fogged4(const AtmosphereState& a, std::uint32_t* color, const float* depth, float clear_z) {
  fog_lanes<Lanes4>(a, color, depth, clear_z);
}

}  // namespace

// True when no depth up to `bound` is fogged: the fog factor at `bound` is clearly below zero
// (view distance grows with window depth, so every nearer pixel is clear of the fog too; the
// margin, a thousandth of the fog's ramp, covers rounding).
inline bool clear_of_fog(const AtmosphereState& a, float bound) {
  const float n = 2.0f * bound - 1.0f;
  const float denom = n * a.p32 - a.p22;
  if (!(denom != 0.0f)) return false;
  const float vz = (a.p23 - n * a.p33) / denom;
  return (-vz - a.fog_start) * a.fog_scale < -1e-3f;
}

void fog_tile(const AtmosphereState& a, TileContext& t, float clear_z) {
  if (!a.fog) return;
  if (t.x0 == t.tile_x && t.y0 == t.tile_y && t.x1 == t.tile_x + kTileSize && t.y1 == t.tile_y + kTileSize) {
    // A whole tile, block by block: a block whose farthest depth is nearer than the fog starts
    // stays as it is; the others every pixel, in buffer order (the layout does not matter pixel
    // by pixel; a block's four quad rows are 16 floats each).
    static_assert(kZBlock == 8 && kTileQuads % 4 == 0);
    for (int by = 0; by < kZBlocksPerRow; ++by)
      for (int bx = 0; bx < kZBlocksPerRow; ++bx) {
        if (clear_of_fog(a, t.block_bound(bx, by))) continue;
        for (int qr = 0; qr < kZBlock / 2; ++qr) {
          const int first = ((by * (kZBlock / 2) + qr) * kTileQuads + bx * (kZBlock / 2)) * 4;
          if (a.fog8 != nullptr) {
            a.fog8(a, t.color + first, t.depth + first, clear_z);
            a.fog8(a, t.color + first + 8, t.depth + first + 8, clear_z);
          } else {
            for (int i = first; i < first + 2 * kZBlock; i += 4) fogged4(a, t.color + i, t.depth + i, clear_z);
          }
        }
      }
    return;
  }
  for (int y = t.y0; y < t.y1; ++y) {
    for (int x = t.x0; x < t.x1; ++x) {
      const int i = quad_offset(x - t.tile_x, y - t.tile_y);
      t.color[i] = fogged(a, t.color[i], t.depth[i], clear_z);
    }
  }
}

}  // namespace sortie::render::detail

namespace sortie::render {

Atmosphere atmosphere_under_sky(const Atmosphere& base, Rgba8 sky) {
  Atmosphere a = base;
  a.horizon = sky;
  const auto shade = [](std::uint8_t v, float k) { return static_cast<std::uint8_t>(std::lround(v * k)); };
  a.zenith = {shade(sky.r, 0.62f), shade(sky.g, 0.75f), shade(sky.b, 0.92f), 255};
  return a;
}

}  // namespace sortie::render
