#include "atmosphere.hpp"

#include <algorithm>
#include <cmath>

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
  for (int y = 0; y < kTileSize; ++y) {
    const int row = std::clamp(t.tile_y + y - a.first_row, 0, static_cast<int>(a.sky_rows.size()) - 1);
    const std::uint32_t word = a.sky_rows[static_cast<std::size_t>(row)];
    for (int x = 0; x < kTileSize; ++x) t.color[quad_offset(x, y)] = word;
  }
}

void fog_tile(const AtmosphereState& a, TileContext& t, float clear_z) {
  if (!a.fog) return;
  for (int y = t.y0; y < t.y1; ++y) {
    for (int x = t.x0; x < t.x1; ++x) {
      const int i = quad_offset(x - t.tile_x, y - t.tile_y);
      const float d = t.depth[i];
      if (!(d < clear_z)) continue;
      const float n = 2.0f * d - 1.0f;
      const float denom = n * a.p32 - a.p22;
      // View z (negative in front of the eye); an orthographic projection has p32 = 0, p33 = 1.
      const float vz = denom != 0.0f ? (a.p23 - n * a.p33) / denom : 0.0f;
      const float f = std::min(a.fog_max, (-vz - a.fog_start) * a.fog_scale);
      if (!(f > 0.0f)) continue;
      const Rgba8 c = unpack(t.color[i]);
      const auto blend = [f](std::uint8_t x0, float fog) {
        return static_cast<std::uint8_t>(static_cast<float>(x0) + (fog - static_cast<float>(x0)) * f + 0.5f);
      };
      t.color[i] = pack({blend(c.r, a.fog_r), blend(c.g, a.fog_g), blend(c.b, a.fog_b), c.a});
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
