#pragma once
// Deterministic trigonometry for simulation state that is hashed (headings, terrain tilt).
// core/math.hpp leaves std::sin/cos/atan2 to libm, whose last bits differ between libm versions;
// these are fixed sequences of IEEE-754 double operations (range reduction with floor, Taylor
// series with fixed term counts, sqrt), rounded to float at the end, so the same input gives the
// same bits with every compiler and library (the project builds with -ffp-contract=off).
// Accuracy: better than 1e-6 absolute over the float range used here (|x| < 1e6).
namespace sortie::move {

inline constexpr double kDetPi = 3.14159265358979323846;

// Angle wrapped into (-pi, pi] (float in, float out; via double).
float det_wrap(float radians);
float det_sin(float radians);
float det_cos(float radians);
// atan2 with the usual quadrants; atan2(0, 0) = 0; NaN in -> NaN out.
float det_atan2(float y, float x);

}  // namespace sortie::move
