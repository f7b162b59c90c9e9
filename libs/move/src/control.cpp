#include "sortie/move/control.hpp"

#include <algorithm>
#include <cmath>

#include "sortie/core/det_math.hpp"

namespace sortie::move {

using core::det_atan2;
using core::det_cos;
using core::det_sin;
using core::det_wrap;

void steer(ControlState& s, core::Vec2 direction, float speed, float dt, const MoveParams& params) {
  if (direction.x == 0.0f && direction.y == 0.0f) {
    s.requested_speed = 0.0f;
    s.requested_turn = 0.0f;
    return;
  }
  const float want = det_atan2(direction.y, direction.x);
  const float error = det_wrap(want - s.heading);
  const float limit = params.max_rotation;
  s.requested_turn = dt > 0.0f ? core::clamp(error / dt, -limit, limit) : 0.0f;
  s.requested_speed = speed * std::max(0.0f, det_cos(error));
}

void steer_manual(ControlState& s) {
  s.requested_speed = s.manual_speed;
  s.requested_turn = s.manual_turn;
}

core::Vec2 integrate(ControlState& s, core::Vec2 position, core::Vec3 normal, float dt, const MoveParams& params) {
  const float dv = core::clamp(s.requested_speed - s.speed, -params.max_accel * dt, params.max_accel * dt);
  s.speed = s.speed + dv;
  const float turn = core::clamp(s.requested_turn, -params.max_rotation, params.max_rotation);
  s.heading = det_wrap(s.heading + turn * dt);
  s.angular_velocity = turn;
  const core::Vec2 forward{det_cos(s.heading), det_sin(s.heading)};
  // Rise per horizontal unit along `forward` on the plane with this normal.
  float grade = 0.0f;
  if (normal.z > 0.0f) grade = -(normal.x * forward.x + normal.y * forward.y) / normal.z;
  const float horizontal = s.speed * dt / std::sqrt(1.0f + grade * grade);
  return position + forward * horizontal;
}

core::Vec3 ground_orientation(float heading, core::Vec3 normal) {
  // n' = Rz(-heading) n = (cos(phi) sin(theta), -sin(phi), cos(phi) cos(theta)).
  const float c = det_cos(heading);
  const float s = det_sin(heading);
  const float nx = c * normal.x + s * normal.y;
  const float ny = -s * normal.x + c * normal.y;
  const float nz = normal.z;
  const float pitch = det_atan2(nx, nz);
  const float roll = det_atan2(-ny, std::sqrt(nx * nx + nz * nz));
  return core::Vec3{roll, pitch, heading};
}

}  // namespace sortie::move
