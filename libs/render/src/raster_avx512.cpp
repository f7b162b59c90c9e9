// The widest triangle kernels: four 2 x 2 quads side by side per step (8 x 2 pixels) in AVX-512
// lanes, chosen at run time on CPUs with AVX-512 F, BW and DQ (RendererOptions::isa). Same
// operations per lane as the SSE2 and AVX2 kernels, so the same pixels; the 32 vector registers
// hold the whole step's state. As in raster_avx2.cpp, only the code between the target pragmas
// is compiled for AVX-512, and every header it relies on is included before them.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "pipeline.hpp"

#if SORTIE_RENDER_HAVE_AVX512
#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512bw,avx512dq"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2,avx512f,avx512bw,avx512dq")
#endif

#include "simd16.hpp"

namespace sortie::render::detail::avx512 {
namespace {

// A 16-byte pattern repeated in the four 128-bit lanes.
__m512i per_lane(__m128i pattern) {
  return _mm512_broadcast_i32x4(pattern);
}

struct V {
  using F = simd16::F16;
  using I = simd16::I16;
  static constexpr int kLanes = 16;
  static constexpr int kStep = 8;  // pixel columns per step

  static F fs(float x) { return {_mm512_set1_ps(x)}; }
  static I is(std::int32_t x) { return {_mm512_set1_epi32(x)}; }
  static F lane_fx() { return {_mm512_setr_ps(0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7)}; }
  static F lane_fy() { return {_mm512_setr_ps(0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1)}; }
  // e + a * x + b * y at the lanes' pixel offsets (x = 0 1 0 1 2 3 2 3 ..., y = 0 0 1 1 ...).
  static I edge_lanes(std::int32_t e, std::int32_t a, std::int32_t b) {
    const __m512i ax =
        _mm512_mullo_epi32(_mm512_set1_epi32(a), _mm512_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7));
    const __m512i by = _mm512_and_si512(_mm512_set1_epi32(b), per_lane(_mm_setr_epi32(0, 0, -1, -1)));
    return {_mm512_add_epi32(_mm512_set1_epi32(e), _mm512_add_epi32(ax, by))};
  }
  // Channels to 16-bit halves (R | B << 16, G | A << 16) with byte shuffles.
  static auto split(I t) {
    struct Split16 {
      I rb, ga;
    };
    const __m512i rb = per_lane(_mm_setr_epi8(0, -1, 2, -1, 4, -1, 6, -1, 8, -1, 10, -1, 12, -1, 14, -1));
    const __m512i ga = per_lane(_mm_setr_epi8(1, -1, 3, -1, 5, -1, 7, -1, 9, -1, 11, -1, 13, -1, 15, -1));
    return Split16{{_mm512_shuffle_epi8(t.v, rb)}, {_mm512_shuffle_epi8(t.v, ga)}};
  }
  // The low 16 bits of each lane in both halves.
  static I rep16(I f) {
    return {_mm512_shuffle_epi8(f.v, per_lane(_mm_setr_epi8(0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13)))};
  }
  static F loadf(const float* p) { return {_mm512_load_ps(p)}; }
  static I loadu(const std::uint32_t* p) { return {_mm512_load_si512(static_cast<const void*>(p))}; }
  static void store_lanes(std::int32_t* out, I v) { _mm512_store_si512(static_cast<void*>(out), v.v); }
  static I from_lanes(const std::int32_t* v) { return {_mm512_loadu_si512(static_cast<const void*>(v))}; }

  // The masked lanes of v over p (store_lanes_of: the lanes' old values are not needed).
  static void store_masked(std::uint32_t* p, I mask, I v) {
    _mm512_mask_store_epi32(static_cast<void*>(p), simd16::to_mask(mask), v.v);
  }
  static void store_masked(float* p, I mask, F v) { _mm512_mask_store_ps(p, simd16::to_mask(mask), v.v); }
  // Only the live lanes load (the others hold zero).
  static I gather(const std::uint32_t* base, I idx, I live) {
    return {_mm512_mask_i32gather_epi32(_mm512_setzero_si512(), simd16::to_mask(live), idx.v,
                                        static_cast<const void*>(base), 4)};
  }
  // Texels (x, y) and (x + 1, y) of every live lane: two 64-bit gathers, then even / odd dwords.
  static void pairs(const std::uint32_t* tx, __m512i idx, __mmask16 live, __m512i& left, __m512i& right) {
    const void* base = static_cast<const void*>(tx);
    const __m512i zero = _mm512_setzero_si512();
    // Lanes 0..7, then 8..15.
    const __m256i idx_lo = _mm512_castsi512_si256(idx), idx_hi = _mm512_extracti64x4_epi64(idx, 1);
    const __m512i lo = _mm512_mask_i32gather_epi64(zero, static_cast<__mmask8>(live), idx_lo, base, 4);
    const __m512i hi = _mm512_mask_i32gather_epi64(zero, static_cast<__mmask8>(live >> 8), idx_hi, base, 4);
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    left = _mm512_permutex2var_epi32(lo, even, hi);
    right = _mm512_permutex2var_epi32(lo, odd, hi);
  }
  static void fetch_pairs(const std::uint32_t* tx, I i0, I i1, I live, I& t00, I& t10, I& t01, I& t11) {
    const __mmask16 m = simd16::to_mask(live);
    pairs(tx, i0.v, m, t00.v, t10.v);
    pairs(tx, i1.v, m, t01.v, t11.v);
  }
  // The fragment queue (FragmentQueue): masked lanes compressed to the front of a whole-vector
  // store (the register form of the compress: its memory form is slow on some CPUs), lanes
  // loaded back, and a scatter store (lane order kept where two lanes name one address).
  static constexpr bool kQueue = true;
  static void append(float* dst, I mask, F v) {
    _mm512_storeu_ps(dst, _mm512_maskz_compress_ps(simd16::to_mask(mask), v.v));
  }
  template <class T>
  static void append(T* dst, I mask, I v) {
    _mm512_storeu_si512(static_cast<void*>(dst), _mm512_maskz_compress_epi32(simd16::to_mask(mask), v.v));
  }
  static I lane_index() { return {_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)}; }
  static I first_lanes(int n) { return simd16::from_mask(static_cast<__mmask16>(n >= 16 ? 0xFFFFu : (1u << n) - 1u)); }
  template <class T>
  static I load_i(const T* p) {
    return {_mm512_load_si512(static_cast<const void*>(p))};
  }
  // 4 x 4 boxes (queue_boxes): lanes 0..7 are quad row 0 (two quads side by side), 8..15 quad row 1.
  static I box_lane_x() { return {_mm512_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3)}; }
  static I box_lane_y() { return {_mm512_setr_epi32(0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)}; }
  static F load_box(const float* row0, const float* row1) {
    return {_mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(row0)), _mm256_loadu_ps(row1), 1)};
  }
  // The masked lanes (all-ones or zero) of v over the two quad rows.
  static void store_box(float* row0, float* row1, I mask, F v) {
    _mm256_maskstore_ps(row0, _mm512_castsi512_si256(mask.v), _mm512_castps512_ps256(v.v));
    _mm256_maskstore_ps(row1, _mm512_extracti64x4_epi64(mask.v, 1), _mm512_extractf32x8_ps(v.v, 1));
  }
  static I box_offsets(int row0, int row1) {
    const __m512i base = _mm512_inserti64x4(_mm512_set1_epi32(row0), _mm256_set1_epi32(row1), 1);
    return {_mm512_add_epi32(base, _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7))};
  }
  // One value clamped to 0..255 and rounded as a lane of clamp() and round_i() does it (minss,
  // maxss and cvtss2si treat NaN and round like their packed forms).
  static std::uint32_t clamp_round255(float x) {
    const __m128 c = _mm_max_ss(_mm_min_ss(_mm_set_ss(x), _mm_set_ss(255.0f)), _mm_set_ss(0.0f));
    return static_cast<std::uint32_t>(_mm_cvtss_si32(c));
  }
  static void scatter(std::uint32_t* base, I idx, I live, I v) {
    _mm512_mask_i32scatter_epi32(static_cast<void*>(base), simd16::to_mask(live), idx.v, v.v, 4);
  }
  // Lane k of each quad (lanes 4q .. 4q + 3) in all four of its lanes (quad_lod).
  template <int K>
  static F quad_lane(F x) {
    return {_mm512_permute_ps(x.v, K * 0x55)};
  }
};

}  // namespace
}  // namespace sortie::render::detail::avx512

#define SORTIE_KERNEL_NS avx512
#include "raster_kernel.inl"
#undef SORTIE_KERNEL_NS

namespace sortie::render::detail::avx512 {

void fill_tile(std::uint32_t* words, std::uint32_t word) {
  const __m512i v = _mm512_set1_epi32(static_cast<std::int32_t>(word));
  for (int i = 0; i < kTilePixels; i += 16) _mm512_store_si512(static_cast<void*>(words + i), v);
}

void store_row_pair(const std::uint32_t* quads, std::uint32_t* row0, std::uint32_t* row1) {
  // Eight quads (16 words: quad q holds x = 2q, 2q + 1 of row 0, then of row 1) give sixteen
  // pixels of each row.
  const __m512i top = _mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
  const __m512i bottom = _mm512_setr_epi32(2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31);
  for (int x = 0; x < kTileSize; x += 16) {
    const __m512i a = _mm512_load_si512(static_cast<const void*>(quads + 2 * x));
    const __m512i b = _mm512_load_si512(static_cast<const void*>(quads + 2 * x + 16));
    _mm512_storeu_si512(static_cast<void*>(row0 + x), _mm512_permutex2var_epi32(a, top, b));
    _mm512_storeu_si512(static_cast<void*>(row1 + x), _mm512_permutex2var_epi32(a, bottom, b));
  }
}

}  // namespace sortie::render::detail::avx512

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

#endif  // SORTIE_RENDER_HAVE_AVX512
