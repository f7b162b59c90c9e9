#pragma once
// Generic meshes: a box from a core::Aabb, a flat grid plane and a height field. World Z is up;
// triangles are counter-clockwise seen from outside (front faces, see draw.hpp).
#include <cstdint>
#include <span>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/render/mesh.hpp"

namespace sortie::render {

// Which faces of a box to emit: bits of make_box's `faces` (constants, not an enum, so they keep
// the kConstant names .clang-tidy asks of constants and combine with | as plain bytes).
inline constexpr std::uint8_t kBoxMinX = 1;
inline constexpr std::uint8_t kBoxMaxX = 2;
inline constexpr std::uint8_t kBoxMinY = 4;
inline constexpr std::uint8_t kBoxMaxY = 8;
inline constexpr std::uint8_t kBoxMinZ = 16;
inline constexpr std::uint8_t kBoxMaxZ = 32;
inline constexpr std::uint8_t kBoxAllFaces = 63;

// Four vertices per face (flat normals, uv 0..1 across each face, v down), two triangles per
// face; faces in the order -X, +X, -Y, +Y, -Z, +Z. An empty box gives an empty mesh.
Mesh make_box(const core::Aabb& box, Rgba8 color = kWhite, std::uint8_t faces = kBoxAllFaces);

// A plane at height origin.z covering [origin.x, origin.x + size.x] x [origin.y, origin.y + size.y]
// in cells_x x cells_y quads, normal +Z, uv = (x, y) / size * uv_repeat (v grows with -Y so an
// image appears upright seen from above with +Y up). Errors: render.mesh.grid (zero cells, more
// than 4096 per side, or a non-finite / non-positive size).
core::Result<Mesh> make_grid_plane(const core::Vec3& origin, core::Vec2 size, std::uint32_t cells_x,
                                   std::uint32_t cells_y, core::Vec2 uv_repeat = {1.0f, 1.0f}, Rgba8 color = kWhite);

// A height field of columns x rows vertices, vertex (i, j) at origin + (i * cell.x, j * cell.y,
// heights[j * columns + i]); normals from central differences; uv = (i, j) * uv_per_cell (v
// down, so +Y is up in the image). Errors: render.mesh.grid (fewer than 2 x 2 vertices, more
// than 4096 per side, heights not columns * rows, a height or cell size not finite).
core::Result<Mesh> make_height_field(const core::Vec3& origin, core::Vec2 cell, std::uint32_t columns,
                                     std::uint32_t rows, std::span<const float> heights,
                                     core::Vec2 uv_per_cell = {1.0f, 1.0f}, Rgba8 color = kWhite);

}  // namespace sortie::render
