// Seed 001, "Проверки input и камеры": one test per item of the check list, named after it,
// driven headless by recorded snapshots.
//   edge event не повторяется как held state          -> edge_event_is_not_repeated_as_held_state
//   mouse/joystick axis сбрасывается по правилам snapshot -> mouse_and_joystick_axes_reset_by_snapshot_rules
//   hot-unplug joystick не оставляет старое отклонение -> joystick_hot_unplug_leaves_no_old_deflection
//   camera horizontal angle wraps, vertical angle clamps -> camera_horizontal_angle_wraps_vertical_angle_clamps
//   center command использует подтверждённое время, а не render FPS -> center_command_uses_game_time_not_render_fps
//   Terrain и sound получают одну и ту же camera frame -> renderer_and_sound_get_the_same_camera_frame
#include <gtest/gtest.h>

#include <cmath>

#include "sortie/core/det_math.hpp"
#include "sortie/env/audio.hpp"
#include "sortie/move/camera.hpp"
#include "sortie/move/input.hpp"

using namespace sortie;
using namespace sortie::move;

namespace {

constexpr std::uint64_t kTickUs = 16'000;

}  // namespace

TEST(InputCameraChecks, edge_event_is_not_repeated_as_held_state) {
  InputCollector in;
  in.key(scan::kHome, true);
  const InputSnapshot first = in.take();
  EXPECT_TRUE(first.pressed(scan::kHome));
  EXPECT_TRUE(first.is_held(scan::kHome));
  ASSERT_EQ(first.edges.size(), 1u);
  // Still down in the next batch: held, no edge; an OS auto-repeat is no new edge either.
  const InputSnapshot second = in.take();
  EXPECT_FALSE(second.pressed(scan::kHome));
  EXPECT_TRUE(second.is_held(scan::kHome));
  EXPECT_TRUE(second.edges.empty());
  in.key(scan::kHome, true);  // auto-repeat
  const InputSnapshot third = in.take();
  EXPECT_TRUE(third.edges.empty());
  // The centre command (an edge binding) fires once over the three batches; a state binding
  // (camera left) is on as long as its key is held.
  ManualCommands manual;
  EXPECT_TRUE(manual.update(first, kTickUs).triggered(ManualCommand::camera_center));
  EXPECT_FALSE(manual.update(second, kTickUs).triggered(ManualCommand::camera_center));
  EXPECT_FALSE(manual.update(third, kTickUs).triggered(ManualCommand::camera_center));
  // A tap inside one batch keeps both edges: the press is not lost, and nothing is held after.
  in.key(scan::kHome, false);
  in.take();
  in.key(scan::kLeft, true);
  in.key(scan::kLeft, false);
  const InputSnapshot tap = in.take();
  EXPECT_TRUE(tap.pressed(scan::kLeft));
  EXPECT_TRUE(tap.released(scan::kLeft));
  EXPECT_FALSE(tap.is_held(scan::kLeft));
  EXPECT_GT(manual.update(tap, kTickUs)[ManualCommand::camera_left], 0.0f);
  EXPECT_EQ(manual.update(in.take(), kTickUs)[ManualCommand::camera_left], 0.0f);
}

TEST(InputCameraChecks, mouse_and_joystick_axes_reset_by_snapshot_rules) {
  InputCollector in;
  in.joystick_connected(true);
  in.mouse_motion(3.0f, -2.0f);
  in.mouse_motion(4.0f, 1.0f);
  in.mouse_wheel(1.0f);
  in.joystick_axis(Axis::joy_x, 0.5f);
  const InputSnapshot a = in.take();
  EXPECT_EQ(a.axis(Axis::mouse_x), 7.0f);  // motion summed over the batch
  EXPECT_EQ(a.axis(Axis::mouse_y), -1.0f);
  EXPECT_EQ(a.axis(Axis::mouse_wheel), 1.0f);
  EXPECT_EQ(a.axis(Axis::joy_x), 0.5f);
  // No motion in the next batch: the mouse reads 0; the joystick keeps its position.
  const InputSnapshot b = in.take();
  EXPECT_EQ(b.axis(Axis::mouse_x), 0.0f);
  EXPECT_EQ(b.axis(Axis::mouse_y), 0.0f);
  EXPECT_EQ(b.axis(Axis::mouse_wheel), 0.0f);
  EXPECT_EQ(b.axis(Axis::joy_x), 0.5f);
  in.joystick_axis(Axis::joy_x, 7.0f);  // clamped
  EXPECT_EQ(in.take().axis(Axis::joy_x), 1.0f);
  // Manual commands: the mouse angle is coefficient * motion once; the joystick's dead zone
  // (0.15) reads 0 inside and rescales beyond: (0.5 - 0.15) / 0.85 * 0.05.
  ManualCommands manual;
  EXPECT_FLOAT_EQ(manual.update(a, kTickUs)[ManualCommand::camera_angle_x], 7.0f * 0.005f + 0.35f / 0.85f * 0.05f);
  EXPECT_FLOAT_EQ(manual.update(b, kTickUs)[ManualCommand::camera_angle_x], 0.35f / 0.85f * 0.05f);
  InputCollector small;
  small.joystick_connected(true);
  small.joystick_axis(Axis::joy_y, -0.1f);
  EXPECT_EQ(manual.update(small.take(), kTickUs)[ManualCommand::camera_angle_y], 0.0f);
  // A recorded snapshot reads back the same.
  const auto again = snapshot_from_json(snapshot_to_json(a));
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(*again, a);
  auto bad = snapshot_to_json(a);
  bad["edges"] = core::Json::array({core::Json::array({9999, 1})});
  EXPECT_EQ(snapshot_from_json(bad).error().code, "input.snapshot");
}

TEST(InputCameraChecks, joystick_hot_unplug_leaves_no_old_deflection) {
  InputCollector in;
  in.joystick_connected(true);
  in.joystick_axis(Axis::joy_x, 0.9f);
  in.joystick_axis(Axis::joy_y, -0.8f);
  in.joystick_button(3, true);
  const InputSnapshot before = in.take();
  EXPECT_TRUE(before.is_held(kJoyButton0 + 3));
  ManualCommands manual;
  EXPECT_GT(manual.update(before, kTickUs)[ManualCommand::camera_angle_x], 0.0f);
  // Unplugged: axes back to 0, the held button released with an up edge; later axis events of
  // the lost device are ignored.
  in.joystick_connected(false);
  in.joystick_axis(Axis::joy_x, 0.7f);
  const InputSnapshot lost = in.take();
  EXPECT_FALSE(lost.joystick_present);
  EXPECT_EQ(lost.axis(Axis::joy_x), 0.0f);
  EXPECT_EQ(lost.axis(Axis::joy_y), 0.0f);
  EXPECT_FALSE(lost.is_held(kJoyButton0 + 3));
  EXPECT_TRUE(lost.released(kJoyButton0 + 3));
  EXPECT_EQ(manual.update(lost, kTickUs)[ManualCommand::camera_angle_x], 0.0f);
  EXPECT_EQ(manual.update(lost, kTickUs)[ManualCommand::camera_angle_y], 0.0f);
  // Re-acquired: a clean state until the device reports again.
  in.joystick_connected(true);
  const InputSnapshot back = in.take();
  EXPECT_TRUE(back.joystick_present);
  EXPECT_EQ(back.axis(Axis::joy_x), 0.0f);
  EXPECT_TRUE(back.edges.empty());
}

TEST(InputCameraChecks, camera_horizontal_angle_wraps_vertical_angle_clamps) {
  CameraSettings cs;
  CameraController cam(cs);
  InputCollector in;
  ManualCommands manual;
  // Hold "right" for 5 s of game time: 7.5 rad of yaw (after the 150 ms ramp a bit less),
  // always inside (-pi, pi].
  in.key(scan::kRight, true);
  in.key(scan::kUp, true);
  float unwrapped = cs.default_yaw;
  for (int i = 0; i < 5 * 60; ++i) {
    const ManualState m = manual.update(in.take(), kTickUs);
    const float before = cam.state().yaw;
    cam.update(m, kTickUs);
    const float after = cam.state().yaw;
    EXPECT_GT(after, -3.14159266f);
    EXPECT_LE(after, 3.14159266f);
    unwrapped += sortie::core::det_wrap(after - before);
  }
  EXPECT_GT(unwrapped, 7.0f);  // it went round more than once
  EXPECT_NEAR(cam.state().yaw, sortie::core::det_wrap(unwrapped), 1e-4f);
  // Vertical: clamped at the limit, exactly.
  EXPECT_EQ(cam.state().pitch, cs.pitch_max);
  in.key(scan::kUp, false);
  in.key(scan::kDown, true);
  for (int i = 0; i < 5 * 60; ++i) cam.update(manual.update(in.take(), kTickUs), kTickUs);
  EXPECT_EQ(cam.state().pitch, cs.pitch_min);
  // A mouse angle past the limit clamps too (MCMD_ANGLE_Y is MAN_NOTWRAP), the X angle wraps
  // (MAN_WRAP).
  in.key(scan::kDown, false);
  in.key(scan::kRight, false);
  in.mouse_motion(1000.0f, -1000.0f);  // 5 rad each way
  const float yaw0 = cam.state().yaw;
  cam.update(manual.update(in.take(), kTickUs), kTickUs);
  EXPECT_EQ(cam.state().pitch, cs.pitch_min);
  EXPECT_NEAR(cam.state().yaw, sortie::core::det_wrap(yaw0 + 5.0f), 1e-5f);
}

namespace {

// Drives the controller for `total_us` of game time split into frames of `frame_us` (the last
// frame takes the rest): the first frame turns the camera 2 rad with the mouse and presses Home.
CameraState centre_run(std::uint64_t total_us, std::uint64_t frame_us) {
  CameraController cam;
  ManualCommands manual;
  InputCollector in;
  in.mouse_motion(400.0f, 0.0f);  // 400 * 0.005 = 2 rad, applied once
  in.key(scan::kHome, true);
  for (std::uint64_t t = 0; t < total_us;) {
    const std::uint64_t dt = std::min(frame_us, total_us - t);
    cam.update(manual.update(in.take(), dt), dt);
    t += dt;
  }
  return cam.state();
}

}  // namespace

TEST(InputCameraChecks, center_command_uses_game_time_not_render_fps) {
  // The same 0.8 s of game time at 30 and at 144 frames per second (and at one frame per
  // calculation step) leaves the camera in the same state, bit for bit.
  const CameraState fps30 = centre_run(800'000, 33'333);
  const CameraState fps144 = centre_run(800'000, 6'944);
  const CameraState ticks = centre_run(800'000, kTickUs);
  EXPECT_EQ(fps30, fps144);
  EXPECT_EQ(fps30, ticks);
  // The centring is under way: yaw has moved back from 2 rad toward 0 (50 steps of
  // k = 0.016 / 0.266: 2 * (1 - k)^50 ~ 0.09) but is not there yet.
  EXPECT_TRUE(fps30.centering);
  EXPECT_GT(fps30.yaw, 0.05f);
  EXPECT_LT(fps30.yaw, 0.15f);
  EXPECT_EQ(fps30.time_us, 800'000u);
  const CameraState done = centre_run(3'000'000, 33'333);
  EXPECT_FALSE(done.centering);
  EXPECT_EQ(done.yaw, 0.0f);
  EXPECT_EQ(done.pitch, CameraSettings{}.default_pitch);
  // Frames that carry no whole step of game time change nothing (render without simulation).
  CameraController cam;
  const CameraState start = cam.state();
  ManualState idle;
  cam.update(idle, 0);
  EXPECT_EQ(cam.state(), start);
}

TEST(InputCameraChecks, renderer_and_sound_get_the_same_camera_frame) {
  ViewerControls controls;
  InputCollector in;
  in.key(scan::kLeft, true);
  controls.camera().set_center({100.0f, 50.0f, 10.0f});
  BasicRenderCamera renderer;
  env::Listener listener;
  std::vector<std::string> order;
  CameraFramePublisher publisher;
  publisher.add_sink("renderer", [&](const CameraFrame& f) {
    order.push_back("renderer");
    renderer.set_current(f);
  });
  publisher.add_sink("listener", [&](const CameraFrame& f) {
    order.push_back("listener");
    listener = env::listener_from_camera(f.view, static_cast<std::int64_t>(f.game_time_us / 1000));
  });
  core::Vec3 first_forward{};
  for (int frame = 0; frame < 10; ++frame) {
    const CameraFrame f = controls.update(in.take(), kTickUs);
    publisher.publish(f);  // before the world is drawn
    order.push_back("world");
    EXPECT_EQ(renderer.current(), f);
    // The listener stands at this frame's eye, looks along its forward and up axes, at its game time.
    EXPECT_EQ(listener.position, f.view.position) << "frame " << frame;
    EXPECT_EQ(listener.forward, f.view.forward()) << "frame " << frame;
    EXPECT_EQ(listener.up, f.view.up()) << "frame " << frame;
    EXPECT_EQ(listener.time_ms, (frame + 1) * static_cast<std::int64_t>(kTickUs / 1000)) << "frame " << frame;
    if (frame == 0) first_forward = listener.forward;
  }
  // Left was held: the camera (and so the listener) turned between the first and last frame.
  EXPECT_NE(listener.forward, first_forward);
  EXPECT_EQ(publisher.sink_names(), (std::vector<std::string>{"renderer", "listener"}));
  ASSERT_EQ(order.size(), 30u);
  EXPECT_EQ(order[0], "renderer");
  EXPECT_EQ(order[1], "listener");
  EXPECT_EQ(order[2], "world");
  // The frame is a camera looking at the centre: forward points from the eye to the centre and
  // the view matrix maps the centre onto the -Z axis at the camera distance.
  const CameraFrame& f = renderer.current();
  const core::Vec3 to_center = core::normalize_or(core::Vec3{100.0f, 50.0f, 10.0f} - f.view.position, {});
  EXPECT_NEAR(core::dot(to_center, f.view.forward()), 1.0f, 1e-5f);
  const core::Vec3 c = f.view_matrix.transform_point({100.0f, 50.0f, 10.0f});
  EXPECT_NEAR(c.x, 0.0f, 1e-3f);
  EXPECT_NEAR(c.y, 0.0f, 1e-3f);
  EXPECT_NEAR(c.z, -CameraSettings{}.distance, 1e-3f);
  EXPECT_EQ(f.view.viewport_width, 1024u);
  EXPECT_NE(f.yaw, 0.0f);  // "left" turned it
}
