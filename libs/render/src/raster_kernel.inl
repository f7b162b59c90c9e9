// The triangle rasterizer's kernels, written once over a lane policy V (included by
// raster_sse2.cpp with four lanes = one 2 x 2 quad in SSE2, by raster_avx2.cpp with eight = two
// quads side by side in AVX2, and by raster_avx512.cpp with sixteen = four quads in AVX-512).
// All give bit-identical pixels: every per-lane value is computed by the same operations from
// the same inputs (plane values are evaluated directly from exact pixel offsets, never
// accumulated), and lanes outside the triangle are never stored.
//
// Per quad: incremental integer edge functions with the top-left rule, depth test, perspective-
// correct attributes from per-triangle planes, texture sampling (nearest, bilinear, trilinear
// with per-pixel or per-quad LOD), colour modulation, alpha test and blending. One template
// instance per (texture filter, blend mode, shade); the kernel is chosen once per draw, so
// nothing is dispatched per pixel (the wrap mode is a predictable branch per step).
//
// The including file defines SORTIE_KERNEL_NS and the policy V in that namespace first.

#define SORTIE_INLINE inline __attribute__((always_inline))

namespace sortie::render::detail::SORTIE_KERNEL_NS {
namespace {

using F = V::F;
using I = V::I;
constexpr int kLanes = V::kLanes;
constexpr int kFull = (1 << kLanes) - 1;

enum class Tex : int { none, nearest, bilinear, trilinear };

// A colour with its channels spread over 16-bit halves: rb = R | B << 16, ga = G | A << 16.
struct Split {
  I rb;
  I ga;
};

SORTIE_INLINE Split split(I t) {
  const auto s = V::split(t);
  return {s.rb, s.ga};
}
SORTIE_INLINE I join(const Split& s) {
  return s.rb | sll<8>(s.ga);
}
// A value below 2^16 in both 16-bit halves.
SORTIE_INLINE I rep16(I f) {
  return V::rep16(f);
}
// a * (256 - f) + b * f per 16-bit half (8-bit a, b: the result is the blend * 256, < 2^16);
// f16 / if16 hold f and 256 - f in both halves.
SORTIE_INLINE I lerp16w(I a, I b, I f16, I if16) {
  return add16(mullo16(a, if16), mullo16(b, f16));
}
SORTIE_INLINE Split lerp_wide(const Split& a, const Split& b, I f16, I if16) {
  return {lerp16w(a.rb, b.rb, f16, if16), lerp16w(a.ga, b.ga, f16, if16)};
}
// The same, shifted back to 8-bit values.
SORTIE_INLINE Split lerp(const Split& a, const Split& b, I f16, I if16) {
  return {srl16<8>(lerp16w(a.rb, b.rb, f16, if16)), srl16<8>(lerp16w(a.ga, b.ga, f16, if16))};
}
SORTIE_INLINE Split narrow(const Split& w) {
  return {srl16<8>(w.rb), srl16<8>(w.ga)};
}
// Samplers return channel values * 256 (8.8 fixed point) in 16-bit halves.

// Integer texel coordinates into [0, size).
template <WrapKind kWrap>
SORTIE_INLINE I wrap_coord(I x, std::int32_t size, std::int32_t mask) {
  if constexpr (kWrap == WrapKind::repeat_pow2) {
    (void)size;
    return x & V::is(mask);
  } else if constexpr (kWrap == WrapKind::clamp) {
    (void)mask;
    return max_i(min_i(x, V::is(size - 1)), V::is(0));
  } else {
    (void)mask;
    alignas(64) std::int32_t v[kLanes];
    V::store_lanes(v, x);
    for (int k = 0; k < kLanes; ++k) {
      const std::int32_t r = v[k] % size;
      v[k] = r < 0 ? r + size : r;
    }
    return V::from_lanes(v);
  }
}

template <WrapKind kWrap>
SORTIE_INLINE I row_offset(I y, const SamplerLevel& l) {
  if constexpr (kWrap == WrapKind::repeat_pow2) return sll(y, l.log2w);
  return l.pow2 ? sll(y, l.log2w) : mullo32(y, V::is(l.width));
}

// Texture coordinates to 8.8 fixed-point texels: cvtps2dq rounds to nearest; NaN and values
// beyond +-2^31 give INT_MIN, which every wrap mode turns into a valid texel.
// `live` marks the lanes whose texels are used (the others may read anything in the texture).
template <WrapKind kWrap>
SORTIE_INLINE Split sample_nearest(const SamplerLevel& l, F u, F v, I live) {
  const I x = wrap_coord<kWrap>(sra<8>(round_i(u * V::fs(l.fw256))), l.width, l.wmask);
  const I y = wrap_coord<kWrap>(sra<8>(round_i(v * V::fs(l.fh256))), l.height, l.hmask);
  const Split t = split(V::gather(l.texels, row_offset<kWrap>(y, l) + x, live));
  return {sll16<8>(t.rb), sll16<8>(t.ga)};
}

// The 2 x 2 texels of each lane and its 8.8 fixed-point coordinates (fraction in the low byte).
struct Texels {
  I t00, t10, t01, t11, fu, fv;
};

template <WrapKind kWrap>
SORTIE_INLINE Texels fetch_bilinear(const SamplerLevel& l, F u, F v, I live) {
  Texels t;
  t.fu = round_i(u * V::fs(l.fw256) - V::fs(128.0f));
  t.fv = round_i(v * V::fs(l.fh256) - V::fs(128.0f));
  const I xi = sra<8>(t.fu);
  const I yi = sra<8>(t.fv);
  const I x0 = wrap_coord<kWrap>(xi, l.width, l.wmask);
  const I x1 = wrap_coord<kWrap>(xi + V::is(1), l.width, l.wmask);
  const I i0 = row_offset<kWrap>(wrap_coord<kWrap>(yi, l.height, l.hmask), l) + x0;
  const I i1 = row_offset<kWrap>(wrap_coord<kWrap>(yi + V::is(1), l.height, l.hmask), l) + x0;
  if (movemask(cmpeq(x1, x0 + V::is(1))) == kFull) {
    // No lane wraps between its two columns: each row pair is one 64-bit load.
    V::fetch_pairs(l.texels, i0, i1, live, t.t00, t.t10, t.t01, t.t11);
  } else {
    const I dx = x1 - x0;
    t.t00 = V::gather(l.texels, i0, live);
    t.t10 = V::gather(l.texels, i0 + dx, live);
    t.t01 = V::gather(l.texels, i1, live);
    t.t11 = V::gather(l.texels, i1 + dx, live);
  }
  return t;
}

SORTIE_INLINE Split filter_bilinear(const Texels& t) {
  const I fx = t.fu & V::is(255);
  const I fy = t.fv & V::is(255);
  // Weights in both 16-bit halves; 256 - f there is 0x01000100 - f16 (no borrow, f < 256).
  const I fx16 = rep16(fx), ifx16 = V::is(0x01000100) - fx16;
  const I fy16 = rep16(fy), ify16 = V::is(0x01000100) - fy16;
  return lerp_wide(lerp(split(t.t00), split(t.t10), fx16, ifx16), lerp(split(t.t01), split(t.t11), fx16, ifx16), fy16,
                   ify16);
}

template <WrapKind kWrap>
SORTIE_INLINE Split sample_bilinear(const SamplerLevel& l, F u, F v, I live) {
  return filter_bilinear(fetch_bilinear<kWrap>(l, u, v, live));
}

// Both levels around the LOD (8.8 fixed point per lane), blended by its fraction.
template <WrapKind kWrap>
SORTIE_INLINE Split sample_trilinear(const DrawState& d, F u, F v, I lod8, I live) {
  const std::int32_t max_level = d.level_count - 1;
  const I lod = max_i(min_i(lod8, V::is(max_level * 256)), V::is(0));
  const I level = sra<8>(lod);
  const I frac = lod & V::is(255);
  alignas(64) std::int32_t lv[kLanes];
  V::store_lanes(lv, level);
  const I f16 = rep16(frac), if16 = V::is(0x01000100) - f16;
  // Lanes with a zero fraction take their level as it is (full precision).
  const I whole = cmpeq(frac, V::is(0));
  auto blend = [&](const Split& a, const Split& b) {
    const Split t = lerp_wide(narrow(a), narrow(b), f16, if16);
    return Split{select(whole, a.rb, t.rb), select(whole, a.ga, t.ga)};
  };
  if (movemask(cmpeq(level, V::is(lv[0]))) == kFull) {
    if (lv[0] == max_level || movemask(whole) == kFull) return sample_bilinear<kWrap>(d.levels[lv[0]], u, v, live);
    // Both levels' loads first, then both filters: the loads overlap.
    const Texels ta = fetch_bilinear<kWrap>(d.levels[lv[0]], u, v, live);
    const Texels tb = fetch_bilinear<kWrap>(d.levels[lv[0] + 1], u, v, live);
    return blend(filter_bilinear(ta), filter_bilinear(tb));
  }
  // Lanes on different levels (a level boundary inside the step): each level once.
  Split out{V::is(0), V::is(0)};
  for (int k = 0; k < kLanes; ++k) {
    const std::int32_t lk = lv[k];
    bool seen = false;
    for (int j = 0; j < k; ++j) seen = seen || lv[j] == lk;
    if (seen) continue;
    Split s = sample_bilinear<kWrap>(d.levels[lk], u, v, live);
    if (lk < max_level) s = blend(s, sample_bilinear<kWrap>(d.levels[lk + 1], u, v, live));
    const I m = cmpeq(level, V::is(lk));
    out.rb = select(m, s.rb, out.rb);
    out.ga = select(m, s.ga, out.ga);
  }
  return out;
}

// 8.8 fixed-point LOD = log2(rho^2) / 2 from the float's exponent and top mantissa bits (a
// piecewise-linear log2, monotonic, error < 0.09 level).
SORTIE_INLINE I lod_from_rho2(F rho2) {
  return sra<16>(bits(rho2) - V::is(127 << 23));
}

// One LOD per 2 x 2 quad by finite differences, as quad_lod_scalar does: each quad's lane 0
// against lanes 1 (right) and 2 (below). Policies that broadcast a lane within its quad
// (P::quad_lane<k>) work in the vectors; the baseline goes quad by quad (V::quad_lod).
template <class P = V>
SORTIE_INLINE I quad_lod(F u, F v, float tex_w, float tex_h) {
  if constexpr (requires { P::template quad_lane<0>(u); }) {
    const F tw = V::fs(tex_w), th = V::fs(tex_h);
    const F u0 = P::template quad_lane<0>(u), u1 = P::template quad_lane<1>(u), u2 = P::template quad_lane<2>(u);
    const F v0 = P::template quad_lane<0>(v), v1 = P::template quad_lane<1>(v), v2 = P::template quad_lane<2>(v);
    const F dudx = (u1 - u0) * tw, dvdx = (v1 - v0) * th;
    const F dudy = (u2 - u0) * tw, dvdy = (v2 - v0) * th;
    return lod_from_rho2(max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy));  // rx > ry ? rx : ry
  } else {
    return P::quad_lod(u, v, tex_w, tex_h);
  }
}

// The masked lanes of v over p, whose lanes held `old` (loaded from p): a masked store where the
// policy has one (P::store_masked), else the old values kept by a select.
template <class P = V, class T, class X>
SORTIE_INLINE void store_lanes_of(T* p, I mask, X v, X old) {
  if constexpr (requires { P::store_masked(p, mask, v); })
    P::store_masked(p, mask, v);
  else
    store(p, select(mask, v, old));
}

// Screen derivatives of q = 1 / w, u / w and v / w (for the per-pixel LOD).
struct Gradients {
  float qdx, qdy, udx, udy, vdx, vdy;
};

// The trilinear LOD of each lane (8.8 fixed point): per 2 x 2 quad or per pixel.
SORTIE_INLINE I lod_of(const DrawState& d, const Gradients& gr, F u, F v, F w, bool per_quad_lod) {
  if (per_quad_lod) return quad_lod(u, v, d.tex_w, d.tex_h);
  // du/dx = (d(u/w)/dx - u d(1/w)/dx) * w, in texels of level 0.
  const F ww = w * V::fs(d.tex_w), wh = w * V::fs(d.tex_h);
  const F qdx = V::fs(gr.qdx), qdy = V::fs(gr.qdy);
  const F dudx = (V::fs(gr.udx) - u * qdx) * ww, dvdx = (V::fs(gr.vdx) - v * qdx) * wh;
  const F dudy = (V::fs(gr.udy) - u * qdy) * ww, dvdy = (V::fs(gr.vdy) - v * qdy) * wh;
  return lod_from_rho2(max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy));
}

// The texel of each live lane at (u, v); lod8 is used by trilinear filtering only.
template <Tex kTex, WrapKind kWrap>
SORTIE_INLINE Split sample(const DrawState& d, F u, F v, I lod8, I live) {
  if constexpr (kTex == Tex::nearest) {
    (void)lod8;
    return sample_nearest<kWrap>(d.levels[0], u, v, live);
  } else if constexpr (kTex == Tex::bilinear) {
    (void)lod8;
    return sample_bilinear<kWrap>(d.levels[0], u, v, live);
  } else {
    return sample_trilinear<kWrap>(d, u, v, lod8, live);
  }
}

template <Tex kTex>
SORTIE_INLINE Split sample_wrapped(const DrawState& d, F u, F v, I lod8, I live) {
  switch (d.wrap) {
    case WrapKind::repeat_pow2:
      return sample<kTex, WrapKind::repeat_pow2>(d, u, v, lod8, live);
    case WrapKind::clamp:
      return sample<kTex, WrapKind::clamp>(d, u, v, lod8, live);
    default:
      return sample<kTex, WrapKind::repeat_any>(d, u, v, lod8, live);
  }
}

// A texel (8.8 fixed point per channel) modulated by a colour (split 8-bit channels) or only
// narrowed, packed.
SORTIE_INLINE I modulate(Split s, const Split& c, bool by_color) {
  if (by_color) {
    // texel * colour / 255, rounded: (s * 256) * (c * 257) >> 16 is texel * c * 256 / 255.
    const I round = V::is(0x00800080);
    s.rb = srl16<8>(add16(mulhi16(s.rb, sll16<8>(c.rb) | c.rb), round));
    s.ga = srl16<8>(add16(mulhi16(s.ga, sll16<8>(c.ga) | c.ga), round));
  } else {
    s = narrow(s);
  }
  return join(s);
}

// ---- the fragment queue (FragmentQueue), where the policy can compress lanes ----
template <class P = V>
constexpr bool can_queue() {
  return requires {
    P::kQueue;
  };
}

// Tile offsets of a step's lanes (sixteen in a row from the step's first).
template <class P = V>
SORTIE_INLINE I step_offsets(int off) {
  return P::is(off) + P::lane_index();
}

// The masked lanes of a step, in lane order, at the end of the queue (it has room for sixteen).
template <bool kLod, class P = V>
SORTIE_INLINE void queue_fragments(FragmentQueue& q, I mask, I offsets, F u, F v, I lod8, I color) {
  const int n = q.count;
  P::append(q.u + n, mask, u);
  P::append(q.v + n, mask, v);
  if constexpr (kLod) P::append(q.lod + n, mask, lod8);
  P::append(q.color + n, mask, color);
  P::append(q.offset + n, mask, offsets);
  q.count = n + __builtin_popcount(static_cast<unsigned>(movemask(mask)));
}

// Shades the queued fragments of a (kTex, kShade) draw sixteen at a time and stores them in queue
// order (scatter stores keep lane order where two lanes name one pixel), then empties the queue.
template <Tex kTex, Shade kShade, class P = V>
void shade_queue(TileContext& tc) {
  FragmentQueue& q = *tc.queue;
  const DrawState& d = *q.draw;
  const bool by_color = kShade != Shade::flat || d.flat_color != 0xFFFFFFFFu;
  for (int i = 0; i < q.count; i += kLanes) {
    const I live = P::first_lanes(q.count - i);
    const Split s = sample_wrapped<kTex>(d, P::loadf(q.u + i), P::loadf(q.v + i), P::load_i(q.lod + i), live);
    P::scatter(tc.color, P::load_i(q.offset + i), live, modulate(s, split(P::load_i(q.color + i)), by_color));
  }
  q.count = 0;
}

// The covered centres of a tiny triangle (TriangleHeader::tiny) inside the tile, depth tested,
// written and queued one at a time. Every value is computed by the float operations, in the
// order, a lane of the stepping loop below uses (pixel centres relative to the reference are
// exact there too), and the policy's scalar clamp-and-round is the lanes' one: the same bits.
template <Tex kTex, Shade kShade, class P = V>
SORTIE_INLINE void queue_tiny(const TriangleHeader& h, const float* pl, float ref_x, float ref_y, const DrawState& d,
                              TileContext& tc) {
  constexpr int kU = 2, kV = 3, kC = 4;
  const Material& mat = d.call->material;
  FragmentQueue& q = *tc.queue;
  const auto alpha = static_cast<std::uint32_t>(d.const_alpha) << 24;
  int n = q.count;
  for (std::uint32_t left = h.tiny; left != 0; left &= left - 1) {
    const int c = __builtin_ctz(left);
    const int px = h.x0 + (c & 3), py = h.y0 + (c >> 2);
    if (px < tc.x0 || px >= tc.x1 || py < tc.y0 || py >= tc.y1) continue;
    const int lx = px - tc.tile_x, ly = py - tc.tile_y;
    const int off = quad_offset(lx, ly);
    const float fx = static_cast<float>(px) + 0.5f - ref_x, fy = static_cast<float>(py) + 0.5f - ref_y;
    const auto at = [&](int k) { return (pl[3 * k] + pl[3 * k + 2] * fy) + pl[3 * k + 1] * fx; };
    const float z = at(0);
    if (mat.depth_test && !(z < tc.depth[off])) continue;
    if (mat.depth_write) {
      tc.depth[off] = z;
      // Written without the test the depth may rise: its block has no bound (as below).
      if (mat.depth_test)
        tc.mark_depth(lx, ly);
      else
        tc.depth_unbounded(lx, lx + 1, ly, ly + 1);
    }
    const float w = 1.0f / at(1);
    q.u[n] = at(kU) * w;
    q.v[n] = at(kV) * w;
    q.offset[n] = off;
    std::uint32_t color = d.flat_color;
    if constexpr (kShade == Shade::luma) {
      const std::uint32_t l = P::clamp_round255(at(kC) * w);
      color = l | l << 8 | l << 16 | alpha;
    } else if constexpr (kShade != Shade::flat) {
      color = P::clamp_round255(at(kC) * w) | P::clamp_round255(at(kC + 1) * w) << 8 |
              P::clamp_round255(at(kC + 2) * w) << 16;
      color |= kShade == Shade::rgba ? P::clamp_round255(at(kC + 3) * w) << 24 : alpha;
    }
    q.color[n] = color;
    ++n;
  }
  q.count = n;
}

// A plane (value at the reference, d/dx, d/dy) at pixel centres fx, fy from the reference: the
// stepping loop's row value plus its step term, in that order.
SORTIE_INLINE F plane_at(const float* p, F fx, F fy) {
  return (V::fs(p[0]) + V::fs(p[2]) * fy) + V::fs(p[1]) * fx;
}

// Boxes across and down of the box path (queue_boxes): a dense mesh's triangles need one to
// four; up to 32 x 32 pixels (eight by eight boxes) boxes still beat stepping on the sample
// terrain's, and larger triangles step (rows there end early).
inline constexpr int kMaxBoxSide = 8;

// A small triangle whose pixel centres in this tile lie in at most kMaxBoxSide x kMaxBoxSide
// quad-aligned 4 x 4 boxes (the policy's box lanes: two quads side by side, two quad rows):
// per box, edges, depth test and the queue in one step, no coarse depth and no row set-up.
// Every lane's value is the stepping loop's for that pixel (exact centre offsets, same
// operations). False when the triangle does not fit (nothing is drawn then).
template <Tex kTex, Shade kShade, class P = V>
SORTIE_INLINE bool queue_boxes(const TriangleHeader& h, const float* pl, float ref_x, float ref_y, const Gradients& gr,
                               const DrawState& d, TileContext& tc) {
  constexpr int kU = 2, kV = 3, kC = 4;
  int lx = (std::max<int>(h.x0, tc.x0) - tc.tile_x) & ~1, ly = (std::max<int>(h.y0, tc.y0) - tc.tile_y) & ~1;
  const int rx = std::min<int>(h.x1, tc.x1) - tc.tile_x, ry = std::min<int>(h.y1, tc.y1) - tc.tile_y;
  const int nx = (rx - lx + 3) >> 2, ny = (ry - ly + 3) >> 2;
  if (nx > kMaxBoxSide || ny > kMaxBoxSide || !small_edges_fit(h)) return false;  // or edges past 32 bits
  // Boxes that would run past the tile's right (bottom) edge start further left (up): the
  // region then starts inside the tile at the triangle's bounds, so the pixels added are outside it.
  lx = std::min(lx, kTileSize - 4 * nx);
  ly = std::min(ly, kTileSize - 4 * ny);
  const std::int32_t ax = tc.tile_x + lx, ay = tc.tile_y + ly;
  const SmallEdges e = small_edges_at(h, ax, ay);
  const I lane_x = P::box_lane_x(), lane_y = P::box_lane_y();
  I row0[3], col_step[3], row_step[3];
  for (int k = 0; k < 3; ++k) {
    row0[k] = P::is(e.e[k]) + mullo32(P::is(e.ka[k]), lane_x) + mullo32(P::is(e.kb[k]), lane_y);
    col_step[k] = P::is(4 * e.ka[k]);
    row_step[k] = P::is(4 * e.kb[k]);
  }
  const Material& mat = d.call->material;
  const F fx0 = P::fs(static_cast<float>(ax) + 0.5f - ref_x) + to_f(lane_x);
  F fy = P::fs(static_cast<float>(ay) + 0.5f - ref_y) + to_f(lane_y);
  const F four = P::fs(4.0f), f0 = P::fs(0.0f), f255 = P::fs(255.0f);
  const I alpha = P::is(d.const_alpha << 24);
  if (mat.depth_write && !mat.depth_test) tc.depth_unbounded(lx, lx + 4 * nx, ly, ly + 4 * ny);  // depths may rise
  for (int by = ly; by < ly + 4 * ny; by += 4, fy = fy + four) {
    I e0 = row0[0], e1 = row0[1], e2 = row0[2];
    F fx = fx0;
    for (int bx = lx; bx < lx + 4 * nx; bx += 4, fx = fx + four) {
      I mask = andnot(sra<31>(e0 | e1 | e2), P::is(-1));
      e0 = e0 + col_step[0], e1 = e1 + col_step[1], e2 = e2 + col_step[2];
      if (movemask(mask) == 0) continue;
      float* d0 = tc.depth + quad_offset(bx, by);
      float* d1 = tc.depth + quad_offset(bx, by + 2);
      const F z = plane_at(pl, fx, fy);
      if (mat.depth_test) {
        mask = mask & cmplt(z, P::load_box(d0, d1));
        if (movemask(mask) == 0) continue;
      }
      const F w = P::fs(1.0f) / plane_at(pl + 3, fx, fy);
      auto channel = [&](int k) { return round_i(clamp(plane_at(pl + 3 * k, fx, fy) * w, f0, f255)); };
      I color = P::is(static_cast<std::int32_t>(d.flat_color));
      if constexpr (kShade == Shade::luma) {
        const I l = channel(kC);
        color = l | sll<8>(l) | sll<16>(l) | alpha;
      } else if constexpr (kShade != Shade::flat) {
        color = channel(kC) | sll<8>(channel(kC + 1)) | sll<16>(channel(kC + 2)) |
                (kShade == Shade::rgba ? sll<24>(channel(kC + 3)) : alpha);
      }
      const F u = plane_at(pl + 3 * kU, fx, fy) * w, v = plane_at(pl + 3 * kV, fx, fy) * w;
      I lod8 = P::is(0);
      if constexpr (kTex == Tex::trilinear) lod8 = lod_of(d, gr, u, v, w, mat.lod == LodMode::per_quad);
      queue_fragments<kTex == Tex::trilinear>(
          *tc.queue, mask, P::box_offsets(quad_offset(bx, by), quad_offset(bx, by + 2)), u, v, lod8, color);
      if (mat.depth_write) {
        P::store_box(d0, d1, mask, z);
        if (mat.depth_test)
          for (int c = 0; c < 4; ++c) tc.mark_depth(bx + (c & 1) * 3, by + (c >> 1) * 3);
      }
      if (tc.queue->count > kQueueCapacity - kLanes) tc.queue->shade(tc);
    }
    row0[0] = row0[0] + row_step[0], row0[1] = row0[1] + row_step[1], row0[2] = row0[2] + row_step[2];
  }
  return true;
}

template <Tex kTex, Blend kBlend, Shade kShade>
void raster(const std::uint32_t* rec, const DrawState& d, TileContext& tc) {
  TriangleHeader h;
  std::memcpy(&h, rec, sizeof h);
  const std::int32_t x0 = std::max<std::int32_t>(h.x0, tc.x0), x1 = std::min<std::int32_t>(h.x1, tc.x1);
  const std::int32_t y0 = std::max<std::int32_t>(h.y0, tc.y0), y1 = std::min<std::int32_t>(h.y1, tc.y1);
  if (x0 >= x1 || y0 >= y1) return;
  // Planes of the record (see TriangleHeader): z, q, [u, v], colour channels.
  constexpr int kU = 2, kV = 3, kC = kTex != Tex::none ? 4 : 2;
  constexpr int kPlanes = plane_count(kTex != Tex::none, kShade);
  float pl[kPlanes * 3];
  std::memcpy(pl, rec + kHeaderWords, sizeof pl);
  constexpr float kInvSub = 1.0f / static_cast<float>(1 << kSubpixelBits);
  const float ref_x = static_cast<float>(h.fx[0]) * kInvSub, ref_y = static_cast<float>(h.fy[0]) * kInvSub;
  // Step-aligned region in tile-local pixels (steps of V::kStep columns, 2 rows).
  constexpr int kStep = V::kStep;
  const int lx0 = (x0 - tc.tile_x) & ~(kStep - 1), lx1 = (x1 - tc.tile_x + kStep - 1) & ~(kStep - 1);
  const int ly0 = (y0 - tc.tile_y) & ~1, ly1 = (y1 - tc.tile_y + 1) & ~1;
  const std::int32_t ax = tc.tile_x + lx0, ay = tc.tile_y + ly0;
  const std::int64_t span_x = lx1 - lx0 - 1, span_y = ly1 - ly0 - 1;
  const Material& mat = d.call->material;
  // Opaque textured triangles without an alpha test queue their fragments (FragmentQueue): the
  // texture fetches then run on full vectors, not on a step's covered lanes (two or three of
  // sixteen for a dense mesh). Any other triangle stores its colours now, after the fragments
  // queued before it.
  constexpr bool kQueueable = can_queue() && kBlend == Blend::opaque && kTex != Tex::none;
  bool queued = false;
  if constexpr (kQueueable) queued = mat.alpha_ref == 0;
  if (!queued) {
    tc.flush_fragments();
  } else if (tc.queue->draw != &d) {
    tc.flush_fragments();
    tc.queue->draw = &d;
    if constexpr (kQueueable) tc.queue->shade = &shade_queue<kTex, kShade>;
  }
  Gradients gr{};
  if constexpr (kTex != Tex::none)
    gr = {pl[3 * 1 + 1], pl[3 * 1 + 2], pl[3 * kU + 1], pl[3 * kU + 2], pl[3 * kV + 1], pl[3 * kV + 2]};
  if constexpr (kQueueable) {
    // A tiny triangle's covered centres, known from setup: queued one by one, no stepping. A
    // small one in a few 4 x 4 boxes: one step per box.
    bool done = false;
    if constexpr (kTex != Tex::trilinear) {
      if (queued && h.tiny != 0) {
        queue_tiny<kTex, kShade>(h, pl, ref_x, ref_y, d, tc);
        done = true;
      }
    }
    if (!done && queued) done = queue_boxes<kTex, kShade>(h, pl, ref_x, ref_y, gr, d, tc);
    if (done) {
      if (tc.queue->count > kQueueCapacity - kLanes) tc.queue->shade(tc);
      return;
    }
  }
  // Hidden behind what the tile already holds (coarse depth, TileContext::depth_hides).
  if (mat.depth_test && tc.depth_hides(pl, ref_x, ref_y, lx0, lx1, ly0, ly1)) {
    ++tc.depth_skips;
    return;
  }

  std::int32_t e[3], ka[3], kb[3];
  if (small_edges_fit(h)) {
    // A triangle at most a tile wide and high (all of a dense mesh): 32-bit edge values.
    const SmallEdges s = small_edges_at(h, ax, ay);
    for (int k = 0; k < 3; ++k) e[k] = s.e[k], ka[k] = s.ka[k], kb[k] = s.kb[k];
  } else {
    // Edges at the region's first pixel. An edge that is non-negative over the whole region is
    // dropped; one negative over all of it rejects the triangle here; the rest cross the region
    // and their values there fit in 32 bits (see kGuardPixels).
    const TriangleEdges t = edges_of(h);
    for (int k = 0; k < 3; ++k) {
      const std::int64_t e0 =
          t.ec[k] + static_cast<std::int64_t>(t.ea[k]) * ax + static_cast<std::int64_t>(t.eb[k]) * ay;
      const std::int64_t ex = t.ea[k] * span_x, ey = t.eb[k] * span_y;
      const std::int64_t emax = e0 + std::max<std::int64_t>(ex, 0) + std::max<std::int64_t>(ey, 0);
      if (emax < 0) return;
      const std::int64_t emin = e0 + std::min<std::int64_t>(ex, 0) + std::min<std::int64_t>(ey, 0);
      if (emin >= 0) {
        e[k] = ka[k] = kb[k] = 0;
      } else {
        e[k] = static_cast<std::int32_t>(e0);
        ka[k] = t.ea[k];
        kb[k] = t.eb[k];
      }
    }
  }
  // Edges whose value falls going right: once one of them is negative on every lane of a step,
  // the rest of the row is outside the (convex) triangle.
  const bool falls0 = ka[0] < 0, falls1 = ka[1] < 0, falls2 = ka[2] < 0;
  I row_e0 = V::edge_lanes(e[0], ka[0], kb[0]);
  I row_e1 = V::edge_lanes(e[1], ka[1], kb[1]);
  I row_e2 = V::edge_lanes(e[2], ka[2], kb[2]);
  const I sx0 = V::is(kStep * ka[0]), sx1 = V::is(kStep * ka[1]), sx2 = V::is(kStep * ka[2]);
  const I sy0 = V::is(2 * kb[0]), sy1 = V::is(2 * kb[1]), sy2 = V::is(2 * kb[2]);

  // Pixel centres relative to the plane reference: exact in float (multiples of 1/16 below 2^15),
  // so a plane value depends only on the pixel, never on the traversal.
  const F fx_start = V::fs(static_cast<float>(ax) + 0.5f - ref_x) + V::lane_fx();
  F fy = V::fs(static_cast<float>(ay) + 0.5f - ref_y) + V::lane_fy();
  const F step_x = V::fs(static_cast<float>(kStep)), two = V::fs(2.0f);

  const bool depth_test = mat.depth_test;
  const bool depth_write = mat.depth_write;
  const std::int32_t alpha_ref = mat.alpha_ref;
  const bool per_quad_lod = mat.lod == LodMode::per_quad;
  const I flat = V::is(static_cast<std::int32_t>(d.flat_color));
  const Split flat_split = split(flat);
  const bool modulate_flat = d.flat_color != 0xFFFFFFFFu;
  const I alpha16 = sll<16>(V::is(d.const_alpha));
  const F f255 = V::fs(255.0f), f0 = V::fs(0.0f), f1 = V::fs(1.0f);

  if (depth_write && !depth_test) tc.depth_unbounded(lx0, lx1, ly0, ly1);
  for (int ly = ly0; ly < ly1; ly += 2) {
    // Row values: p0 + dy * fy; per step: row + dx * fx.
    const F zrow = V::fs(pl[3 * (0) + 0]) + V::fs(pl[3 * (0) + 2]) * fy;
    F qrow = f0, urow = f0, vrow = f0, rrow = f0, grow = f0, brow = f0, arow = f0;
    if constexpr (kTex != Tex::none || kShade != Shade::flat)
      qrow = V::fs(pl[3 * (1) + 0]) + V::fs(pl[3 * (1) + 2]) * fy;
    if constexpr (kTex != Tex::none) {
      urow = V::fs(pl[3 * (kU) + 0]) + V::fs(pl[3 * (kU) + 2]) * fy;
      vrow = V::fs(pl[3 * (kV) + 0]) + V::fs(pl[3 * (kV) + 2]) * fy;
    }
    if constexpr (kShade != Shade::flat) rrow = V::fs(pl[3 * (kC) + 0]) + V::fs(pl[3 * (kC) + 2]) * fy;
    if constexpr (kShade == Shade::rgb || kShade == Shade::rgba) {
      grow = V::fs(pl[3 * (kC + 1) + 0]) + V::fs(pl[3 * (kC + 1) + 2]) * fy;
      brow = V::fs(pl[3 * (kC + 2) + 0]) + V::fs(pl[3 * (kC + 2) + 2]) * fy;
    }
    if constexpr (kShade == Shade::rgba) arow = V::fs(pl[3 * (kC + 3) + 0]) + V::fs(pl[3 * (kC + 3) + 2]) * fy;
    I e0 = row_e0, e1 = row_e1, e2 = row_e2;
    F fx = fx_start;
    const int quad_row = (ly >> 1) * kTileQuads;
    for (int lx = lx0; lx < lx1; lx += kStep, e0 = e0 + sx0, e1 = e1 + sx1, e2 = e2 + sx2, fx = fx + step_x) {
      const I any = e0 | e1 | e2;
      if (movemask(any) == kFull) {
        if ((falls0 && movemask(e0) == kFull) || (falls1 && movemask(e1) == kFull) || (falls2 && movemask(e2) == kFull))
          break;
        continue;
      }
      I mask = andnot(sra<31>(any), V::is(-1));
      const int off = (quad_row + (lx >> 1)) << 2;
      float* dp = tc.depth + off;
      std::uint32_t* cp = tc.color + off;
      const F z = zrow + V::fs(pl[3 * (0) + 1]) * fx;
      const F zold = V::loadf(dp);
      if (depth_test) {
        mask = mask & cmplt(z, zold);
        if (movemask(mask) == 0) continue;
      }
      F w = f1;
      if constexpr (kTex != Tex::none || kShade != Shade::flat) w = f1 / (qrow + V::fs(pl[3 * (1) + 1]) * fx);

      // Colour as split 16-bit halves (c_rb = R | B << 16, c_ga = G | A << 16).
      I c_rb, c_ga;
      if constexpr (kShade == Shade::flat) {
        c_rb = flat_split.rb;
        c_ga = flat_split.ga;
      } else if constexpr (kShade == Shade::luma) {
        const I l = round_i(clamp((rrow + V::fs(pl[3 * (kC) + 1]) * fx) * w, f0, f255));
        c_rb = rep16(l);
        c_ga = l | alpha16;
      } else {
        const I ri = round_i(clamp((rrow + V::fs(pl[3 * (kC) + 1]) * fx) * w, f0, f255));
        const I gi = round_i(clamp((grow + V::fs(pl[3 * (kC + 1) + 1]) * fx) * w, f0, f255));
        const I bi = round_i(clamp((brow + V::fs(pl[3 * (kC + 2) + 1]) * fx) * w, f0, f255));
        c_rb = ri | sll<16>(bi);
        if constexpr (kShade == Shade::rgba)
          c_ga = gi | sll<16>(round_i(clamp((arow + V::fs(pl[3 * (kC + 3) + 1]) * fx) * w, f0, f255)));
        else
          c_ga = gi | alpha16;
      }

      I out;
      if constexpr (kTex != Tex::none) {
        const F u = (urow + V::fs(pl[3 * (kU) + 1]) * fx) * w;
        const F v = (vrow + V::fs(pl[3 * (kV) + 1]) * fx) * w;
        I lod8 = V::is(0);
        if constexpr (kTex == Tex::trilinear) lod8 = lod_of(d, gr, u, v, w, per_quad_lod);
        if constexpr (kQueueable) {
          if (queued) {
            queue_fragments<kTex == Tex::trilinear>(*tc.queue, mask, step_offsets(off), u, v, lod8, join({c_rb, c_ga}));
            if (depth_write) {
              store_lanes_of(dp, mask, z, zold);
              tc.mark_depth(lx, ly);
            }
            if (tc.queue->count > kQueueCapacity - kLanes) tc.queue->shade(tc);
            continue;
          }
        }
        out = modulate(sample_wrapped<kTex>(d, u, v, lod8, mask), {c_rb, c_ga}, kShade != Shade::flat || modulate_flat);
      } else if constexpr (kShade == Shade::flat) {
        out = flat;
      } else {
        out = join({c_rb, c_ga});
      }

      if (alpha_ref > 0) {
        mask = mask & cmpgt(srl<24>(out), V::is(alpha_ref - 1));
        if (movemask(mask) == 0) continue;
      }
      const I dst = V::loadu(cp);
      I res;
      if constexpr (kBlend == Blend::opaque) {
        res = out;
      } else if constexpr (kBlend == Blend::alpha) {
        const I sa = srl<24>(out);
        const I a16 = rep16(sa), ia16 = rep16(V::is(255) - sa);
        const Split s = split(out), ds = split(dst);
        res = join({div255_16(add16(mullo16(s.rb, a16), mullo16(ds.rb, ia16))),
                    div255_16(add16(mullo16(s.ga, a16), mullo16(ds.ga, ia16)))});
      } else {
        res = adds_u8(out, dst);
      }
      store_lanes_of(cp, mask, res, dst);
      if (depth_write) {
        store_lanes_of(dp, mask, z, zold);
        tc.mark_depth(lx, ly);
      }
    }
    row_e0 = row_e0 + sy0;
    row_e1 = row_e1 + sy1;
    row_e2 = row_e2 + sy2;
    fy = fy + two;
  }
}

template <Tex kTex, Blend kBlend>
TriangleKernel pick_shade(Shade shade) {
  switch (shade) {
    case Shade::flat:
      return &raster<kTex, kBlend, Shade::flat>;
    case Shade::luma:
      return &raster<kTex, kBlend, Shade::luma>;
    case Shade::rgb:
      return &raster<kTex, kBlend, Shade::rgb>;
    case Shade::rgba:
      return &raster<kTex, kBlend, Shade::rgba>;
  }
  return &raster<kTex, kBlend, Shade::rgba>;
}

template <Tex kTex>
TriangleKernel pick_blend(Blend blend, Shade shade) {
  switch (blend) {
    case Blend::opaque:
      return pick_shade<kTex, Blend::opaque>(shade);
    case Blend::alpha:
      return pick_shade<kTex, Blend::alpha>(shade);
    case Blend::additive:
      return pick_shade<kTex, Blend::additive>(shade);
  }
  return pick_shade<kTex, Blend::opaque>(shade);
}

}  // namespace

TriangleKernel select_triangle_kernel(const Material& m, Shade shade) {
  if (m.texture.empty()) return pick_blend<Tex::none>(m.blend, shade);
  switch (m.filter) {
    case Filter::nearest:
      return pick_blend<Tex::nearest>(m.blend, shade);
    case Filter::bilinear:
      return pick_blend<Tex::bilinear>(m.blend, shade);
    case Filter::trilinear:
      return pick_blend<Tex::trilinear>(m.blend, shade);
  }
  return pick_blend<Tex::bilinear>(m.blend, shade);
}

}  // namespace sortie::render::detail::SORTIE_KERNEL_NS

#undef SORTIE_INLINE
