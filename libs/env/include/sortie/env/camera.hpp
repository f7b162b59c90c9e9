#pragma once
// The camera state the environment needs for one frame. A small value type of its own (the
// renderer's camera lives in libs/render, a layer above): position, orientation, vertical
// field of view, aspect ratio and viewport.
//
// Orientation follows the Iron3D camera block (spec §25.3): a rotation whose column 0 is the
// view direction (forward), column 1 points left and column 2 up, in world axes (X east,
// Y north, Z up). Camera-local coordinates used by the precipitation volume are
// (right, up, depth) = (-left, up, forward) components of (p - position).
#include <cstdint>

#include "sortie/core/math.hpp"

namespace sortie::env {

struct CameraFrame {
  core::Vec3 position{};
  core::Mat4 orientation = core::Mat4::identity();  // columns: forward, left, up
  double vertical_fov = 1.0471975511965976;         // radians (60 degrees)
  double aspect = 16.0 / 9.0;                       // width / height
  std::uint32_t viewport_width = 1280;
  std::uint32_t viewport_height = 720;

  [[nodiscard]] core::Vec3 forward() const { return column(0); }
  [[nodiscard]] core::Vec3 left() const { return column(1); }
  [[nodiscard]] core::Vec3 up() const { return column(2); }
  [[nodiscard]] core::Vec3 right() const { return -column(1); }
  // (right, up, depth) of a world point.
  [[nodiscard]] core::Vec3 to_local(const core::Vec3& world) const;
  [[nodiscard]] core::Vec3 to_world(const core::Vec3& local) const;

  // A camera at `position` looking along `forward` with `up` as the up hint (made orthonormal;
  // falls back to +X forward / +Z up for degenerate input).
  static CameraFrame look(const core::Vec3& position, const core::Vec3& forward, const core::Vec3& up_hint = {0, 0, 1});

  bool operator==(const CameraFrame&) const = default;

 private:
  [[nodiscard]] core::Vec3 column(int c) const {
    const auto i = static_cast<std::size_t>(c);
    return {orientation.m[0][i], orientation.m[1][i], orientation.m[2][i]};
  }
};

}  // namespace sortie::env
