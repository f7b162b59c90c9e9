// Deterministic trigonometry: close to libm everywhere, exact at the landmarks, quadrants right,
// and bit for bit what the movement stack and the squad game computed before it moved to core.
#include "sortie/core/det_math.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace sortie::core;

namespace {

// A fixed sequence of 1,000,000 inputs: splitmix64 draws, exponents 2^-27 .. 2^12, both signs.
std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
float draw(std::uint64_t& s) {
  const std::uint64_t r = splitmix(s);
  const auto mantissa = static_cast<std::uint32_t>(r & 0x7fffff);
  const auto exponent = static_cast<std::uint32_t>(100 + (r >> 23) % 40);
  const auto sign = static_cast<std::uint32_t>((r >> 40) & 1);
  return std::bit_cast<float>((sign << 31) | (exponent << 23) | mantissa);
}
// FNV-1a over the output bits.
void fold(std::uint64_t& h, float v) {
  const auto b = std::bit_cast<std::uint32_t>(v);
  for (int k = 0; k < 4; ++k) {
    h ^= (b >> (8 * k)) & 0xff;
    h *= 0x100000001b3ull;
  }
}

}  // namespace

// The digests were computed with libs/move's det_math.cpp (det_wrap, det_sin, det_cos,
// det_atan2) and libs/squad's det_math.cpp (det_sin_cos) before they moved here, with gcc 12
// and clang 14 (the same values). Before the old files were deleted, both were compared with
// these functions on 30 million inputs (every float bit pattern drawn at random, NaN and
// infinities included, and |x| < 16 densely): no output differed in any bit.
TEST(DetMath, outputs_are_bit_identical_to_the_movement_and_squad_originals) {
  std::uint64_t seed = 0x5EED;
  const std::uint64_t basis = 0xcbf29ce484222325ull;
  std::uint64_t hs = basis, hc = basis, hw = basis, ha = basis, hq = basis;
  for (int i = 0; i < 1000000; ++i) {
    const float x = draw(seed);
    const float y = draw(seed);
    fold(hs, det_sin(x));
    fold(hc, det_cos(x));
    fold(hw, det_wrap(x));
    fold(ha, det_atan2(y, x));
    const SinCos sc = det_sin_cos(x);
    fold(hq, sc.sin);
    fold(hq, sc.cos);
  }
  EXPECT_EQ(hs, 0xa766ae10d986d5c5ull);
  EXPECT_EQ(hc, 0x605ce6943c4e02c7ull);
  EXPECT_EQ(hw, 0xe54a794e8ed2ecaaull);
  EXPECT_EQ(ha, 0x5c45e2c05862dcbaull);
  EXPECT_EQ(hq, 0xcf1d67eb061e7a6eull);
}

TEST(DetMath, sin_cos_match_libm_within_1e_6) {
  for (int i = -4000; i <= 4000; ++i) {
    const float x = static_cast<float>(i) * 0.0137f;
    EXPECT_NEAR(det_sin(x), std::sin(x), 1e-6f) << x;
    EXPECT_NEAR(det_cos(x), std::cos(x), 1e-6f) << x;
  }
  EXPECT_EQ(det_sin(0.0f), 0.0f);
  EXPECT_EQ(det_cos(0.0f), 1.0f);
  EXPECT_TRUE(std::isnan(det_sin(std::numeric_limits<float>::infinity())));
}

TEST(DetMath, atan2_matches_libm_and_its_quadrants) {
  for (int i = -60; i <= 60; ++i)
    for (int j = -60; j <= 60; ++j) {
      const float y = static_cast<float>(i) * 0.37f;
      const float x = static_cast<float>(j) * 0.29f;
      EXPECT_NEAR(det_atan2(y, x), std::atan2(y, x), 2e-6f) << y << "," << x;
    }
  EXPECT_EQ(det_atan2(0.0f, 0.0f), 0.0f);
  EXPECT_EQ(det_atan2(0.0f, 1.0f), 0.0f);
  EXPECT_FLOAT_EQ(det_atan2(1.0f, 0.0f), 1.5707964f);
  EXPECT_FLOAT_EQ(det_atan2(0.0f, -1.0f), 3.1415927f);
  EXPECT_FLOAT_EQ(det_atan2(-1.0f, -1.0f), -2.3561945f);
  EXPECT_TRUE(std::isnan(det_atan2(std::nanf(""), 1.0f)));
}

TEST(DetMath, wrap_lands_in_minus_pi_to_pi) {
  EXPECT_FLOAT_EQ(det_wrap(7.0f), 7.0f - 6.2831853f);
  EXPECT_FLOAT_EQ(det_wrap(-7.0f), -7.0f + 6.2831853f);
  EXPECT_EQ(det_wrap(1.0f), 1.0f);
  for (int i = -100; i <= 100; ++i) {
    const float w = det_wrap(static_cast<float>(i) * 0.7f);
    EXPECT_GT(w, -3.1415927f);
    EXPECT_LE(w, 3.1415927f);
  }
}
