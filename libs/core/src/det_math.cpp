#include "sortie/core/det_math.hpp"

#include <cmath>
#include <limits>

namespace sortie::core {

namespace {

constexpr double kTwoPi = 2.0 * kDetPi;
constexpr double kHalfPi = 0.5 * kDetPi;

// x in (-pi, pi] for finite x.
double wrap(double x) {
  double r = x - kTwoPi * std::floor(x / kTwoPi + 0.5);
  if (r <= -kDetPi) r += kTwoPi;
  if (r > kDetPi) r -= kTwoPi;
  return r;
}

// sin on [-pi/2, pi/2]: Taylor to x^17 (remainder < 1e-12 there).
double sin_core(double x) {
  const double x2 = x * x;
  double term = x;
  double sum = x;
  for (int k = 1; k <= 8; ++k) {
    term = -term * x2 / static_cast<double>((2 * k) * (2 * k + 1));
    sum = sum + term;
  }
  return sum;
}

// cos on [-pi/2, pi/2]: Taylor to x^18.
double cos_core(double x) {
  const double x2 = x * x;
  double term = 1.0;
  double sum = 1.0;
  for (int k = 1; k <= 9; ++k) {
    term = -term * x2 / static_cast<double>((2 * k - 1) * (2 * k));
    sum = sum + term;
  }
  return sum;
}

// atan on [0, 1].
double atan_unit(double t) {
  // atan(t) = pi/6 + atan((t - 1/sqrt3) / (1 + t/sqrt3)) brings t > tan(pi/12) to |u| <= 0.268.
  constexpr double kTan15 = 0.26794919243112270;
  constexpr double kInvSqrt3 = 0.57735026918962576;
  double offset = 0.0;
  double u = t;
  if (t > kTan15) {
    u = (t - kInvSqrt3) / (1.0 + t * kInvSqrt3);
    offset = kDetPi / 6.0;
  }
  const double u2 = u * u;
  double power = u;
  double sum = u;
  for (int k = 1; k <= 11; ++k) {
    power = -power * u2;
    sum = sum + power / static_cast<double>(2 * k + 1);
  }
  return offset + sum;
}

}  // namespace

float det_wrap(float radians) {
  if (!std::isfinite(radians)) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(wrap(static_cast<double>(radians)));
}

float det_sin(float radians) {
  if (!std::isfinite(radians)) return std::numeric_limits<float>::quiet_NaN();
  double r = wrap(static_cast<double>(radians));
  if (r > kHalfPi) r = kDetPi - r;
  if (r < -kHalfPi) r = -kDetPi - r;
  return static_cast<float>(sin_core(r));
}

float det_cos(float radians) {
  if (!std::isfinite(radians)) return std::numeric_limits<float>::quiet_NaN();
  const double r = wrap(static_cast<double>(radians));
  if (r > kHalfPi) return static_cast<float>(-cos_core(kDetPi - r));
  if (r < -kHalfPi) return static_cast<float>(-cos_core(-kDetPi - r));
  return static_cast<float>(cos_core(r));
}

float det_atan2(float yf, float xf) {
  if (std::isnan(yf) || std::isnan(xf)) return std::numeric_limits<float>::quiet_NaN();
  const auto y = static_cast<double>(yf);
  const auto x = static_cast<double>(xf);
  const double ax = std::fabs(x);
  const double ay = std::fabs(y);
  if (ax == 0.0 && ay == 0.0) return 0.0f;
  double a = 0.0;
  if (std::isinf(ax) || std::isinf(ay)) {
    a = std::isinf(ax) && std::isinf(ay) ? kDetPi / 4.0 : (std::isinf(ay) ? kHalfPi : 0.0);
  } else if (ay <= ax) {
    a = atan_unit(ay / ax);
  } else {
    a = kHalfPi - atan_unit(ax / ay);
  }
  if (x < 0.0) a = kDetPi - a;
  if (y < 0.0) a = -a;
  return static_cast<float>(a);
}

SinCos det_sin_cos(float radians) {
  if (!std::isfinite(radians)) return {};
  // Reduction to r in [-pi/4, pi/4] with a two-part pi/2 (Cody-Waite), then Taylor series in r.
  constexpr double kPio2Hi = 1.5707963267341256e+00;  // first 33 bits of pi/2
  constexpr double kPio2Lo = 6.0771005065061922e-11;  // pi/2 - kPio2Hi
  constexpr double kTwoOverPi = 6.3661977236758138e-01;
  const double x = static_cast<double>(radians);
  const double k = std::nearbyint(x * kTwoOverPi);
  const double r = (x - k * kPio2Hi) - k * kPio2Lo;
  const double r2 = r * r;
  // sin r = r (1 - r^2/3! + r^4/5! - ... - r^12/13!), cos r = 1 - r^2/2! + ... + r^14/14!.
  const double s =
      r * (1.0 +
           r2 * (-1.0 / 6.0 +
                 r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 + r2 * (1.0 / 362880.0 + r2 * (-1.0 / 39916800.0 +
                                                                                        r2 * (1.0 / 6227020800.0)))))));
  const double c =
      1.0 +
      r2 * (-0.5 + r2 * (1.0 / 24.0 +
                         r2 * (-1.0 / 720.0 +
                               r2 * (1.0 / 40320.0 + r2 * (-1.0 / 3628800.0 +
                                                           r2 * (1.0 / 479001600.0 + r2 * (-1.0 / 87178291200.0)))))));
  const auto quadrant = static_cast<long long>(k) & 3;
  switch (quadrant) {
    case 0:
      return {static_cast<float>(s), static_cast<float>(c)};
    case 1:
      return {static_cast<float>(c), static_cast<float>(-s)};
    case 2:
      return {static_cast<float>(-s), static_cast<float>(-c)};
    default:
      return {static_cast<float>(-c), static_cast<float>(s)};
  }
}

}  // namespace sortie::core
