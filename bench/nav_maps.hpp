#pragma once
// A generated set of areal maps for navigation benchmarks that are not one straight line: a
// grid of square cells with rectangular obstacles cut out (holes in the walkable union, so
// routes bend round them), where each remaining cell is one square areal or two triangles
// (random diagonal). Neighbouring areals link across every shared edge with the facing edge
// index; a candidate grid lists the areals overlapping each of its cells. Coordinates are
// multiples of 0.5 (Detour's cell size in bench_nav_detour). Header-only, deterministic.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "sortie/core/rng.hpp"
#include "sortie/nav/areal_map.hpp"

namespace sortie::bench {

struct NavMapOptions {
  std::uint32_t cells = 16;      // cells per side
  float cell_size = 8.0f;        // world units (a multiple of 0.5)
  float obstacle_share = 0.2f;   // share of cells removed, in rectangles of 1..4 x 1..4 cells
  float triangle_share = 0.5f;   // share of cells split into two triangles
  std::uint32_t grid_cells = 0;  // candidate grid per side; 0 = cells
  std::uint64_t seed = 1;
};

struct NavMap {
  nav::ArealInput input;
  std::vector<std::uint8_t> open;  // per cell (row-major): 1 = walkable
  float extent = 0.0f;             // the map is [0, extent]^2
  std::size_t triangles = 0;
};

inline NavMap make_nav_map(const NavMapOptions& o) {
  const std::uint32_t n = o.cells;
  core::Rng rng(o.seed, 0x4E41564D);
  NavMap m;
  m.extent = static_cast<float>(n) * o.cell_size;
  m.open.assign(std::size_t{n} * n, 1);
  const auto target = static_cast<std::size_t>(o.obstacle_share * static_cast<float>(n * n));
  std::size_t removed = 0;
  while (removed < target) {
    const std::uint32_t w = 1 + rng.below(4), h = 1 + rng.below(4);
    const std::uint32_t x0 = rng.below(n), y0 = rng.below(n);
    for (std::uint32_t y = y0; y < std::min(n, y0 + h); ++y)
      for (std::uint32_t x = x0; x < std::min(n, x0 + w); ++x) {
        if (m.open[std::size_t{y} * n + x]) ++removed;
        m.open[std::size_t{y} * n + x] = 0;
      }
  }
  // Per cell and side (0 bottom, 1 right, 2 top, 3 left): the areal and edge holding it.
  struct Side {
    std::int32_t areal = -1;
    std::int32_t edge = -1;
  };
  std::vector<std::array<Side, 4>> sides(std::size_t{n} * n);
  auto& areals = m.input.areals;
  auto add = [&](std::vector<core::Vec2> ring) {
    nav::ArealPolygon p;
    core::Vec2 sum{0, 0};
    for (auto v : ring) sum = sum + v;
    p.anchor = sum * (1.0f / static_cast<float>(ring.size()));
    p.links.assign(ring.size(), -1);
    p.link_edges.assign(ring.size(), -1);
    p.ring = std::move(ring);
    areals.push_back(std::move(p));
    return static_cast<std::int32_t>(areals.size() - 1);
  };
  for (std::uint32_t y = 0; y < n; ++y)
    for (std::uint32_t x = 0; x < n; ++x) {
      const std::size_t c = std::size_t{y} * n + x;
      if (!m.open[c]) continue;
      const float x0 = static_cast<float>(x) * o.cell_size, x1 = x0 + o.cell_size;
      const float y0 = static_cast<float>(y) * o.cell_size, y1 = y0 + o.cell_size;
      const core::Vec2 a{x0, y0}, b{x1, y0}, cc{x1, y1}, d{x0, y1};
      auto& s = sides[c];
      if (rng.unit_f32() >= o.triangle_share) {
        const std::int32_t id = add({a, b, cc, d});  // counter-clockwise: bottom, right, top, left
        for (std::int32_t k = 0; k < 4; ++k) s[static_cast<std::size_t>(k)] = {id, k};
        continue;
      }
      ++m.triangles;
      if (rng.below(2) == 0) {
        // Diagonal a-cc: lower-right (a, b, cc) and upper-left (a, cc, d).
        const std::int32_t t0 = add({a, b, cc});
        const std::int32_t t1 = add({a, cc, d});
        s[0] = {t0, 0};
        s[1] = {t0, 1};
        s[2] = {t1, 1};
        s[3] = {t1, 2};
        areals[static_cast<std::size_t>(t0)].links[2] = t1;  // cc -> a
        areals[static_cast<std::size_t>(t0)].link_edges[2] = 0;
        areals[static_cast<std::size_t>(t1)].links[0] = t0;  // a -> cc
        areals[static_cast<std::size_t>(t1)].link_edges[0] = 2;
      } else {
        // Diagonal b-d: lower-left (a, b, d) and upper-right (b, cc, d).
        const std::int32_t t0 = add({a, b, d});
        const std::int32_t t1 = add({b, cc, d});
        s[0] = {t0, 0};
        s[3] = {t0, 2};
        s[1] = {t1, 0};
        s[2] = {t1, 1};
        areals[static_cast<std::size_t>(t0)].links[1] = t1;  // b -> d
        areals[static_cast<std::size_t>(t0)].link_edges[1] = 2;
        areals[static_cast<std::size_t>(t1)].links[2] = t0;  // d -> b
        areals[static_cast<std::size_t>(t1)].link_edges[2] = 1;
      }
    }
  // Links across cell sides: right and top neighbours, both ways.
  for (std::uint32_t y = 0; y < n; ++y)
    for (std::uint32_t x = 0; x < n; ++x) {
      const std::size_t c = std::size_t{y} * n + x;
      if (!m.open[c]) continue;
      auto link = [&](std::size_t other, std::size_t side, std::size_t facing) {
        if (!m.open[other]) return;
        const Side u = sides[c][side], v = sides[other][facing];
        auto& pu = areals[static_cast<std::size_t>(u.areal)];
        auto& pv = areals[static_cast<std::size_t>(v.areal)];
        pu.links[static_cast<std::size_t>(u.edge)] = v.areal;
        pu.link_edges[static_cast<std::size_t>(u.edge)] = v.edge;
        pv.links[static_cast<std::size_t>(v.edge)] = u.areal;
        pv.link_edges[static_cast<std::size_t>(v.edge)] = u.edge;
      };
      if (x + 1 < n) link(c + 1, 1, 3);
      if (y + 1 < n) link(c + n, 2, 0);
    }
  nav::CandidateGrid g;
  const std::uint32_t gc = o.grid_cells != 0 ? o.grid_cells : n;
  g.min = {0.0f, 0.0f};
  g.max = {m.extent, m.extent};
  g.cells_x = g.cells_y = gc;
  g.cells.resize(std::size_t{gc} * gc);
  const float side = m.extent / static_cast<float>(gc);
  for (std::uint32_t id = 0; id < areals.size(); ++id) {
    float lo_x = m.extent, lo_y = m.extent, hi_x = 0, hi_y = 0;
    for (auto v : areals[id].ring) {
      lo_x = std::min(lo_x, v.x);
      lo_y = std::min(lo_y, v.y);
      hi_x = std::max(hi_x, v.x);
      hi_y = std::max(hi_y, v.y);
    }
    const auto first_x = static_cast<std::uint32_t>(std::max(0.0f, lo_x / side - 1.0f));
    const auto first_y = static_cast<std::uint32_t>(std::max(0.0f, lo_y / side - 1.0f));
    const auto last_x = std::min(gc - 1, static_cast<std::uint32_t>(hi_x / side + 1.0f));
    const auto last_y = std::min(gc - 1, static_cast<std::uint32_t>(hi_y / side + 1.0f));
    for (std::uint32_t cy = first_y; cy <= last_y; ++cy)
      for (std::uint32_t cx = first_x; cx <= last_x; ++cx) {
        const float bx0 = static_cast<float>(cx) * side, bx1 = bx0 + side;
        const float by0 = static_cast<float>(cy) * side, by1 = by0 + side;
        if (hi_x >= bx0 && lo_x <= bx1 && hi_y >= by0 && lo_y <= by1) g.cells[std::size_t{cy} * gc + cx].push_back(id);
      }
  }
  m.input.grid = std::move(g);
  return m;
}

}  // namespace sortie::bench
