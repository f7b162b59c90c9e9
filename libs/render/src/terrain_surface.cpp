#include "sortie/render/terrain_surface.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "sortie/core/noise.hpp"

namespace sortie::render {
namespace {

struct Rgbf {
  float r = 0, g = 0, b = 0;
};

// Bilinear sample of level 0 at texture coordinates (u, v); `repeat` wraps, else clamps.
Rgbf sample_level0(const Texture& t, float u, float v, bool repeat) {
  const auto level = t.level(0);
  const auto w = static_cast<std::int64_t>(t.width()), h = static_cast<std::int64_t>(t.height());
  const float x = u * static_cast<float>(w) - 0.5f, y = v * static_cast<float>(h) - 0.5f;
  const float fx = std::floor(x), fy = std::floor(y);
  const float tx = x - fx, ty = y - fy;
  const auto at = [&](std::int64_t cx, std::int64_t cy) {
    if (repeat) {
      cx = ((cx % w) + w) % w;
      cy = ((cy % h) + h) % h;
    } else {
      cx = std::clamp<std::int64_t>(cx, 0, w - 1);
      cy = std::clamp<std::int64_t>(cy, 0, h - 1);
    }
    const Rgba8 c = unpack(level[static_cast<std::size_t>(cy * w + cx)]);
    return Rgbf{static_cast<float>(c.r), static_cast<float>(c.g), static_cast<float>(c.b)};
  };
  const auto ix = static_cast<std::int64_t>(fx), iy = static_cast<std::int64_t>(fy);
  const Rgbf a = at(ix, iy), b = at(ix + 1, iy), c = at(ix, iy + 1), d = at(ix + 1, iy + 1);
  const auto lerp = [](float p, float q, float s) { return p + (q - p) * s; };
  return {lerp(lerp(a.r, b.r, tx), lerp(c.r, d.r, tx), ty), lerp(lerp(a.g, b.g, tx), lerp(c.g, d.g, tx), ty),
          lerp(lerp(a.b, b.b, tx), lerp(c.b, d.b, tx), ty)};
}

// Smooth value noise in 0..1 (a lattice of unit cells, smoothstep between corners).
float smooth_noise(float x, float y, std::uint32_t salt) {
  const float fx = std::floor(x), fy = std::floor(y);
  const float tx = x - fx, ty = y - fy;
  const float sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
  const auto ix = static_cast<std::uint32_t>(static_cast<std::int32_t>(fx));
  const auto iy = static_cast<std::uint32_t>(static_cast<std::int32_t>(fy));
  const float a = core::hash_unit(ix, iy, salt), b = core::hash_unit(ix + 1, iy, salt);
  const float c = core::hash_unit(ix, iy + 1, salt), d = core::hash_unit(ix + 1, iy + 1, salt);
  return (a + (b - a) * sx) + ((c + (d - c) * sx) - (a + (b - a) * sx)) * sy;
}

constexpr Rgbf kUntexturedGrey{170, 170, 165};

}  // namespace

std::uint32_t terrain_surface_size(float extent) {
  std::uint32_t size = 256;
  while (size < 1024 && static_cast<float>(size) < 2.0f * extent) size *= 2;
  return size;
}

core::Result<TerrainSurface> bake_terrain_surface(const assets::PreparedTerrain& terrain,
                                                  const std::vector<const Texture*>& textures,
                                                  const Texture* lightmap) {
  const auto& pos = terrain.positions;
  core::Aabb b;
  for (const auto& p : pos) b.expand(p);
  const float ext = b.empty() ? 0.0f : std::max(b.max.x - b.min.x, b.max.y - b.min.y);
  if (!(ext > 0.0f))
    return core::fail(
        core::Diagnostic::error("render.scene.terrain_surface", "the terrain has no XY extent").of(terrain.path));
  const bool uvs = terrain.uvs.size() == pos.size();
  const std::size_t nt = textures.size();
  const std::size_t kinds = nt + 1;  // the last: untextured faces
  // Per-vertex weights: the share of the faces around the vertex that use each texture.
  std::vector<float> weight(pos.size() * kinds, 0.0f);
  for (const auto& f : terrain.faces) {
    const std::size_t k =
        f.texture >= 0 && static_cast<std::size_t>(f.texture) < nt ? static_cast<std::size_t>(f.texture) : nt;
    for (const auto v : f.vertices)
      if (v < pos.size()) weight[v * kinds + k] += 1.0f;
  }
  for (std::size_t v = 0; v < pos.size(); ++v) {
    float sum = 0.0f;
    for (std::size_t k = 0; k < kinds; ++k) sum += weight[v * kinds + k];
    if (sum > 0.0f)
      for (std::size_t k = 0; k < kinds; ++k) weight[v * kinds + k] /= sum;
  }

  TerrainSurface out;
  const std::uint32_t size = terrain_surface_size(ext);
  const float texel = ext / static_cast<float>(size);  // world units per texel
  out.uvs.reserve(pos.size());
  for (const auto& p : pos) out.uvs.push_back({(p.x - b.min.x) / ext, (p.y - b.min.y) / ext});
  std::vector<std::uint32_t> texels(std::size_t{size} * size, pack(Rgba8{170, 170, 165, 255}));
  std::vector<float> w(kinds);
  for (const auto& f : terrain.faces) {
    if (f.vertices[0] >= pos.size() || f.vertices[1] >= pos.size() || f.vertices[2] >= pos.size()) continue;
    const core::Vec3 &p0 = pos[f.vertices[0]], &p1 = pos[f.vertices[1]], &p2 = pos[f.vertices[2]];
    const float det = (p1.x - p0.x) * (p2.y - p0.y) - (p2.x - p0.x) * (p1.y - p0.y);
    if (std::abs(det) < 1e-9f) continue;  // a vertical or degenerate face covers no ground
    const float lo_x = std::min({p0.x, p1.x, p2.x}), hi_x = std::max({p0.x, p1.x, p2.x});
    const float lo_y = std::min({p0.y, p1.y, p2.y}), hi_y = std::max({p0.y, p1.y, p2.y});
    const auto first = [&](float v, float lo) {
      return static_cast<std::uint32_t>(std::clamp((v - lo) / texel - 0.5f, 0.0f, static_cast<float>(size - 1)));
    };
    const std::uint32_t x0 = first(lo_x, b.min.x), x1 = std::min(size - 1, first(hi_x, b.min.x) + 1);
    const std::uint32_t y0 = first(lo_y, b.min.y), y1 = std::min(size - 1, first(hi_y, b.min.y) + 1);
    for (std::uint32_t ty = y0; ty <= y1; ++ty)
      for (std::uint32_t tx = x0; tx <= x1; ++tx) {
        const float x = b.min.x + (static_cast<float>(tx) + 0.5f) * texel;
        const float y = b.min.y + (static_cast<float>(ty) + 0.5f) * texel;
        const float l1 = ((x - p0.x) * (p2.y - p0.y) - (p2.x - p0.x) * (y - p0.y)) / det;
        const float l2 = ((p1.x - p0.x) * (y - p0.y) - (x - p0.x) * (p1.y - p0.y)) / det;
        const float l0 = 1.0f - l1 - l2;
        constexpr float kEdge = -1e-4f;
        if (l0 < kEdge || l1 < kEdge || l2 < kEdge) continue;
        float sum = 0.0f;
        std::size_t present = 0, only = 0;
        for (std::size_t k = 0; k < kinds; ++k) {
          w[k] = l0 * weight[f.vertices[0] * kinds + k] + l1 * weight[f.vertices[1] * kinds + k] +
                 l2 * weight[f.vertices[2] * kinds + k];
          if (w[k] > 1e-6f) ++present, only = k;
        }
        for (std::size_t k = 0; k < kinds && present > 1; ++k) {
          const float lin = w[k];
          if (lin <= 1e-6f) {
            w[k] = 0.0f;
            continue;
          }
          // A ragged border: each material's share grows and shrinks with its own noise, then
          // the shares are sharpened so the band is narrower than the cell.
          const float n = 0.5f * smooth_noise(x * 0.09f, y * 0.09f, static_cast<std::uint32_t>(k) * 7919u + 1u) +
                          0.5f * smooth_noise(x * 0.31f, y * 0.31f, static_cast<std::uint32_t>(k) * 104729u + 3u);
          const float j = lin * (0.35f + 1.3f * n);
          w[k] = j * j * j;
          sum += w[k];
        }
        if (present == 1) {  // inside one material: no blend, no noise
          std::fill(w.begin(), w.end(), 0.0f);
          w[only] = 1.0f;
          sum = 1.0f;
        }
        Rgbf c;
        for (std::size_t k = 0; k < kinds && sum > 0.0f; ++k) {
          if (w[k] <= 0.0f) continue;
          const float s = w[k] / sum;
          Rgbf t = kUntexturedGrey;
          if (k < nt && uvs) {
            const core::Vec2 uv =
                terrain.uvs[f.vertices[0]] * l0 + terrain.uvs[f.vertices[1]] * l1 + terrain.uvs[f.vertices[2]] * l2;
            t = sample_level0(*textures[k], uv.x, uv.y, true);
          }
          c.r += t.r * s;
          c.g += t.g * s;
          c.b += t.b * s;
        }
        if (lightmap != nullptr) {
          const Rgbf l = sample_level0(*lightmap, (x - b.min.x) / ext, (y - b.min.y) / ext, false);
          c = {c.r * l.r / 255.0f, c.g * l.g / 255.0f, c.b * l.b / 255.0f};
        }
        const auto q = [](float v) { return static_cast<std::uint8_t>(std::clamp(v, 0.0f, 255.0f) + 0.5f); };
        texels[std::size_t{ty} * size + tx] = pack(Rgba8{q(c.r), q(c.g), q(c.b), 255});
      }
  }
  SORTIE_TRY(out.texture, Texture::from_packed(size, size, texels, MipChain::generate));
  out.lightmapped = lightmap != nullptr;
  out.materials = static_cast<std::uint32_t>(nt);
  return out;
}

}  // namespace sortie::render
