#include "sortie/render/mesh_builders.hpp"

#include <fmt/format.h>

#include <cmath>

namespace sortie::render {
namespace {

constexpr std::uint32_t kMaxGridSide = 4096;

struct FaceFrame {
  std::uint8_t bit;
  int axis;  // normal axis 0..2
  float sign;
  core::Vec3 s, t;  // in-face axes with s x t = normal
};

constexpr FaceFrame kFaces[6] = {
    {kBoxMinX, 0, -1.0f, {0.0f, -1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}},
    {kBoxMaxX, 0, 1.0f, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}},
    {kBoxMinY, 1, -1.0f, {1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}},
    {kBoxMaxY, 1, 1.0f, {-1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}},
    {kBoxMinZ, 2, -1.0f, {-1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}},
    {kBoxMaxZ, 2, 1.0f, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}},
};

float comp(const core::Vec3& v, int axis) {
  return axis == 0 ? v.x : (axis == 1 ? v.y : v.z);
}

core::Status check_grid(std::uint32_t columns, std::uint32_t rows, std::uint32_t min_side, const char* what) {
  if (columns < min_side || rows < min_side || columns > kMaxGridSide + 1 || rows > kMaxGridSide + 1)
    return core::fail(
        core::Diagnostic::error("render.mesh.grid", fmt::format("{} size out of range", what))
            .expect(fmt::format("{}..{} per side", min_side, kMaxGridSide), fmt::format("{}x{}", columns, rows)));
  return {};
}

void grid_indices(Mesh& m, std::uint32_t columns, std::uint32_t rows) {
  m.indices.reserve(static_cast<std::size_t>(columns - 1) * (rows - 1) * 6);
  for (std::uint32_t j = 0; j + 1 < rows; ++j) {
    for (std::uint32_t i = 0; i + 1 < columns; ++i) {
      const std::uint32_t v00 = j * columns + i, v10 = v00 + 1, v01 = v00 + columns, v11 = v01 + 1;
      m.indices.insert(m.indices.end(), {v00, v10, v11, v00, v11, v01});
    }
  }
}

}  // namespace

Mesh make_box(const core::Aabb& box, Rgba8 color, std::uint8_t faces) {
  Mesh m;
  if (box.empty()) return m;
  for (const FaceFrame& f : kFaces) {
    if (!(faces & f.bit)) continue;
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    core::Vec3 n;
    (f.axis == 0 ? n.x : (f.axis == 1 ? n.y : n.z)) = f.sign;
    // Corners -s-t, +s-t, +s+t, -s+t: counter-clockwise seen from outside.
    const float ss[4] = {-1.0f, 1.0f, 1.0f, -1.0f};
    const float ts[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
    for (int k = 0; k < 4; ++k) {
      core::Vec3 p;
      for (int axis = 0; axis < 3; ++axis) {
        float dir = 0.0f;
        if (axis == f.axis)
          dir = f.sign;
        else
          dir = ss[k] * comp(f.s, axis) + ts[k] * comp(f.t, axis);
        const float value = dir > 0.0f ? comp(box.max, axis) : comp(box.min, axis);
        (axis == 0 ? p.x : (axis == 1 ? p.y : p.z)) = value;
      }
      m.positions.push_back(p);
      m.normals.push_back(n);
      m.uvs.push_back({ss[k] > 0.0f ? 1.0f : 0.0f, ts[k] > 0.0f ? 0.0f : 1.0f});
      m.colors.push_back(color);
    }
    m.indices.insert(m.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
  }
  return m;
}

core::Result<Mesh> make_grid_plane(const core::Vec3& origin, core::Vec2 size, std::uint32_t cells_x,
                                   std::uint32_t cells_y, core::Vec2 uv_repeat, Rgba8 color) {
  if (cells_x == 0 || cells_y == 0 || cells_x > kMaxGridSide || cells_y > kMaxGridSide)
    return core::fail(core::Diagnostic::error("render.mesh.grid", "grid cell count out of range")
                          .expect(fmt::format("1..{} per side", kMaxGridSide), fmt::format("{}x{}", cells_x, cells_y)));
  if (!core::is_finite(origin) || !core::is_finite(size) || !(size.x > 0.0f) || !(size.y > 0.0f) ||
      !core::is_finite(uv_repeat))
    return core::fail(core::Diagnostic::error("render.mesh.grid", "grid origin or size not finite and positive")
                          .expect("finite, size > 0", fmt::format("size {}x{}", size.x, size.y)));
  Mesh m;
  const std::uint32_t columns = cells_x + 1, rows = cells_y + 1;
  m.positions.reserve(static_cast<std::size_t>(columns) * rows);
  for (std::uint32_t j = 0; j < rows; ++j) {
    const float fy = static_cast<float>(j) / static_cast<float>(cells_y);
    for (std::uint32_t i = 0; i < columns; ++i) {
      const float fx = static_cast<float>(i) / static_cast<float>(cells_x);
      m.positions.push_back({origin.x + size.x * fx, origin.y + size.y * fy, origin.z});
      m.normals.push_back({0.0f, 0.0f, 1.0f});
      m.uvs.push_back({fx * uv_repeat.x, (1.0f - fy) * uv_repeat.y});
      m.colors.push_back(color);
    }
  }
  grid_indices(m, columns, rows);
  return m;
}

core::Result<Mesh> make_height_field(const core::Vec3& origin, core::Vec2 cell, std::uint32_t columns,
                                     std::uint32_t rows, std::span<const float> heights, core::Vec2 uv_per_cell,
                                     Rgba8 color) {
  SORTIE_CHECK(check_grid(columns, rows, 2, "height field"));
  const std::size_t n = static_cast<std::size_t>(columns) * rows;
  if (heights.size() != n)
    return core::fail(core::Diagnostic::error("render.mesh.grid", "height count is not columns * rows")
                          .in("heights")
                          .expect(std::to_string(n), std::to_string(heights.size())));
  if (!core::is_finite(origin) || !core::is_finite(cell) || !(cell.x > 0.0f) || !(cell.y > 0.0f))
    return core::fail(core::Diagnostic::error("render.mesh.grid", "cell size not finite and positive")
                          .expect("finite, > 0", fmt::format("{}x{}", cell.x, cell.y)));
  for (std::size_t k = 0; k < n; ++k)
    if (!std::isfinite(heights[k]))
      return core::fail(core::Diagnostic::error("render.mesh.grid", "height not finite")
                            .in(fmt::format("heights[{}]", k))
                            .expect("finite", fmt::format("{}", heights[k])));
  Mesh m;
  m.positions.reserve(n);
  m.normals.reserve(n);
  m.uvs.reserve(n);
  m.colors.assign(n, color);
  auto h = [&](std::uint32_t i, std::uint32_t j) { return heights[static_cast<std::size_t>(j) * columns + i]; };
  for (std::uint32_t j = 0; j < rows; ++j) {
    for (std::uint32_t i = 0; i < columns; ++i) {
      m.positions.push_back(
          {origin.x + static_cast<float>(i) * cell.x, origin.y + static_cast<float>(j) * cell.y, origin.z + h(i, j)});
      // Central differences (one-sided at the border).
      const std::uint32_t il = i > 0 ? i - 1 : i, ir = i + 1 < columns ? i + 1 : i;
      const std::uint32_t jd = j > 0 ? j - 1 : j, ju = j + 1 < rows ? j + 1 : j;
      const float dzdx = (h(ir, j) - h(il, j)) / (static_cast<float>(ir - il) * cell.x);
      const float dzdy = (h(i, ju) - h(i, jd)) / (static_cast<float>(ju - jd) * cell.y);
      m.normals.push_back(core::normalize_or({-dzdx, -dzdy, 1.0f}, {0.0f, 0.0f, 1.0f}));
      m.uvs.push_back({static_cast<float>(i) * uv_per_cell.x, static_cast<float>(rows - 1 - j) * uv_per_cell.y});
    }
  }
  grid_indices(m, columns, rows);
  return m;
}

}  // namespace sortie::render
