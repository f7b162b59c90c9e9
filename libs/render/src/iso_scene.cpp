#include "sortie/render/iso_scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sortie/render/mesh_builders.hpp"

namespace sortie::render {
namespace {

Rgba8 scaled(Rgba8 c, float k) {
  auto ch = [k](std::uint8_t v) {
    const float x = static_cast<float>(v) * k;
    return static_cast<std::uint8_t>(x >= 255.0f ? 255.0f : (x <= 0.0f ? 0.0f : x + 0.5f));
  };
  return {ch(c.r), ch(c.g), ch(c.b), c.a};
}

}  // namespace

core::Vec3 IsoGrid::cell_center(std::uint32_t c, std::uint32_t r) const {
  return {(static_cast<float>(c) + 0.5f) * cell_size, (static_cast<float>(r) + 0.5f) * cell_size, 0.0f};
}

core::Result<IsoGrid> iso_grid_from_rows(std::span<const std::string_view> rows) {
  if (rows.empty() || rows.size() > kMaxIsoGridSide)
    return core::fail(core::Diagnostic::error("render.iso.grid", "row count out of range")
                          .in("rows")
                          .expect(fmt::format("1..{}", kMaxIsoGridSide), std::to_string(rows.size())));
  const std::size_t width = rows[0].size();
  if (width == 0 || width > kMaxIsoGridSide)
    return core::fail(core::Diagnostic::error("render.iso.grid", "row length out of range")
                          .in("rows[0]")
                          .expect(fmt::format("1..{}", kMaxIsoGridSide), std::to_string(width)));
  IsoGrid g;
  g.columns = static_cast<std::uint32_t>(width);
  g.rows = static_cast<std::uint32_t>(rows.size());
  g.cells.resize(width * rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != width)
      return core::fail(core::Diagnostic::error("render.iso.grid", "rows differ in length")
                            .in(fmt::format("rows[{}]", i))
                            .expect(std::to_string(width), std::to_string(rows[i].size())));
    const std::size_t r = rows.size() - 1 - i;  // first row is the northmost
    for (std::size_t j = 0; j < width; ++j) {
      IsoCell cell;
      switch (rows[i][j]) {
        case ' ':
          break;
        case '.':
          cell.floor = 1;
          break;
        case ',':
          cell.floor = 2;
          break;
        case ':':
          cell.floor = 3;
          break;
        case '#':
          cell = {1, 1};
          break;
        case '%':
          cell = {1, 2};
          break;
        case '@':
          cell = {1, 3};
          break;
        default:
          return core::fail(
              core::Diagnostic::error("render.iso.cell", "unknown grid character")
                  .in(fmt::format("rows[{}][{}]", i, j))
                  .expect("one of \" .,:#%@\"", fmt::format("0x{:02x}", static_cast<unsigned char>(rows[i][j]))));
      }
      g.cells[r * width + j] = cell;
    }
  }
  return g;
}

core::Result<IsoScene> build_iso_scene(const IsoGrid& grid, const IsoStyle& style) {
  if (grid.columns == 0 || grid.rows == 0 || grid.columns > kMaxIsoGridSide || grid.rows > kMaxIsoGridSide ||
      grid.cells.size() != static_cast<std::size_t>(grid.columns) * grid.rows)
    return core::fail(core::Diagnostic::error("render.iso.grid", "grid size does not match its cells")
                          .expect(fmt::format("1..{} per side, columns * rows cells", kMaxIsoGridSide),
                                  fmt::format("{}x{}, {} cells", grid.columns, grid.rows, grid.cells.size())));
  if (!std::isfinite(grid.cell_size) || !(grid.cell_size > 0.0f) || !std::isfinite(grid.wall_height) ||
      !(grid.wall_height > 0.0f))
    return core::fail(
        core::Diagnostic::error("render.iso.grid", "cell size and wall height must be finite and positive")
            .expect("> 0", fmt::format("cell {}, wall {}", grid.cell_size, grid.wall_height)));
  const float s = grid.cell_size;
  IsoScene scene;
  auto is_wall = [&](std::int64_t c, std::int64_t r) {
    if (c < 0 || r < 0 || c >= grid.columns || r >= grid.rows) return false;
    return grid.at(static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(r)).wall != 0;
  };
  for (std::uint32_t r = 0; r < grid.rows; ++r) {
    for (std::uint32_t c = 0; c < grid.columns; ++c) {
      const IsoCell& cell = grid.at(c, r);
      const std::size_t at = static_cast<std::size_t>(r) * grid.columns + c;
      const float x0 = static_cast<float>(c) * s, y0 = static_cast<float>(r) * s;
      if (cell.floor != 0 && cell.wall == 0) {
        if (cell.floor > style.floor_colors.size())
          return core::fail(core::Diagnostic::error("render.iso.palette", "floor colour not in the style")
                                .in(fmt::format("cells[{}].floor", at))
                                .expect(fmt::format("1..{}", style.floor_colors.size()), std::to_string(cell.floor)));
        const Rgba8 base = style.floor_colors[cell.floor - 1u];
        const Rgba8 color = ((c + r) & 1u) ? scaled(base, 1.0f - style.checker) : base;
        const auto b = static_cast<std::uint32_t>(scene.floors.positions.size());
        const core::Vec3 p[4] = {{x0, y0, 0.0f}, {x0 + s, y0, 0.0f}, {x0 + s, y0 + s, 0.0f}, {x0, y0 + s, 0.0f}};
        const core::Vec2 uv[4] = {{0.0f, 1.0f}, {1.0f, 1.0f}, {1.0f, 0.0f}, {0.0f, 0.0f}};
        for (int k = 0; k < 4; ++k) {
          scene.floors.positions.push_back(p[k]);
          scene.floors.normals.push_back({0.0f, 0.0f, 1.0f});
          scene.floors.uvs.push_back(uv[k]);
          scene.floors.colors.push_back(color);
          scene.bounds.expand(p[k]);
        }
        scene.floors.indices.insert(scene.floors.indices.end(), {b, b + 1, b + 2, b, b + 2, b + 3});
      }
      if (cell.wall != 0) {
        if (cell.wall > style.wall_colors.size())
          return core::fail(core::Diagnostic::error("render.iso.palette", "wall colour not in the style")
                                .in(fmt::format("cells[{}].wall", at))
                                .expect(fmt::format("1..{}", style.wall_colors.size()), std::to_string(cell.wall)));
        std::uint8_t faces = kBoxMaxZ;
        const auto ci = static_cast<std::int64_t>(c), ri = static_cast<std::int64_t>(r);
        if (!is_wall(ci - 1, ri)) faces |= kBoxMinX;
        if (!is_wall(ci + 1, ri)) faces |= kBoxMaxX;
        if (!is_wall(ci, ri - 1)) faces |= kBoxMinY;
        if (!is_wall(ci, ri + 1)) faces |= kBoxMaxY;
        const core::Aabb box = core::Aabb::from_min_max({x0, y0, 0.0f}, {x0 + s, y0 + s, grid.wall_height});
        scene.walls.append(make_box(box, style.wall_colors[cell.wall - 1u], faces));
        scene.bounds.merge(box);
      }
    }
  }
  auto material = [&](const TextureView& texture) {
    Material m;
    m.texture = texture;
    m.filter = style.filter;
    m.lit = true;
    return m;
  };
  scene.floor_material = material(style.floor_texture);
  scene.wall_material = material(style.wall_texture);
  return scene;
}

std::vector<DrawCall> IsoScene::draws() const {
  std::vector<DrawCall> out;
  if (!floors.indices.empty()) out.push_back({floors.view(), floor_material, core::Mat4::identity()});
  if (!walls.indices.empty()) out.push_back({walls.view(), wall_material, core::Mat4::identity()});
  return out;
}

Camera IsoScene::camera(float aspect, float yaw, float margin) const {
  IsometricView v;
  v.yaw = yaw;
  v.aspect = aspect > 0.0f && std::isfinite(aspect) ? aspect : 1.0f;
  if (bounds.empty()) return Camera::isometric(v);
  v.focus = bounds.center();
  const float radius = std::max(1.0f, core::length(bounds.extent()));
  v.distance = 2.0f * radius;
  // Frame the eight corners in view space.
  const Camera probe = Camera::isometric(v);
  float half_w = 0.0f, half_h = 0.0f;
  for (int i = 0; i < 8; ++i) {
    const core::Vec3 corner{(i & 1) ? bounds.max.x : bounds.min.x, (i & 2) ? bounds.max.y : bounds.min.y,
                            (i & 4) ? bounds.max.z : bounds.min.z};
    const core::Vec3 p = probe.view.transform_point(corner);
    half_w = std::max(half_w, std::abs(p.x));
    half_h = std::max(half_h, std::abs(p.y));
  }
  const float free = std::clamp(1.0f - 2.0f * margin, 0.1f, 1.0f);
  v.view_width = std::max(2.0f * half_w, 2.0f * half_h * v.aspect) / free;
  return Camera::isometric(v);
}

}  // namespace sortie::render
