#pragma once
// Four-lane vocabulary of the raster kernels (private to libs/render). SSE2 (the x86-64
// baseline) when available; otherwise, or with SORTIE_RENDER_SCALAR, a scalar emulation with
// exactly the same results: IEEE-754 single-precision arithmetic, SSE's min/max/compare rules
// for NaN, cvtps2dq's round-to-nearest-even with INT_MIN for NaN and out-of-range values, and
// wrap-around integer lanes. The kernels are written once against these types.
#include <cmath>
#include <cstdint>

#if defined(__SSE2__) && !defined(SORTIE_RENDER_SCALAR)
#define SORTIE_RENDER_SSE2 1
#include <emmintrin.h>
#else
#define SORTIE_RENDER_SSE2 0
#endif

namespace sortie::render::simd {

#if SORTIE_RENDER_SSE2

struct F4 {
  __m128 v;
};
struct I4 {
  __m128i v;
};

inline F4 f4(float a) {
  return {_mm_set1_ps(a)};
}
inline F4 f4(float a, float b, float c, float d) {
  return {_mm_setr_ps(a, b, c, d)};
}
inline I4 i4(std::int32_t a) {
  return {_mm_set1_epi32(a)};
}
inline I4 i4(std::int32_t a, std::int32_t b, std::int32_t c, std::int32_t d) {
  return {_mm_setr_epi32(a, b, c, d)};
}
inline I4 u4(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  return {_mm_setr_epi32(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b), static_cast<std::int32_t>(c),
                         static_cast<std::int32_t>(d))};
}

inline F4 operator+(F4 a, F4 b) {
  return {_mm_add_ps(a.v, b.v)};
}
inline F4 operator-(F4 a, F4 b) {
  return {_mm_sub_ps(a.v, b.v)};
}
inline F4 operator*(F4 a, F4 b) {
  return {_mm_mul_ps(a.v, b.v)};
}
inline F4 operator/(F4 a, F4 b) {
  return {_mm_div_ps(a.v, b.v)};
}
inline F4 min(F4 a, F4 b) {
  return {_mm_min_ps(a.v, b.v)};
}  // a < b ? a : b
inline F4 max(F4 a, F4 b) {
  return {_mm_max_ps(a.v, b.v)};
}  // a > b ? a : b
inline I4 cmplt(F4 a, F4 b) {
  return {_mm_castps_si128(_mm_cmplt_ps(a.v, b.v))};
}
inline I4 round_i(F4 a) {
  return {_mm_cvtps_epi32(a.v)};
}
inline I4 trunc_i(F4 a) {
  return {_mm_cvttps_epi32(a.v)};
}
inline I4 cmpeq(F4 a, F4 b) {
  return {_mm_castps_si128(_mm_cmpeq_ps(a.v, b.v))};
}
inline I4 cmpgt(F4 a, F4 b) {
  return {_mm_castps_si128(_mm_cmpgt_ps(a.v, b.v))};
}
inline F4 sqrt(F4 a) {
  return {_mm_sqrt_ps(a.v)};
}
inline F4 to_f(I4 a) {
  return {_mm_cvtepi32_ps(a.v)};
}
inline I4 bits(F4 a) {
  return {_mm_castps_si128(a.v)};
}
inline F4 from_bits(I4 a) {
  return {_mm_castsi128_ps(a.v)};
}

inline I4 operator+(I4 a, I4 b) {
  return {_mm_add_epi32(a.v, b.v)};
}
inline I4 operator-(I4 a, I4 b) {
  return {_mm_sub_epi32(a.v, b.v)};
}
inline I4 operator&(I4 a, I4 b) {
  return {_mm_and_si128(a.v, b.v)};
}
inline I4 operator|(I4 a, I4 b) {
  return {_mm_or_si128(a.v, b.v)};
}
inline I4 operator^(I4 a, I4 b) {
  return {_mm_xor_si128(a.v, b.v)};
}
inline I4 andnot(I4 a, I4 b) {
  return {_mm_andnot_si128(a.v, b.v)};
}  // ~a & b
template <int N>
inline I4 sra(I4 a) {
  return {_mm_srai_epi32(a.v, N)};
}
template <int N>
inline I4 srl(I4 a) {
  return {_mm_srli_epi32(a.v, N)};
}
template <int N>
inline I4 sll(I4 a) {
  return {_mm_slli_epi32(a.v, N)};
}
inline I4 sll(I4 a, int n) {
  return {_mm_sll_epi32(a.v, _mm_cvtsi32_si128(n))};
}
inline I4 cmpgt(I4 a, I4 b) {
  return {_mm_cmpgt_epi32(a.v, b.v)};
}
inline I4 cmplt(I4 a, I4 b) {
  return {_mm_cmplt_epi32(a.v, b.v)};
}
inline I4 cmpeq(I4 a, I4 b) {
  return {_mm_cmpeq_epi32(a.v, b.v)};
}
inline int movemask(I4 a) {
  return _mm_movemask_ps(_mm_castsi128_ps(a.v));
}  // lane sign bits

// 16-bit halves of each lane (8 x u16).
inline I4 mullo16(I4 a, I4 b) {
  return {_mm_mullo_epi16(a.v, b.v)};
}
inline I4 add16(I4 a, I4 b) {
  return {_mm_add_epi16(a.v, b.v)};
}
template <int N>
inline I4 srl16(I4 a) {
  return {_mm_srli_epi16(a.v, N)};
}
// High 16 bits of the unsigned 16 x 16 products.
inline I4 mulhi16(I4 a, I4 b) {
  return {_mm_mulhi_epu16(a.v, b.v)};
}
template <int N>
inline I4 sll16(I4 a) {
  return {_mm_slli_epi16(a.v, N)};
}
// Bytes, unsigned saturating add.
inline I4 adds_u8(I4 a, I4 b) {
  return {_mm_adds_epu8(a.v, b.v)};
}
// Low 32 bits of the lane products.
inline I4 mullo32(I4 a, I4 b) {
  const __m128i even = _mm_mul_epu32(a.v, b.v);
  const __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a.v, 32), _mm_srli_epi64(b.v, 32));
  return {_mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                             _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)))};
}

// Lane shuffles.
inline I4 unpacklo32(I4 a, I4 b) {
  return {_mm_unpacklo_epi32(a.v, b.v)};
}  // a0 b0 a1 b1
inline I4 unpacklo64(I4 a, I4 b) {
  return {_mm_unpacklo_epi64(a.v, b.v)};
}  // a0 a1 b0 b1
inline I4 unpackhi64(I4 a, I4 b) {
  return {_mm_unpackhi_epi64(a.v, b.v)};
}  // a2 a3 b2 b3

inline F4 load(const float* p) {
  return {_mm_load_ps(p)};
}
inline void store(float* p, F4 a) {
  _mm_store_ps(p, a.v);
}
// p[0], p[1], 0, 0 (no alignment needed).
inline I4 load_pair(const std::uint32_t* p) {
  return {_mm_loadl_epi64(static_cast<const __m128i*>(static_cast<const void*>(p)))};
}
inline I4 load(const std::uint32_t* p) {
  return {_mm_load_si128(static_cast<const __m128i*>(static_cast<const void*>(p)))};
}
inline void store(std::uint32_t* p, I4 a) {
  _mm_store_si128(static_cast<__m128i*>(static_cast<void*>(p)), a.v);
}
inline void store(std::int32_t* p, I4 a) {
  _mm_store_si128(static_cast<__m128i*>(static_cast<void*>(p)), a.v);
}
inline void store(float* p, I4 a) {
  _mm_store_si128(static_cast<__m128i*>(static_cast<void*>(p)), a.v);
}

inline F4 loadu(const float* p) {
  return {_mm_loadu_ps(p)};
}
inline void storeu(float* p, F4 a) {
  _mm_storeu_ps(p, a.v);
}
// Rows to columns: a b c d hold rows 0..3 of a 4 x 4 matrix; afterwards they hold its columns.
inline void transpose4(F4& a, F4& b, F4& c, F4& d) {
  _MM_TRANSPOSE4_PS(a.v, b.v, c.v, d.v);
}

// Writes v0 x0 y0 v1 x1 y1 v2 x2 y2 v3 x3 y3 (12 floats, any alignment).
inline void store_interleaved3(void* out, F4 v, F4 x, F4 y) {
  const __m128 vx_lo = _mm_unpacklo_ps(v.v, x.v);                        // v0 x0 v1 x1
  const __m128 vx_hi = _mm_unpackhi_ps(v.v, x.v);                        // v2 x2 v3 x3
  const __m128 t = _mm_shuffle_ps(y.v, vx_lo, _MM_SHUFFLE(2, 2, 0, 0));  // y0 y0 v1 v1
  const __m128 u = _mm_shuffle_ps(vx_lo, y.v, _MM_SHUFFLE(1, 1, 3, 3));  // x1 x1 y1 y1
  const __m128 w = _mm_shuffle_ps(y.v, vx_hi, _MM_SHUFFLE(2, 2, 2, 2));  // y2 y2 v3 v3
  const __m128 z = _mm_shuffle_ps(vx_hi, y.v, _MM_SHUFFLE(3, 3, 3, 3));  // x3 x3 y3 y3
  float* o = static_cast<float*>(out);
  _mm_storeu_ps(o, _mm_shuffle_ps(vx_lo, t, _MM_SHUFFLE(2, 0, 1, 0)));      // v0 x0 y0 v1
  _mm_storeu_ps(o + 4, _mm_shuffle_ps(u, vx_hi, _MM_SHUFFLE(1, 0, 2, 0)));  // x1 y1 v2 x2
  _mm_storeu_ps(o + 8, _mm_shuffle_ps(w, z, _MM_SHUFFLE(2, 0, 2, 0)));      // y2 v3 x3 y3
}

#else  // scalar emulation

struct F4 {
  float v[4];
};
struct I4 {
  std::uint32_t v[4];
};

inline F4 f4(float a) {
  return {{a, a, a, a}};
}
inline F4 f4(float a, float b, float c, float d) {
  return {{a, b, c, d}};
}
inline I4 i4(std::int32_t a) {
  const auto u = static_cast<std::uint32_t>(a);
  return {{u, u, u, u}};
}
inline I4 i4(std::int32_t a, std::int32_t b, std::int32_t c, std::int32_t d) {
  return {{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(c),
           static_cast<std::uint32_t>(d)}};
}
inline I4 u4(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  return {{a, b, c, d}};
}

#define SORTIE_F4_BINOP(op)                                                            \
  inline F4 operator op(F4 a, F4 b) {                                                  \
    return {{a.v[0] op b.v[0], a.v[1] op b.v[1], a.v[2] op b.v[2], a.v[3] op b.v[3]}}; \
  }
SORTIE_F4_BINOP(+)
SORTIE_F4_BINOP(-)
SORTIE_F4_BINOP(*)
SORTIE_F4_BINOP(/)
#undef SORTIE_F4_BINOP
#define SORTIE_I4_BINOP(op)                                                            \
  inline I4 operator op(I4 a, I4 b) {                                                  \
    return {{a.v[0] op b.v[0], a.v[1] op b.v[1], a.v[2] op b.v[2], a.v[3] op b.v[3]}}; \
  }
SORTIE_I4_BINOP(+)
SORTIE_I4_BINOP(-)
SORTIE_I4_BINOP(&)
SORTIE_I4_BINOP(|)
SORTIE_I4_BINOP(^)
#undef SORTIE_I4_BINOP

inline std::uint32_t mask_of(bool b) {
  return b ? 0xFFFFFFFFu : 0u;
}
inline std::int32_t s32(std::uint32_t u) {
  return static_cast<std::int32_t>(u);
}

inline F4 min(F4 a, F4 b) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i];
  return r;
}
inline F4 max(F4 a, F4 b) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i];
  return r;
}
inline I4 cmplt(F4 a, F4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = mask_of(a.v[i] < b.v[i]);
  return r;
}
inline I4 round_i(F4 a) {
  I4 r;
  for (int i = 0; i < 4; ++i) {
    const float x = a.v[i];
    r.v[i] = (x >= -2147483648.0f && x < 2147483648.0f)
                 ? static_cast<std::uint32_t>(static_cast<std::int32_t>(std::nearbyint(x)))
                 : 0x80000000u;
  }
  return r;
}
inline I4 trunc_i(F4 a) {
  I4 r;
  for (int i = 0; i < 4; ++i) {
    const float x = a.v[i];
    r.v[i] = (x > -2147483904.0f && x < 2147483648.0f) ? static_cast<std::uint32_t>(static_cast<std::int32_t>(x))
                                                       : 0x80000000u;
  }
  return r;
}
inline I4 cmpeq(F4 a, F4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = mask_of(a.v[i] == b.v[i]);
  return r;
}
inline I4 cmpgt(F4 a, F4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = mask_of(a.v[i] > b.v[i]);
  return r;
}
inline F4 sqrt(F4 a) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = std::sqrt(a.v[i]);
  return r;
}
inline F4 to_f(I4 a) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = static_cast<float>(s32(a.v[i]));
  return r;
}
inline I4 bits(F4 a) {
  I4 r;
  for (int i = 0; i < 4; ++i) __builtin_memcpy(&r.v[i], &a.v[i], 4);
  return r;
}
inline F4 from_bits(I4 a) {
  F4 r;
  for (int i = 0; i < 4; ++i) __builtin_memcpy(&r.v[i], &a.v[i], 4);
  return r;
}
inline I4 andnot(I4 a, I4 b) {
  return {{~a.v[0] & b.v[0], ~a.v[1] & b.v[1], ~a.v[2] & b.v[2], ~a.v[3] & b.v[3]}};
}
template <int N>
inline I4 sra(I4 a) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = static_cast<std::uint32_t>(s32(a.v[i]) >> N);
  return r;
}
template <int N>
inline I4 srl(I4 a) {
  return {{a.v[0] >> N, a.v[1] >> N, a.v[2] >> N, a.v[3] >> N}};
}
template <int N>
inline I4 sll(I4 a) {
  return {{a.v[0] << N, a.v[1] << N, a.v[2] << N, a.v[3] << N}};
}
inline I4 sll(I4 a, int n) {
  if (n < 0 || n > 31) return i4(0);
  return {{a.v[0] << n, a.v[1] << n, a.v[2] << n, a.v[3] << n}};
}
inline I4 cmpgt(I4 a, I4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = mask_of(s32(a.v[i]) > s32(b.v[i]));
  return r;
}
inline I4 cmplt(I4 a, I4 b) {
  return cmpgt(b, a);
}
inline I4 cmpeq(I4 a, I4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = mask_of(a.v[i] == b.v[i]);
  return r;
}
inline int movemask(I4 a) {
  return static_cast<int>((a.v[0] >> 31) | ((a.v[1] >> 31) << 1) | ((a.v[2] >> 31) << 2) | ((a.v[3] >> 31) << 3));
}
inline std::uint32_t lo16(std::uint32_t x) {
  return x & 0xFFFFu;
}
inline std::uint32_t hi16(std::uint32_t x) {
  return x >> 16;
}
inline std::uint32_t join16(std::uint32_t lo, std::uint32_t hi) {
  return (lo & 0xFFFFu) | ((hi & 0xFFFFu) << 16);
}
inline I4 mullo16(I4 a, I4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = join16(lo16(a.v[i]) * lo16(b.v[i]), hi16(a.v[i]) * hi16(b.v[i]));
  return r;
}
inline I4 add16(I4 a, I4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = join16(lo16(a.v[i]) + lo16(b.v[i]), hi16(a.v[i]) + hi16(b.v[i]));
  return r;
}
template <int N>
inline I4 srl16(I4 a) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = join16(lo16(a.v[i]) >> N, hi16(a.v[i]) >> N);
  return r;
}
inline I4 mulhi16(I4 a, I4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = join16((lo16(a.v[i]) * lo16(b.v[i])) >> 16, (hi16(a.v[i]) * hi16(b.v[i])) >> 16);
  return r;
}
template <int N>
inline I4 sll16(I4 a) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = join16(lo16(a.v[i]) << N, hi16(a.v[i]) << N);
  return r;
}
inline I4 adds_u8(I4 a, I4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) {
    std::uint32_t out = 0;
    for (int k = 0; k < 32; k += 8) {
      const std::uint32_t s = ((a.v[i] >> k) & 0xFFu) + ((b.v[i] >> k) & 0xFFu);
      out |= (s > 255u ? 255u : s) << k;
    }
    r.v[i] = out;
  }
  return r;
}
inline I4 mullo32(I4 a, I4 b) {
  return {{a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2], a.v[3] * b.v[3]}};
}

inline I4 unpacklo32(I4 a, I4 b) {
  return {{a.v[0], b.v[0], a.v[1], b.v[1]}};
}
inline I4 unpacklo64(I4 a, I4 b) {
  return {{a.v[0], a.v[1], b.v[0], b.v[1]}};
}
inline I4 unpackhi64(I4 a, I4 b) {
  return {{a.v[2], a.v[3], b.v[2], b.v[3]}};
}

inline F4 load(const float* p) {
  return {{p[0], p[1], p[2], p[3]}};
}
inline void store(float* p, F4 a) {
  for (int i = 0; i < 4; ++i) p[i] = a.v[i];
}
inline I4 load_pair(const std::uint32_t* p) {
  return {{p[0], p[1], 0u, 0u}};
}
inline I4 load(const std::uint32_t* p) {
  return {{p[0], p[1], p[2], p[3]}};
}
inline void store(std::uint32_t* p, I4 a) {
  for (int i = 0; i < 4; ++i) p[i] = a.v[i];
}
inline void store(std::int32_t* p, I4 a) {
  for (int i = 0; i < 4; ++i) p[i] = s32(a.v[i]);
}
inline void store(float* p, I4 a) {
  for (int i = 0; i < 4; ++i) __builtin_memcpy(&p[i], &a.v[i], 4);
}
inline F4 loadu(const float* p) {
  return {{p[0], p[1], p[2], p[3]}};
}
inline void storeu(float* p, F4 a) {
  __builtin_memcpy(p, a.v, sizeof a.v);
}
inline void transpose4(F4& a, F4& b, F4& c, F4& d) {
  const F4 r[4] = {a, b, c, d};
  F4* out[4] = {&a, &b, &c, &d};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) out[i]->v[j] = r[j].v[i];
}
inline void store_interleaved3(void* out, F4 v, F4 x, F4 y) {
  float t[12];
  for (int i = 0; i < 4; ++i) {
    t[i * 3] = v.v[i];
    t[i * 3 + 1] = x.v[i];
    t[i * 3 + 2] = y.v[i];
  }
  __builtin_memcpy(out, t, sizeof t);
}

#endif

// ---- shared helpers (both paths) ----
inline I4 select(I4 mask, I4 a, I4 b) {
  return (mask & a) | andnot(mask, b);
}
inline F4 select(I4 mask, F4 a, F4 b) {
  return from_bits(select(mask, bits(a), bits(b)));
}
// Clamp to [lo, hi]; NaN gives hi (SSE min/max operand order).
inline F4 clamp(F4 x, F4 lo, F4 hi) {
  return max(min(x, hi), lo);
}
inline I4 min_i(I4 a, I4 b) {
  return select(cmplt(a, b), a, b);
}
inline I4 max_i(I4 a, I4 b) {
  return select(cmpgt(a, b), a, b);
}
// round(x / 255) for 16-bit halves holding x <= 65025.
inline I4 div255_16(I4 x) {
  const I4 t = add16(x, i4(0x00800080));
  return srl16<8>(add16(t, srl16<8>(t)));
}

}  // namespace sortie::render::simd
