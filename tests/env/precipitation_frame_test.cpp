// camera_for_view and precipitation_frame: the `sortie env frame` numbers without a process.
#include "sortie/env/precipitation_frame.hpp"

#include <gtest/gtest.h>

namespace sortie::env {
namespace {

TEST(PrecipitationFrame, the_aspect_defaults_to_the_viewport_and_is_bounded) {
  auto cam = camera_for_view(90, 1000, 500);
  ASSERT_TRUE(cam) << cam.error().to_string();
  EXPECT_DOUBLE_EQ(cam->aspect, 2.0);
  EXPECT_DOUBLE_EQ(cam->vertical_fov, 1.5707963267948966);
  EXPECT_EQ(cam->viewport_width, 1000u);
  EXPECT_EQ(cam->viewport_height, 500u);
  auto given = camera_for_view(60, 1000, 500, 1.0);
  ASSERT_TRUE(given);
  EXPECT_DOUBLE_EQ(given->aspect, 1.0);
  for (auto bad : {camera_for_view(60, 1000, 1), camera_for_view(60, 10, 10, 0.009), camera_for_view(60, 10, 0)}) {
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, "usage.aspect");
    EXPECT_EQ(bad.error().field, "--aspect");
  }
  EXPECT_TRUE(camera_for_view(60, 100, 1));  // exactly 100
}

TEST(PrecipitationFrame, numbers_json_and_text_agree) {
  // vfov 90, aspect 1: half 50 x 50; scalar 1000 / (pi/2); snow size * 0.0195; 0.1875 * 1000 -> 188.
  auto cam = camera_for_view(90, 1000, 500, 1.0);
  ASSERT_TRUE(cam);
  const auto f = precipitation_frame(*cam, PrecipitationKind::snow, 0.1875);
  EXPECT_NEAR(f.metrics.half_x, 50.0, 1e-12);
  EXPECT_NEAR(f.metrics.point_size, 12.414085561167837, 1e-12);
  EXPECT_EQ(f.metrics.count, 188u);
  const auto j = f.to_json();
  EXPECT_EQ(j.at("kind"), "snow");
  EXPECT_EQ(j.at("count"), 188);
  EXPECT_EQ(j.at("viewport").at("height"), 500);
  EXPECT_EQ(j.at("aspect"), 1.0);
  const auto text = f.to_text();
  EXPECT_EQ(text.rfind("kind: snow  intensity: 0.1875  density: 1\n", 0), 0u) << text;
  EXPECT_NE(text.find("\ncount: 188\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace sortie::env
