#pragma once
// Sixteen-lane AVX-512 counterpart of simd.hpp's F4 / I4 and simd8.hpp's F8 / I8 (private to
// libs/render). Included only inside the AVX-512 target regions (F, BW, DQ) of raster_avx512.cpp
// and geometry_avx512.cpp;
// same per-lane semantics as the SSE2 and AVX2 types. Lane masks stay vectors of all-ones /
// zero lanes, as in the narrower types, so the kernels are written once; compares and selects
// go through the mask registers.
#include <immintrin.h>

#include <cstdint>

namespace sortie::render::simd16 {

struct F16 {
  __m512 v;
};
struct I16 {
  __m512i v;
};

inline I16 from_mask(__mmask16 m) {
  return {_mm512_movm_epi32(m)};
}
inline __mmask16 to_mask(I16 a) {
  return _mm512_movepi32_mask(a.v);
}

inline F16 operator+(F16 a, F16 b) {
  return {_mm512_add_ps(a.v, b.v)};
}
inline F16 operator-(F16 a, F16 b) {
  return {_mm512_sub_ps(a.v, b.v)};
}
inline F16 operator*(F16 a, F16 b) {
  return {_mm512_mul_ps(a.v, b.v)};
}
inline F16 operator/(F16 a, F16 b) {
  return {_mm512_div_ps(a.v, b.v)};
}
inline F16 min(F16 a, F16 b) {
  return {_mm512_min_ps(a.v, b.v)};
}  // a < b ? a : b, like minps
inline F16 max(F16 a, F16 b) {
  return {_mm512_max_ps(a.v, b.v)};
}
inline F16 sqrt(F16 a) {
  return {_mm512_sqrt_ps(a.v)};
}
inline I16 cmplt(F16 a, F16 b) {
  return from_mask(_mm512_cmp_ps_mask(a.v, b.v, _CMP_LT_OQ));
}
inline I16 cmpeq(F16 a, F16 b) {
  return from_mask(_mm512_cmp_ps_mask(a.v, b.v, _CMP_EQ_OQ));
}
inline I16 cmpgt(F16 a, F16 b) {
  return from_mask(_mm512_cmp_ps_mask(a.v, b.v, _CMP_GT_OQ));
}
inline I16 trunc_i(F16 a) {
  return {_mm512_cvttps_epi32(a.v)};
}
inline F16 to_f(I16 a) {
  return {_mm512_cvtepi32_ps(a.v)};
}
inline I16 round_i(F16 a) {
  return {_mm512_cvtps_epi32(a.v)};
}
inline I16 bits(F16 a) {
  return {_mm512_castps_si512(a.v)};
}
inline F16 from_bits(I16 a) {
  return {_mm512_castsi512_ps(a.v)};
}

inline I16 operator+(I16 a, I16 b) {
  return {_mm512_add_epi32(a.v, b.v)};
}
inline I16 operator-(I16 a, I16 b) {
  return {_mm512_sub_epi32(a.v, b.v)};
}
inline I16 operator&(I16 a, I16 b) {
  return {_mm512_and_si512(a.v, b.v)};
}
inline I16 operator|(I16 a, I16 b) {
  return {_mm512_or_si512(a.v, b.v)};
}
inline I16 operator^(I16 a, I16 b) {
  return {_mm512_xor_si512(a.v, b.v)};
}
inline I16 andnot(I16 a, I16 b) {
  return {_mm512_andnot_si512(a.v, b.v)};
}
template <int N>
inline I16 sra(I16 a) {
  return {_mm512_srai_epi32(a.v, N)};
}
template <int N>
inline I16 srl(I16 a) {
  return {_mm512_srli_epi32(a.v, N)};
}
template <int N>
inline I16 sll(I16 a) {
  return {_mm512_slli_epi32(a.v, N)};
}
inline I16 sll(I16 a, int n) {
  return {_mm512_sll_epi32(a.v, _mm_cvtsi32_si128(n))};
}
inline I16 cmpgt(I16 a, I16 b) {
  return from_mask(_mm512_cmpgt_epi32_mask(a.v, b.v));
}
inline I16 cmplt(I16 a, I16 b) {
  return from_mask(_mm512_cmpgt_epi32_mask(b.v, a.v));
}
inline I16 cmpeq(I16 a, I16 b) {
  return from_mask(_mm512_cmpeq_epi32_mask(a.v, b.v));
}
// The lanes' sign bits, lane 0 in bit 0.
inline int movemask(I16 a) {
  return static_cast<int>(to_mask(a));
}
inline I16 mullo16(I16 a, I16 b) {
  return {_mm512_mullo_epi16(a.v, b.v)};
}
inline I16 add16(I16 a, I16 b) {
  return {_mm512_add_epi16(a.v, b.v)};
}
template <int N>
inline I16 srl16(I16 a) {
  return {_mm512_srli_epi16(a.v, N)};
}
inline I16 mulhi16(I16 a, I16 b) {
  return {_mm512_mulhi_epu16(a.v, b.v)};
}
template <int N>
inline I16 sll16(I16 a) {
  return {_mm512_slli_epi16(a.v, N)};
}
inline I16 adds_u8(I16 a, I16 b) {
  return {_mm512_adds_epu8(a.v, b.v)};
}
inline I16 mullo32(I16 a, I16 b) {
  return {_mm512_mullo_epi32(a.v, b.v)};
}

inline void store(std::uint32_t* p, I16 a) {
  _mm512_store_si512(static_cast<void*>(p), a.v);
}
inline void store(float* p, F16 a) {
  _mm512_store_ps(p, a.v);
}

// Lane masks are whole lanes (all ones or zero), so the sign bit decides like blendv.
inline I16 select(I16 mask, I16 a, I16 b) {
  return {_mm512_mask_blend_epi32(to_mask(mask), b.v, a.v)};
}
inline F16 select(I16 mask, F16 a, F16 b) {
  return {_mm512_mask_blend_ps(to_mask(mask), b.v, a.v)};
}
inline F16 clamp(F16 x, F16 lo, F16 hi) {
  return max(min(x, hi), lo);
}
inline I16 min_i(I16 a, I16 b) {
  return {_mm512_min_epi32(a.v, b.v)};
}
inline I16 max_i(I16 a, I16 b) {
  return {_mm512_max_epi32(a.v, b.v)};
}
inline I16 div255_16(I16 x) {
  const I16 t = add16(x, {_mm512_set1_epi32(0x00800080)});
  return srl16<8>(add16(t, srl16<8>(t)));
}

}  // namespace sortie::render::simd16
