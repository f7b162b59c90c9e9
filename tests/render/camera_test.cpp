#include "sortie/render/camera.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace sortie::render {
namespace {

using core::Vec3;

TEST(Camera, perspective_maps_near_and_far_to_depth_0_and_1) {
  const Camera c = Camera::perspective({0, 0, 0}, {0, 10, 0}, {0, 0, 1}, core::kPi / 2.0f, 2.0f, 1.0f, 100.0f);
  const Viewport vp{0, 0, 200, 100};
  const auto n = c.project({0, 1, 0}, vp);
  const auto f = c.project({0, 100, 0}, vp);
  ASSERT_TRUE(n && f);
  EXPECT_NEAR(n->x, 100.0f, 1e-4f);
  EXPECT_NEAR(n->y, 50.0f, 1e-4f);
  EXPECT_NEAR(n->depth, 0.0f, 1e-6f);
  EXPECT_NEAR(f->depth, 1.0f, 1e-6f);
  // 90 degree vertical FOV: a point at 45 degrees up sits on the top edge; aspect 2 doubles x.
  const auto top = c.project({0, 10, 10}, vp);
  const auto right = c.project({20, 10, 0}, vp);
  ASSERT_TRUE(top && right);
  EXPECT_NEAR(top->y, 0.0f, 1e-3f);
  EXPECT_NEAR(right->x, 200.0f, 1e-3f);
  EXPECT_FALSE(c.project({0, -5, 0}, vp));  // behind the eye
  EXPECT_NEAR(core::distance(c.eye(), {0, 0, 0}), 0.0f, 1e-5f);
}

TEST(Camera, unproject_inverts_project) {
  const Camera c = Camera::perspective({3, -7, 4}, {0, 1, 0.5f}, {0, 0, 1}, 0.8f, 1.5f, 0.3f, 80.0f);
  const Viewport vp{10, 20, 300, 200};
  const Vec3 p{1.25f, 2.5f, -0.75f};
  const auto s = c.project(p, vp);
  ASSERT_TRUE(s);
  const auto back = c.unproject(s->x, s->y, s->depth, vp);
  ASSERT_TRUE(back);
  EXPECT_NEAR(back->x, p.x, 1e-3f);
  EXPECT_NEAR(back->y, p.y, 1e-3f);
  EXPECT_NEAR(back->z, p.z, 1e-3f);
  EXPECT_FALSE(c.unproject(1, 1, 0.5f, Viewport{0, 0, 0, 0}));
}

TEST(Camera, orthographic_box_edges_meet_viewport_edges) {
  const Camera c = Camera::orthographic({0, 0, 10}, {0, 0, 0}, {0, 1, 0}, 8.0f, 4.0f, 1.0f, 21.0f);
  const Viewport vp{0, 0, 80, 40};
  const auto tl = c.project({-4, 2, 0}, vp);
  const auto br = c.project({4, -2, 0}, vp);
  ASSERT_TRUE(tl && br);
  EXPECT_NEAR(tl->x, 0.0f, 1e-4f);
  EXPECT_NEAR(tl->y, 0.0f, 1e-4f);
  EXPECT_NEAR(br->x, 80.0f, 1e-4f);
  EXPECT_NEAR(br->y, 40.0f, 1e-4f);
  EXPECT_NEAR(tl->depth, 0.45f, 1e-5f);  // distance 10 in [1, 21]
}

TEST(Camera, isometric_looks_down_at_focus) {
  IsometricView v;
  v.focus = {5, 5, 0};
  v.view_width = 10.0f;
  v.aspect = 1.0f;
  const Camera c = Camera::isometric(v);
  const Viewport vp{0, 0, 100, 100};
  const auto f = c.project(v.focus, vp);
  ASSERT_TRUE(f);
  EXPECT_NEAR(f->x, 50.0f, 1e-3f);
  EXPECT_NEAR(f->y, 50.0f, 1e-3f);
  // Up the Z axis goes up the screen; along the viewing direction keeps the screen position.
  const auto up = c.project({5, 5, 1}, vp);
  ASSERT_TRUE(up);
  EXPECT_LT(up->y, 49.0f);
  EXPECT_NEAR(up->x, 50.0f, 1e-3f);
  const float ce = std::cos(v.elevation);
  const Vec3 forward{ce * std::cos(v.yaw), ce * std::sin(v.yaw), -std::sin(v.elevation)};
  const auto along = c.project(v.focus + forward * 3.0f, vp);
  ASSERT_TRUE(along);
  EXPECT_NEAR(along->x, 50.0f, 1e-3f);
  EXPECT_NEAR(along->y, 50.0f, 1e-3f);
  EXPECT_GT(along->depth, f->depth);
  // Looking north-east: +X and +Y both recede up the screen, +X to the right.
  const auto px = c.project({6, 5, 0}, vp), py = c.project({5, 6, 0}, vp);
  ASSERT_TRUE(px && py);
  EXPECT_GT(px->x, 50.0f);
  EXPECT_LT(py->x, 50.0f);
  EXPECT_LT(px->y, 50.0f);
  EXPECT_LT(py->y, 50.0f);
}

TEST(Camera, pixels_maps_world_to_window) {
  const Camera c = Camera::pixels(64, 32, 10.0f);
  const auto p = c.project({12.5f, 7.25f, -4.0f}, {0, 0, 64, 32});
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->x, 12.5f, 1e-4f);
  EXPECT_NEAR(p->y, 7.25f, 1e-4f);
  EXPECT_NEAR(p->depth, 0.4f, 1e-6f);
}

TEST(Camera, legacy_d3d7_matches_spec_row_vector_pipeline) {
  // Identity camera block: forward +X, left +Y, up +Z, at the origin; FOV 90 degrees
  // (horizontal), 1024 x 768, near 0.5, far 700 (spec §25.2 values).
  std::array<float, 16> block{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  const Camera c = Camera::legacy_d3d7(block, 1024, 768, core::kPi / 2.0f, 0.5f, 700.0f);
  const Viewport vp{0, 0, 1024, 768};
  const auto ahead = c.project({10, 0, 0}, vp);
  const auto left45 = c.project({10, 10, 0}, vp);  // 45 degrees left: left edge
  const auto top = c.project({10, 0, 7.5f}, vp);   // tan = 0.75 = (h / w) tan 45: top edge
  const auto at_near = c.project({0.5f, 0, 0}, vp);
  const auto at_far = c.project({700, 0, 0}, vp);
  ASSERT_TRUE(ahead && left45 && top && at_near && at_far);
  EXPECT_NEAR(ahead->x, 512.0f, 1e-3f);
  EXPECT_NEAR(ahead->y, 384.0f, 1e-3f);
  EXPECT_NEAR(left45->x, 0.0f, 1e-2f);
  EXPECT_NEAR(top->y, 0.0f, 1e-2f);
  EXPECT_NEAR(at_near->depth, 0.0f, 1e-5f);
  EXPECT_NEAR(at_far->depth, 1.0f, 1e-5f);

  // A general block against the spec formulas evaluated in row-vector form.
  const float yaw = 0.7f, pitch = -0.3f;
  const Vec3 fwd{std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch)};
  const Vec3 left = core::normalize_or(core::cross({0, 0, 1}, fwd), {0, 1, 0});
  const Vec3 up = core::cross(fwd, left);
  const Vec3 pos{100, 50, 20};
  block = {fwd.x, left.x, up.x, pos.x, fwd.y, left.y, up.y, pos.y, fwd.z, left.z, up.z, pos.z, 0, 0, 0, 1};
  const double fov = 1.3, n = 0.5, z = 700.0, w = 1024.0, h = 768.0;
  const Camera g = Camera::legacy_d3d7(block, 1024.0f, 768.0f, 1.3f, 0.5f, 700.0f);
  std::array<double, 16> bd{};
  for (std::size_t k = 0; k < 16; ++k) bd[k] = static_cast<double>(block[k]);
  const double m00 = bd[0], m01 = bd[1], m02 = bd[2], m03 = bd[3], m10 = bd[4], m11 = bd[5], m12 = bd[6], m13 = bd[7],
               m20 = bd[8], m21 = bd[9], m22 = bd[10], m23 = bd[11];
  const double V[4][4] = {{-m01, m02, m00, 0},
                          {-m11, m12, m10, 0},
                          {-m21, m22, m20, 0},
                          {m23 * m21 + m13 * m11 + m03 * m01, -(m23 * m22 + m13 * m12 + m03 * m02),
                           -(m00 * m03 + m23 * m20 + m13 * m10), 1}};
  const double cf = std::cos(fov / 2.0), sf = std::sin(fov / 2.0);
  const double P[4][4] = {
      {cf, 0, 0, 0}, {0, (w / h) * cf, 0, 0}, {0, 0, sf * z / (z - n), sf}, {0, 0, -sf * n * z / (z - n), 0}};
  const Vec3 p = pos + fwd * 40.0f + left * 7.0f - up * 3.0f;
  double row[4] = {static_cast<double>(p.x), static_cast<double>(p.y), static_cast<double>(p.z), 1.0};
  double vrow[4] = {}, clip[4] = {};
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) vrow[j] += row[k] * V[k][j];
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) clip[j] += vrow[k] * P[k][j];
  const double sx = (clip[0] / clip[3] + 1.0) * 0.5 * w, sy = (1.0 - clip[1] / clip[3]) * 0.5 * h;
  const double depth = clip[2] / clip[3];  // D3D depth in [0, 1]
  const auto s = g.project(p, {0, 0, 1024, 768});
  ASSERT_TRUE(s);
  EXPECT_NEAR(s->x, sx, 1e-2);
  EXPECT_NEAR(s->y, sy, 1e-2);
  EXPECT_NEAR(s->depth, depth, 1e-5);
  EXPECT_LT(s->x, 512.0f);  // the point is to the left of the view axis
}

}  // namespace
}  // namespace sortie::render
