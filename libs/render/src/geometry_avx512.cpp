// The vertex stage and the front of triangle setup sixteen at a time in AVX-512 lanes, on CPUs
// that have them (cpu_has_avx512; FrameGeometry::avx512).
//
// Vertices: transform_kernel.inl's arithmetic over sixteen lanes, the same operations per lane
// as the four-lane version in geometry.cpp, so the same records and keys.
//
// Triangles: the decisions that stop most triangles of a dense mesh before they get a record
// (outcodes, pixel bounds, area and winding, face culling, the tiny-triangle mask), without a
// branch per triangle. The triangles kept are then appended one by one, in submission order, by
// the portable append_triangle; a lane the vector path does not cover (a non-finite vertex, a
// clip plane crossed, a tiny triangle wider than kTinyExtent) takes the portable
// setup_triangle_at in its turn. Records, tile pairs and counters are therefore exactly those of
// the portable loop (geometry.cpp), whose arithmetic each lane repeats: exact integers throughout
// (areas in 64 bits).
//
// As in raster_avx512.cpp, only the code between the target pragmas is compiled for AVX-512
// (plus BMI2, which every AVX-512 CPU has), and every header it relies on is included before them.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "pipeline.hpp"

#if SORTIE_RENDER_HAVE_AVX512
#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512bw,avx512dq,bmi2"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2,avx512f,avx512bw,avx512dq,bmi2")
#endif

#include "simd16.hpp"

namespace sortie::render::detail::avx512 {
namespace {

#include "transform_kernel.inl"

// Lane tables (one vector each). Deinterleaving 48 consecutive words (sixteen records of three)
// into each record's k-th word: the first permutation takes what lies in the first 32 from a and
// b, the second the rest from c. Tiny-triangle centres: centre c (0..3) of bounds w pixels wide
// sits at column c % w, row c / w, entry (w - 1) * 4 + c. Even and odd words of two registers.
struct LaneTables {
  alignas(64) std::int32_t first[3][16];
  alignas(64) std::int32_t second[3][16];
  alignas(64) std::int32_t col[16];
  alignas(64) std::int32_t row[16];
  alignas(64) std::int32_t even[16];
  alignas(64) std::int32_t odd[16];
};
constexpr LaneTables make_lane_tables() {
  LaneTables t{};
  for (int j = 0; j < 16; ++j) {
    for (int k = 0; k < 3; ++k) {
      const int at = 3 * j + k;
      t.first[k][j] = at < 32 ? at : 0;
      t.second[k][j] = at < 32 ? j : 16 + (at - 32);
    }
    const int w = j / 4 + 1, c = j % 4;
    t.col[j] = c % w;
    t.row[j] = c / w;
    t.even[j] = 2 * j;
    t.odd[j] = 2 * j + 1;
  }
  return t;
}
constexpr LaneTables kTables = make_lane_tables();

__m512i load_table(const std::int32_t* t) {
  return _mm512_load_si512(static_cast<const void*>(t));
}

// The first n lanes (all sixteen for n >= 16).
__mmask16 first_lanes(std::size_t n) {
  return static_cast<__mmask16>(n >= 16 ? 0xFFFFu : (1u << n) - 1u);
}
// The words at `at` .. at + 15 of the first `words`.
__mmask16 first_words(int words, int at) {
  return first_lanes(static_cast<std::size_t>(std::clamp(words - at, 0, 16)));
}
__m512i load_words(__mmask16 m, const std::uint32_t* p) {
  return _mm512_maskz_loadu_epi32(m, p);
}
__m512 load_words(__mmask16 m, const float* p) {
  return _mm512_maskz_loadu_ps(m, p);
}
__m512i permute(__m512i a, __m512i idx, __m512i b) {
  return _mm512_permutex2var_epi32(a, idx, b);
}
__m512 permute(__m512 a, __m512i idx, __m512 b) {
  return _mm512_permutex2var_ps(a, idx, b);
}
// The first n of 48 consecutive 32-bit words (sixteen records of three), split into each record's
// k-th word (lanes past the n-th record hold zero).
template <class W, class R>
void split3(const W* w, std::size_t n, R v[3]) {
  const auto words = static_cast<int>(3 * n);
  const R a = load_words(first_words(words, 0), w), b = load_words(first_words(words, 16), w + 16),
          c = load_words(first_words(words, 32), w + 32);
  for (int k = 0; k < 3; ++k)
    v[k] = permute(permute(a, load_table(kTables.first[k]), b), load_table(kTables.second[k]), c);
}

// Sixteen vertices per step (transform_kernel.inl); lanes past the end hold zeros.
struct VertexLanes16 {
  using F = simd16::F16;
  using I = simd16::I16;
  static constexpr std::size_t kLanes = 16;
  static F fs(float x) { return {_mm512_set1_ps(x)}; }
  static I is(std::int32_t x) { return {_mm512_set1_epi32(x)}; }
  static void load3(const core::Vec3* p, std::size_t n, F& x, F& y, F& z) {
    static_assert(sizeof(core::Vec3) == 12);
    __m512 v[3];
    split3(reinterpret_cast<const float*>(p), n, v);
    x = {v[0]}, y = {v[1]}, z = {v[2]};
  }
  static void load2(const core::Vec2* p, std::size_t n, F& x, F& y) {
    static_assert(sizeof(core::Vec2) == 8);
    const auto* f = reinterpret_cast<const float*>(p);
    const __m512 a = _mm512_maskz_loadu_ps(first_lanes(2 * n), f);
    const __m512 b = _mm512_maskz_loadu_ps(first_lanes(n > 8 ? 2 * n - 16 : 0), f + 16);
    x = {_mm512_permutex2var_ps(a, load_table(kTables.even), b)};
    y = {_mm512_permutex2var_ps(a, load_table(kTables.odd), b)};
  }
  static I load_colors(const Rgba8* p, std::size_t n) {
    static_assert(sizeof(Rgba8) == 4);  // pack(): R in the low byte
    return {_mm512_maskz_loadu_epi32(first_lanes(n), p)};
  }
  // Each group of four values transposed within the 128-bit lanes (lane q of register j then
  // holds vertex 4 q + j's four values) and stored a lane at a time; a short step goes through a
  // local copy.
  static void store(ClipVertex* out, VertexKey* keys, std::size_t n, const F (&groups)[5][4], I fx, I fy, I o) {
    ClipVertex local[16];
    ClipVertex* dst = n == 16 ? out : local;
    auto* f = reinterpret_cast<float*>(dst);
    constexpr int kStride = sizeof(ClipVertex) / 4;
    for (int k = 0; k < 5; ++k) {
      const __m512 t0 = _mm512_unpacklo_ps(groups[k][0].v, groups[k][1].v);
      const __m512 t1 = _mm512_unpackhi_ps(groups[k][0].v, groups[k][1].v);
      const __m512 t2 = _mm512_unpacklo_ps(groups[k][2].v, groups[k][3].v);
      const __m512 t3 = _mm512_unpackhi_ps(groups[k][2].v, groups[k][3].v);
      const __m512 r[4] = {_mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2))),
                           _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2))),
                           _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3))),
                           _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)))};
      for (int j = 0; j < 4; ++j) {
        float* at = f + j * kStride + 4 * k;
        _mm_storeu_ps(at, _mm512_castps512_ps128(r[j]));
        _mm_storeu_ps(at + 4 * kStride, _mm512_extractf32x4_ps(r[j], 1));
        _mm_storeu_ps(at + 8 * kStride, _mm512_extractf32x4_ps(r[j], 2));
        _mm_storeu_ps(at + 12 * kStride, _mm512_extractf32x4_ps(r[j], 3));
      }
    }
    if (dst == local) std::memcpy(static_cast<void*>(out), local, n * sizeof(ClipVertex));
    // VertexKey: low word fx (24 bits) | fy bits 0..7 << 24, high word fy bits 8..23 | outcode << 16.
    const __m512i low =
        _mm512_or_si512(_mm512_and_si512(fx.v, _mm512_set1_epi32(0xFFFFFF)), _mm512_slli_epi32(fy.v, 24));
    const __m512i high = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(fy.v, 8), _mm512_set1_epi32(0xFFFF)),
                                         _mm512_slli_epi32(o.v, 16));
    const __m512i k0 = _mm512_unpacklo_epi32(low, high), k1 = _mm512_unpackhi_epi32(low, high);
    // k0 holds vertices 0 1, 4 5, 8 9, 12 13; k1 2 3, 6 7, 10 11, 14 15.
    const __m512i first8 = _mm512_permutex2var_epi64(k0, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), k1);
    const __m512i last8 = _mm512_permutex2var_epi64(k0, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), k1);
    const auto m = first_lanes(n);
    _mm512_mask_storeu_epi64(keys, static_cast<__mmask8>(m), first8);
    _mm512_mask_storeu_epi64(keys + 8, static_cast<__mmask8>(m >> 8), last8);
  }
};

// Vertex indices of triangles t .. t + 15 (lanes past `n` hold vertex 0, which every draw with a
// triangle has).
void load_indices(const MeshView& m, std::size_t t, int n, __m512i v[3]) {
  if (m.indices.empty()) {
    const __m512i first =
        _mm512_add_epi32(_mm512_set1_epi32(static_cast<std::int32_t>(t * 3)),
                         _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45));
    const __mmask16 live = first_lanes(static_cast<std::size_t>(n));
    for (int k = 0; k < 3; ++k) v[k] = _mm512_maskz_add_epi32(live, first, _mm512_set1_epi32(k));
    return;
  }
  split3(m.indices.data() + t * 3, static_cast<std::size_t>(n), v);
}

// Window position (fx, fy) and outcode of the live lanes' vertices from their keys (VertexKey):
// one 64-bit gather per eight lanes, then the low and high words apart and unpacked.
void gather_keys(const VertexKey* keys, __m512i index, __mmask16 live, __m512i& fx, __m512i& fy, __m512i& outcode) {
  const void* base = static_cast<const void*>(keys);
  const __m512i zero = _mm512_setzero_si512();
  const __m512i lo =
      _mm512_mask_i32gather_epi64(zero, static_cast<__mmask8>(live), _mm512_castsi512_si256(index), base, 8);
  const __m512i hi =
      _mm512_mask_i32gather_epi64(zero, static_cast<__mmask8>(live >> 8), _mm512_extracti64x4_epi64(index, 1), base, 8);
  // low: fx (24 bits) | fy bits 0..7 << 24; high: fy bits 8..23 | outcode << 16.
  const __m512i low = _mm512_permutex2var_epi32(lo, load_table(kTables.even), hi);
  const __m512i high = _mm512_permutex2var_epi32(lo, load_table(kTables.odd), hi);
  fx = _mm512_srai_epi32(_mm512_slli_epi32(low, 8), 8);
  fy = _mm512_or_si512(_mm512_srai_epi32(_mm512_slli_epi32(high, 16), 8), _mm512_srli_epi32(low, 24));
  outcode = _mm512_srli_epi32(high, 16);
}

__mmask16 any_bits(__m512i v, std::uint32_t bits) {
  return _mm512_test_epi32_mask(v, _mm512_set1_epi32(static_cast<std::int32_t>(bits)));
}

// Lanes 0, 2, .. 14 of an 8-lane mask of even lanes and an 8-lane mask of odd lanes.
__mmask16 interleave(__mmask8 even, __mmask8 odd) {
  return static_cast<__mmask16>(_pdep_u32(even, 0x5555u) | _pdep_u32(odd, 0xAAAAu));
}

// What the lanes decided, per lane (lanes past the batch's end are in neither mask).
struct Decided {
  __mmask16 append = 0;                   // kept: append_triangle with the fields below
  __mmask16 portable = 0;                 // setup_triangle_at decides
  alignas(64) std::int32_t index[3][16];  // vertex indices, wound to a positive area where appended
  alignas(64) std::int32_t x0[16], y0[16], x1[16], y1[16];
  alignas(64) std::uint32_t tiny[16];
  alignas(64) std::int64_t area_even[8], area_odd[8];  // |area| of lanes 2 i and 2 i + 1
};

// The covered centres of tiny triangles (bounds of at most four pixels): TriangleHeader::tiny.
__m512i tiny_mask(const __m512i fx[3], const __m512i fy[3], __m512i x0, __m512i y0, __m512i w, __m512i h) {
  constexpr std::int32_t kSub = kSubpixel, kHalf = kSubpixel / 2;
  __m512i dx[3], dy[3], bias[3];
  for (int k = 0; k < 3; ++k) {
    const int n = k == 2 ? 0 : k + 1;
    dx[k] = _mm512_sub_epi32(fx[n], fx[k]);
    dy[k] = _mm512_sub_epi32(fy[n], fy[k]);
    // Top-left rule: bias 0 for a top or left edge, else 1.
    const __mmask16 top_left = _mm512_cmplt_epi32_mask(dy[k], _mm512_setzero_si512()) |
                               (_mm512_cmpeq_epi32_mask(dy[k], _mm512_setzero_si512()) &
                                _mm512_cmpgt_epi32_mask(dx[k], _mm512_setzero_si512()));
    bias[k] = _mm512_maskz_mov_epi32(static_cast<__mmask16>(~top_left), _mm512_set1_epi32(1));
  }
  const __m512i row_base =
      _mm512_slli_epi32(_mm512_and_si512(_mm512_sub_epi32(w, _mm512_set1_epi32(1)), _mm512_set1_epi32(3)), 2);
  const __m512i cols = load_table(kTables.col), rows = load_table(kTables.row);
  __m512i tiny = _mm512_setzero_si512();
  for (int c = 0; c < 4; ++c) {
    const __m512i at = _mm512_add_epi32(row_base, _mm512_set1_epi32(c));
    const __m512i col = _mm512_permutexvar_epi32(at, cols), row = _mm512_permutexvar_epi32(at, rows);
    const __m512i cx =
        _mm512_add_epi32(_mm512_slli_epi32(_mm512_add_epi32(x0, col), kSubpixelBits), _mm512_set1_epi32(kHalf));
    const __m512i cy =
        _mm512_add_epi32(_mm512_slli_epi32(_mm512_add_epi32(y0, row), kSubpixelBits), _mm512_set1_epi32(kHalf));
    __m512i inside = _mm512_setzero_si512();
    for (int k = 0; k < 3; ++k) {
      const __m512i e = _mm512_sub_epi32(_mm512_mullo_epi32(dx[k], _mm512_sub_epi32(cy, fy[k])),
                                         _mm512_mullo_epi32(dy[k], _mm512_sub_epi32(cx, fx[k])));
      inside = _mm512_or_si512(inside, _mm512_sub_epi32(e, bias[k]));
    }
    const __mmask16 covered = _mm512_cmpge_epi32_mask(inside, _mm512_setzero_si512()) & _mm512_cmplt_epi32_mask(row, h);
    const __m512i bit = _mm512_add_epi32(_mm512_slli_epi32(row, 2), col);
    tiny = _mm512_or_si512(tiny, _mm512_maskz_sllv_epi32(covered, _mm512_set1_epi32(1), bit));
  }
  static_assert(kSub == 16, "centres at pixel * 16 + 8");
  return tiny;
}

// The vector part for triangles t .. t + n - 1 (n <= 16).
void decide(const DrawState& d, const FrameGeometry& g, const VertexKey* keys, std::size_t t, int n, Decided& out) {
  const __mmask16 live = first_lanes(static_cast<std::size_t>(n));
  __m512i index[3];
  load_indices(d.call->mesh, t, n, index);
  __m512i fx[3], fy[3], code[3];
  for (int k = 0; k < 3; ++k) gather_keys(keys, index[k], live, fx[k], fy[k], code[k]);
  const __m512i any = _mm512_or_si512(code[0], _mm512_or_si512(code[1], code[2]));
  const __m512i all = _mm512_and_si512(code[0], _mm512_and_si512(code[1], code[2]));
  // setup_triangle_at's order: a non-finite vertex, then all outside one plane (culled), then a
  // clip plane crossed.
  const __mmask16 invalid = live & any_bits(any, kInvalid);
  const __mmask16 rejected = live & static_cast<__mmask16>(~invalid) & any_bits(all, kRejectPlanes);
  const __mmask16 clipped = live & static_cast<__mmask16>(~(invalid | rejected)) & any_bits(any, kClipPlanes);
  const __mmask16 fast = live & static_cast<__mmask16>(~(invalid | rejected | clipped));

  // Bounds: pixels whose centre lies inside the bounding box, within the scissor.
  const auto& vp = g.scissor;
  constexpr std::int32_t kHalf = kSubpixel / 2;
  const __m512i min_x = _mm512_min_epi32(fx[0], _mm512_min_epi32(fx[1], fx[2]));
  const __m512i max_x = _mm512_max_epi32(fx[0], _mm512_max_epi32(fx[1], fx[2]));
  const __m512i min_y = _mm512_min_epi32(fy[0], _mm512_min_epi32(fy[1], fy[2]));
  const __m512i max_y = _mm512_max_epi32(fy[0], _mm512_max_epi32(fy[1], fy[2]));
  const __m512i up = _mm512_set1_epi32(kSubpixel - 1 - kHalf), down = _mm512_set1_epi32(-kHalf);
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i x0 =
      _mm512_max_epi32(_mm512_srai_epi32(_mm512_add_epi32(min_x, up), kSubpixelBits), _mm512_set1_epi32(vp.x));
  const __m512i x1 =
      _mm512_min_epi32(_mm512_add_epi32(_mm512_srai_epi32(_mm512_add_epi32(max_x, down), kSubpixelBits), one),
                       _mm512_set1_epi32(vp.x + vp.width));
  const __m512i y0 =
      _mm512_max_epi32(_mm512_srai_epi32(_mm512_add_epi32(min_y, up), kSubpixelBits), _mm512_set1_epi32(vp.y));
  const __m512i y1 =
      _mm512_min_epi32(_mm512_add_epi32(_mm512_srai_epi32(_mm512_add_epi32(max_y, down), kSubpixelBits), one),
                       _mm512_set1_epi32(vp.y + vp.height));
  const __mmask16 boxed = fast & _mm512_cmpgt_epi32_mask(x1, x0) & _mm512_cmpgt_epi32_mask(y1, y0);

  // Twice the signed area, exactly: 64-bit products of the even lanes, then of the odd ones.
  const __m512i d1x = _mm512_sub_epi32(fx[1], fx[0]), d1y = _mm512_sub_epi32(fy[1], fy[0]);
  const __m512i d2x = _mm512_sub_epi32(fx[2], fx[0]), d2y = _mm512_sub_epi32(fy[2], fy[0]);
  const __m512i even = _mm512_sub_epi64(_mm512_mul_epi32(d1x, d2y), _mm512_mul_epi32(d2x, d1y));
  const __m512i odd = _mm512_sub_epi64(_mm512_mul_epi32(_mm512_srli_epi64(d1x, 32), _mm512_srli_epi64(d2y, 32)),
                                       _mm512_mul_epi32(_mm512_srli_epi64(d2x, 32), _mm512_srli_epi64(d1y, 32)));
  const __m512i zero = _mm512_setzero_si512();
  const __mmask16 negative = interleave(_mm512_cmplt_epi64_mask(even, zero), _mm512_cmplt_epi64_mask(odd, zero));
  const __mmask16 flat = interleave(_mm512_cmpeq_epi64_mask(even, zero), _mm512_cmpeq_epi64_mask(odd, zero));
  // Window y points down: counter-clockwise in NDC (front) is a negative area here.
  const Cull cull = d.call->material.cull;
  const __mmask16 facing = cull == Cull::back    ? negative
                           : cull == Cull::front ? static_cast<__mmask16>(~negative)
                                                 : static_cast<__mmask16>(0xFFFFu);
  const __mmask16 kept = boxed & static_cast<__mmask16>(~flat) & facing;
  _mm512_store_si512(static_cast<void*>(out.area_even), _mm512_abs_epi64(even));
  _mm512_store_si512(static_cast<void*>(out.area_odd), _mm512_abs_epi64(odd));

  // Wound to a positive area: vertices 1 and 2 swap places.
  const __mmask16 swap = kept & negative;
  const __m512i v1x = _mm512_mask_blend_epi32(swap, fx[1], fx[2]), v2x = _mm512_mask_blend_epi32(swap, fx[2], fx[1]);
  const __m512i v1y = _mm512_mask_blend_epi32(swap, fy[1], fy[2]), v2y = _mm512_mask_blend_epi32(swap, fy[2], fy[1]);
  const __m512i i1 = _mm512_mask_blend_epi32(swap, index[1], index[2]),
                i2 = _mm512_mask_blend_epi32(swap, index[2], index[1]);

  // Tiny triangles: at most four pixel centres in the bounds.
  const __m512i w = _mm512_sub_epi32(x1, x0), h = _mm512_sub_epi32(y1, y0);
  const __mmask16 small = kept & _mm512_cmple_epi32_mask(_mm512_mullo_epi32(w, h), _mm512_set1_epi32(4));
  const __m512i extent = _mm512_set1_epi32(kTinyExtent);
  const __mmask16 narrow = _mm512_cmple_epi32_mask(_mm512_sub_epi32(max_x, min_x), extent) &
                           _mm512_cmple_epi32_mask(_mm512_sub_epi32(max_y, min_y), extent);
  __m512i tiny = zero;
  if (small & narrow) {
    const __m512i wx[3] = {fx[0], v1x, v2x}, wy[3] = {fy[0], v1y, v2y};
    tiny = _mm512_maskz_mov_epi32(small & narrow, tiny_mask(wx, wy, x0, y0, w, h));
  }
  const __mmask16 wide_tiny = small & static_cast<__mmask16>(~narrow);
  const __mmask16 empty = small & narrow & _mm512_cmpeq_epi32_mask(tiny, zero);

  out.append = kept & static_cast<__mmask16>(~(wide_tiny | empty));
  out.portable = invalid | clipped | wide_tiny;
  _mm512_store_si512(static_cast<void*>(out.index[0]), index[0]);
  _mm512_store_si512(static_cast<void*>(out.index[1]), i1);
  _mm512_store_si512(static_cast<void*>(out.index[2]), i2);
  _mm512_store_si512(static_cast<void*>(out.x0), x0);
  _mm512_store_si512(static_cast<void*>(out.y0), y0);
  _mm512_store_si512(static_cast<void*>(out.x1), x1);
  _mm512_store_si512(static_cast<void*>(out.y1), y1);
  _mm512_store_si512(static_cast<void*>(out.tiny), tiny);
}

}  // namespace

void transform_vertices(const DrawState& d, const FrameGeometry& g, std::size_t begin, std::size_t end, ClipVertex* out,
                        VertexKey* keys) {
  transform_lanes<VertexLanes16>(d, g, begin, end, out, keys);
}

void setup_triangles(const DrawState& d, const FrameGeometry& g, const ClipVertex* verts, const VertexKey* keys,
                     std::size_t begin, std::size_t end, Batch& batch) {
  Decided lanes;
  for (std::size_t t = begin; t < end; t += 16) {
    const int n = static_cast<int>(std::min<std::size_t>(16, end - t));
    decide(d, g, keys, t, n, lanes);
    batch.submitted += static_cast<std::uint64_t>(n);
    const auto todo = static_cast<std::uint32_t>(lanes.append | lanes.portable);
    batch.culled += static_cast<std::uint64_t>(n - std::popcount(todo));
    for (std::uint32_t left = todo; left != 0; left &= left - 1) {
      const int l = std::countr_zero(left);
      const auto i0 = static_cast<std::uint32_t>(lanes.index[0][l]), i1 = static_cast<std::uint32_t>(lanes.index[1][l]),
                 i2 = static_cast<std::uint32_t>(lanes.index[2][l]);
      if (lanes.portable >> l & 1u) {
        setup_triangle_at(d, g, verts, keys, i0, i1, i2, batch);
        continue;
      }
      TriangleFront f;
      f.x0 = lanes.x0[l];
      f.y0 = lanes.y0[l];
      f.x1 = lanes.x1[l];
      f.y1 = lanes.y1[l];
      f.tiny = lanes.tiny[l];
      f.area = (l & 1) ? lanes.area_odd[l >> 1] : lanes.area_even[l >> 1];
      append_triangle(&verts[i0], &verts[i1], &verts[i2], f, d, g, batch);
    }
  }
}

}  // namespace sortie::render::detail::avx512

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

#endif  // SORTIE_RENDER_HAVE_AVX512
