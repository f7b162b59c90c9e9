#include "sortie/render/scene_camera.hpp"

#include <algorithm>
#include <cmath>

namespace sortie::render {
namespace {

constexpr float kDefaultYaw = 1.1780972f;     // 67.5 degrees: looking north-north-east
constexpr float kDefaultPitch = -0.3839724f;  // 22 degrees down: the far side meets the sky
constexpr float kViewPitch = -0.3490659f;     // 20 degrees down: the default view, the horizon in sight
constexpr float kMaxPitch = 1.5533430f;       // 89 degrees

float scene_radius(const core::Aabb& b) {
  if (b.empty()) return 1.0f;
  const float r = 0.5f * core::length(b.extent());
  return std::isfinite(r) && r > 1e-3f ? r : 1.0f;
}

}  // namespace

core::Vec3 pose_forward(const CameraPose& pose) {
  const float pitch = std::clamp(pose.pitch, -kMaxPitch, kMaxPitch);
  const float cp = std::cos(pitch);
  return {cp * std::cos(pose.yaw), cp * std::sin(pose.yaw), std::sin(pitch)};
}

Camera pose_camera(const CameraPose& pose, float aspect, const core::Aabb& scene_bounds,
                   const SceneCameraOptions& options) {
  const float radius = scene_radius(scene_bounds);
  const float far_plane = options.far_plane > 0.0f ? options.far_plane : 8.0f * radius;
  const float near_plane = options.near_plane > 0.0f ? options.near_plane : far_plane / 20000.0f;
  return Camera::perspective(pose.eye, pose.eye + pose_forward(pose), {0.0f, 0.0f, 1.0f}, options.vfov,
                             aspect > 0.0f ? aspect : 1.0f, near_plane, far_plane);
}

CameraPose orbit_pose(const core::Aabb& bounds, float aspect, std::uint32_t index, std::uint32_t count,
                      const SceneCameraOptions& options) {
  const core::Vec3 center = bounds.empty() ? core::Vec3{} : bounds.center();
  const float radius = scene_radius(bounds);
  const float a = aspect > 0.0f ? aspect : 1.0f;
  const float turn = count == 0 ? 0.0f : 2.0f * core::kPi * static_cast<float>(index) / static_cast<float>(count);
  CameraPose p;
  p.yaw = core::wrap_angle(kDefaultYaw + turn);
  p.pitch = kDefaultPitch;
  const core::Vec3 forward = pose_forward(p);
  // The nearest distance at which the eight corners of the bounds project inside 95 % of the
  // picture (bisection; the sphere around the bounds always fits at `hi`).
  const float half_v = 0.5f * options.vfov;
  const float half_h = std::atan(std::tan(half_v) * a);
  float hi = radius / std::sin(std::min(half_v, half_h)) + radius;
  float lo = 0.0f;
  auto fits = [&](float dist) {
    CameraPose q = p;
    q.eye = center - forward * dist;
    const Camera cam = pose_camera(q, a, bounds, options);
    const core::Mat4 vp = cam.view_projection();
    for (int k = 0; k < 8 && !bounds.empty(); ++k) {
      const core::Vec3 c{(k & 1) ? bounds.max.x : bounds.min.x, (k & 2) ? bounds.max.y : bounds.min.y,
                         (k & 4) ? bounds.max.z : bounds.min.z};
      const core::Vec4 h = vp * core::Vec4{c.x, c.y, c.z, 1.0f};
      if (!(h.w > 0.0f) || std::fabs(h.x) > 0.95f * h.w || std::fabs(h.y) > 0.95f * h.w) return false;
    }
    return true;
  };
  for (int i = 0; i < 40; ++i) {
    const float mid = 0.5f * (lo + hi);
    (fits(mid) ? hi : lo) = mid;
  }
  p.eye = center - forward * hi;
  return p;
}

std::optional<CameraPose> group_pose(std::span<const core::Vec3> points, const core::Vec3& toward) {
  if (points.empty()) return std::nullopt;
  core::Vec3 c{};
  for (const auto& p : points) c = c + p * (1.0f / static_cast<float>(points.size()));
  float spread = 0.0f;
  for (const auto& p : points) spread = std::max(spread, core::length(core::Vec2{p.x - c.x, p.y - c.y}));
  CameraPose pose;
  pose.yaw = std::atan2(toward.y - c.y, toward.x - c.x);
  pose.pitch = -0.8f;
  pose.eye = c - pose_forward(pose) * (60.0f + 1.5f * std::min(spread, 60.0f));
  return pose;
}

CameraPose default_pose(const core::Aabb& bounds, float aspect, const SceneCameraOptions& options) {
  if (bounds.empty()) return orbit_pose(bounds, aspect, 0, 1, options);
  const core::Vec3 ext = bounds.extent();
  const float span = std::max({ext.x, ext.y, 1e-3f});
  CameraPose p;
  p.yaw = kDefaultYaw;
  p.pitch = kViewPitch;
  const core::Vec3 ahead{std::cos(p.yaw), std::sin(p.yaw), 0.0f};
  // The centre of the picture meets the ground 0.3 spans past the middle, from 0.42 spans up
  // (higher over a tall map): the bottom of the picture is land, its top the far side and sky.
  const float ground = 0.5f * (bounds.min.z + bounds.max.z);
  const float height = std::max(0.42f * span, bounds.max.z + 0.05f * span - ground);
  const float back = height / std::tan(-p.pitch);
  const core::Vec3 target{bounds.center().x + ahead.x * 0.3f * span, bounds.center().y + ahead.y * 0.3f * span, ground};
  p.eye = {target.x - ahead.x * back, target.y - ahead.y * back, ground + height};
  return p;
}

Camera top_camera(const core::Aabb& bounds, float aspect) {
  const core::Vec3 center = bounds.empty() ? core::Vec3{} : bounds.center();
  const core::Vec3 ext = bounds.empty() ? core::Vec3{1.0f, 1.0f, 1.0f} : bounds.extent();
  const float a = aspect > 0.0f ? aspect : 1.0f;
  float width = std::max(ext.x, 1e-3f) * 1.04f;
  float height = std::max(ext.y, 1e-3f) * 1.04f;
  if (width / height < a)
    width = height * a;
  else
    height = width / a;
  const float depth = std::max(ext.z, 1.0f);
  const core::Vec3 eye{center.x, center.y, bounds.empty() ? 10.0f : bounds.max.z + depth};
  return Camera::orthographic(eye, {center.x, center.y, center.z}, {0.0f, 1.0f, 0.0f}, width, height, 0.0f,
                              3.0f * depth + 1.0f);
}

}  // namespace sortie::render
