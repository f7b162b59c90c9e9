#pragma once
// Deterministic trigonometry for simulation state that is hashed (headings, terrain tilt, squad
// facings). core/math.hpp leaves std::sin/cos/atan2 to libm, whose last bits differ between libm
// versions; these are fixed sequences of IEEE-754 double operations, rounded to float at the
// end, so the same input gives the same bits with every compiler and library (built with
// -ffp-contract=off). The one home of it: the movement stack and the squad game both use it.
//
// Two sine/cosine kernels live here because hashed state depends on each bit for bit (the
// movement stack's headings: det_sin/det_cos; the squad game's facings: det_sin_cos). Both are
// within 1e-6 of the true value, but they round differently in the last float bit on about 3 in
// 10^6 inputs (20 million samples over |x| < 1000: 33 sines and 33 cosines differ), so merging
// them would change recorded hashes; tests/core pins both over a million inputs.
namespace sortie::core {

inline constexpr double kDetPi = 3.14159265358979323846;

// Angle wrapped into (-pi, pi] (float in, float out; via double). NaN for a non-finite input.
float det_wrap(float radians);
// Range reduction to (-pi, pi] by floor, Taylor series with fixed term counts (to x^17 / x^18).
// Accuracy: better than 1e-6 absolute for |x| < 1e6. NaN for a non-finite input.
float det_sin(float radians);
float det_cos(float radians);
// atan2 with the usual quadrants; atan2(0, 0) = 0; NaN in -> NaN out.
float det_atan2(float y, float x);

struct SinCos {
  float sin = 0.0f;
  float cos = 1.0f;
};

// sin and cos together: Cody-Waite reduction to [-pi/4, pi/4] with a two-part pi/2, then Horner
// polynomials (|error| < 1e-7 for |radians| < 1e4); (0, 1) when not finite.
SinCos det_sin_cos(float radians);

}  // namespace sortie::core
