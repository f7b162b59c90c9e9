#include "sortie/env/precipitation_frame.hpp"

#include <fmt/format.h>

#include <numbers>

#include "sortie/env/environment.hpp"

namespace sortie::env {

core::Result<CameraFrame> camera_for_view(double vertical_fov_deg, std::uint32_t viewport_width,
                                          std::uint32_t viewport_height, std::optional<double> aspect) {
  const double a = aspect                 ? *aspect
                   : viewport_height == 0 ? 0.0
                                          : static_cast<double>(viewport_width) / static_cast<double>(viewport_height);
  if (!(a >= kMinAspect) || !(a <= kMaxAspect)) {
    return core::fail(
        core::Diagnostic::error("usage.aspect", fmt::format("must be in [{}, {}], got {}", kMinAspect, kMaxAspect, a))
            .in("--aspect"));
  }
  CameraFrame cam = CameraFrame::look({0, 0, 0}, {1, 0, 0});
  cam.vertical_fov = vertical_fov_deg * std::numbers::pi / 180.0;
  cam.aspect = a;
  cam.viewport_width = viewport_width;
  cam.viewport_height = viewport_height;
  return cam;
}

PrecipitationFrame precipitation_frame(const CameraFrame& camera, PrecipitationKind kind, double intensity,
                                       double density) {
  return {camera, kind, intensity, density, precipitation_metrics(camera, kind, intensity, density)};
}

core::Json PrecipitationFrame::to_json() const {
  core::Json j = precipitation_metrics_json(metrics);
  j["kind"] = std::string(to_string(kind));
  j["intensity"] = intensity;
  j["density"] = density;
  j["vertical_fov"] = camera.vertical_fov;
  j["aspect"] = camera.aspect;
  j["viewport"] = {{"width", camera.viewport_width}, {"height", camera.viewport_height}};
  return j;
}

std::string PrecipitationFrame::to_text() const {
  const auto& m = metrics;
  std::string out = fmt::format("kind: {}  intensity: {}  density: {}\n", to_string(kind), intensity, density);
  out += fmt::format("camera: vfov {} rad, aspect {}, viewport {}x{}\n", camera.vertical_fov, camera.aspect,
                     camera.viewport_width, camera.viewport_height);
  out += fmt::format("half_x: {}\nhalf_y: {}\ndepth: {}..{}\n", m.half_x, m.half_y, m.depth_near, m.depth_far);
  out += fmt::format("reference_half_x: {}\nreference_half_y: {}\nvolume_ratio: {}\n", m.reference_half_x,
                     m.reference_half_y, m.volume_ratio);
  out += fmt::format("horizontal_fov: {}\nsize_scalar: {}\npoint_size: {}\ncount: {}\n", m.horizontal_fov,
                     m.size_scalar, m.point_size, m.count);
  return out;
}

}  // namespace sortie::env
