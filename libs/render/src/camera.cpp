#include "sortie/render/camera.hpp"

#include <cmath>

namespace sortie::render {

Camera Camera::perspective(const core::Vec3& eye, const core::Vec3& target, const core::Vec3& up, float vfov,
                           float aspect, float near_plane, float far_plane) {
  return {core::Mat4::look_at(eye, target, up), core::Mat4::perspective(vfov, aspect, near_plane, far_plane)};
}

Camera Camera::orthographic(const core::Vec3& eye, const core::Vec3& target, const core::Vec3& up, float width,
                            float height, float near_plane, float far_plane) {
  return {core::Mat4::look_at(eye, target, up),
          core::Mat4::orthographic(-0.5f * width, 0.5f * width, -0.5f * height, 0.5f * height, near_plane, far_plane)};
}

Camera Camera::isometric(const IsometricView& v) {
  const float ce = std::cos(v.elevation);
  const core::Vec3 forward{ce * std::cos(v.yaw), ce * std::sin(v.yaw), -std::sin(v.elevation)};
  const core::Vec3 eye = v.focus - forward * v.distance;
  const float height = v.aspect > 0.0f ? v.view_width / v.aspect : v.view_width;
  return orthographic(eye, v.focus, {0.0f, 0.0f, 1.0f}, v.view_width, height, 0.0f, 2.0f * v.distance);
}

Camera Camera::pixels(int width, int height, float depth_range) {
  return {core::Mat4::identity(), core::Mat4::orthographic(0.0f, static_cast<float>(width), static_cast<float>(height),
                                                           0.0f, 0.0f, depth_range)};
}

core::Mat4 legacy_d3d7_projection(float viewport_width, float viewport_height, float fov, float near_plane,
                                  float far_plane) {
  // Row-vector D3D matrix P (spec §25.2); clip = p * P. As column vectors: clip = P^T * p.
  const float c = std::cos(fov * 0.5f);
  const float s = std::sin(fov * 0.5f);
  const float aspect = viewport_width / viewport_height;
  const float q = far_plane / (far_plane - near_plane);
  core::Mat4 r;
  r.m[0][0] = c;
  r.m[1][1] = aspect * c;
  // D3D row 2 of P^T is (0, 0, s q, -s n q) giving depth z_d in [0, w]; ours is 2 z_d - w in
  // [-w, w], w being row 3 = (0, 0, s, 0).
  r.m[2][2] = 2.0f * (s * q) - s;
  r.m[2][3] = 2.0f * (-s * near_plane * q);
  r.m[3][2] = s;
  return r;
}

core::Mat4 legacy_d3d7_view(const std::array<float, 16>& b) {
  // Spec §25.3 rows of the row-vector matrix V; our matrix is V^T (its rows are V's columns).
  const float m00 = b[0], m01 = b[1], m02 = b[2], m03 = b[3];
  const float m10 = b[4], m11 = b[5], m12 = b[6], m13 = b[7];
  const float m20 = b[8], m21 = b[9], m22 = b[10], m23 = b[11];
  core::Mat4 v = core::Mat4::identity();
  v.m[0][0] = -m01;
  v.m[0][1] = -m11;
  v.m[0][2] = -m21;
  v.m[0][3] = m23 * m21 + m13 * m11 + m03 * m01;
  v.m[1][0] = m02;
  v.m[1][1] = m12;
  v.m[1][2] = m22;
  v.m[1][3] = -(m23 * m22 + m13 * m12 + m03 * m02);
  v.m[2][0] = m00;
  v.m[2][1] = m10;
  v.m[2][2] = m20;
  v.m[2][3] = -(m00 * m03 + m23 * m20 + m13 * m10);
  return v;
}

Camera Camera::legacy_d3d7(const std::array<float, 16>& selector0, float viewport_width, float viewport_height,
                           float fov, float near_plane, float far_plane) {
  return {legacy_d3d7_view(selector0),
          legacy_d3d7_projection(viewport_width, viewport_height, fov, near_plane, far_plane)};
}

std::optional<ScreenPoint> Camera::project(const core::Vec3& world, const Viewport& viewport) const {
  const core::Vec4 clip = view_projection() * core::Vec4{world.x, world.y, world.z, 1.0f};
  if (!core::is_finite(clip) || !(clip.w > 0.0f)) return std::nullopt;
  const float inv_w = 1.0f / clip.w;
  ScreenPoint p;
  p.x = static_cast<float>(viewport.x) + (clip.x * inv_w + 1.0f) * 0.5f * static_cast<float>(viewport.width);
  p.y = static_cast<float>(viewport.y) + (1.0f - clip.y * inv_w) * 0.5f * static_cast<float>(viewport.height);
  p.depth = (clip.z * inv_w + 1.0f) * 0.5f;
  p.w = clip.w;
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.depth)) return std::nullopt;
  return p;
}

std::optional<core::Vec3> Camera::unproject(float x, float y, float depth, const Viewport& viewport) const {
  if (viewport.width <= 0 || viewport.height <= 0) return std::nullopt;
  const core::Mat4 vp = view_projection();
  const float det = vp.determinant();
  if (det == 0.0f || !std::isfinite(det)) return std::nullopt;
  const core::Mat4 inv = vp.inverse();
  const core::Vec4 ndc{(x - static_cast<float>(viewport.x)) / static_cast<float>(viewport.width) * 2.0f - 1.0f,
                       1.0f - (y - static_cast<float>(viewport.y)) / static_cast<float>(viewport.height) * 2.0f,
                       depth * 2.0f - 1.0f, 1.0f};
  const core::Vec4 p = inv * ndc;
  if (!core::is_finite(p) || p.w == 0.0f) return std::nullopt;
  return core::Vec3{p.x / p.w, p.y / p.w, p.z / p.w};
}

core::Vec3 Camera::eye() const {
  const core::Mat4 inv = view.inverse();
  return {inv.at(0, 3), inv.at(1, 3), inv.at(2, 3)};
}

}  // namespace sortie::render
