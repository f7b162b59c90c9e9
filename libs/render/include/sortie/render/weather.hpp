#pragma once
// Weather in the picture (issue #12 part 9): an env::EnvironmentFrame turned into draw calls.
//
//   rain       one line per drop from its previous world position (the tail) to its position
//              (the head); the tail's colour has a quarter of the head's alpha; alpha-blended,
//              depth-tested against the scene, no depth write.
//   snow       points at the flakes' positions. The frame's point size (size_scalar * 0.0195)
//              is the pixel size of a flake at depth 1 (size_scalar is pixels per radian), so a
//              flake at camera depth d is point_size / d pixels, rounded and clamped to 1..64;
//              flakes are grouped into one draw call per pixel size (the renderer's points have
//              one size per draw call).
//   lightning  a strike of the frame starts a flash of `flash_ms`: the bolt (a jagged line from
//              the body's top to its bottom, the jags drawn from the strike's own 15-bit draws,
//              so it needs no random state) is drawn while the flash lasts, and the strike's
//              point light (seed 001: the light sits at the strike) shines on lit draws:
//              point_lights() gives one render::PointLight at the strike's light position with
//              colour flash_color * flash_strength * flash, radius flash_radius and size
//              flash_size (the renderer's windowed inverse-square falloff, draw.hpp). The flash
//              falls linearly from 1 at the strike to 0 after flash_ms of frame time.
//   sky        sky_color() is the frame's sky base RGB (the first active sky object, before
//              glare) as an opaque colour, each component clamped to 0..1: callers may clear
//              the picture to it; none when no sky object is active.
//
// The drawing owns its meshes: the draw calls stay valid until the next update().
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sortie/env/environment.hpp"
#include "sortie/render/camera.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/mesh.hpp"

namespace sortie::render {

struct WeatherStyle {
  Rgba8 rain{175, 185, 205, 170};
  Rgba8 snow{240, 242, 250, 230};
  Rgba8 bolt{225, 230, 255, 255};
  std::int64_t flash_ms = 250;                // a strike's flash and bolt last this long
  core::Vec3 flash_color{0.85f, 0.9f, 1.0f};  // the strike's light, bluish white
  float flash_strength = 2.0f;                // its colour scale at the moment of the strike
  float flash_radius = 2000.0f;               // world units: no light beyond
  float flash_size = 400.0f;                  // world units: the light is half as strong here
  int bolt_segments = 12;
  float bolt_jag = 25.0f;  // world units: largest sideways step of a bolt segment
};

// The renderer camera of an environment camera (same eye, view direction, up, vertical fov and
// aspect), with the given clip planes.
Camera camera_from_env(const env::CameraFrame& camera, float near_plane = 1.0f, float far_plane = 5000.0f);

// Pixel size of a snow flake at camera depth `depth` for the frame's point size (1..64).
float snow_point_pixels(double point_size, double depth);

class WeatherDrawing {
 public:
  explicit WeatherDrawing(WeatherStyle style = {}) : style_(style) {}
  // Rebuilds the draw calls for `frame` (its particles, camera and strikes).
  void update(const env::EnvironmentFrame& frame);
  [[nodiscard]] std::span<const DrawCall> draws() const { return draws_; }
  // 1 at a strike, falling linearly to 0 over flash_ms.
  [[nodiscard]] float flash() const { return flash_; }
  // The strike's point light while the flash lasts, else empty (for Frame::point_lights).
  [[nodiscard]] std::span<const PointLight> point_lights() const { return lights_; }
  // The active sky object's base colour, clamped (for Frame::clear_color), or none.
  [[nodiscard]] std::optional<Rgba8> sky_color() const { return sky_; }
  [[nodiscard]] const WeatherStyle& style() const { return style_; }
  [[nodiscard]] std::size_t rain_lines() const { return rain_.positions.size() / 2; }
  [[nodiscard]] std::size_t snow_points() const;
  [[nodiscard]] std::size_t bolt_lines() const { return bolt_.positions.size() / 2; }

 private:
  void build_bolt(const env::LightningStrike& strike);
  WeatherStyle style_;
  Mesh rain_;
  std::vector<Mesh> snow_;  // one per pixel size in use
  Mesh bolt_;
  std::vector<DrawCall> draws_;
  std::optional<env::LightningStrike> strike_;  // the last strike
  std::vector<PointLight> lights_;
  std::optional<Rgba8> sky_;
  float flash_ = 0.0f;
};

}  // namespace sortie::render
