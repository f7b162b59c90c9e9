#include "sortie/render/weather.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace sortie::render {

namespace {

Material particle_material(float point_size = 1.0f) {
  Material m;
  m.blend = Blend::alpha;
  m.cull = Cull::none;
  m.depth_test = true;
  m.depth_write = false;
  m.point_size = point_size;
  return m;
}

}  // namespace

Camera camera_from_env(const env::CameraFrame& camera, float near_plane, float far_plane) {
  return Camera::perspective(camera.position, camera.position + camera.forward(), camera.up(),
                             static_cast<float>(camera.vertical_fov), static_cast<float>(camera.aspect), near_plane,
                             far_plane);
}

float snow_point_pixels(double point_size, double depth) {
  if (!(depth > 0.0) || !(point_size > 0.0)) return 1.0f;
  return static_cast<float>(std::clamp(std::round(point_size / depth), 1.0, 64.0));
}

std::size_t WeatherDrawing::snow_points() const {
  std::size_t n = 0;
  for (const auto& m : snow_) n += m.positions.size();
  return n;
}

core::Status WeatherDrawing::update(const env::EnvironmentFrame& frame) {
  draws_.clear();
  sky_.reset();
  if (const auto& rgb = frame.sky_base_rgb) sky_ = to_rgba8({rgb->x, rgb->y, rgb->z, 1.0f});
  core::Status drawn = effects_.update(frame.effects, frame.camera.position);
  live_effects_ = frame.effects.live;

  rain_ = Mesh{};
  rain_.primitive = Primitive::lines;
  snow_.clear();
  const auto kind = frame.weather.kind;
  if (kind == env::PrecipitationKind::rain) {
    Rgba8 tail = style_.rain;
    tail.a = static_cast<std::uint8_t>(style_.rain.a / 4);
    rain_.positions.reserve(frame.particles.size() * 2);
    rain_.colors.reserve(frame.particles.size() * 2);
    for (const auto& p : frame.particles) {
      rain_.positions.push_back(p.previous);
      rain_.positions.push_back(p.position);
      rain_.colors.push_back(tail);
      rain_.colors.push_back(style_.rain);
    }
    if (!rain_.positions.empty()) draws_.push_back({rain_.view(), particle_material()});
  } else if (kind == env::PrecipitationKind::snow) {
    std::map<int, std::size_t> by_size;  // pixel size -> snow_ index, in size order
    for (const auto& p : frame.particles) {
      const double depth = static_cast<double>(frame.camera.to_local(p.position).z);
      if (depth <= 0.0) continue;  // behind the eye
      const int px = static_cast<int>(snow_point_pixels(frame.metrics.point_size, depth));
      auto [it, inserted] = by_size.try_emplace(px, snow_.size());
      if (inserted) {
        snow_.emplace_back();
        snow_.back().primitive = Primitive::points;
      }
      snow_[it->second].positions.push_back(p.position);
    }
    for (auto& m : snow_) m.colors.assign(m.positions.size(), style_.snow);
    for (const auto& [px, index] : by_size)
      draws_.push_back({snow_[index].view(), particle_material(static_cast<float>(px))});
  }
  draws_.insert(draws_.end(), effects_.draws().begin(), effects_.draws().end());
  return drawn;
}

}  // namespace sortie::render
