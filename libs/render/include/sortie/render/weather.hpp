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
//   lightning  a strike starts the schedule's lightning effect (env::Environment; an FXID,
//              docs/effects.md); the frame's live effects are drawn by an EffectDrawing
//              (effect_drawing.hpp): the bolt is the effect's body (opcode 3) with its material,
//              the flash its point light (opcode 1), both for the effect header's lifetime and
//              with its numbers (no width, length or fade of the drawing's own).
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
#include "sortie/render/effect_drawing.hpp"
#include "sortie/render/mesh.hpp"

namespace sortie::render {

struct WeatherStyle {
  Rgba8 rain{175, 185, 205, 170};
  Rgba8 snow{240, 242, 250, 230};
};

// The renderer camera of an environment camera (same eye, view direction, up, vertical fov and
// aspect), with the given clip planes.
Camera camera_from_env(const env::CameraFrame& camera, float near_plane = 1.0f, float far_plane = 5000.0f);

// Pixel size of a snow flake at camera depth `depth` for the frame's point size (1..64).
float snow_point_pixels(double point_size, double depth);

class WeatherDrawing {
 public:
  explicit WeatherDrawing(WeatherStyle style = {}) : style_(style) {}
  // Rebuilds the draw calls for `frame` (its particles, camera and lightning effects). Errors: the
  // effect drawing's (a body's texture the renderer cannot take; it is drawn plain).
  core::Status update(const env::EnvironmentFrame& frame);
  // Precipitation, then the lightning effects' bodies.
  [[nodiscard]] std::span<const DrawCall> draws() const { return draws_; }
  // The lightning effects' point lights while they live, else empty (for Frame::point_lights).
  [[nodiscard]] std::span<const PointLight> point_lights() const { return effects_.point_lights(); }
  // Lightning effects alive at the frame's time.
  [[nodiscard]] std::size_t live_effects() const { return live_effects_; }
  // The active sky object's base colour, clamped (for Frame::clear_color), or none.
  [[nodiscard]] std::optional<Rgba8> sky_color() const { return sky_; }
  [[nodiscard]] const WeatherStyle& style() const { return style_; }
  [[nodiscard]] std::size_t rain_lines() const { return rain_.positions.size() / 2; }
  [[nodiscard]] std::size_t snow_points() const;
  [[nodiscard]] std::size_t effect_bodies() const { return effects_.bodies(); }

 private:
  WeatherStyle style_;
  Mesh rain_;
  std::vector<Mesh> snow_;  // one per pixel size in use
  EffectDrawing effects_;
  std::vector<DrawCall> draws_;
  std::optional<Rgba8> sky_;
  std::size_t live_effects_ = 0;
};

}  // namespace sortie::render
