#pragma once
// Transform state: nine floats kept as exact IEEE-754 values (position, raw orientation, scale),
// plus the deterministic arithmetic helpers the simulation uses.
#include <bit>
#include <cstdint>

namespace sortie::world {

struct Vec3 {
  float x = 0.0f;
  float y = 0.0f;
  float z = 0.0f;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

struct Transform {
  Vec3 position;
  Vec3 orientation;  // raw mission orientation words, kept as they are (never renormalised)
  Vec3 scale{1.0f, 1.0f, 1.0f};
  friend bool operator==(const Transform&, const Transform&) = default;
};

// Exact equality of bit patterns (-0.0 != 0.0, NaN payloads compared), what the hash sees.
bool same_bits(const Transform& a, const Transform& b);

// Deterministic helpers. The world library is compiled with -ffp-contract=off, and each
// helper is a fixed sequence of IEEE-754 operations (+ - * / sqrt are correctly rounded on
// every conforming platform), so results are bit-identical across gcc and clang.
bool is_finite(float v);
float distance_xy(const Vec3& a, const Vec3& b);

}  // namespace sortie::world
