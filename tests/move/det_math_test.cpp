// Deterministic trigonometry: close to libm everywhere, exact at the landmarks, quadrants right.
#include "sortie/move/det_math.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace sortie::move;

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
