#include "sortie/env/camera.hpp"

namespace sortie::env {

core::Vec3 CameraFrame::to_local(const core::Vec3& world) const {
  const core::Vec3 d = world - position;
  return {core::dot(d, right()), core::dot(d, up()), core::dot(d, forward())};
}

core::Vec3 CameraFrame::to_world(const core::Vec3& local) const {
  return position + right() * local.x + up() * local.y + forward() * local.z;
}

CameraFrame CameraFrame::look(const core::Vec3& position, const core::Vec3& forward, const core::Vec3& up_hint) {
  CameraFrame c;
  c.position = position;
  core::Vec3 f = core::normalize_or(forward, {1, 0, 0});
  core::Vec3 left = core::normalize_or(core::cross(up_hint, f), {0, 0, 0});
  if (left == core::Vec3{0, 0, 0}) {
    f = {1, 0, 0};
    left = {0, 1, 0};
  }
  const core::Vec3 up = core::cross(f, left);
  const core::Vec3 cols[3] = {f, left, up};
  for (std::size_t i = 0; i < 3; ++i) {
    c.orientation.m[0][i] = cols[i].x;
    c.orientation.m[1][i] = cols[i].y;
    c.orientation.m[2][i] = cols[i].z;
  }
  return c;
}

}  // namespace sortie::env
