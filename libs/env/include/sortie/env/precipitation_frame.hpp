#pragma once
// One frame's precipitation numbers for a camera described the way `sortie env frame` takes it
// (vertical field of view in degrees, a viewport, an optional aspect), with their JSON and text.
#include <cstdint>
#include <optional>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/env/camera.hpp"
#include "sortie/env/precipitation.hpp"

namespace sortie::env {

inline constexpr double kMinAspect = 0.01;
inline constexpr double kMaxAspect = 100.0;

// A camera at the origin looking along +X with the given view. `aspect` defaults to the
// viewport's width / height. Code usage.aspect (field --aspect) when the aspect, given or taken
// from the viewport, is outside [kMinAspect, kMaxAspect] or the viewport has a zero side.
core::Result<CameraFrame> camera_for_view(double vertical_fov_deg, std::uint32_t viewport_width,
                                          std::uint32_t viewport_height, std::optional<double> aspect = std::nullopt);

struct PrecipitationFrame {
  CameraFrame camera;
  PrecipitationKind kind = PrecipitationKind::rain;
  double intensity = 0;
  double density = 1;
  PrecipitationMetrics metrics;

  // The metrics' fields plus kind, intensity, density, vertical_fov, aspect and viewport.
  [[nodiscard]] core::Json to_json() const;
  // "kind: rain  intensity: ...", the camera, then one "name: value" line per number.
  [[nodiscard]] std::string to_text() const;
};

PrecipitationFrame precipitation_frame(const CameraFrame& camera, PrecipitationKind kind, double intensity,
                                       double density = 1.0);

}  // namespace sortie::env
