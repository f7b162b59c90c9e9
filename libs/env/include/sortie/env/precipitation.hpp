#pragma once
// Precipitation near the observer (seed 001 "Погода, осадки и звуковые события"): the numbers
// of one frame and the world-space particle field.
//
//   reference volume: depth 2..50, half-angles 0.65 (horizontal) and 0.4875 (vertical) rad,
//                     i.e. half extents tan(0.65)*50 and tan(0.4875)*50 at depth 50
//   half_y = tan(vfov/2) * 50,  half_x = half_y * aspect
//   horizontal_fov = 2 * atan(tan(vfov/2) * aspect)
//   size_scalar = viewport_width / horizontal_fov;  point size = scalar * 0.0065 (rain), 0.0195 (snow)
//   N = round_even(clamp(current_volume / reference_volume, 0, 1) * density * intensity * 1000)
//
// The volume is the camera-local box right in [-half_x, half_x], up in [-half_y, half_y],
// depth in [2, 50] (reference and current share the depth range, so the volume ratio is
// (half_x * half_y) / (ref_half_x * ref_half_y)). All frame numbers are computed in double.
//
// Particles live in world space and move with [0.5, 0, -60] (rain) or [0.5, 0, -4] (snow) per
// second whatever the camera does; a particle that leaves the camera-local box is wrapped to
// the opposite face (per axis, modulo the extent) and put back into the world. A rain drop's
// tail is its previous world position (moved by the same wrap offset, so a wrapped drop does not
// streak across the volume); snow is a quad at the current position.
#include <cstdint>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/env/camera.hpp"
#include "sortie/env/weather_schedule.hpp"

namespace sortie::env {

inline constexpr double kPrecipitationNear = 2.0;
inline constexpr double kPrecipitationFar = 50.0;
inline constexpr double kReferenceHalfAngleX = 0.65;
inline constexpr double kReferenceHalfAngleY = 0.4875;
inline constexpr double kRainSizeFactor = 0.0065;
inline constexpr double kSnowSizeFactor = 0.0195;
inline constexpr core::Vec3 kRainVelocity{0.5f, 0.0f, -60.0f};
inline constexpr core::Vec3 kSnowVelocity{0.5f, 0.0f, -4.0f};

// Round half to even, independent of the FPU rounding mode.
double round_even(double x);

struct PrecipitationMetrics {
  double half_x = 0;
  double half_y = 0;
  double depth_near = kPrecipitationNear;
  double depth_far = kPrecipitationFar;
  double reference_half_x = 0;
  double reference_half_y = 0;
  double volume_ratio = 0;  // current / reference, unclamped
  double horizontal_fov = 0;
  double size_scalar = 0;
  double point_size = 0;  // 0 for PrecipitationKind::none
  std::uint32_t count = 0;
};

// vertical_fov in radians (0, pi); aspect > 0; intensity and density >= 0.
PrecipitationMetrics precipitation_metrics(double vertical_fov, double aspect, std::uint32_t viewport_width,
                                           PrecipitationKind kind, double intensity, double density = 1.0);
inline PrecipitationMetrics precipitation_metrics(const CameraFrame& c, PrecipitationKind kind, double intensity,
                                                  double density = 1.0) {
  return precipitation_metrics(c.vertical_fov, c.aspect, c.viewport_width, kind, intensity, density);
}

struct Particle {
  core::Vec3 position{};
  core::Vec3 previous{};  // the rain tail
  bool operator==(const Particle&) const = default;
};

// Wraps v into [lo, lo + extent) (unchanged when already inside).
float wrap_into(float v, float lo, float extent);

class PrecipitationField {
 public:
  explicit PrecipitationField(std::uint64_t seed) : rng_(seed, 0x50524543ull /* "PREC" */) {}
  // Advances by dt_ms with the frame's camera and metrics: resizes to metrics.count (new
  // particles uniformly in the box, seeded), moves, wraps. A kind change empties the field.
  void update(std::int64_t dt_ms, const CameraFrame& camera, PrecipitationKind kind,
              const PrecipitationMetrics& metrics);
  [[nodiscard]] const std::vector<Particle>& particles() const { return particles_; }
  [[nodiscard]] PrecipitationKind kind() const { return kind_; }
  [[nodiscard]] std::uint64_t wraps() const { return wraps_; }

 private:
  core::Rng rng_;
  PrecipitationKind kind_ = PrecipitationKind::none;
  std::vector<Particle> particles_;
  std::uint64_t wraps_ = 0;
};

}  // namespace sortie::env
