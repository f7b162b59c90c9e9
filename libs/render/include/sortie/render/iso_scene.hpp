#pragma once
// An isometric tile/wall scene from a small grid description: floor tiles and wall boxes,
// batched into one floor mesh and one wall mesh, plus an isometric camera that frames them.
// The squad game builds its picture on top of this.
//
// Grid cell (column c, row r) covers X in [c * cell_size, (c + 1) * cell_size) and Y in
// [r * cell_size, (r + 1) * cell_size); floors lie at Z = 0, walls rise to wall_height.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/render/camera.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/limits.hpp"  // kMaxIsoGridSide
#include "sortie/render/mesh.hpp"

namespace sortie::render {

struct IsoCell {
  std::uint8_t floor = 0;  // 0: no floor; n: IsoStyle::floor_colors[n - 1]
  std::uint8_t wall = 0;   // 0: no wall;  n: IsoStyle::wall_colors[n - 1]
  friend constexpr bool operator==(const IsoCell&, const IsoCell&) = default;
};

struct IsoGrid {
  std::uint32_t columns = 0;
  std::uint32_t rows = 0;
  float cell_size = 1.0f;
  float wall_height = 1.5f;
  std::vector<IsoCell> cells;  // row-major: cells[r * columns + c]

  [[nodiscard]] const IsoCell& at(std::uint32_t c, std::uint32_t r) const { return cells[r * columns + c]; }
  [[nodiscard]] core::Vec3 cell_center(std::uint32_t c, std::uint32_t r) const;
};

// Text rows, the first row being the northmost (highest r): '.' floor 1, ',' floor 2, ':' floor
// 3, '#' wall 1 on floor 1, '%' wall 2 on floor 1, '@' wall 3 on floor 1, ' ' nothing.
// Errors: render.iso.grid (no rows, rows of different lengths, a side above kMaxIsoGridSide),
// render.iso.cell (another character; field "rows[i][j]").
core::Result<IsoGrid> iso_grid_from_rows(std::span<const std::string_view> rows);

struct IsoStyle {
  std::vector<Rgba8> floor_colors{{150, 140, 120, 255}, {110, 120, 100, 255}, {90, 90, 100, 255}};
  std::vector<Rgba8> wall_colors{{170, 160, 150, 255}, {120, 90, 70, 255}, {80, 85, 95, 255}};
  float checker = 0.08f;      // floor brightness alternates by this fraction on odd cells
  TextureView floor_texture;  // optional, uv 0..1 per cell
  TextureView wall_texture;   // optional, uv 0..1 per face
  Filter filter = Filter::bilinear;
};

struct IsoScene {
  Mesh floors;  // two triangles per floor cell
  Mesh walls;   // box faces of wall cells, without faces hidden by a neighbouring wall or the floor
  Material floor_material;
  Material wall_material;
  core::Aabb bounds;

  // Draw calls referencing this scene's meshes (valid while the scene lives and is unchanged).
  [[nodiscard]] std::vector<DrawCall> draws() const;
  // Isometric camera looking toward `yaw` that fits the scene bounds in a viewport of `aspect`
  // with `margin` (fraction of the picture left free on each side).
  [[nodiscard]] Camera camera(float aspect, float yaw = core::kPi / 4.0f, float margin = 0.05f) const;
};

// Errors: render.iso.grid (cells.size() != columns * rows, a side of 0 or above
// kMaxIsoGridSide, cell_size or wall_height not finite and positive), render.iso.palette (a
// cell names a colour the style does not have; field "cells[i]").
core::Result<IsoScene> build_iso_scene(const IsoGrid& grid, const IsoStyle& style = {});

}  // namespace sortie::render
