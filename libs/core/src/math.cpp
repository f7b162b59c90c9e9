#include "sortie/core/math.hpp"

#include <bit>
#include <cstdint>

namespace sortie::core {
namespace {

// A rotation by `radians` in the plane of axes i and j, turning axis i towards axis j.
Mat4 plane_rotation(float radians, std::size_t i, std::size_t j) {
  const float c = std::cos(radians);
  const float s = std::sin(radians);
  Mat4 r = Mat4::identity();
  r.m[i][i] = c;
  r.m[i][j] = -s;
  r.m[j][i] = s;
  r.m[j][j] = c;
  return r;
}

}  // namespace

Mat4 Mat4::rotation_x(float radians) {
  return plane_rotation(radians, 1, 2);
}

Mat4 Mat4::rotation_y(float radians) {
  return plane_rotation(radians, 2, 0);
}

Mat4 Mat4::rotation_z(float radians) {
  return plane_rotation(radians, 0, 1);
}

Mat4 Mat4::iron3d_rotation(const Vec3& e) {
  // Written out as the engine's closed form (spec §25.1) rather than three products, so the
  // rounding is the same as one evaluation of each entry.
  const float cx = std::cos(e.x), sx = std::sin(e.x);
  const float cy = std::cos(e.y), sy = std::sin(e.y);
  const float cz = std::cos(e.z), sz = std::sin(e.z);
  Mat4 r = identity();
  r.m[0][0] = cz * cy;
  r.m[0][1] = cz * sy * sx - sz * cx;
  r.m[0][2] = cz * sy * cx + sz * sx;
  r.m[1][0] = sz * cy;
  r.m[1][1] = sz * sy * sx + cz * cx;
  r.m[1][2] = sz * sy * cx - cz * sx;
  r.m[2][0] = -sy;
  r.m[2][1] = cy * sx;
  r.m[2][2] = cy * cx;
  return r;
}

Mat4 Mat4::look_at(const Vec3& eye, const Vec3& target, const Vec3& up) {
  const Vec3 f = normalize_or(target - eye, Vec3{0.0f, 1.0f, 0.0f});
  Vec3 s = cross(f, up);
  if (!(length_squared(s) > 1e-12f)) s = cross(f, std::abs(f.z) < 0.9f ? Vec3{0, 0, 1} : Vec3{0, 1, 0});
  s = normalize_or(s, Vec3{1.0f, 0.0f, 0.0f});
  const Vec3 u = cross(s, f);
  Mat4 r = identity();
  r.m[0][0] = s.x;
  r.m[0][1] = s.y;
  r.m[0][2] = s.z;
  r.m[0][3] = -dot(s, eye);
  r.m[1][0] = u.x;
  r.m[1][1] = u.y;
  r.m[1][2] = u.z;
  r.m[1][3] = -dot(u, eye);
  r.m[2][0] = -f.x;
  r.m[2][1] = -f.y;
  r.m[2][2] = -f.z;
  r.m[2][3] = dot(f, eye);
  return r;
}

Mat4 Mat4::perspective(float vfov_radians, float aspect, float near_plane, float far_plane) {
  const float f = 1.0f / std::tan(vfov_radians * 0.5f);
  Mat4 r;
  r.m[0][0] = f / aspect;
  r.m[1][1] = f;
  r.m[2][2] = (far_plane + near_plane) / (near_plane - far_plane);
  r.m[2][3] = (2.0f * far_plane * near_plane) / (near_plane - far_plane);
  r.m[3][2] = -1.0f;
  return r;
}

Mat4 Mat4::orthographic(float left, float right, float bottom, float top, float near_plane, float far_plane) {
  Mat4 r = identity();
  r.m[0][0] = 2.0f / (right - left);
  r.m[1][1] = 2.0f / (top - bottom);
  r.m[2][2] = -2.0f / (far_plane - near_plane);
  r.m[0][3] = -(right + left) / (right - left);
  r.m[1][3] = -(top + bottom) / (top - bottom);
  r.m[2][3] = -(far_plane + near_plane) / (far_plane - near_plane);
  return r;
}

Mat4 Mat4::transposed() const {
  Mat4 r;
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) r.m[j][i] = m[i][j];
  return r;
}

namespace {
// 2x2 sub-determinants used by both determinant() and inverse().
struct Minors {
  float s0, s1, s2, s3, s4, s5, c0, c1, c2, c3, c4, c5;
};
Minors minors(const Mat4& a) {
  const auto& m = a.m;
  return {m[0][0] * m[1][1] - m[1][0] * m[0][1], m[0][0] * m[1][2] - m[1][0] * m[0][2],
          m[0][0] * m[1][3] - m[1][0] * m[0][3], m[0][1] * m[1][2] - m[1][1] * m[0][2],
          m[0][1] * m[1][3] - m[1][1] * m[0][3], m[0][2] * m[1][3] - m[1][2] * m[0][3],
          m[2][0] * m[3][1] - m[3][0] * m[2][1], m[2][0] * m[3][2] - m[3][0] * m[2][2],
          m[2][0] * m[3][3] - m[3][0] * m[2][3], m[2][1] * m[3][2] - m[3][1] * m[2][2],
          m[2][1] * m[3][3] - m[3][1] * m[2][3], m[2][2] * m[3][3] - m[3][2] * m[2][3]};
}
}  // namespace

float Mat4::determinant() const {
  const Minors k = minors(*this);
  return k.s0 * k.c5 - k.s1 * k.c4 + k.s2 * k.c3 + k.s3 * k.c2 - k.s4 * k.c1 + k.s5 * k.c0;
}

Mat4 Mat4::inverse() const {
  const Minors k = minors(*this);
  const float det = k.s0 * k.c5 - k.s1 * k.c4 + k.s2 * k.c3 + k.s3 * k.c2 - k.s4 * k.c1 + k.s5 * k.c0;
  Mat4 r;
  if (det == 0.0f || !std::isfinite(det)) return r;
  const float inv = 1.0f / det;
  const auto& a = m;
  r.m[0][0] = (a[1][1] * k.c5 - a[1][2] * k.c4 + a[1][3] * k.c3) * inv;
  r.m[0][1] = (-a[0][1] * k.c5 + a[0][2] * k.c4 - a[0][3] * k.c3) * inv;
  r.m[0][2] = (a[3][1] * k.s5 - a[3][2] * k.s4 + a[3][3] * k.s3) * inv;
  r.m[0][3] = (-a[2][1] * k.s5 + a[2][2] * k.s4 - a[2][3] * k.s3) * inv;
  r.m[1][0] = (-a[1][0] * k.c5 + a[1][2] * k.c2 - a[1][3] * k.c1) * inv;
  r.m[1][1] = (a[0][0] * k.c5 - a[0][2] * k.c2 + a[0][3] * k.c1) * inv;
  r.m[1][2] = (-a[3][0] * k.s5 + a[3][2] * k.s2 - a[3][3] * k.s1) * inv;
  r.m[1][3] = (a[2][0] * k.s5 - a[2][2] * k.s2 + a[2][3] * k.s1) * inv;
  r.m[2][0] = (a[1][0] * k.c4 - a[1][1] * k.c2 + a[1][3] * k.c0) * inv;
  r.m[2][1] = (-a[0][0] * k.c4 + a[0][1] * k.c2 - a[0][3] * k.c0) * inv;
  r.m[2][2] = (a[3][0] * k.s4 - a[3][1] * k.s2 + a[3][3] * k.s0) * inv;
  r.m[2][3] = (-a[2][0] * k.s4 + a[2][1] * k.s2 - a[2][3] * k.s0) * inv;
  r.m[3][0] = (-a[1][0] * k.c3 + a[1][1] * k.c1 - a[1][2] * k.c0) * inv;
  r.m[3][1] = (a[0][0] * k.c3 - a[0][1] * k.c1 + a[0][2] * k.c0) * inv;
  r.m[3][2] = (-a[3][0] * k.s3 + a[3][1] * k.s1 - a[3][2] * k.s0) * inv;
  r.m[3][3] = (a[2][0] * k.s3 - a[2][1] * k.s1 + a[2][2] * k.s0) * inv;
  return r;
}

Aabb Aabb::transformed(const Mat4& mat) const {
  Aabb out;
  if (empty()) return out;
  for (int i = 0; i < 8; ++i) {
    const Vec3 corner{(i & 1) ? max.x : min.x, (i & 2) ? max.y : min.y, (i & 4) ? max.z : min.z};
    out.expand(mat.transform_point(corner));
  }
  return out;
}

Mat4 Transform::to_matrix() const {
  Mat4 r = Mat4::iron3d_rotation(orientation);
  for (std::size_t row = 0; row < 3; ++row) {
    r.m[row][0] *= scale.x;
    r.m[row][1] *= scale.y;
    r.m[row][2] *= scale.z;
  }
  r.m[0][3] = position.x;
  r.m[1][3] = position.y;
  r.m[2][3] = position.z;
  return r;
}

Vec3 Transform::apply(const Vec3& local) const {
  return to_matrix().transform_point(local);
}

bool same_bits(float a, float b) {
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}
bool same_bits(const Vec3& a, const Vec3& b) {
  return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}
bool same_bits(const Transform& a, const Transform& b) {
  return same_bits(a.position, b.position) && same_bits(a.orientation, b.orientation) && same_bits(a.scale, b.scale);
}

float wrap_angle(float radians) {
  if (!std::isfinite(radians)) return radians;
  const float two_pi = 2.0f * kPi;
  float r = std::fmod(radians, two_pi);
  if (r <= -kPi) r += two_pi;
  if (r > kPi) r -= two_pi;
  return r;
}

}  // namespace sortie::core
