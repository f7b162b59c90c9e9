#pragma once
// Eight-lane AVX2 counterpart of simd.hpp's F4 / I4 (private to libs/render). Included only by
// raster_avx2.cpp inside its AVX2 target region; same per-lane semantics as the SSE2 types.
#include <immintrin.h>

#include <cstdint>

namespace sortie::render::simd8 {

struct F8 {
  __m256 v;
};
struct I8 {
  __m256i v;
};

inline F8 operator+(F8 a, F8 b) {
  return {_mm256_add_ps(a.v, b.v)};
}
inline F8 operator-(F8 a, F8 b) {
  return {_mm256_sub_ps(a.v, b.v)};
}
inline F8 operator*(F8 a, F8 b) {
  return {_mm256_mul_ps(a.v, b.v)};
}
inline F8 operator/(F8 a, F8 b) {
  return {_mm256_div_ps(a.v, b.v)};
}
inline F8 min(F8 a, F8 b) {
  return {_mm256_min_ps(a.v, b.v)};
}  // a < b ? a : b, like minps
inline F8 max(F8 a, F8 b) {
  return {_mm256_max_ps(a.v, b.v)};
}
inline I8 cmplt(F8 a, F8 b) {
  return {_mm256_castps_si256(_mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ))};
}
inline I8 cmpeq(F8 a, F8 b) {
  return {_mm256_castps_si256(_mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ))};
}
inline I8 cmpgt(F8 a, F8 b) {
  return {_mm256_castps_si256(_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ))};
}
inline I8 trunc_i(F8 a) {
  return {_mm256_cvttps_epi32(a.v)};
}
inline F8 to_f(I8 a) {
  return {_mm256_cvtepi32_ps(a.v)};
}
inline I8 round_i(F8 a) {
  return {_mm256_cvtps_epi32(a.v)};
}
inline I8 bits(F8 a) {
  return {_mm256_castps_si256(a.v)};
}
inline F8 from_bits(I8 a) {
  return {_mm256_castsi256_ps(a.v)};
}

inline I8 operator+(I8 a, I8 b) {
  return {_mm256_add_epi32(a.v, b.v)};
}
inline I8 operator-(I8 a, I8 b) {
  return {_mm256_sub_epi32(a.v, b.v)};
}
inline I8 operator&(I8 a, I8 b) {
  return {_mm256_and_si256(a.v, b.v)};
}
inline I8 operator|(I8 a, I8 b) {
  return {_mm256_or_si256(a.v, b.v)};
}
inline I8 operator^(I8 a, I8 b) {
  return {_mm256_xor_si256(a.v, b.v)};
}
inline I8 andnot(I8 a, I8 b) {
  return {_mm256_andnot_si256(a.v, b.v)};
}
template <int N>
inline I8 sra(I8 a) {
  return {_mm256_srai_epi32(a.v, N)};
}
template <int N>
inline I8 srl(I8 a) {
  return {_mm256_srli_epi32(a.v, N)};
}
template <int N>
inline I8 sll(I8 a) {
  return {_mm256_slli_epi32(a.v, N)};
}
inline I8 sll(I8 a, int n) {
  return {_mm256_sll_epi32(a.v, _mm_cvtsi32_si128(n))};
}
inline I8 cmpgt(I8 a, I8 b) {
  return {_mm256_cmpgt_epi32(a.v, b.v)};
}
inline I8 cmplt(I8 a, I8 b) {
  return {_mm256_cmpgt_epi32(b.v, a.v)};
}
inline I8 cmpeq(I8 a, I8 b) {
  return {_mm256_cmpeq_epi32(a.v, b.v)};
}
inline int movemask(I8 a) {
  return _mm256_movemask_ps(_mm256_castsi256_ps(a.v));
}
inline I8 mullo16(I8 a, I8 b) {
  return {_mm256_mullo_epi16(a.v, b.v)};
}
inline I8 add16(I8 a, I8 b) {
  return {_mm256_add_epi16(a.v, b.v)};
}
template <int N>
inline I8 srl16(I8 a) {
  return {_mm256_srli_epi16(a.v, N)};
}
inline I8 mulhi16(I8 a, I8 b) {
  return {_mm256_mulhi_epu16(a.v, b.v)};
}
template <int N>
inline I8 sll16(I8 a) {
  return {_mm256_slli_epi16(a.v, N)};
}
inline I8 adds_u8(I8 a, I8 b) {
  return {_mm256_adds_epu8(a.v, b.v)};
}
inline I8 mullo32(I8 a, I8 b) {
  return {_mm256_mullo_epi32(a.v, b.v)};
}

inline void store(std::uint32_t* p, I8 a) {
  _mm256_store_si256(static_cast<__m256i*>(static_cast<void*>(p)), a.v);
}
inline void store(float* p, F8 a) {
  _mm256_store_ps(p, a.v);
}

inline I8 select(I8 mask, I8 a, I8 b) {
  return {_mm256_blendv_epi8(b.v, a.v, mask.v)};
}
inline F8 select(I8 mask, F8 a, F8 b) {
  return {_mm256_blendv_ps(b.v, a.v, _mm256_castsi256_ps(mask.v))};
}
inline F8 clamp(F8 x, F8 lo, F8 hi) {
  return max(min(x, hi), lo);
}
inline I8 min_i(I8 a, I8 b) {
  return {_mm256_min_epi32(a.v, b.v)};
}
inline I8 max_i(I8 a, I8 b) {
  return {_mm256_max_epi32(a.v, b.v)};
}
inline I8 div255_16(I8 x) {
  const I8 t = add16(x, {_mm256_set1_epi32(0x00800080)});
  return srl16<8>(add16(t, srl16<8>(t)));
}

}  // namespace sortie::render::simd8
