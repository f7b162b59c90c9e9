#pragma once
// What the renderer draws: materials, draw calls, labels, the lights, and one Frame.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "sortie/core/math.hpp"
#include "sortie/render/camera.hpp"
#include "sortie/render/color.hpp"
#include "sortie/render/mesh.hpp"
#include "sortie/render/texture.hpp"

namespace sortie::render {

enum class Filter : std::uint8_t {
  nearest,    // level 0, nearest texel
  bilinear,   // level 0, 2 x 2 texels
  trilinear,  // two nearest mip levels by LOD, bilinear in each, blended
};
enum class Wrap : std::uint8_t { repeat, clamp };
// Where the mip LOD of trilinear filtering comes from.
enum class LodMode : std::uint8_t {
  per_pixel,  // analytic derivatives of the perspective-correct coordinates at each pixel
  per_quad,   // finite differences inside each 2 x 2 pixel quad (one LOD per quad, like GPUs)
};
enum class Blend : std::uint8_t {
  opaque,    // replace
  alpha,     // src * a + dst * (1 - a)
  additive,  // src + dst, saturated per channel
};
// Front faces are counter-clockwise in normalised device coordinates (y up), as in OpenGL:
// a triangle wound counter-clockwise seen from outside a right-handed world is front-facing
// through every camera of camera.hpp.
enum class Cull : std::uint8_t { none, back, front };

struct Material {
  TextureView texture;  // empty: untextured (colour only)
  Filter filter = Filter::bilinear;
  Wrap wrap = Wrap::repeat;
  LodMode lod = LodMode::per_pixel;
  core::Vec4 color{1.0f, 1.0f, 1.0f, 1.0f};  // multiplies the vertex colours
  bool lit = false;                          // per-vertex light: ambient, directional, points (needs normals)
  std::uint8_t alpha_ref = 0;                // alpha test: discard where final alpha < alpha_ref (0: off)
  Blend blend = Blend::opaque;
  Cull cull = Cull::back;
  bool depth_test = true;  // pass when depth < stored depth
  bool depth_write = true;
  float depth_bias = 0.0f;  // added to window depth (negative pulls overlays in front)
  float point_size = 1.0f;  // points: side of the square in pixels (1..64)
  friend bool operator==(const Material&, const Material&) = default;
};

struct DrawCall {
  MeshView mesh;
  Material material;
  core::Mat4 model = core::Mat4::identity();
};

// One directional light. Lit colour = base * clamp(ambient + color * max(0, dot(n, -direction))
// + the frame's point lights), per channel, computed per vertex with the world-space normal.
struct Light {
  core::Vec3 direction{0.0f, 0.0f, -1.0f};  // the way the light travels, world space
  core::Vec3 color{0.8f, 0.8f, 0.8f};
  core::Vec3 ambient{0.2f, 0.2f, 0.2f};
};

// A point light, added per vertex of lit draws (Light's sum). For a vertex at world distance d
// from `position`, with l the unit vector from the vertex to the light and n the unit normal:
//
//   contribution = color * max(0, dot(n, l)) * size^2 / (size^2 + d^2) * window(d)
//   window(d)    = (1 - (d / radius)^4)^2 for d < radius, else 0
//
// The middle factor is the inverse-square law for d well above `size` (size^2 / d^2) without its
// pole at the light (1 at d = 0, 1/2 at d = size); the window takes it smoothly to exactly zero
// at `radius` (value and slope), so a light touches only what lies inside its sphere. `color`
// is the light at the source and may exceed 1. A vertex at the light (d = 0) has no direction
// to it and gets nothing.
struct PointLight {
  core::Vec3 position{};
  core::Vec3 color{1.0f, 1.0f, 1.0f};
  float radius = 100.0f;  // > 0: no light at or beyond
  float size = 10.0f;     // > 0: distance at which the inverse-square factor is 1/2
};

// A text label in the bitmap font (font.hpp). World labels are anchored at the projected
// position (their text centred above it, `offset` added); screen labels at `position.xy` in
// pixels (top-left of the text plus `offset`). Labels are drawn after every draw call.
struct Label {
  enum class Space : std::uint8_t { world, screen };
  std::string text;
  core::Vec3 position;
  Space space = Space::world;
  core::Vec2 offset;
  Rgba8 color = kWhite;
  std::optional<Rgba8> shadow = kBlack;  // 1-pixel drop shadow (scaled), or none
  int scale = 1;                         // 1..8: glyph pixel size
  bool depth_test = false;               // world labels only: hidden behind nearer surfaces
};

// Sky and aerial perspective. Inside the viewport, pixels start as a sky gradient chosen by the
// elevation of the view ray through the row's centre (world Z up): `ground` below the horizon,
// `horizon` at it, blending to `zenith` straight up. After every draw call and before the labels,
// each pixel something was drawn on (its depth nearer than the cleared depth) is blended toward
// `horizon` by its view distance: nothing before `fog_start`, linearly up to `fog_max` at
// `fog_end` and beyond (fog_end <= fog_start: no fog). Per pixel and per tile, so the picture is
// the same for any thread count.
struct Atmosphere {
  Rgba8 zenith{58, 104, 168, 255};
  Rgba8 horizon{186, 204, 216, 255};
  Rgba8 ground{150, 160, 168, 255};
  float fog_start = 0.0f;  // view distance, world units
  float fog_end = 0.0f;
  float fog_max = 0.85f;  // 0..1: how much of the horizon colour the farthest pixels take
  // Elevation (sine of the ray's angle above the horizon) at which the sky is all zenith.
  float zenith_elevation = 0.6f;
  friend bool operator==(const Atmosphere&, const Atmosphere&) = default;
};

// The atmosphere under a weather's sky colour: `sky` at the horizon (and as the fog colour), a
// deeper shade of it overhead (r x 0.62, g x 0.75, b x 0.92, rounded), the rest from `base`.
Atmosphere atmosphere_under_sky(const Atmosphere& base, Rgba8 sky);

struct Frame {
  Camera camera;
  std::optional<Viewport> viewport;  // default: the whole framebuffer
  Light light;
  std::span<const PointLight> point_lights;  // none: lighting exactly as the directional light alone
  std::span<const DrawCall> draws;
  std::span<const Label> labels;
  std::optional<Rgba8> clear_color = kBlack;  // cleared inside the viewport before drawing
  std::optional<float> clear_depth = 1.0f;
  // Sky gradient instead of clear_color, and distance fog (see Atmosphere); needs clear_depth
  // to tell drawn pixels from sky.
  std::optional<Atmosphere> atmosphere;
  // Write the depth plane back to the framebuffer. Depth testing happens in tile-local
  // buffers, so a caller that never reads Framebuffer::depth() (and clears depth every frame)
  // saves the memory traffic of the depth plane; the framebuffer's depth is then left as it was.
  bool keep_depth = true;
};

}  // namespace sortie::render
