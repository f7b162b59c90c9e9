// Free flight, the viewer's camera (sortie/move/free_flight.hpp), driven with
// recorded snapshots: the centre moves by game time, not frame rate; the horizontal angle wraps,
// the vertical one is clamped.
#include "sortie/move/free_flight.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

using namespace sortie;
using namespace sortie::move;

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

FlightStart start() {
  FlightStart s;
  s.eye = {10, 20, 30};
  s.yaw = kPi / 2;  // north
  s.pitch = -0.5f;
  s.speed = 10.0f;
  return s;
}

move::InputSnapshot held(std::initializer_list<move::ScanCode> codes) {
  move::InputCollector c;
  for (auto k : codes) c.key(k, true);
  auto s = c.take();
  s.edges.clear();  // held on from an earlier batch
  return s;
}

// `frames` batches of `dt_us` with the same keys held.
FreeFlight fly(std::initializer_list<move::ScanCode> codes, int frames, std::uint64_t dt_us) {
  FreeFlight f(start());
  for (int i = 0; i < frames; ++i) f.update(held(codes), dt_us, 320, 240);
  return f;
}

void expect_near(const core::Vec3& a, const core::Vec3& b, float tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

}  // namespace

TEST(FreeFlight, starts_at_the_given_pose) {
  FreeFlight f(start());
  const auto& fr = f.update(move::InputSnapshot{}, 0, 320, 240);
  EXPECT_EQ(fr.view.position, (core::Vec3{10, 20, 30}));  // exact: the eye is the flight's own state
  expect_near(fr.view.forward(), {0, std::cos(0.5f), -std::sin(0.5f)}, 1e-4f);
  EXPECT_NEAR(f.yaw(), kPi / 2, 1e-6f);
  EXPECT_NEAR(f.pitch(), -0.5f, 1e-6f);
  EXPECT_EQ(fr.view.viewport_width, 320u);
  EXPECT_DOUBLE_EQ(fr.view.aspect, 320.0 / 240.0);
}

TEST(FreeFlight, w_moves_by_game_time_whatever_the_frame_rate) {
  // One second of game time: 100 x 10 ms, 50 x 20 ms, 25 x 40 ms. 10 units along the view.
  const auto a = fly({move::scan::kW}, 100, 10'000).eye();
  const auto b = fly({move::scan::kW}, 50, 20'000).eye();
  const auto c = fly({move::scan::kW}, 25, 40'000).eye();
  const core::Vec3 expected{10.0f, 20.0f + 10.0f * std::cos(0.5f), 30.0f - 10.0f * std::sin(0.5f)};
  expect_near(a, expected, 2e-3f);
  expect_near(b, a, 1e-3f);
  expect_near(c, a, 1e-3f);
  // D strafes right (east when looking north), E rises, Shift is four times faster.
  expect_near(fly({move::scan::kD}, 10, 50'000).eye(), {15.0f, 20.0f, 30.0f}, 2e-3f);
  expect_near(fly({scan::kE}, 10, 50'000).eye(), {10.0f, 20.0f, 35.0f}, 2e-3f);
  expect_near(fly({scan::kQ, scan::kShift}, 10, 50'000).eye(), {10.0f, 20.0f, 10.0f}, 2e-3f);
}

TEST(FreeFlight, mouse_right_turns_right_and_the_angle_wraps) {
  FreeFlight f(start());
  move::InputCollector c;
  c.mouse_motion(100.0f, 0.0f);  // 100 px * 0.005 rad = 0.5 rad to the right (clockwise)
  f.update(c.take(), 16'000, 320, 240);
  EXPECT_NEAR(f.yaw(), kPi / 2 - 0.5f, 1e-5f);
  c.mouse_motion(-800.0f, 0.0f);  // 4 rad to the left: pi/2 + 3.5 wraps past pi
  f.update(c.take(), 16'000, 320, 240);
  EXPECT_NEAR(f.yaw(), kPi / 2 + 3.5f - 2 * kPi, 1e-4f);
  // No motion in the next batch: no turn.
  const float yaw = f.yaw();
  f.update(c.take(), 16'000, 320, 240);
  EXPECT_EQ(f.yaw(), yaw);
}

TEST(FreeFlight, mouse_down_looks_down_and_the_pitch_is_clamped) {
  FreeFlight f(start());
  move::InputCollector c;
  c.mouse_motion(0.0f, 100.0f);  // 0.5 rad down
  f.update(c.take(), 16'000, 320, 240);
  EXPECT_NEAR(f.pitch(), -1.0f, 1e-5f);
  c.mouse_motion(0.0f, 1000.0f);
  f.update(c.take(), 16'000, 320, 240);
  EXPECT_NEAR(f.pitch(), -kPitchLimit, 1e-6f);
  c.mouse_motion(0.0f, -10000.0f);
  f.update(c.take(), 16'000, 320, 240);
  EXPECT_NEAR(f.pitch(), kPitchLimit, 1e-6f);
}

TEST(FreeFlight, right_arrow_turns_right_at_the_controller_rate_in_game_time) {
  // 1.5 rad/s after a 150 ms ramp; one second at two frame rates ends at the same angle.
  const float a = fly({move::scan::kRight}, 50, 20'000).yaw();
  const float b = fly({move::scan::kRight}, 25, 40'000).yaw();
  EXPECT_LT(a, kPi / 2 - 1.2f);  // at least 0.85 s at full rate
  EXPECT_GT(a, kPi / 2 - 1.5f);
  EXPECT_NEAR(a, b, 0.02f);  // the ramp is sampled per batch
}

TEST(FreeFlight, wheel_scales_the_speed) {
  FreeFlight f(start());
  move::InputCollector c;
  c.mouse_wheel(2.0f);
  f.update(c.take(), 16'000, 320, 240);
  EXPECT_FLOAT_EQ(f.speed(), 10.0f * 1.25f * 1.25f);
  expect_near(f.eye(), {10, 20, 30}, 1e-4f);  // no zoom: the eye stays
}
