#include "sortie/core/math.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace sortie::core {
namespace {

TEST(Math, iron3d_rotation_matches_spec_sample) {
  // Spec §25.1: a TMA orientation (0, 0, 1.6262363) gives -sin z, cos z = -0.99846, -0.05541.
  const Mat4 r = Mat4::iron3d_rotation({0.0f, 0.0f, 1.6262363f});
  EXPECT_NEAR(r.at(0, 1), -0.99846f, 1e-5f);
  EXPECT_NEAR(r.at(1, 1), -0.05541f, 1e-5f);
  EXPECT_NEAR(r.at(0, 0), -0.05541f, 1e-5f);
  EXPECT_NEAR(r.at(1, 0), 0.99846f, 1e-5f);
  EXPECT_EQ(r.at(2, 2), 1.0f);
}

TEST(Math, axis_rotations_turn_each_axis_towards_the_next) {
  // A quarter turn: rotation_x takes +Y to +Z, rotation_y takes +Z to +X, rotation_z takes +X to +Y.
  const float q = kPi / 2.0f;
  const Vec3 x = Mat4::rotation_x(q).transform_direction({0.0f, 1.0f, 0.0f});
  const Vec3 y = Mat4::rotation_y(q).transform_direction({0.0f, 0.0f, 1.0f});
  const Vec3 z = Mat4::rotation_z(q).transform_direction({1.0f, 0.0f, 0.0f});
  for (const auto& [v, want] :
       {std::pair{x, Vec3{0, 0, 1}}, std::pair{y, Vec3{1, 0, 0}}, std::pair{z, Vec3{0, 1, 0}}}) {
    EXPECT_NEAR(v.x, want.x, 1e-6f);
    EXPECT_NEAR(v.y, want.y, 1e-6f);
    EXPECT_NEAR(v.z, want.z, 1e-6f);
  }
  // The axis itself stays put and the last row and column are the identity's.
  const Mat4 r = Mat4::rotation_y(0.4f);
  EXPECT_EQ(r.at(1, 1), 1.0f);
  EXPECT_EQ(r.at(0, 1), 0.0f);
  EXPECT_EQ(r.at(3, 3), 1.0f);
  EXPECT_EQ(r.at(0, 3), 0.0f);
}

TEST(Math, iron3d_rotation_is_rz_ry_rx) {
  const Vec3 e{0.3f, -0.7f, 1.1f};
  const Mat4 closed = Mat4::iron3d_rotation(e);
  const Mat4 product = Mat4::rotation_z(e.z) * Mat4::rotation_y(e.y) * Mat4::rotation_x(e.x);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(closed.at(i, j), product.at(i, j), 1e-6f) << i << "," << j;
}

TEST(Math, transform_scales_then_rotates_then_translates) {
  Transform t;
  t.position = {10.0f, 20.0f, 30.0f};
  t.orientation = {0.0f, 0.0f, kPi / 2.0f};  // +X -> +Y
  t.scale = {2.0f, 3.0f, 4.0f};
  const Vec3 p = t.apply({1.0f, 0.0f, 1.0f});
  // scale: (2, 0, 4); rotate 90 deg about Z: (0, 2, 4); translate: (10, 22, 34).
  EXPECT_NEAR(p.x, 10.0f, 1e-5f);
  EXPECT_NEAR(p.y, 22.0f, 1e-5f);
  EXPECT_NEAR(p.z, 34.0f, 1e-5f);
}

TEST(Math, inverse_times_matrix_is_identity) {
  Transform t;
  t.position = {1.5f, -2.0f, 7.0f};
  t.orientation = {0.2f, 0.4f, -1.3f};
  t.scale = {0.5f, 2.0f, 1.25f};
  const Mat4 m = t.to_matrix();
  const Mat4 id = m.inverse() * m;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(id.at(i, j), i == j ? 1.0f : 0.0f, 1e-5f);
  EXPECT_NEAR(m.determinant(), 0.5f * 2.0f * 1.25f, 1e-5f);
  EXPECT_EQ(Mat4::scaling({0, 1, 1}).inverse(), Mat4{});  // singular -> zero matrix
}

TEST(Math, perspective_maps_near_and_far_planes) {
  const Mat4 p = Mat4::perspective(kPi / 2.0f, 2.0f, 1.0f, 100.0f);
  const Vec4 near_pt = p * Vec4{0, 0, -1.0f, 1.0f};
  const Vec4 far_pt = p * Vec4{0, 0, -100.0f, 1.0f};
  EXPECT_NEAR(near_pt.z / near_pt.w, -1.0f, 1e-5f);
  EXPECT_NEAR(far_pt.z / far_pt.w, 1.0f, 1e-5f);
  // 90 degree vertical fov: a point at y = -z sits on the top edge; aspect 2 halves x.
  const Vec4 top = p * Vec4{0, 5.0f, -5.0f, 1.0f};
  EXPECT_NEAR(top.y / top.w, 1.0f, 1e-5f);
  const Vec4 right = p * Vec4{10.0f, 0, -5.0f, 1.0f};
  EXPECT_NEAR(right.x / right.w, 1.0f, 1e-5f);
}

TEST(Math, look_at_puts_target_on_minus_z) {
  const Mat4 v = Mat4::look_at({0, -10, 5}, {0, 0, 5}, {0, 0, 1});
  const Vec3 t = v.transform_point({0, 0, 5});
  EXPECT_NEAR(t.x, 0.0f, 1e-5f);
  EXPECT_NEAR(t.y, 0.0f, 1e-5f);
  EXPECT_NEAR(t.z, -10.0f, 1e-5f);
  const Vec3 up = v.transform_point({0, 0, 6});
  EXPECT_NEAR(up.y, 1.0f, 1e-5f);
  const Vec3 right = v.transform_point({1, 0, 5});
  EXPECT_NEAR(right.x, 1.0f, 1e-5f);
}

TEST(Math, aabb_expand_contains_transformed) {
  Aabb b;
  EXPECT_TRUE(b.empty());
  b.expand({1, 2, 3});
  b.expand({-1, 0, 5});
  EXPECT_FALSE(b.empty());
  EXPECT_EQ(b.min, (Vec3{-1, 0, 3}));
  EXPECT_EQ(b.max, (Vec3{1, 2, 5}));
  EXPECT_TRUE(b.contains({0, 1, 4}));
  EXPECT_FALSE(b.contains({0, 3, 4}));
  const Aabb moved = b.transformed(Mat4::translation({10, 0, 0}));
  EXPECT_EQ(moved.min, (Vec3{9, 0, 3}));
  EXPECT_TRUE(Aabb{}.transformed(Mat4::identity()).empty());
  EXPECT_TRUE(b.intersects(Aabb::from_min_max({0, 0, 0}, {0.5f, 0.5f, 3.0f})));
  EXPECT_FALSE(b.intersects(Aabb::from_min_max({2, 0, 0}, {3, 1, 1})));
}

TEST(Math, vector_helpers) {
  EXPECT_EQ(cross(Vec3{1, 0, 0}, Vec3{0, 1, 0}), (Vec3{0, 0, 1}));
  EXPECT_EQ(cross(Vec2{1, 0}, Vec2{0, 1}), 1.0f);
  EXPECT_EQ(perp(Vec2{1, 0}), (Vec2{0, 1}));
  EXPECT_EQ(normalize_or(Vec3{0, 0, 0}, Vec3{1, 0, 0}), (Vec3{1, 0, 0}));
  EXPECT_EQ(normalize_or(Vec2{3, 4}, Vec2{}), (Vec2{0.6f, 0.8f}));
  EXPECT_EQ(distance_xy(Vec3{0, 0, 100}, Vec3{3, 4, -7}), 5.0f);
  EXPECT_NEAR(wrap_angle(3.0f * kPi), kPi, 1e-5f);
  EXPECT_NEAR(wrap_angle(-kPi / 2 - 4 * kPi), -kPi / 2, 1e-5f);
  EXPECT_FALSE(same_bits(0.0f, -0.0f));
  EXPECT_TRUE(same_bits(Vec3{1, 2, 3}, Vec3{1, 2, 3}));
  EXPECT_FALSE(is_finite(Vec3{0, std::numeric_limits<float>::quiet_NaN(), 0}));
}

}  // namespace
}  // namespace sortie::core
