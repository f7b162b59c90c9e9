#include "sortie/env/precipitation.hpp"

#include <algorithm>
#include <cmath>

namespace sortie::env {

double round_even(double x) {
  const double lo = std::floor(x);
  const double diff = x - lo;
  if (diff > 0.5) return lo + 1.0;
  if (diff < 0.5) return lo;
  return std::fmod(lo, 2.0) == 0.0 ? lo : lo + 1.0;
}

PrecipitationMetrics precipitation_metrics(double vertical_fov, double aspect, std::uint32_t viewport_width,
                                           PrecipitationKind kind, double intensity, double density) {
  PrecipitationMetrics m;
  const double t = std::tan(vertical_fov / 2.0);
  m.half_y = t * kPrecipitationFar;
  m.half_x = m.half_y * aspect;
  m.reference_half_x = std::tan(kReferenceHalfAngleX) * kPrecipitationFar;
  m.reference_half_y = std::tan(kReferenceHalfAngleY) * kPrecipitationFar;
  const double depth = kPrecipitationFar - kPrecipitationNear;
  const double current = (2.0 * m.half_x) * (2.0 * m.half_y) * depth;
  const double reference = (2.0 * m.reference_half_x) * (2.0 * m.reference_half_y) * depth;
  m.volume_ratio = current / reference;
  m.horizontal_fov = 2.0 * std::atan(t * aspect);
  m.size_scalar = static_cast<double>(viewport_width) / m.horizontal_fov;
  if (kind == PrecipitationKind::none) return m;
  m.point_size = m.size_scalar * (kind == PrecipitationKind::rain ? kRainSizeFactor : kSnowSizeFactor);
  const double n = round_even(std::clamp(m.volume_ratio, 0.0, 1.0) * density * intensity * 1000.0);
  m.count = n > 0.0 ? static_cast<std::uint32_t>(std::min(n, 4.0e9)) : 0u;
  return m;
}

float wrap_into(float v, float lo, float extent) {
  if (v >= lo && v < lo + extent) return v;
  float r = std::fmod(v - lo, extent);
  if (r < 0.0f) r += extent;
  if (r >= extent) r = 0.0f;  // -tiny + extent may round up to extent
  return lo + r;
}

void PrecipitationField::update(std::int64_t dt_ms, const CameraFrame& camera, PrecipitationKind kind,
                                const PrecipitationMetrics& m) {
  if (kind != kind_) {
    particles_.clear();
    kind_ = kind;
  }
  const auto hx = static_cast<float>(m.half_x);
  const auto hy = static_cast<float>(m.half_y);
  const auto near = static_cast<float>(m.depth_near);
  const auto depth = static_cast<float>(m.depth_far - m.depth_near);
  const std::uint32_t want = kind == PrecipitationKind::none ? 0 : m.count;
  if (particles_.size() > want) particles_.resize(want);
  while (particles_.size() < want) {
    const core::Vec3 local{(rng_.unit_f32() * 2.0f - 1.0f) * hx, (rng_.unit_f32() * 2.0f - 1.0f) * hy,
                           near + rng_.unit_f32() * depth};
    const core::Vec3 p = camera.to_world(local);
    particles_.push_back({p, p});
  }
  if (particles_.empty() || !(hx > 0.0f) || !(hy > 0.0f)) return;
  const core::Vec3 v = kind == PrecipitationKind::rain ? kRainVelocity : kSnowVelocity;
  const float dt = static_cast<float>(dt_ms) / 1000.0f;
  const core::Vec3 step = v * dt;
  const core::Vec3 right = camera.right();
  const core::Vec3 up = camera.up();
  const core::Vec3 fwd = camera.forward();
  for (auto& p : particles_) {
    p.previous = p.position;
    p.position += step;
    const core::Vec3 d = p.position - camera.position;
    const float x = core::dot(d, right);
    const float y = core::dot(d, up);
    const float z = core::dot(d, fwd);
    const float wx = wrap_into(x, -hx, 2.0f * hx);
    const float wy = wrap_into(y, -hy, 2.0f * hy);
    const float wz = wrap_into(z, near, depth);
    if (wx != x || wy != y || wz != z) {
      const core::Vec3 moved = right * (wx - x) + up * (wy - y) + fwd * (wz - z);
      p.position += moved;
      p.previous += moved;
      ++wraps_;
    }
  }
}

}  // namespace sortie::env
