// The precipitation formulas of seed 001, with expected numbers worked out in the comments.
#include "sortie/env/precipitation.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace sortie;
using namespace sortie::env;

namespace {
constexpr double kPi = 3.14159265358979323846;
}

TEST(Precipitation, round_even_rounds_halves_to_even) {
  EXPECT_EQ(round_even(0.5), 0.0);
  EXPECT_EQ(round_even(1.5), 2.0);
  EXPECT_EQ(round_even(2.5), 2.0);
  EXPECT_EQ(round_even(3.5), 4.0);
  EXPECT_EQ(round_even(2.4999), 2.0);
  EXPECT_EQ(round_even(2.5001), 3.0);
  EXPECT_EQ(round_even(-0.5), 0.0);
  EXPECT_EQ(round_even(-1.5), -2.0);
}

TEST(Precipitation, square_90_degree_camera) {
  // vfov = pi/2: tan(pi/4) = 1 -> half_y = 1 * 50 = 50; aspect 1 -> half_x = 50.
  // horizontal fov = 2 * atan(1 * 1) = pi/2; scalar = 1000 / (pi/2) = 636.6197723675814
  // rain point = 636.6197723675814 * 0.0065 = 4.138028520389279
  // reference half extents: tan(0.65) * 50 = 38.01021995668382, tan(0.4875) * 50 = 26.509057954570093
  // ratio = (50 * 50) / (38.0102 * 26.5091) = 2500 / 1007.6 = 2.4811 -> clamped to 1
  // N = round_even(1 * 1 * 1 * 1000) = 1000
  const auto m = precipitation_metrics(kPi / 2, 1.0, 1000, PrecipitationKind::rain, 1.0);
  EXPECT_NEAR(m.half_y, 50.0, 1e-12);
  EXPECT_NEAR(m.half_x, 50.0, 1e-12);
  EXPECT_NEAR(m.reference_half_x, 38.01021995668382, 1e-12);
  EXPECT_NEAR(m.reference_half_y, 26.509057954570093, 1e-12);
  EXPECT_NEAR(m.volume_ratio, 2.481106070367069, 1e-12);
  EXPECT_NEAR(m.horizontal_fov, kPi / 2, 1e-15);
  EXPECT_NEAR(m.size_scalar, 636.6197723675814, 1e-9);
  EXPECT_NEAR(m.point_size, 4.138028520389279, 1e-12);
  EXPECT_EQ(m.depth_near, 2.0);
  EXPECT_EQ(m.depth_far, 50.0);
  EXPECT_EQ(m.count, 1000u);
  // snow: 636.6197723675814 * 0.0195 = 12.414085561167837
  EXPECT_NEAR(precipitation_metrics(kPi / 2, 1.0, 1000, PrecipitationKind::snow, 1.0).point_size, 12.414085561167837,
              1e-12);
}

TEST(Precipitation, count_rounds_half_to_even) {
  // ratio clamps to 1: 0.0625 * 1000 = 62.5 -> 62 (even); 0.1875 * 1000 = 187.5 -> 188 (even)
  EXPECT_EQ(precipitation_metrics(kPi / 2, 1.0, 1000, PrecipitationKind::rain, 0.0625).count, 62u);
  EXPECT_EQ(precipitation_metrics(kPi / 2, 1.0, 1000, PrecipitationKind::rain, 0.1875).count, 188u);
  // density scales too: 0.5 * 0.125 * 1000 = 62.5 -> 62
  EXPECT_EQ(precipitation_metrics(kPi / 2, 1.0, 1000, PrecipitationKind::snow, 0.125, 0.5).count, 62u);
  EXPECT_EQ(precipitation_metrics(kPi / 2, 1.0, 1000, PrecipitationKind::snow, 0.0).count, 0u);
  EXPECT_EQ(precipitation_metrics(kPi / 2, 1.0, 1000, PrecipitationKind::none, 1.0).count, 0u);
  EXPECT_EQ(precipitation_metrics(kPi / 2, 1.0, 1000, PrecipitationKind::none, 1.0).point_size, 0.0);
}

TEST(Precipitation, narrow_camera_scales_the_count_by_the_volume_ratio) {
  // vfov 40 deg: tan(20 deg) = 0.36397023426620234 -> half_y = 18.19851171331012
  // aspect 4/3 -> half_x = 24.26468228441349
  // ratio = (24.2647 * 18.1985) / (38.0102 * 26.5091) = 441.58 / 1007.62 = 0.438243823844325
  // I = 1: N = round_even(438.24) = 438; I = 0.5: round_even(219.12) = 219
  // horizontal fov = 2 * atan(0.36397 * 4/3) = 0.9036269198051669; scalar = 800 / 0.90363 = 885.321123647456
  // snow point = 885.321123647456 * 0.0195 = 17.263761911125393
  const double vfov = 40.0 * kPi / 180.0;
  const auto m = precipitation_metrics(vfov, 4.0 / 3.0, 800, PrecipitationKind::snow, 1.0);
  EXPECT_NEAR(m.half_y, 18.19851171331012, 1e-12);
  EXPECT_NEAR(m.half_x, 24.26468228441349, 1e-12);
  EXPECT_NEAR(m.volume_ratio, 0.438243823844325, 1e-12);
  EXPECT_NEAR(m.horizontal_fov, 0.9036269198051669, 1e-12);
  EXPECT_NEAR(m.size_scalar, 885.321123647456, 1e-9);
  EXPECT_NEAR(m.point_size, 17.263761911125393, 1e-12);
  EXPECT_EQ(m.count, 438u);
  EXPECT_EQ(precipitation_metrics(vfov, 4.0 / 3.0, 800, PrecipitationKind::snow, 0.5).count, 219u);
}

TEST(Precipitation, wrap_into_moves_to_the_opposite_face) {
  EXPECT_EQ(wrap_into(51.0f, 2.0f, 48.0f), 3.0f);      // 51 - 48
  EXPECT_EQ(wrap_into(1.0f, 2.0f, 48.0f), 49.0f);      // 1 + 48
  EXPECT_EQ(wrap_into(-26.0f, -25.0f, 50.0f), 24.0f);  // -26 + 50
  EXPECT_EQ(wrap_into(10.0f, 2.0f, 48.0f), 10.0f);
  EXPECT_EQ(wrap_into(50.0f, 2.0f, 48.0f), 2.0f);   // the far face is the near face
  EXPECT_EQ(wrap_into(150.0f, 2.0f, 48.0f), 6.0f);  // 150 - 2 = 148 = 3 * 48 + 4
}

TEST(Precipitation, particles_move_in_world_space_whatever_the_camera_does) {
  const auto cam = CameraFrame::look({100, 200, 30}, {0, 1, 0});  // looking north
  const auto m = precipitation_metrics(cam, PrecipitationKind::snow, 0.5);
  PrecipitationField field(7);
  field.update(0, cam, PrecipitationKind::snow, m);
  ASSERT_EQ(field.particles().size(), m.count);
  const auto before = field.particles();
  field.update(100, cam, PrecipitationKind::snow, m);  // 0.1 s: snow moves [0.05, 0, -0.4]
  std::size_t moved = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    const auto& p = field.particles()[i];
    const auto local = cam.to_local(p.position);
    EXPECT_GE(local.z, 2.0f - 1e-3f);
    EXPECT_LE(local.z, 50.0f + 1e-3f);
    EXPECT_LE(std::abs(local.x), static_cast<float>(m.half_x) + 1e-3f);
    EXPECT_LE(std::abs(local.y), static_cast<float>(m.half_y) + 1e-3f);
    if (p.position == before[i].position + core::Vec3{0.5f, 0.0f, -4.0f} * 0.1f) {
      ++moved;
      EXPECT_EQ(p.previous, before[i].position);  // tail = previous world position
    }
  }
  EXPECT_EQ(moved + field.wraps(), before.size());
  EXPECT_GT(moved, before.size() * 9 / 10);
}

TEST(Precipitation, a_wrapped_drop_carries_its_tail_along) {
  const auto cam = CameraFrame::look({0, 0, 0}, {1, 0, 0});
  const auto m = precipitation_metrics(cam, PrecipitationKind::rain, 1.0);
  PrecipitationField field(3);
  field.update(0, cam, PrecipitationKind::rain, m);
  // 1 s of rain: 60 units down, more than the 2 * half_y box height: every drop wraps.
  field.update(1000, cam, PrecipitationKind::rain, m);
  EXPECT_EQ(field.wraps(), field.particles().size());
  for (const auto& p : field.particles()) {
    const core::Vec3 tail = p.position - p.previous;
    EXPECT_NEAR(tail.x, 0.5f, 1e-3f);
    EXPECT_NEAR(tail.z, -60.0f, 1e-3f);
  }
}

TEST(Precipitation, kind_change_empties_the_field) {
  const auto cam = CameraFrame::look({0, 0, 0}, {1, 0, 0});
  PrecipitationField field(1);
  field.update(0, cam, PrecipitationKind::rain, precipitation_metrics(cam, PrecipitationKind::rain, 0.25));
  EXPECT_EQ(field.particles().size(), 250u);
  field.update(0, cam, PrecipitationKind::none, precipitation_metrics(cam, PrecipitationKind::none, 0.25));
  EXPECT_TRUE(field.particles().empty());
}
