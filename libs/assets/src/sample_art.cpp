#include "sample_art.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "sortie/core/noise.hpp"

namespace sortie::assets::detail {
namespace {

// ---- texels ---------------------------------------------------------------------------------

struct Rgb {
  float r, g, b;
};

Rgb mix(Rgb a, Rgb b, float t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}
Rgb scale(Rgb c, float k) {
  return {c.r * k, c.g * k, c.b * k};
}
iron3d::TexmColor to_texel(Rgb c) {
  const auto q = [](float v) { return static_cast<std::uint8_t>(std::clamp(v, 0.0f, 255.0f) + 0.5f); };
  return {q(c.r), q(c.g), q(c.b), 255};
}

// Value noise on a lattice of `period` x `period` cells over [0, size) texels, wrapping, so the
// texture tiles without a seam.
float value_noise(float x, float y, std::uint32_t size, std::uint32_t period, std::uint32_t salt) {
  const float cell = static_cast<float>(size) / static_cast<float>(period);
  const float gx = x / cell, gy = y / cell;
  const float fx = std::floor(gx), fy = std::floor(gy);
  const auto ix = static_cast<std::uint32_t>(static_cast<std::int64_t>(fx) % period + period) % period;
  const auto iy = static_cast<std::uint32_t>(static_cast<std::int64_t>(fy) % period + period) % period;
  const float tx = gx - fx, ty = gy - fy;
  const float sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
  const std::uint32_t jx = (ix + 1) % period, jy = (iy + 1) % period;
  const float a = core::hash_unit(ix, iy, salt) + (core::hash_unit(jx, iy, salt) - core::hash_unit(ix, iy, salt)) * sx;
  const float b = core::hash_unit(ix, jy, salt) + (core::hash_unit(jx, jy, salt) - core::hash_unit(ix, jy, salt)) * sx;
  return a + (b - a) * sy;
}

// Fractal noise in 0..1 at level-0 texel (x, y); octaves finer than a texel of `level` are left
// out, so smaller mip levels are the smoothed picture rather than aliased noise.
float fbm(float x, float y, std::uint32_t size, std::uint32_t level, std::uint32_t salt, std::uint32_t coarsest = 2) {
  float sum = 0.0f, weight = 0.0f, amp = 1.0f;
  for (std::uint32_t period = coarsest; period <= size; period *= 2) {
    const float cell = static_cast<float>(size) / static_cast<float>(period);
    if (cell < static_cast<float>(1u << level)) break;
    sum += value_noise(x, y, size, period, salt + period) * amp;
    weight += amp;
    amp *= 0.55f;
  }
  return weight > 0.0f ? sum / weight : 0.5f;
}

struct TexelSource {
  bool terrain = true;
  TerrainKind kind = TerrainKind::grass;
  std::uint32_t seed = 0;
  std::uint32_t size = 64;
};
thread_local TexelSource g_source;

Rgb terrain_colour(TerrainKind kind, float x, float y, std::uint32_t size, std::uint32_t level) {
  const float n = fbm(x, y, size, level, 11);
  const float fine = fbm(x, y, size, level, 23, 8);
  switch (kind) {
    case TerrainKind::sand: {
      const float ripple = 0.5f + 0.5f * std::sin((y + 3.0f * n * static_cast<float>(size) / 8.0f) * 0.8f);
      const float r = level == 0 ? ripple : 0.5f;
      return scale(mix({188, 170, 124}, {212, 196, 150}, n), 0.92f + 0.1f * r + 0.06f * (fine - 0.5f));
    }
    case TerrainKind::grass: {
      Rgb c = mix({58, 92, 36}, {112, 142, 60}, n);
      c = mix(c, {92, 104, 44}, 0.35f * fine);
      const float blade =
          level == 0 ? core::hash_unit(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), 5) : 0.5f;
      return scale(c, 0.86f + 0.24f * blade);
    }
    case TerrainKind::earth: {
      Rgb c = mix({96, 74, 52}, {136, 110, 78}, n);
      const float pebble =
          level == 0 ? core::hash_unit(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), 7) : 0.0f;
      if (pebble > 0.97f) c = mix(c, {118, 108, 96}, 0.5f);
      return scale(c, 0.9f + 0.2f * fine);
    }
    case TerrainKind::rock: {
      const float strata = 0.5f + 0.5f * std::sin(y * 0.45f + n * 6.0f);
      Rgb c = mix({98, 94, 90}, {150, 146, 138}, 0.55f * n + 0.45f * strata);
      if (fine < 0.32f) c = scale(c, 0.78f);  // cracks
      return c;
    }
    case TerrainKind::snow:
      return scale(mix({214, 222, 232}, {246, 248, 252}, n), 0.96f + 0.06f * fine);
  }
  return {128, 128, 128};
}

// Eight paints a sample model can wear: olive, tan, steel, rust brown, concrete, dark olive,
// blue-grey, khaki.
constexpr std::array<Rgb, 8> kPaints{{{92, 100, 60},
                                      {168, 148, 104},
                                      {110, 116, 124},
                                      {120, 84, 56},
                                      {158, 154, 146},
                                      {70, 74, 66},
                                      {96, 108, 120},
                                      {128, 118, 84}}};

Rgb plate_colour(std::uint32_t seed, float x, float y, std::uint32_t size, std::uint32_t level) {
  const Rgb paint = kPaints[seed % kPaints.size()];
  const float n = fbm(x, y, size, level, seed | 1u);
  Rgb c = scale(paint, 0.88f + 0.2f * n);
  // A panel seam along the texture's edges (one plate per repeat), fading with the level.
  const float s = static_cast<float>(size);
  const float d = std::min({x, s - x, y, s - y});
  const float px = static_cast<float>(1u << level);
  if (d < 0.6f * px) c = scale(c, level == 0 ? 0.8f : 0.9f);
  return c;
}

// ---- shapes ---------------------------------------------------------------------------------

using core::Vec3;

class ShapeBuilder {
 public:
  explicit ShapeBuilder(std::uint16_t rows) : rows_(std::max<std::uint16_t>(rows, 1)) {}

  // A convex polygon as one face, turned to face away from `inside`.
  void face(std::vector<Vec3> poly, const Vec3& inside) {
    const Vec3 n = core::cross(poly[1] - poly[0], poly[2] - poly[0]);
    Vec3 c{0, 0, 0};
    for (const auto& p : poly) c = c + p;
    c = c * (1.0f / static_cast<float>(poly.size()));
    if (core::dot(n, c - inside) < 0.0f) std::reverse(poly.begin(), poly.end());
    const float ax = std::abs(n.x), ay = std::abs(n.y), az = std::abs(n.z);
    const auto base = static_cast<std::uint16_t>(in_.positions.size());
    for (const auto& p : poly) {
      in_.positions.push_back(p);
      // Planar UVs on the face's dominant plane, a texture repeat every 4 units.
      float u = p.x, v = p.y;  // top and bottom faces
      if (ax > az && ax >= ay) {
        u = p.y;
        v = p.z;
      } else if (ay > az && ay > ax) {
        v = p.z;
      }
      in_.uvs.push_back({u * 0.25f, v * 0.25f});
    }
    for (std::size_t k = 1; k + 1 < poly.size(); ++k)
      for (auto i : {std::size_t{0}, k, k + 1}) in_.indices.push_back(static_cast<std::uint16_t>(base + i));
  }

  // Parts have a role, 0 = body, 1 = detail: the material row is role % rows.
  void begin_part(int role) {
    part_start_ = static_cast<std::uint32_t>(in_.indices.size());
    role_ = role;
  }
  void end_part() {
    const auto count = static_cast<std::uint32_t>(in_.indices.size()) - part_start_;
    if (count == 0) return;
    in_.batches.push_back({static_cast<std::uint16_t>(static_cast<std::uint16_t>(role_) % rows_), part_start_,
                           static_cast<std::uint16_t>(count)});
  }

  void box(Vec3 lo, Vec3 hi, int role = 0) {
    begin_part(role);
    const Vec3 c = (lo + hi) * 0.5f;
    const float x0 = lo.x, y0 = lo.y, z0 = lo.z, x1 = hi.x, y1 = hi.y, z1 = hi.z;
    face({{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}}, c);
    face({{x0, y0, z0}, {x0, y1, z0}, {x1, y1, z0}, {x1, y0, z0}}, c);
    face({{x1, y0, z0}, {x1, y1, z0}, {x1, y1, z1}, {x1, y0, z1}}, c);
    face({{x0, y0, z0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, z0}}, c);
    face({{x0, y1, z0}, {x0, y1, z1}, {x1, y1, z1}, {x1, y1, z0}}, c);
    face({{x0, y0, z0}, {x1, y0, z0}, {x1, y0, z1}, {x0, y0, z1}}, c);
    end_part();
  }

  // A gable roof over [lo.xy, hi.xy] from z0 to z1, its ridge along the longer side.
  void gable(Vec3 lo, Vec3 hi) {
    begin_part(1);
    const Vec3 c{(lo.x + hi.x) * 0.5f, (lo.y + hi.y) * 0.5f, lo.z + (hi.z - lo.z) * 0.3f};
    const float z0 = lo.z, z1 = hi.z;
    if (hi.x - lo.x >= hi.y - lo.y) {
      const float ym = (lo.y + hi.y) * 0.5f;
      face({{lo.x, lo.y, z0}, {hi.x, lo.y, z0}, {hi.x, ym, z1}, {lo.x, ym, z1}}, c);
      face({{lo.x, hi.y, z0}, {lo.x, ym, z1}, {hi.x, ym, z1}, {hi.x, hi.y, z0}}, c);
      face({{lo.x, lo.y, z0}, {lo.x, ym, z1}, {lo.x, hi.y, z0}}, c);
      face({{hi.x, lo.y, z0}, {hi.x, hi.y, z0}, {hi.x, ym, z1}}, c);
    } else {
      const float xm = (lo.x + hi.x) * 0.5f;
      face({{lo.x, lo.y, z0}, {lo.x, hi.y, z0}, {xm, hi.y, z1}, {xm, lo.y, z1}}, c);
      face({{hi.x, lo.y, z0}, {xm, lo.y, z1}, {xm, hi.y, z1}, {hi.x, hi.y, z0}}, c);
      face({{lo.x, lo.y, z0}, {xm, lo.y, z1}, {hi.x, lo.y, z0}}, c);
      face({{lo.x, hi.y, z0}, {hi.x, hi.y, z0}, {xm, hi.y, z1}}, c);
    }
    end_part();
  }

  // A prism of `sides` around (cx, cy) from z0 to z1, radius r0 at the bottom and r1 at the
  // top (r1 = 0: a cone or pyramid), closed at both ends, stretched by (sx, sy). With sides a
  // multiple of 4 and no turn, its XY extent is exactly cx +- r0 sx, cy +- r0 sy.
  void prism(float cx, float cy, float z0, float z1, float r0, float r1, int sides, float turn = 0.0f, int role = 0,
             float sx = 1.0f, float sy = 1.0f) {
    begin_part(role);
    const Vec3 c{cx, cy, z0 + (z1 - z0) * 0.3f};
    std::vector<Vec3> bottom, top;
    for (int k = 0; k < sides; ++k) {
      const float a = turn + 2.0f * core::kPi * static_cast<float>(k) / static_cast<float>(sides);
      bottom.push_back({cx + r0 * sx * std::cos(a), cy + r0 * sy * std::sin(a), z0});
      top.push_back({cx + r1 * sx * std::cos(a), cy + r1 * sy * std::sin(a), z1});
    }
    face(bottom, c);
    for (int k = 0; k < sides; ++k) {
      const int j = (k + 1) % sides;
      if (r1 > 0.0f) {
        face({bottom[static_cast<std::size_t>(k)], bottom[static_cast<std::size_t>(j)],
              top[static_cast<std::size_t>(j)], top[static_cast<std::size_t>(k)]},
             c);
      } else {
        face({bottom[static_cast<std::size_t>(k)], bottom[static_cast<std::size_t>(j)], Vec3{cx, cy, z1}}, c);
      }
    }
    if (r1 > 0.0f) face(top, c);
    end_part();
  }

  // The finished shape, its XY extremes snapped to exactly +-hx, +-hy (sums such as 0.6 hx +
  // 0.4 hx and cos(pi) miss them by an ulp, and the runtime's footprints come from the bounds).
  iron3d::MshBuildInput take(float hx, float hy) {
    const auto snap = [](float& v, float h) {
      if (std::abs(v - h) <= 1e-4f * h) v = h;
      if (std::abs(v + h) <= 1e-4f * h) v = -h;
    };
    for (auto& p : in_.positions) {
      snap(p.x, hx);
      snap(p.y, hy);
    }
    return std::move(in_);
  }

 private:
  iron3d::MshBuildInput in_;
  std::uint16_t rows_;
  int role_ = 0;
  std::uint32_t part_start_ = 0;
};

void tracked_vehicle(ShapeBuilder& s, float hx, float hy, float h) {
  s.box({-hx, -hy, 0}, {hx, -0.6f * hy, 0.32f * h}, 1);  // tracks
  s.box({-hx, 0.6f * hy, 0}, {hx, hy, 0.32f * h}, 1);
  s.box({-0.9f * hx, -0.62f * hy, 0.14f * h}, {0.9f * hx, 0.62f * hy, 0.55f * h});                     // hull
  s.prism(-0.15f * hx, 0, 0.55f * h, 0.84f * h, 0.5f * std::min(hx, hy), 0.4f * std::min(hx, hy), 6);  // turret
  s.box({0.2f * hx, -0.07f * hy, 0.64f * h}, {hx, 0.07f * hy, 0.74f * h}, 1);                          // gun
}

void walker(ShapeBuilder& s, float hx, float hy, float h) {
  for (float side : {-1.0f, 1.0f}) {
    s.box({-0.14f * hx, side * 0.55f * hy - 0.1f * hy, 0.06f * h},
          {0.14f * hx, side * 0.55f * hy + 0.1f * hy, 0.58f * h}, 1);
    s.box({-0.32f * hx, side * 0.55f * hy - 0.16f * hy, 0}, {0.36f * hx, side * 0.55f * hy + 0.16f * hy, 0.07f * h}, 1);
  }
  s.box({-0.6f * hx, -0.72f * hy, 0.52f * h}, {0.6f * hx, 0.72f * hy, 0.84f * h});   // body
  s.box({-hx, -0.45f * hy, 0.58f * h}, {-0.6f * hx, 0.45f * hy, 0.8f * h}, 1);       // engine pack
  s.box({0.15f * hx, -0.32f * hy, 0.72f * h}, {0.78f * hx, 0.32f * hy, 0.98f * h});  // cockpit
  for (float side : {-1.0f, 1.0f})
    s.box({0.0f, side * 0.92f * hy - 0.08f * hy, 0.62f * h}, {hx, side * 0.92f * hy + 0.08f * hy, 0.7f * h}, 1);
}

void building(ShapeBuilder& s, float hx, float hy, float h, bool tower) {
  if (tower) {
    s.box({-hx, -hy, 0}, {0.4f * hx, hy, 0.55f * h});
    s.prism(0.7f * hx, 0.5f * hy, 0, 0.9f * h, 0.3f, 0.24f, 8, 0.0f, 0, hx, hy);
    s.gable({-hx, -hy, 0.55f * h}, {0.4f * hx, hy, 0.8f * h});
    s.box({-0.3f * hx, -0.4f * hy, 0.8f * h}, {-0.1f * hx, -0.2f * hy, h}, 1);  // chimney
    return;
  }
  s.box({-0.94f * hx, -0.94f * hy, 0}, {0.9f * hx, 0.94f * hy, 0.62f * h});
  s.gable({-hx, -hy, 0.62f * h}, {hx, hy, h});
  s.box({0.9f * hx, -0.2f * hy, 0}, {hx, 0.2f * hy, 0.36f * h}, 1);  // door porch
}

void fortification(ShapeBuilder& s, float hx, float hy, float h, bool bunker) {
  if (bunker) {
    s.box({-hx, -hy, 0}, {0.6f * hx, hy, 0.45f * h});
    s.prism(0.6f * hx, 0, 0, 0.4f * h, 0.4f, 0.1f, 4, 0.0f, 0, hx, 0.8f * hy);  // sloped front
    s.box({-0.5f * hx, -0.5f * hy, 0.45f * h}, {0.2f * hx, 0.5f * hy, 0.6f * h}, 1);
    return;
  }
  s.prism(0, 0, 0, 0.78f * h, 1.0f, 0.88f, 8, 0.0f, 0, hx, hy);
  const float r = std::min(hx, hy);
  for (int k = 0; k < 8; k += 2) {  // battlements
    const float a = 2.0f * core::kPi * (static_cast<float>(k) + 0.5f) / 8.0f;
    const float cx = 0.75f * hx * std::cos(a), cy = 0.75f * hy * std::sin(a);
    s.box({cx - 0.12f * r, cy - 0.12f * r, 0.78f * h}, {cx + 0.12f * r, cy + 0.12f * r, h}, 1);
  }
}

void prop(ShapeBuilder& s, float hx, float hy, float h, std::uint32_t variant) {
  const float r = std::min(hx, hy);
  if (variant % 3 != 2) {  // a conifer
    s.prism(0, 0, 0, 0.35f * h, 0.14f * r, 0.1f * r, 6);
    s.prism(0, 0, 0.25f * h, 0.7f * h, 1.0f, 0, 8, 0.0f, 1, hx, hy);
    s.prism(0, 0, 0.5f * h, h, 0.68f, 0, 7, 0.4f, 1, hx, hy);
    return;
  }
  // A rock: a squat prism and a leaning, irregular top.
  s.prism(0, 0, 0, 0.3f * h, 1.0f, 0.8f, 8, 0.0f, 0, hx, hy);
  s.prism(0.15f * hx, -0.1f * hy, 0.28f * h, 0.5f * h, 0.75f, 0.2f, 5, 0.3f * static_cast<float>(variant % 7), 0, hx,
          hy);
}

// ---- terrain lightmaps ----------------------------------------------------------------------

struct LightmapSource {
  const iron3d::Heightfield* field = nullptr;
  std::uint32_t size = 64;
};
thread_local LightmapSource g_lightmap;

float field_height(const iron3d::Heightfield& f, float x, float y) {
  const float gx = std::clamp((x - f.origin.x) / f.cell_size, 0.0f, static_cast<float>(f.columns - 1) - 1e-3f);
  const float gy = std::clamp((y - f.origin.y) / f.cell_size, 0.0f, static_cast<float>(f.rows - 1) - 1e-3f);
  const auto ix = static_cast<std::uint32_t>(gx), iy = static_cast<std::uint32_t>(gy);
  const float tx = gx - static_cast<float>(ix), ty = gy - static_cast<float>(iy);
  const auto h = [&](std::uint32_t cx, std::uint32_t cy) { return f.heights[std::size_t{cy} * f.columns + cx]; };
  const float a = h(ix, iy) * (1 - tx) + h(ix + 1, iy) * tx;
  const float b = h(ix, iy + 1) * (1 - tx) + h(ix + 1, iy + 1) * tx;
  return a * (1 - ty) + b * ty;
}

// The light reaching ground point (x, y): ambient darkened in hollows, plus the sun by the
// slope's facing, zero where a hill toward the sun casts its shadow.
float ground_light(const iron3d::Heightfield& f, float x, float y) {
  const core::Vec3 sun = core::normalize_or(kSampleSunDirection, {0.0f, 0.0f, -1.0f}) * -1.0f;  // toward the sun
  const float e = 0.5f * f.cell_size;
  const float h = field_height(f, x, y);
  // The relief is exaggerated 4 times for the shading (a cartographer's hill shading): the
  // sample's rolling hills would otherwise light almost evenly under a high sun.
  constexpr float kRelief = 4.0f;
  const core::Vec3 n = core::normalize_or({kRelief * (field_height(f, x - e, y) - field_height(f, x + e, y)),
                                           kRelief * (field_height(f, x, y - e) - field_height(f, x, y + e)), 2.0f * e},
                                          {0.0f, 0.0f, 1.0f});
  float direct = std::max(0.0f, core::dot(n, sun));
  // Cast shadow: march toward the sun in half cells; any ground above the ray shades the point.
  const float horizontal = std::sqrt(sun.x * sun.x + sun.y * sun.y);
  if (horizontal > 1e-3f && direct > 0.0f) {
    const float rise = sun.z / horizontal;  // height gained per unit travelled
    for (float t = e; t < 24.0f * f.cell_size; t += e) {
      const float px = x + sun.x / horizontal * t, py = y + sun.y / horizontal * t;
      const float above = field_height(f, px, py) - (h + 0.3f + rise * t);
      if (above > 0.0f) {
        direct *= std::max(0.0f, 1.0f - above / (0.5f * f.cell_size));
        if (direct <= 0.0f) break;
      }
    }
  }
  // Hollows: the mean height of a ring two cells out above the point darkens the sky light.
  float ring = 0.0f;
  for (int k = 0; k < 8; ++k) {
    const float a = core::kPi * 0.25f * static_cast<float>(k);
    ring += field_height(f, x + 2.0f * f.cell_size * std::cos(a), y + 2.0f * f.cell_size * std::sin(a));
  }
  const float hollow = std::clamp((ring / 8.0f - h) / (1.5f * f.cell_size), 0.0f, 0.7f);
  const float ambient = 0.3f * (1.0f - 0.8f * hollow);
  return std::clamp(ambient + 0.78f * direct, 0.0f, 1.0f);
}

}  // namespace

void set_terrain_lightmap_source(const iron3d::Heightfield* field, std::uint32_t size) {
  g_lightmap = {field, size};
}

iron3d::TexmColor terrain_lightmap_texel(std::uint32_t /*level*/, std::uint32_t x, std::uint32_t y) {
  const iron3d::Heightfield& f = *g_lightmap.field;
  const float extent = static_cast<float>(std::max(f.columns, f.rows) - 1) * f.cell_size;
  const float k = extent / static_cast<float>(g_lightmap.size);
  const float wx = f.origin.x + (static_cast<float>(x) + 0.5f) * k;
  const float wy = f.origin.y + (static_cast<float>(y) + 0.5f) * k;
  const float light = ground_light(f, wx, wy);
  // A touch warm in the sun, cool in the shade.
  return to_texel({255.0f * light * (0.97f + 0.05f * light), 255.0f * light, 255.0f * light * (1.04f - 0.06f * light)});
}

std::string terrain_texture_name(TerrainKind kind) {
  static constexpr const char* kNames[] = {"TERR_SAND", "TERR_GRASS", "TERR_EARTH", "TERR_ROCK", "TERR_SNOW"};
  return kNames[static_cast<std::size_t>(kind)];
}
std::string terrain_material_name(TerrainKind kind) {
  return terrain_texture_name(kind) + "_M";
}

void set_terrain_texel_source(TerrainKind kind, std::uint32_t size) {
  g_source = {true, kind, 0, size};
}
void set_plate_texel_source(std::uint32_t seed, std::uint32_t size) {
  g_source = {false, TerrainKind::grass, seed, size};
}

iron3d::TexmColor terrain_texel(std::uint32_t level, std::uint32_t x, std::uint32_t y) {
  const float k = static_cast<float>(1u << std::min(level, 15u));
  return to_texel(terrain_colour(g_source.kind, (static_cast<float>(x) + 0.5f) * k, (static_cast<float>(y) + 0.5f) * k,
                                 g_source.size, level));
}

iron3d::TexmColor plate_texel(std::uint32_t level, std::uint32_t x, std::uint32_t y) {
  const float k = static_cast<float>(1u << std::min(level, 15u));
  return to_texel(plate_colour(g_source.seed, (static_cast<float>(x) + 0.5f) * k, (static_cast<float>(y) + 0.5f) * k,
                               g_source.size, level));
}

void shape_island(iron3d::Heightfield& f) {
  if (f.columns < 2 || f.rows < 2) return;
  const float lo = *std::min_element(f.heights.begin(), f.heights.end());
  const float hi = *std::max_element(f.heights.begin(), f.heights.end());
  const float sea_floor = lo - 0.08f * std::max(1.0f, hi - lo);
  constexpr float kShore = 6.0f;  // cells over which the land falls to the sea floor
  for (std::uint32_t y = 0; y < f.rows; ++y)
    for (std::uint32_t x = 0; x < f.columns; ++x) {
      const auto d = static_cast<float>(std::min({x, y, f.columns - 1 - x, f.rows - 1 - y}));
      if (d >= kShore) continue;
      const float t = d / kShore;
      const float s = t * t * (3.0f - 2.0f * t);
      float& h = f.heights[std::size_t{y} * f.columns + x];
      const float cap = lo + (0.25f + 0.1f * d) * (hi - lo);  // high ground steps down toward the shore
      h = sea_floor + (std::min(h, cap) - sea_floor) * s;
    }
}

void tag_terrain_by_height_and_slope(iron3d::Heightfield& f) {
  if (f.columns < 2 || f.rows < 2) return;
  const std::size_t cells = std::size_t{f.columns - 1} * (f.rows - 1);
  f.cell_material_tags.resize(cells);
  const auto [lo_it, hi_it] = std::minmax_element(f.heights.begin(), f.heights.end());
  const float lo = *lo_it, range = std::max(1e-3f, *hi_it - *lo_it);
  for (std::uint32_t y = 0; y + 1 < f.rows; ++y)
    for (std::uint32_t x = 0; x + 1 < f.columns; ++x) {
      const auto h = [&](std::uint32_t cx, std::uint32_t cy) { return f.heights[std::size_t{cy} * f.columns + cx]; };
      const float mean = (h(x, y) + h(x + 1, y) + h(x, y + 1) + h(x + 1, y + 1)) * 0.25f;
      const float slope = std::max({std::abs(h(x + 1, y) - h(x, y)), std::abs(h(x, y + 1) - h(x, y)),
                                    std::abs(h(x + 1, y + 1) - h(x, y))}) /
                          std::max(f.cell_size, 1e-3f);
      const float t = (mean - lo) / range;  // 0 lowest .. 1 highest
      TerrainKind kind = TerrainKind::grass;
      if (t < 0.2f)
        kind = TerrainKind::sand;
      else if (t > 0.9f)
        kind = TerrainKind::snow;
      else if (slope > 0.75f)
        kind = TerrainKind::rock;
      else if (t > 0.68f || slope > 0.5f)
        kind = TerrainKind::earth;
      f.cell_material_tags[std::size_t{y} * (f.columns - 1) + x] =
          static_cast<std::uint16_t>(0xFF00u | static_cast<std::uint16_t>(kind));
    }
  // One pass of a 3 x 3 majority filter: single cells of a kind among others join their
  // neighbours, so the kinds form patches rather than confetti.
  const std::uint32_t cw = f.columns - 1, ch = f.rows - 1;
  std::vector<std::uint16_t> out = f.cell_material_tags;
  for (std::uint32_t y = 0; y < ch; ++y)
    for (std::uint32_t x = 0; x < cw; ++x) {
      std::array<int, kTerrainKinds> votes{};
      for (std::uint32_t ny = y > 0 ? y - 1 : 0; ny <= std::min(y + 1, ch - 1); ++ny)
        for (std::uint32_t nx = x > 0 ? x - 1 : 0; nx <= std::min(x + 1, cw - 1); ++nx)
          ++votes[f.cell_material_tags[std::size_t{ny} * cw + nx] & 0xFFu];
      const std::size_t self = f.cell_material_tags[std::size_t{y} * cw + x] & 0xFFu;
      std::size_t best = self;
      for (std::size_t k = 0; k < votes.size(); ++k)
        if (votes[k] > votes[best]) best = k;
      if (votes[self] <= 2) out[std::size_t{y} * cw + x] = static_cast<std::uint16_t>(0xFF00u | best);
    }
  f.cell_material_tags = std::move(out);
}

iron3d::MshBuildInput sample_shape(ShapeFamily family, float hx, float hy, float hz, std::uint16_t material_rows,
                                   std::uint32_t variant) {
  ShapeBuilder s(material_rows);
  const float h = 2.0f * hz;
  switch (family) {
    case ShapeFamily::unit:  // machines are as tall as their footprint suggests, not as drawn
      if (variant % 2 == 0)
        tracked_vehicle(s, hx, hy, 1.1f * std::min(hx, hy) + 1.0f);
      else
        walker(s, hx, hy, 1.4f * std::max(hx, hy) + 1.0f);
      break;
    case ShapeFamily::base:
      building(s, hx, hy, h, variant % 3 == 1);
      break;
    case ShapeFamily::fortification:
      fortification(s, hx, hy, h, variant % 2 == 1);
      break;
    case ShapeFamily::prop:
      prop(s, hx, hy, h, variant);
      break;
  }
  return s.take(hx, hy);
}

}  // namespace sortie::assets::detail
