// The baseline triangle kernels: one 2 x 2 quad per step in SSE2 lanes (or in the scalar
// emulation of simd.hpp on targets without SSE2).
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "pipeline.hpp"
#include "simd.hpp"

namespace sortie::render::detail::sse2 {
namespace {

struct V {
  using F = simd::F4;
  using I = simd::I4;
  struct Split8 {
    I rb, ga;
  };
  static constexpr int kLanes = 4;
  static constexpr int kStep = 2;  // pixel columns per step

  static F fs(float x) { return simd::f4(x); }
  static I is(std::int32_t x) { return simd::i4(x); }
  static F lane_fx() { return simd::f4(0.0f, 1.0f, 0.0f, 1.0f); }
  static F lane_fy() { return simd::f4(0.0f, 0.0f, 1.0f, 1.0f); }
  // e + a * x + b * y at the lanes' pixel offsets (|e| < 2^30, |a|, |b| < 2^24: no overflow).
  static I edge_lanes(std::int32_t e, std::int32_t a, std::int32_t b) { return simd::i4(e, e + a, e + b, e + a + b); }
  static Split8 split(I t) {
    const I m = simd::i4(0x00FF00FF);
    return {t & m, simd::srl<8>(t) & m};
  }
  static I rep16(I f) { return f | simd::sll<16>(f); }
  static F loadf(const float* p) { return simd::load(p); }
  static I loadu(const std::uint32_t* p) { return simd::load(p); }
  static void store_lanes(std::int32_t* out, I v) { simd::store(out, v); }
  static I from_lanes(const std::int32_t* v) { return simd::i4(v[0], v[1], v[2], v[3]); }

  static I gather(const std::uint32_t* base, I idx, I /*live*/) {
    alignas(16) std::int32_t i[4];
    simd::store(i, idx);
    return simd::u4(base[i[0]], base[i[1]], base[i[2]], base[i[3]]);
  }
  // Texels (x, y) and (x + 1, y) of every lane from one 64-bit load at i0 (row y) and at i1.
  static void fetch_pairs(const std::uint32_t* tx, I i0, I i1, I /*live*/, I& t00, I& t10, I& t01, I& t11) {
    alignas(16) std::int32_t a[4], b[4];
    simd::store(a, i0);
    simd::store(b, i1);
    const I top01 = simd::unpacklo32(simd::load_pair(tx + a[0]), simd::load_pair(tx + a[1]));
    const I top23 = simd::unpacklo32(simd::load_pair(tx + a[2]), simd::load_pair(tx + a[3]));
    const I bot01 = simd::unpacklo32(simd::load_pair(tx + b[0]), simd::load_pair(tx + b[1]));
    const I bot23 = simd::unpacklo32(simd::load_pair(tx + b[2]), simd::load_pair(tx + b[3]));
    t00 = simd::unpacklo64(top01, top23);
    t10 = simd::unpackhi64(top01, top23);
    t01 = simd::unpacklo64(bot01, bot23);
    t11 = simd::unpackhi64(bot01, bot23);
  }
  // One LOD per quad from finite differences of its lanes (8.8 fixed point), in every lane.
  static I quad_lod(F u, F v, float tex_w, float tex_h) {
    alignas(16) float uu[4], vv[4];
    simd::store(uu, u);
    simd::store(vv, v);
    return simd::i4(quad_lod_scalar(uu, vv, tex_w, tex_h));
  }
};

}  // namespace
}  // namespace sortie::render::detail::sse2

#define SORTIE_KERNEL_NS sse2
#include "raster_kernel.inl"
#undef SORTIE_KERNEL_NS
