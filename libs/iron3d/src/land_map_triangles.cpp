#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "sortie/core/noise.hpp"
#include "sortie/iron3d/terrain_builder.hpp"

namespace sortie::iron3d {
namespace {

using core::Diagnostic;

// The lattice point (i, j), its inner points moved by a hashed jitter.
core::Vec2 lattice_point(const TriangulatedLandMapOptions& o, core::Vec2 lo, core::Vec2 step, std::uint32_t i,
                         std::uint32_t j) {
  core::Vec2 p{lo.x + step.x * static_cast<float>(i), lo.y + step.y * static_cast<float>(j)};
  if (i > 0 && j > 0 && i < o.cells_x && j < o.cells_y) {
    p.x += (core::hash_unit(i, j, o.seed) - 0.5f) * 2.0f * o.jitter * step.x;
    p.y += (core::hash_unit(i, j, o.seed ^ 0x9e37u) - 0.5f) * 2.0f * o.jitter * step.y;
  }
  return p;
}

Areal triangle_areal(const std::array<core::Vec3, 3>& t) {
  Areal a;
  a.vertices.assign(t.begin(), t.end());
  const core::Vec3 n = core::cross(t[1] - t[0], t[2] - t[0]);
  a.normal = core::normalize_or(n.z < 0.0f ? n * -1.0f : n, {0.0f, 0.0f, 1.0f});
  a.anchor = (t[0] + t[1] + t[2]) * (1.0f / 3.0f);
  a.area_metric = 0.5f * std::abs((t[1].x - t[0].x) * (t[2].y - t[0].y) - (t[2].x - t[0].x) * (t[1].y - t[0].y));
  return a;
}

}  // namespace

core::Result<LandMap> make_triangulated_land_map(const LandMsh& msh, const TriangulatedLandMapOptions& o) {
  if (msh.positions.empty() || msh.faces.empty())
    return core::fail(Diagnostic::error("land_map.build.empty", "mesh has no faces to partition").in("faces"));
  if (o.cells_x == 0 || o.cells_y == 0 || std::uint64_t{o.cells_x} * o.cells_y * 2 > 65535)
    return core::fail(Diagnostic::error("land_map.build.areal_limit", "more areals than u16 grid ids address")
                          .expect("1 .. 32767 lattice cells", fmt::format("{} x {}", o.cells_x, o.cells_y)));
  const std::uint64_t gx = o.grid_cells_x, gy = o.grid_cells_y;
  if (gx == 0 || gy == 0 || gx * gy > (std::uint64_t{1} << 22))
    return core::fail(Diagnostic::error("land_map.build.grid", "grid size out of range")
                          .expect("1 .. 2^22 cells", fmt::format("{} x {}", gx, gy)));
  core::Vec2 lo{msh.positions[0].x, msh.positions[0].y}, hi = lo;
  for (const auto& p : msh.positions) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  }
  const core::Vec2 step{(hi.x - lo.x) / static_cast<float>(o.cells_x), (hi.y - lo.y) / static_cast<float>(o.cells_y)};
  const std::uint32_t px = o.cells_x + 1;
  std::vector<core::Vec3> points;
  points.reserve(std::size_t{px} * (o.cells_y + 1));
  for (std::uint32_t j = 0; j <= o.cells_y; ++j)
    for (std::uint32_t i = 0; i <= o.cells_x; ++i) {
      const core::Vec2 p = lattice_point(o, lo, step, i, j);
      points.push_back({p.x, p.y, o.height ? o.height(p.x, p.y) : land_msh_height_at(msh, p.x, p.y).value_or(0.0f)});
    }
  // Two triangles per lattice cell, the diagonal alternating like a checkerboard, counter-clockwise.
  LandMap map;
  map.entry.type_id = kLandMapEntryType;
  map.entry.name = core::FixedString::make("Res12", 36);
  std::vector<std::array<std::uint32_t, 3>> corners;
  for (std::uint32_t j = 0; j < o.cells_y; ++j)
    for (std::uint32_t i = 0; i < o.cells_x; ++i) {
      const std::uint32_t a = j * px + i, b = a + 1, c = a + px + 1, d = a + px;
      const bool flip = ((i + j) & 1u) != 0;
      const std::array<std::array<std::uint32_t, 3>, 2> tris =
          flip ? std::array<std::array<std::uint32_t, 3>, 2>{{{a, b, d}, {b, c, d}}}
               : std::array<std::array<std::uint32_t, 3>, 2>{{{a, b, c}, {a, c, d}}};
      for (const auto& t : tris) {
        const std::array<core::Vec3, 3> tri{points[t[0]], points[t[1]], points[t[2]]};
        if (o.blocked && o.blocked(tri)) continue;  // a hole: no areal there
        corners.push_back(t);
        map.areals.push_back(triangle_areal(tri));
      }
    }
  if (map.areals.empty())
    return core::fail(Diagnostic::error("land_map.build.empty", "every lattice triangle is blocked").in("areals"));
  // Links: the triangle across each edge (shared lattice points), naming its edge back.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::int32_t, std::int32_t>> edges;
  for (std::size_t t = 0; t < corners.size(); ++t)
    for (std::int32_t k = 0; k < 3; ++k) {
      const std::uint32_t u = corners[t][static_cast<std::size_t>(k)],
                          v = corners[t][static_cast<std::size_t>((k + 1) % 3)];
      edges.emplace(std::make_pair(u, v), std::make_pair(static_cast<std::int32_t>(t), k));
    }
  for (std::size_t t = 0; t < corners.size(); ++t)
    for (std::int32_t k = 0; k < 3; ++k) {
      const std::uint32_t u = corners[t][static_cast<std::size_t>(k)],
                          v = corners[t][static_cast<std::size_t>((k + 1) % 3)];
      const auto it = edges.find({v, u});
      map.areals[t].links.push_back(it == edges.end() ? EdgeLink{} : EdgeLink{it->second.first, it->second.second});
    }
  // The candidate grid over the kept areals' XY bounds: every areal whose box touches a cell.
  core::Vec2 glo{map.areals[0].vertices[0].x, map.areals[0].vertices[0].y}, ghi = glo;
  for (const auto& a : map.areals)
    for (const auto& v : a.vertices) {
      glo = {std::min(glo.x, v.x), std::min(glo.y, v.y)};
      ghi = {std::max(ghi.x, v.x), std::max(ghi.y, v.y)};
    }
  std::vector<std::vector<std::uint16_t>> cells(gx * gy);
  const double sx = std::max(1e-9, static_cast<double>(ghi.x) - static_cast<double>(glo.x));
  const double sy = std::max(1e-9, static_cast<double>(ghi.y) - static_cast<double>(glo.y));
  const auto cell_of = [](double v, double lo_v, double span, std::uint64_t n) {
    const double c = std::floor((v - lo_v) / span * static_cast<double>(n));
    return static_cast<std::uint64_t>(std::clamp(c, 0.0, static_cast<double>(n - 1)));
  };
  for (std::size_t t = 0; t < map.areals.size(); ++t) {
    double x0 = 1e30, x1 = -1e30, y0 = 1e30, y1 = -1e30;
    for (const auto& v : map.areals[t].vertices) {
      x0 = std::min(x0, static_cast<double>(v.x));
      x1 = std::max(x1, static_cast<double>(v.x));
      y0 = std::min(y0, static_cast<double>(v.y));
      y1 = std::max(y1, static_cast<double>(v.y));
    }
    const auto gxlo = static_cast<double>(glo.x), gylo = static_cast<double>(glo.y);
    const std::uint64_t cx0 = cell_of(x0 - 1e-3, gxlo, sx, gx), cx1 = cell_of(x1 + 1e-3, gxlo, sx, gx);
    const std::uint64_t cy0 = cell_of(y0 - 1e-3, gylo, sy, gy), cy1 = cell_of(y1 + 1e-3, gylo, sy, gy);
    for (std::uint64_t cy = cy0; cy <= cy1; ++cy)
      for (std::uint64_t cx = cx0; cx <= cx1; ++cx) cells[cy * gx + cx].push_back(static_cast<std::uint16_t>(t));
  }
  map.grid.cells_x = static_cast<std::uint32_t>(gx);
  map.grid.cells_y = static_cast<std::uint32_t>(gy);
  for (const auto& c : cells) SORTIE_CHECK(map.grid.push_cell(c));
  map.entry.attr1 = static_cast<std::uint32_t>(map.areals.size());
  return map;
}

}  // namespace sortie::iron3d
