// The horror layer's light: line of sight on the map grid, the remembered map, a light map of
// flashlights, glows, muzzle flashes and tracers, the per-pixel light/fog pass and the finishing
// pass (vignette, grain, tension).
#include <algorithm>
#include <cmath>
#include <thread>
#include <tuple>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "squad_view_state.hpp"

namespace sortie::game::detail {

namespace {

constexpr float kSightRadius = 8.5f;
constexpr float kSightFade = 2.0f;
constexpr float kFlashTicks = 5.0f;

float smoothstep(float e0, float e1, float x) {
  const float t = std::clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

// Channels to a packed opaque pixel: clamped to 0..255, then truncated (the SSE2 and the scalar
// forms give the same bits: the same float operations in the same order).
#if defined(__SSE2__)
std::uint32_t pack_clamped(__m128 rgb) {
  __m128i i = _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(rgb, _mm_setzero_ps()), _mm_set1_ps(255.0f)));
  i = _mm_packs_epi32(i, i);
  i = _mm_packus_epi16(i, i);
  return (static_cast<std::uint32_t>(_mm_cvtsi128_si32(i)) & 0x00ffffffu) | 0xff000000u;
}
#else
std::uint32_t pack_clamped(float r, float g, float b) {
  const auto ch = [](float c) { return static_cast<std::uint8_t>(std::clamp(c, 0.0f, 255.0f)); };
  return render::pack({ch(r), ch(g), ch(b), 255});
}
#endif

struct PointLight {
  core::Vec2 pos;
  core::Vec2 dir;
  float cos_outer = -2.0f;  // below -1: all around
  float cos_inner = -2.0f;
  float range = 1.0f;
  float r = 0.0f, g = 0.0f, b = 0.0f;
};

// A light all around `pos` (no cone) of colour (r, g, b).
PointLight round_light(core::Vec2 pos, float range, float r, float g, float b) {
  PointLight l;
  l.pos = pos;
  l.range = range;
  std::tie(l.r, l.g, l.b) = std::tie(r, g, b);
  return l;
}

}  // namespace

void parallel_rows(unsigned threads, std::uint32_t rows, const std::function<void(std::uint32_t, std::uint32_t)>& f) {
  const unsigned n = std::max(1u, std::min(threads, rows));
  if (n == 1) {
    f(0, rows);
    return;
  }
  std::vector<std::thread> workers;
  workers.reserve(n - 1);
  for (unsigned k = 1; k < n; ++k) {
    const std::uint32_t b = rows * k / n;
    const std::uint32_t e = rows * (k + 1) / n;
    workers.emplace_back([&f, b, e] { f(b, e); });
  }
  f(0, rows / n);
  for (auto& w : workers) w.join();
}

bool sees(const squad::WallGrid& walls, core::Vec2 from, core::Vec2 to) {
  const auto hit = walls.raycast(from, to);
  if (!hit) return true;
  // The wall cell that holds `to` itself is lit on the side that faces `from`.
  const core::Vec2 at = from + (to - from) * std::min(1.0f, *hit + 1e-4f);
  return std::floor(at.x) == std::floor(to.x) && std::floor(at.y) == std::floor(to.y);
}

void mark_seen(State& st, const SquadSnapshot& s) {
  const int w = st.map_w;
  const int h = st.map_h;
  for (const squad::Agent& a : s.agents) {
    if (!a.alive) continue;
    const int r = static_cast<int>(std::ceil(kSightRadius));
    const int cx = static_cast<int>(std::floor(a.pos.x));
    const int cy = static_cast<int>(std::floor(a.pos.y));
    for (int y = std::max(0, cy - r); y <= std::min(h - 1, cy + r); ++y) {
      for (int x = std::max(0, cx - r); x <= std::min(w - 1, cx + r); ++x) {
        std::uint8_t& seen =
            st.seen[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)];
        if (seen != 0) continue;
        const core::Vec2 c{static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f};
        if (core::distance(c, a.pos) > kSightRadius) continue;
        if (sees(s.walls, a.pos, c)) seen = 1;
      }
    }
  }
}

void build_light_map(State& st, const SquadSnapshot& s, core::Vec2 lo, core::Vec2 hi) {
  LightMap& m = st.light;
  m.x0 = static_cast<int>(std::floor(lo.x)) - 1;
  m.y0 = static_cast<int>(std::floor(lo.y)) - 1;
  const int x1 = static_cast<int>(std::ceil(hi.x)) + 1;
  const int y1 = static_cast<int>(std::ceil(hi.y)) + 1;
  m.cols = std::max(1, (x1 - m.x0) * kLightRes);
  m.rows = std::max(1, (y1 - m.y0) * kLightRes);
  const std::size_t n = static_cast<std::size_t>(m.cols) * static_cast<std::size_t>(m.rows);
  std::vector<float> lr(n, 0.0f), lg(n, 0.0f), lb(n, 0.0f), vis(n, 0.0f);
  const float step = 1.0f / static_cast<float>(kLightRes);
  const auto sample_pos = [&](int i, int j) {
    return core::Vec2{static_cast<float>(m.x0) + (static_cast<float>(i) + 0.5f) * step,
                      static_cast<float>(m.y0) + (static_cast<float>(j) + 0.5f) * step};
  };
  // Visits the samples within `radius` of p.
  const auto around = [&](core::Vec2 p, float radius, auto&& f) {
    const int i0 = std::max(0, static_cast<int>(std::floor((p.x - radius - static_cast<float>(m.x0)) * kLightRes)));
    const int i1 =
        std::min(m.cols - 1, static_cast<int>(std::ceil((p.x + radius - static_cast<float>(m.x0)) * kLightRes)));
    const int j0 = std::max(0, static_cast<int>(std::floor((p.y - radius - static_cast<float>(m.y0)) * kLightRes)));
    const int j1 =
        std::min(m.rows - 1, static_cast<int>(std::ceil((p.y + radius - static_cast<float>(m.y0)) * kLightRes)));
    for (int j = j0; j <= j1; ++j) {
      for (int i = i0; i <= i1; ++i) {
        const core::Vec2 q = sample_pos(i, j);
        const float d = core::distance(p, q);
        if (d < radius)
          f(static_cast<std::size_t>(j) * static_cast<std::size_t>(m.cols) + static_cast<std::size_t>(i), q, d);
      }
    }
  };

  // Sight: what the squad sees now.
  for (const squad::Agent& a : s.agents) {
    if (!a.alive) continue;
    around(a.pos, kSightRadius, [&](std::size_t k, core::Vec2 q, float d) {
      const float v = smoothstep(kSightRadius, kSightRadius - kSightFade, d);
      if (v <= vis[k]) return;
      if (sees(s.walls, a.pos, q)) vis[k] = v;
    });
  }

  // Lights.
  std::vector<PointLight> lights;
  for (const squad::Agent& a : s.agents) {
    if (!a.alive) continue;
    PointLight torch = round_light(a.pos + a.facing * 0.2f, 9.5f, 1.25f, 1.15f, 0.95f);
    torch.dir = a.facing;
    torch.cos_outer = 0.83f;  // ~34 degrees
    torch.cos_inner = 0.93f;  // ~22 degrees
    lights.push_back(torch);
    lights.push_back(round_light(a.pos, 2.4f, 0.30f, 0.34f, 0.40f));
  }
  for (const Flash& f : st.flashes) {
    const float age = static_cast<float>(s.tick - f.tick);
    if (age >= kFlashTicks) continue;
    const float k = 1.0f - age / kFlashTicks;
    lights.push_back(round_light(f.pos, 4.5f, 1.8f * k, 0.95f * k, 0.35f * k));
  }
  for (const squad::Bullet& b : s.bullets) lights.push_back(round_light(b.pos, 1.8f, 0.7f, 0.35f, 0.1f));
  for (const PointLight& l : lights) {
    around(l.pos, l.range, [&](std::size_t k, core::Vec2 q, float d) {
      float f = 1.0f - d / l.range;
      f *= f;
      if (l.cos_outer > -1.5f && d > 1e-3f) {
        const float c = core::dot(l.dir, (q - l.pos) / d);
        float cone = smoothstep(l.cos_outer, l.cos_inner, c);
        if (d < 0.9f) cone = std::max(cone, 0.35f);
        f *= cone;
      }
      if (f < 0.004f) return;
      if (!sees(s.walls, l.pos, q)) return;
      lr[k] += l.r * f;
      lg[k] += l.g * f;
      lb[k] += l.b * f;
    });
  }

  // Light-pass factors.
  m.factors.assign(n * 4, 0.0f);
  const float pulse_tension = st.tension;
  for (int j = 0; j < m.rows; ++j) {
    for (int i = 0; i < m.cols; ++i) {
      const std::size_t k =
          static_cast<std::size_t>(j) * static_cast<std::size_t>(m.cols) + static_cast<std::size_t>(i);
      const core::Vec2 q = sample_pos(i, j);
      const int cx = static_cast<int>(std::floor(q.x));
      const int cy = static_cast<int>(std::floor(q.y));
      const bool inside = cx >= 0 && cy >= 0 && cx < st.map_w && cy < st.map_h;
      const float seen = inside && st.seen[static_cast<std::size_t>(cy) * static_cast<std::size_t>(st.map_w) +
                                           static_cast<std::size_t>(cx)] != 0
                             ? 1.0f
                             : 0.0f;
      const float lum = (lr[k] + lg[k] + lb[k]) * (1.0f / 3.0f);
      const float v = std::max(vis[k], std::min(1.0f, lum * 2.0f) * (vis[k] > 0.0f ? 1.0f : 0.0f));
      const float ambient = 0.08f - 0.025f * pulse_tension;
      float* f = &m.factors[k * 4];
      f[0] = (lr[k] + ambient * 0.75f) * v;
      f[1] = (lg[k] + ambient * 0.85f) * v;
      f[2] = (lb[k] + ambient * 1.00f) * v;
      f[3] = (1.0f - v) * seen * 0.16f;
    }
  }
}

void light_pass(const State& st, const SquadSnapshot& s, const PixelToWorld& p2w, render::Framebuffer& fb,
                unsigned threads) {
  const LightMap& m = st.light;
  const float map_h = static_cast<float>(s.walls.height());
  const std::uint32_t width = fb.width();
  auto color = fb.color();
  const auto depth = std::as_const(fb).depth();
  parallel_rows(threads, fb.height(), [&](std::uint32_t y0, std::uint32_t y1) {
    for (std::uint32_t y = y0; y < y1; ++y) {
      const float py = static_cast<float>(y) + 0.5f;
      for (std::uint32_t x = 0; x < width; ++x) {
        const std::size_t at = static_cast<std::size_t>(y) * width + x;
        const float d = depth[at];
        if (d >= 1.0f) {
          color[at] = render::pack(render::kBlack);
          continue;
        }
        const float px = static_cast<float>(x) + 0.5f;
        const core::Vec3 w = p2w.origin + p2w.dx * px + p2w.dy * py + p2w.dd * d;
        const float u = (w.x - static_cast<float>(m.x0)) * kLightRes - 0.5f;
        const float v = (map_h - w.y - static_cast<float>(m.y0)) * kLightRes - 0.5f;
        const float uc = std::clamp(u, 0.0f, static_cast<float>(m.cols - 1));
        const float vc = std::clamp(v, 0.0f, static_cast<float>(m.rows - 1));
        const int i0 = static_cast<int>(uc);
        const int j0 = static_cast<int>(vc);
        const int i1 = std::min(i0 + 1, m.cols - 1);
        const int j1 = std::min(j0 + 1, m.rows - 1);
        const float fu = uc - static_cast<float>(i0);
        const float fv = vc - static_cast<float>(j0);
        const auto cols = static_cast<std::size_t>(m.cols);
        const float* f00 = &m.factors[(static_cast<std::size_t>(j0) * cols + static_cast<std::size_t>(i0)) * 4];
        const float* f10 = &m.factors[(static_cast<std::size_t>(j0) * cols + static_cast<std::size_t>(i1)) * 4];
        const float* f01 = &m.factors[(static_cast<std::size_t>(j1) * cols + static_cast<std::size_t>(i0)) * 4];
        const float* f11 = &m.factors[(static_cast<std::size_t>(j1) * cols + static_cast<std::size_t>(i1)) * 4];
#if defined(__SSE2__)
        const __m128 vfu = _mm_set1_ps(fu);
        const __m128 q00 = _mm_loadu_ps(f00);
        const __m128 q01 = _mm_loadu_ps(f01);
        const __m128 qa = _mm_add_ps(q00, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(f10), q00), vfu));
        const __m128 qb = _mm_add_ps(q01, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(f11), q01), vfu));
        const __m128 fac = _mm_add_ps(qa, _mm_mul_ps(_mm_sub_ps(qb, qa), _mm_set1_ps(fv)));
        const __m128i zero = _mm_setzero_si128();
        const __m128i pix = _mm_cvtsi32_si128(static_cast<int>(color[at]));
        const __m128 col = _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(pix, zero), zero));
        const render::Rgba8 in = render::unpack(color[at]);
        const float lum =
            0.30f * static_cast<float>(in.r) + 0.59f * static_cast<float>(in.g) + 0.11f * static_cast<float>(in.b);
        const float mem = _mm_cvtss_f32(_mm_shuffle_ps(fac, fac, 3)) * lum;
        const __m128 out =
            _mm_add_ps(_mm_mul_ps(col, fac), _mm_mul_ps(_mm_set1_ps(mem), _mm_set_ps(0.0f, 1.15f, 0.9f, 0.75f)));
        color[at] = pack_clamped(out);
#else
        float fac[4];
        for (int c = 0; c < 4; ++c) {
          const float a = f00[c] + (f10[c] - f00[c]) * fu;
          const float b = f01[c] + (f11[c] - f01[c]) * fu;
          fac[c] = a + (b - a) * fv;
        }
        const render::Rgba8 in = render::unpack(color[at]);
        const float r = static_cast<float>(in.r);
        const float g = static_cast<float>(in.g);
        const float b = static_cast<float>(in.b);
        const float mem = fac[3] * (0.30f * r + 0.59f * g + 0.11f * b);
        color[at] = pack_clamped(r * fac[0] + mem * 0.75f, g * fac[1] + mem * 0.9f, b * fac[2] + mem * 1.15f);
#endif
      }
    }
  });
}

void finish_pass(State& st, const SquadSnapshot& s, render::Framebuffer& fb, unsigned threads) {
  const std::uint32_t width = fb.width();
  const std::uint32_t height = fb.height();
  if (st.finish_w != width || st.finish_h != height) {
    st.finish_w = width;
    st.finish_h = height;
    const float cx = static_cast<float>(width) * 0.5f;
    const float cy = static_cast<float>(height) * 0.5f;
    st.vignette.resize(static_cast<std::size_t>(width) * height);
    st.edge.resize(st.vignette.size());
    for (std::uint32_t y = 0; y < height; ++y) {
      const float ny = (static_cast<float>(y) + 0.5f - cy) / cy;
      for (std::uint32_t x = 0; x < width; ++x) {
        const float nx = (static_cast<float>(x) + 0.5f - cx) / cx;
        const float r2 = nx * nx * 0.8f + ny * ny;
        st.vignette[static_cast<std::size_t>(y) * width + x] = smoothstep(0.15f, 1.6f, r2);
        st.edge[static_cast<std::size_t>(y) * width + x] = smoothstep(0.6f, 1.7f, r2);
      }
    }
    if (st.grain.empty()) {
      st.grain.resize(static_cast<std::size_t>(kGrainSize) * kGrainSize);
      for (std::uint32_t k = 0; k < st.grain.size(); ++k) st.grain[k] = (hash_unit(k, 77) - 0.5f) * 2.0f;
    }
  }
  const float tension = st.tension;
  const float t = static_cast<float>(s.seconds());
  const float rate = 1.0f + 1.3f * tension;  // heartbeats per second
  const float beat = 0.5f + 0.5f * std::sin(2.0f * core::kPi * rate * t);
  const float pulse = tension * beat * beat * beat;
  const float strength = 0.55f + 0.3f * tension;
  const float grain = 7.0f + 9.0f * tension;
  // The grain tile moves by a hashed offset every tick.
  const std::uint32_t shift = hash32(static_cast<std::uint32_t>(s.tick), 5);
  const std::uint32_t sx = shift & (kGrainSize - 1);
  const std::uint32_t sy = (shift >> 8) & (kGrainSize - 1);
  auto color = fb.color();
  const State& cst = st;
  parallel_rows(threads, height, [&](std::uint32_t y0, std::uint32_t y1) {
    for (std::uint32_t y = y0; y < y1; ++y) {
      const float* grow = &cst.grain[static_cast<std::size_t>((y + sy) & (kGrainSize - 1)) * kGrainSize];
      const std::size_t row = static_cast<std::size_t>(y) * width;
      for (std::uint32_t x = 0; x < width; ++x) {
        const std::size_t at = row + x;
        const float vig = 1.0f - strength * cst.vignette[at];
        const float pe = pulse * cst.edge[at];
        const float n = grow[(x + sx) & (kGrainSize - 1)] * grain + 2.0f;
        const float cool = vig * (1.0f - 0.35f * pe);
#if defined(__SSE2__)
        const __m128i zero = _mm_setzero_si128();
        const __m128i pix = _mm_cvtsi32_si128(static_cast<int>(color[at]));
        const __m128 col = _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(pix, zero), zero));
        const __m128 mul = _mm_set_ps(0.0f, cool, cool, vig);
        const __m128 add = _mm_set_ps(0.0f, n, n, n + 110.0f * pe);
        color[at] = pack_clamped(_mm_add_ps(_mm_mul_ps(col, mul), add));
#else
        const render::Rgba8 in = render::unpack(color[at]);
        color[at] = pack_clamped(static_cast<float>(in.r) * vig + (n + 110.0f * pe), static_cast<float>(in.g) * cool + n,
                                 static_cast<float>(in.b) * cool + n);
#endif
      }
    }
  });
}

}  // namespace sortie::game::detail
