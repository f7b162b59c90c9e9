#pragma once
// Cameras: a view matrix and a projection matrix on core::Mat4 (column vectors, p' = M * p),
// projecting to OpenGL-style clip space (x, y, z in [-w, w] inside the frustum, near plane at
// z = -w), and the viewport that maps clip space to pixels.
//
// Window coordinates: x right, y down (row 0 at the top), pixel (i, j) covers [i, i+1) x [j, j+1)
// and is sampled at its centre (i + 0.5, j + 0.5); depth is 0 at the near plane and 1 at the far
// plane.
#include <array>
#include <optional>

#include "sortie/core/math.hpp"

namespace sortie::render {

struct Viewport {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
  friend constexpr bool operator==(const Viewport&, const Viewport&) = default;
};

// A point in window coordinates.
struct ScreenPoint {
  float x = 0.0f;
  float y = 0.0f;
  float depth = 0.0f;  // window depth in [0, 1] when inside the near/far range
  float w = 0.0f;      // clip-space w (> 0 in front of a perspective eye)
};

struct IsometricView {
  core::Vec3 focus;              // world point at the centre of the picture
  float view_width = 20.0f;      // world units across the viewport
  float aspect = 16.0f / 9.0f;   // viewport width / height
  float yaw = core::kPi / 4.0f;  // compass direction the camera looks toward (0 = +X, pi/2 = +Y)
  float elevation = 0.6154797f;  // downward tilt; atan(1/sqrt(2)) = true isometric
  float distance = 1000.0f;      // eye distance from the focus (orthographic: only clipping)
};

struct Camera {
  core::Mat4 view = core::Mat4::identity();
  core::Mat4 projection = core::Mat4::identity();

  [[nodiscard]] core::Mat4 view_projection() const { return projection * view; }

  // Right-handed look-at with a vertical field of view (radians) and aspect = width / height.
  static Camera perspective(const core::Vec3& eye, const core::Vec3& target, const core::Vec3& up, float vfov,
                            float aspect, float near_plane, float far_plane);
  // Look-at with a box of width x height world units around the view axis.
  static Camera orthographic(const core::Vec3& eye, const core::Vec3& target, const core::Vec3& up, float width,
                             float height, float near_plane, float far_plane);
  // Orthographic camera looking down at `focus` from `yaw` / `elevation`; world Z is up.
  static Camera isometric(const IsometricView& view);
  // Window pixels as world units: x right, y down, world z = -depth (near 0 .. far `depth_range`
  // maps to depth 0 .. 1). For 2-D overlays and pixel-exact tests.
  static Camera pixels(int width, int height, float depth_range = 1.0f);
  // The original Iron3D camera (spec iron3d-formats §25.2, §25.3): `selector0` is the camera
  // block (16 row-major floats, translation at 3, 7, 11; columns forward, left, up), the
  // viewport size, the full horizontal field of view, near and far. Same picture as the
  // original Direct3D 7 pipeline; depth maps D3D's [0, w] to our [-w, w].
  static Camera legacy_d3d7(const std::array<float, 16>& selector0, float viewport_width, float viewport_height,
                            float fov, float near_plane, float far_plane);

  // Window position of a world point, or nullopt when clip w <= 0 (behind a perspective eye)
  // or a value is not finite. Depth may fall outside [0, 1] (in front of near / beyond far).
  [[nodiscard]] std::optional<ScreenPoint> project(const core::Vec3& world, const Viewport& viewport) const;
  // World point at window position (x, y) and window depth (0 near .. 1 far); nullopt when the
  // view-projection is singular. unproject(x, y, 0) and (x, y, 1) give a picking ray.
  [[nodiscard]] std::optional<core::Vec3> unproject(float x, float y, float depth, const Viewport& viewport) const;
  // World position of the eye (the inverse view's translation).
  [[nodiscard]] core::Vec3 eye() const;
};

// §25.2: the Direct3D 7 projection (row-vector form) of width x height, full horizontal FOV,
// near and far, transposed to column vectors and with depth moved from [0, w] to [-w, w].
core::Mat4 legacy_d3d7_projection(float viewport_width, float viewport_height, float fov, float near_plane,
                                  float far_plane);
// §25.3: the view matrix built from the selector-0 camera block, transposed to column vectors.
core::Mat4 legacy_d3d7_view(const std::array<float, 16>& selector0);

}  // namespace sortie::render
