#pragma once
// Camera poses for world scenes (Iron3D axes: X east, Y north, Z up): a free-flight pose (eye,
// yaw, pitch) that `sortie render --camera` and the viewer share, and the framings of a scene's
// bounds (default three-quarter view, top view, turntable).
#include <cstdint>
#include <optional>
#include <span>

#include "sortie/core/math.hpp"
#include "sortie/render/camera.hpp"

namespace sortie::render {

// Eye position and direction: yaw is the compass direction looked toward (0 = +X east, pi/2 =
// +Y north), pitch the angle above the horizon (negative looks down), both radians.
struct CameraPose {
  core::Vec3 eye;
  float yaw = 0.0f;
  float pitch = 0.0f;
  friend constexpr bool operator==(const CameraPose&, const CameraPose&) = default;
};

// Unit view direction of a pose.
core::Vec3 pose_forward(const CameraPose& pose);

struct SceneCameraOptions {
  float vfov = 0.9f;  // vertical field of view, radians (about 52 degrees)
  // Near and far planes; 0 = from the scene bounds (far covers the whole scene from anywhere
  // within its diagonal, near = far / 20000).
  float near_plane = 0.0f;
  float far_plane = 0.0f;
};

// Perspective camera of a pose (world Z up; a pitch of +-pi/2 is kept just short of vertical).
Camera pose_camera(const CameraPose& pose, float aspect, const core::Aabb& scene_bounds,
                   const SceneCameraOptions& options = {});

// The default view of a scene, a player's: from the south-south-west, 20 degrees down, close
// enough that the land fills the picture (its middle meets the ground 0.3 of the span past the
// centre, from 0.42 spans above the mid height or higher over a tall map); the far side
// and the horizon show at the top. Unlike the orbit it does not fit every corner of `bounds`.
CameraPose default_pose(const core::Aabb& bounds, float aspect, const SceneCameraOptions& options = {});
// Frame `index` of `count` of a turntable around the bounds' centre, 22 degrees down, far enough
// that the whole of `bounds` fits the picture of `aspect`, rotated by 2 pi index / count about
// the vertical axis through the centre.
CameraPose orbit_pose(const core::Aabb& bounds, float aspect, std::uint32_t index, std::uint32_t count,
                      const SceneCameraOptions& options = {});
// A commander's view of a group (a player's units): over the middle of `points`, facing `toward`
// (the map's centre) about 45 degrees down, 60 units plus one and a half times the group's
// spread (at most 60) away, so the whole group and the ground around it show. Nothing without
// points.
std::optional<CameraPose> group_pose(std::span<const core::Vec3> points, const core::Vec3& toward);
// Straight down onto the bounds, north (+Y) up, orthographic, the whole XY extent in view.
Camera top_camera(const core::Aabb& bounds, float aspect);

}  // namespace sortie::render
