#include "sortie/render/weather.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "sortie/core/rng.hpp"

namespace sortie::render {

namespace {

constexpr std::uint64_t kBoltStream = 0x424f4c54ull;  // "BOLT"

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

void WeatherDrawing::build_bolt(const env::LightningStrike& s) {
  bolt_ = Mesh{};
  bolt_.primitive = Primitive::lines;
  core::Rng rng((std::uint64_t{s.r15_x} << 16) | s.r15_y, kBoltStream);
  const int segments = std::max(1, style_.bolt_segments);
  core::Vec3 at{s.position.x, s.position.y, s.body_top};
  const float step = (s.body_top - s.body_bottom) / static_cast<float>(segments);
  for (int i = 0; i < segments; ++i) {
    core::Vec3 next{at.x, at.y, at.z - step};
    if (i + 1 == segments) {
      next = {s.position.x, s.position.y, s.body_bottom};  // the bolt ends at the strike
    } else {
      next.x += (rng.unit_f32() * 2.0f - 1.0f) * style_.bolt_jag;
      next.y += (rng.unit_f32() * 2.0f - 1.0f) * style_.bolt_jag;
    }
    bolt_.positions.push_back(at);
    bolt_.positions.push_back(next);
    at = next;
  }
  bolt_.colors.assign(bolt_.positions.size(), style_.bolt);
}

void WeatherDrawing::update(const env::EnvironmentFrame& frame) {
  draws_.clear();
  lights_.clear();
  sky_.reset();
  if (const auto& rgb = frame.sky_base_rgb) sky_ = to_rgba8({rgb->x, rgb->y, rgb->z, 1.0f});
  if (!frame.lightning.empty()) {
    strike_ = frame.lightning.back();
    build_bolt(*strike_);
  }
  flash_ = 0.0f;
  if (strike_ && style_.flash_ms > 0) {
    const std::int64_t age = frame.time_ms - strike_->time_ms;
    if (age >= 0 && age < style_.flash_ms)
      flash_ = 1.0f - static_cast<float>(age) / static_cast<float>(style_.flash_ms);
  }
  if (flash_ > 0.0f) {
    PointLight l;
    l.position = strike_->light_position;
    l.color = style_.flash_color * (style_.flash_strength * flash_);
    l.radius = style_.flash_radius;
    l.size = style_.flash_size;
    lights_.push_back(l);
  }

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
  if (flash_ > 0.0f && !bolt_.positions.empty()) {
    Material m;
    m.blend = Blend::additive;
    m.cull = Cull::none;
    m.depth_write = false;
    draws_.push_back({bolt_.view(), m});
  }
}

}  // namespace sortie::render
