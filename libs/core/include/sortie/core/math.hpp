#pragma once
// The one vocabulary of basic math types shared by every layer above the formats: nav, world,
// render, squad, env and net. Format records keep their raw on-disk fields (they may hold these
// types when the on-disk field is exactly N IEEE-754 floats) and convert at the edge.
//
// Conventions:
//   - float components; doubles only where a caller asks for them explicitly;
//   - column vectors: p' = M * p; Mat4 stores rows (m[row][col]); translation in column 3;
//   - Iron3D world axes: X east, Y north, Z up (spec iron3d-formats §25);
//   - every helper is a fixed sequence of IEEE-754 operations and the project is compiled with
//     -ffp-contract=off, so results are bit-identical across gcc and clang (the simulation
//     hashes them). Trigonometry (std::sin/cos/tan/atan2) comes from libm: identical on one
//     platform, not across libm versions; the simulation must not hash its results.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace sortie::core {

inline constexpr float kPi = 3.14159265358979323846f;

struct Vec2 {
  float x = 0.0f;
  float y = 0.0f;
  friend constexpr bool operator==(const Vec2&, const Vec2&) = default;
  constexpr Vec2& operator+=(Vec2 o) {
    x += o.x;
    y += o.y;
    return *this;
  }
  constexpr Vec2& operator-=(Vec2 o) {
    x -= o.x;
    y -= o.y;
    return *this;
  }
  constexpr Vec2& operator*=(float s) {
    x *= s;
    y *= s;
    return *this;
  }
};

struct Vec3 {
  float x = 0.0f;
  float y = 0.0f;
  float z = 0.0f;
  friend constexpr bool operator==(const Vec3&, const Vec3&) = default;
  constexpr Vec3& operator+=(const Vec3& o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  constexpr Vec3& operator-=(const Vec3& o) {
    x -= o.x;
    y -= o.y;
    z -= o.z;
    return *this;
  }
  constexpr Vec3& operator*=(float s) {
    x *= s;
    y *= s;
    z *= s;
    return *this;
  }
  [[nodiscard]] constexpr Vec2 xy() const { return {x, y}; }
};

struct Vec4 {
  float x = 0.0f;
  float y = 0.0f;
  float z = 0.0f;
  float w = 0.0f;
  friend constexpr bool operator==(const Vec4&, const Vec4&) = default;
  [[nodiscard]] constexpr Vec3 xyz() const { return {x, y, z}; }
};

// ---- Vec2 ----
constexpr Vec2 operator+(Vec2 a, Vec2 b) {
  return {a.x + b.x, a.y + b.y};
}
constexpr Vec2 operator-(Vec2 a, Vec2 b) {
  return {a.x - b.x, a.y - b.y};
}
constexpr Vec2 operator-(Vec2 a) {
  return {-a.x, -a.y};
}
constexpr Vec2 operator*(Vec2 a, float s) {
  return {a.x * s, a.y * s};
}
constexpr Vec2 operator*(float s, Vec2 a) {
  return {a.x * s, a.y * s};
}
constexpr Vec2 operator/(Vec2 a, float s) {
  return {a.x / s, a.y / s};
}
constexpr float dot(Vec2 a, Vec2 b) {
  return a.x * b.x + a.y * b.y;
}
// z of the 3-D cross product: > 0 when b is counter-clockwise from a.
constexpr float cross(Vec2 a, Vec2 b) {
  return a.x * b.y - a.y * b.x;
}
constexpr float length_squared(Vec2 a) {
  return dot(a, a);
}
inline float length(Vec2 a) {
  return std::sqrt(length_squared(a));
}
inline float distance(Vec2 a, Vec2 b) {
  return length(b - a);
}
constexpr Vec2 perp(Vec2 a) {
  return {-a.y, a.x};
}  // rotated +90 degrees
// Unit vector, or `fallback` when the length is zero or not finite.
inline Vec2 normalize_or(Vec2 a, Vec2 fallback) {
  const float len = length(a);
  if (!(len > 0.0f) || !std::isfinite(len)) return fallback;
  return a / len;
}
constexpr Vec2 lerp(Vec2 a, Vec2 b, float t) {
  return a + (b - a) * t;
}
constexpr Vec2 min(Vec2 a, Vec2 b) {
  return {std::min(a.x, b.x), std::min(a.y, b.y)};
}
constexpr Vec2 max(Vec2 a, Vec2 b) {
  return {std::max(a.x, b.x), std::max(a.y, b.y)};
}

// ---- Vec3 ----
constexpr Vec3 operator+(const Vec3& a, const Vec3& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
constexpr Vec3 operator-(const Vec3& a, const Vec3& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
constexpr Vec3 operator-(const Vec3& a) {
  return {-a.x, -a.y, -a.z};
}
constexpr Vec3 operator*(const Vec3& a, float s) {
  return {a.x * s, a.y * s, a.z * s};
}
constexpr Vec3 operator*(float s, const Vec3& a) {
  return {a.x * s, a.y * s, a.z * s};
}
constexpr Vec3 operator/(const Vec3& a, float s) {
  return {a.x / s, a.y / s, a.z / s};
}
constexpr Vec3 hadamard(const Vec3& a, const Vec3& b) {
  return {a.x * b.x, a.y * b.y, a.z * b.z};
}
constexpr float dot(const Vec3& a, const Vec3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
constexpr Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
constexpr float length_squared(const Vec3& a) {
  return dot(a, a);
}
inline float length(const Vec3& a) {
  return std::sqrt(length_squared(a));
}
inline float distance(const Vec3& a, const Vec3& b) {
  return length(b - a);
}
// XY distance (Z ignored): the ground distance of the simulation.
inline float distance_xy(const Vec3& a, const Vec3& b) {
  const float dx = b.x - a.x;
  const float dy = b.y - a.y;
  return std::sqrt(dx * dx + dy * dy);
}
inline Vec3 normalize_or(const Vec3& a, const Vec3& fallback) {
  const float len = length(a);
  if (!(len > 0.0f) || !std::isfinite(len)) return fallback;
  return a / len;
}
constexpr Vec3 lerp(const Vec3& a, const Vec3& b, float t) {
  return a + (b - a) * t;
}
constexpr Vec3 min(const Vec3& a, const Vec3& b) {
  return {std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)};
}
constexpr Vec3 max(const Vec3& a, const Vec3& b) {
  return {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)};
}

// ---- Vec4 ----
constexpr Vec4 operator+(const Vec4& a, const Vec4& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w};
}
constexpr Vec4 operator-(const Vec4& a, const Vec4& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w};
}
constexpr Vec4 operator*(const Vec4& a, float s) {
  return {a.x * s, a.y * s, a.z * s, a.w * s};
}
constexpr float dot(const Vec4& a, const Vec4& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
constexpr Vec4 lerp(const Vec4& a, const Vec4& b, float t) {
  return a + (b - a) * t;
}

inline bool is_finite(float v) {
  return std::isfinite(v);
}
inline bool is_finite(Vec2 v) {
  return std::isfinite(v.x) && std::isfinite(v.y);
}
inline bool is_finite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
inline bool is_finite(const Vec4& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::isfinite(v.w);
}

// ---- Mat4: row-major storage, column vectors (p' = M * p), translation in column 3 ----
struct Mat4 {
  std::array<std::array<float, 4>, 4> m{};  // m[row][col]

  static constexpr Mat4 identity() {
    Mat4 r;
    for (int i = 0; i < 4; ++i) r.m[static_cast<std::size_t>(i)][static_cast<std::size_t>(i)] = 1.0f;
    return r;
  }
  static constexpr Mat4 translation(const Vec3& t) {
    Mat4 r = identity();
    r.m[0][3] = t.x;
    r.m[1][3] = t.y;
    r.m[2][3] = t.z;
    return r;
  }
  static constexpr Mat4 scaling(const Vec3& s) {
    Mat4 r;
    r.m[0][0] = s.x;
    r.m[1][1] = s.y;
    r.m[2][2] = s.z;
    r.m[3][3] = 1.0f;
    return r;
  }
  static Mat4 rotation_x(float radians);
  static Mat4 rotation_y(float radians);
  static Mat4 rotation_z(float radians);
  // The Iron3D placement matrix (spec §25.1, iron3d.dll RVA 0x36610): R = Rz(z)·Ry(y)·Rx(x)
  // from the three raw orientation floats (radians, disk order x, y, z).
  static Mat4 iron3d_rotation(const Vec3& euler_xyz);

  // Right-handed view looking from `eye` at `target`; camera space: +X right, +Y up, looking
  // down −Z (OpenGL style).
  static Mat4 look_at(const Vec3& eye, const Vec3& target, const Vec3& up);
  // OpenGL-style clip space: x, y, z in [−w, w] inside the frustum; near plane maps to z = −w.
  static Mat4 perspective(float vfov_radians, float aspect, float near_plane, float far_plane);
  static Mat4 orthographic(float left, float right, float bottom, float top, float near_plane, float far_plane);

  [[nodiscard]] constexpr float at(int row, int col) const {
    return m[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)];
  }
  [[nodiscard]] Mat4 transposed() const;
  // General inverse (cofactors); identity-sized zero matrix when singular (check with
  // `invertible`).
  [[nodiscard]] Mat4 inverse() const;
  [[nodiscard]] float determinant() const;

  [[nodiscard]] constexpr Vec4 operator*(const Vec4& v) const {
    return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z + m[0][3] * v.w,
            m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z + m[1][3] * v.w,
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z + m[2][3] * v.w,
            m[3][0] * v.x + m[3][1] * v.y + m[3][2] * v.z + m[3][3] * v.w};
  }
  // Affine point transform (w = 1, no divide).
  [[nodiscard]] constexpr Vec3 transform_point(const Vec3& p) const {
    return {m[0][0] * p.x + m[0][1] * p.y + m[0][2] * p.z + m[0][3],
            m[1][0] * p.x + m[1][1] * p.y + m[1][2] * p.z + m[1][3],
            m[2][0] * p.x + m[2][1] * p.y + m[2][2] * p.z + m[2][3]};
  }
  [[nodiscard]] constexpr Vec3 transform_direction(const Vec3& d) const {
    return {m[0][0] * d.x + m[0][1] * d.y + m[0][2] * d.z, m[1][0] * d.x + m[1][1] * d.y + m[1][2] * d.z,
            m[2][0] * d.x + m[2][1] * d.y + m[2][2] * d.z};
  }
  friend constexpr bool operator==(const Mat4&, const Mat4&) = default;
};

constexpr Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j] + a.m[i][3] * b.m[3][j];
    }
  }
  return r;
}

// ---- Aabb ----
struct Aabb {
  // Empty box: min = +inf, max = -inf, so the first expand() sets both.
  Vec3 min{std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
           std::numeric_limits<float>::infinity()};
  Vec3 max{-std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
           -std::numeric_limits<float>::infinity()};

  static constexpr Aabb from_min_max(const Vec3& lo, const Vec3& hi) { return Aabb{lo, hi}; }
  [[nodiscard]] constexpr bool empty() const { return min.x > max.x || min.y > max.y || min.z > max.z; }
  constexpr void expand(const Vec3& p) {
    min = core::min(min, p);
    max = core::max(max, p);
  }
  constexpr void merge(const Aabb& b) {
    if (b.empty()) return;
    min = core::min(min, b.min);
    max = core::max(max, b.max);
  }
  [[nodiscard]] constexpr Vec3 center() const { return (min + max) * 0.5f; }
  [[nodiscard]] constexpr Vec3 extent() const { return max - min; }
  [[nodiscard]] constexpr bool contains(const Vec3& p) const {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y && p.z >= min.z && p.z <= max.z;
  }
  [[nodiscard]] constexpr bool contains_xy(Vec2 p) const {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y;
  }
  [[nodiscard]] constexpr bool intersects(const Aabb& b) const {
    return min.x <= b.max.x && b.min.x <= max.x && min.y <= b.max.y && b.min.y <= max.y && min.z <= b.max.z &&
           b.min.z <= max.z;
  }
  // Box of the eight transformed corners (empty stays empty).
  [[nodiscard]] Aabb transformed(const Mat4& m) const;
  friend constexpr bool operator==(const Aabb&, const Aabb&) = default;
};

// ---- Transform: the TMA placement convention ----
// Position, the raw orientation words (radians, disk order x, y, z; never renormalised) and the
// per-axis scale, exactly as a data.tma PlacedObject stores them. to_matrix() is spec §25.1:
// p_world = R · (scale ⊙ p_local) + position with R = Rz(z)·Ry(y)·Rx(x).
struct Transform {
  Vec3 position;
  Vec3 orientation;
  Vec3 scale{1.0f, 1.0f, 1.0f};
  friend constexpr bool operator==(const Transform&, const Transform&) = default;

  [[nodiscard]] Mat4 to_matrix() const;
  [[nodiscard]] Vec3 apply(const Vec3& local) const;  // to_matrix().transform_point(local)
  // Heading (rotation about Z) and its unit forward vector (+X rotated by z).
  [[nodiscard]] float yaw() const { return orientation.z; }
};

// Exact equality of bit patterns (−0.0 != 0.0, NaN payloads compared): what a state hash sees.
bool same_bits(float a, float b);
bool same_bits(const Vec3& a, const Vec3& b);
bool same_bits(const Transform& a, const Transform& b);

// Angles.
float wrap_angle(float radians);  // into (−pi, pi]
constexpr float degrees_to_radians(float deg) {
  return deg * (kPi / 180.0f);
}
constexpr float radians_to_degrees(float rad) {
  return rad * (180.0f / kPi);
}
constexpr float clamp(float v, float lo, float hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

}  // namespace sortie::core
