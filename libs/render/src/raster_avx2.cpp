// The wide triangle kernels: two 2 x 2 quads side by side per step in AVX2 lanes, chosen at run
// time on CPUs with AVX2 (RendererOptions::isa). Same operations per lane as the SSE2 kernels,
// so the same pixels. Only the code between the target pragmas is compiled for AVX2; every
// header that code relies on is included before them, so no inline function shared with the
// rest of the library is ever emitted with AVX2 instructions.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "atmosphere.hpp"
#include "pipeline.hpp"

#if SORTIE_RENDER_HAVE_AVX2
#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

#include "simd8.hpp"

namespace sortie::render::detail::avx2 {
namespace {

struct V {
  using F = simd8::F8;
  using I = simd8::I8;
  struct Split8 {
    I rb, ga;
  };
  static constexpr int kLanes = 8;
  static constexpr int kStep = 4;  // pixel columns per step

  static F fs(float x) { return {_mm256_set1_ps(x)}; }
  static I is(std::int32_t x) { return {_mm256_set1_epi32(x)}; }
  static F lane_fx() { return {_mm256_setr_ps(0, 1, 0, 1, 2, 3, 2, 3)}; }
  static F lane_fy() { return {_mm256_setr_ps(0, 0, 1, 1, 0, 0, 1, 1)}; }
  // e + a * x + b * y at the lanes' pixel offsets x = 0 1 0 1 2 3 2 3, y = 0 0 1 1 0 0 1 1.
  static I edge_lanes(std::int32_t e, std::int32_t a, std::int32_t b) {
    const __m256i ax = _mm256_mullo_epi32(_mm256_set1_epi32(a), _mm256_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3));
    const __m256i by = _mm256_and_si256(_mm256_set1_epi32(b), _mm256_setr_epi32(0, 0, -1, -1, 0, 0, -1, -1));
    return {_mm256_add_epi32(_mm256_set1_epi32(e), _mm256_add_epi32(ax, by))};
  }
  // Channels to 16-bit halves (R | B << 16, G | A << 16) with byte shuffles.
  static Split8 split(I t) {
    const __m256i rb = _mm256_setr_epi8(0, -1, 2, -1, 4, -1, 6, -1, 8, -1, 10, -1, 12, -1, 14, -1, 0, -1, 2, -1, 4, -1,
                                        6, -1, 8, -1, 10, -1, 12, -1, 14, -1);
    const __m256i ga = _mm256_setr_epi8(1, -1, 3, -1, 5, -1, 7, -1, 9, -1, 11, -1, 13, -1, 15, -1, 1, -1, 3, -1, 5, -1,
                                        7, -1, 9, -1, 11, -1, 13, -1, 15, -1);
    return {{_mm256_shuffle_epi8(t.v, rb)}, {_mm256_shuffle_epi8(t.v, ga)}};
  }
  // The low 16 bits of each lane in both halves.
  static I rep16(I f) {
    const __m256i m = _mm256_setr_epi8(0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13, 0, 1, 0, 1, 4, 5, 4, 5, 8, 9,
                                       8, 9, 12, 13, 12, 13);
    return {_mm256_shuffle_epi8(f.v, m)};
  }
  static F loadf(const float* p) { return {_mm256_load_ps(p)}; }
  static I loadu(const std::uint32_t* p) {
    return {_mm256_load_si256(static_cast<const __m256i*>(static_cast<const void*>(p)))};
  }
  static void store_lanes(std::int32_t* out, I v) {
    _mm256_store_si256(static_cast<__m256i*>(static_cast<void*>(out)), v.v);
  }
  static I from_lanes(const std::int32_t* v) {
    return {_mm256_loadu_si256(static_cast<const __m256i*>(static_cast<const void*>(v)))};
  }

  // Only the live lanes load (the others hold zero).
  static I gather(const std::uint32_t* base, I idx, I live) {
    return {_mm256_mask_i32gather_epi32(_mm256_setzero_si256(), static_cast<const int*>(static_cast<const void*>(base)),
                                        idx.v, live.v, 4)};
  }
  // Texels (x, y) and (x + 1, y) of every live lane: 64-bit gathers, then even / odd dwords.
  static void pairs(const std::uint32_t* tx, __m256i idx, __m256i live, __m256i& left, __m256i& right) {
    const auto* base = static_cast<const long long*>(static_cast<const void*>(tx));
    const __m256i zero = _mm256_setzero_si256();
    // The lanes' masks widened to 64 bits (each dword mask twice).
    const __m256i live_lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(live));
    const __m256i live_hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(live, 1));
    const __m256i lo = _mm256_mask_i32gather_epi64(zero, base, _mm256_castsi256_si128(idx), live_lo, 4);       // 0..3
    const __m256i hi = _mm256_mask_i32gather_epi64(zero, base, _mm256_extracti128_si256(idx, 1), live_hi, 4);  // 4..7
    // Per 128-bit half: even dwords -> lanes 0 1 4 5 | 2 3 6 7; the qword permute restores 0..7.
    const __m256 even = _mm256_shuffle_ps(_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi), _MM_SHUFFLE(2, 0, 2, 0));
    const __m256 odd = _mm256_shuffle_ps(_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi), _MM_SHUFFLE(3, 1, 3, 1));
    left = _mm256_permute4x64_epi64(_mm256_castps_si256(even), _MM_SHUFFLE(3, 1, 2, 0));
    right = _mm256_permute4x64_epi64(_mm256_castps_si256(odd), _MM_SHUFFLE(3, 1, 2, 0));
  }
  static void fetch_pairs(const std::uint32_t* tx, I i0, I i1, I live, I& t00, I& t10, I& t01, I& t11) {
    pairs(tx, i0.v, live.v, t00.v, t10.v);
    pairs(tx, i1.v, live.v, t01.v, t11.v);
  }
  // Lane k of each quad (lanes 0..3 and 4..7) in all four of its lanes (quad_lod).
  template <int K>
  static F quad_lane(F x) {
    return {_mm256_permute_ps(x.v, K * 0x55)};
  }
};

}  // namespace
}  // namespace sortie::render::detail::avx2

#define SORTIE_KERNEL_NS avx2
#include "raster_kernel.inl"
#undef SORTIE_KERNEL_NS

namespace sortie::render::detail::avx2 {
namespace {

// fog_lanes (fog_lanes.inl) over eight lanes: the same operations per lane as atmosphere.cpp's
// four, so the same pixels.
struct Lanes8 {
  using F = simd8::F8;
  using I = simd8::I8;
  static F fs(float x) { return {_mm256_set1_ps(x)}; }
  static I is(std::int32_t x) { return {_mm256_set1_epi32(x)}; }
  static F load_depth(const float* p) { return {_mm256_loadu_ps(p)}; }
  static I load_color(const std::uint32_t* p) {
    return {_mm256_loadu_si256(static_cast<const __m256i*>(static_cast<const void*>(p)))};
  }
  static void store_color(std::uint32_t* p, I v) {
    _mm256_storeu_si256(static_cast<__m256i*>(static_cast<void*>(p)), v.v);
  }
};

#include "fog_lanes.inl"

}  // namespace

void fog8(const AtmosphereState& a, std::uint32_t* color, const float* depth, float clear_z) {
  fog_lanes<Lanes8>(a, color, depth, clear_z);
}

}  // namespace sortie::render::detail::avx2

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

#endif  // SORTIE_RENDER_HAVE_AVX2
