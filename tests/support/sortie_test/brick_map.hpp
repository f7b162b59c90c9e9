#pragma once
// Generated areal maps for route tests: rows of rectangles whose column splits differ from row
// to row ("brick wall"), so an areal's top and bottom edges meet several areals (T-junctions):
// each ring is split at the neighbours' corners and every sub-edge links the areal across it
// with the facing edge index (link_edges). Random areals are marked blocked (logic_flag
// kBlockedLogic) to make holes (at least one when blocked_share > 0); random rows may be made of one areal spanning the
// whole width. A candidate grid lists every areal overlapping each cell. Header-only, deterministic.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sortie/core/rng.hpp"
#include "sortie/nav/areal_map.hpp"

namespace sortie::test {

inline constexpr std::uint32_t kBlockedLogic = 0x1;

struct BrickMapOptions {
  std::uint32_t rows = 4;
  std::uint32_t max_columns = 4;  // areals per row: 1..max_columns
  float width = 100.0f;
  float height = 100.0f;
  float blocked_share = 0.15f;  // share of areals marked blocked
  std::uint32_t grid_cells = 16;
  std::uint64_t seed = 1;
};

struct BrickMap {
  nav::ArealInput input;
  std::vector<std::vector<float>> splits;  // per row: x boundaries including 0 and width
  std::vector<float> row_y;                // rows + 1 boundaries
};

inline BrickMap make_brick_map(const BrickMapOptions& o) {
  core::Rng rng(o.seed, 0xB41C);
  BrickMap m;
  for (std::uint32_t r = 0; r <= o.rows; ++r)
    m.row_y.push_back(o.height * static_cast<float>(r) / static_cast<float>(o.rows));
  for (std::uint32_t r = 0; r < o.rows; ++r) {
    const std::uint32_t cols = 1 + rng.below(o.max_columns);
    std::vector<float> xs{0.0f};
    // Random interior splits on a 1/64 lattice of the width (distinct, ascending).
    std::vector<std::uint32_t> picks;
    while (picks.size() + 1 < cols) {
      const std::uint32_t k = 1 + rng.below(63);
      if (std::find(picks.begin(), picks.end(), k) == picks.end()) picks.push_back(k);
    }
    std::sort(picks.begin(), picks.end());
    for (std::uint32_t k : picks) xs.push_back(o.width * static_cast<float>(k) / 64.0f);
    xs.push_back(o.width);
    m.splits.push_back(std::move(xs));
  }
  // Areal ids row by row, left to right.
  std::vector<std::vector<std::uint32_t>> ids(o.rows);
  std::uint32_t next = 0;
  for (std::uint32_t r = 0; r < o.rows; ++r)
    for (std::size_t c = 0; c + 1 < m.splits[r].size(); ++c) ids[r].push_back(next++);
  m.input.areals.resize(next);
  // The areal of row r covering the open stretch (a, b).
  auto owner = [&](std::uint32_t r, float a, float b) {
    const auto& xs = m.splits[r];
    for (std::size_t c = 0; c + 1 < xs.size(); ++c)
      if (xs[c] <= a && b <= xs[c + 1]) return ids[r][c];
    return nav::kNoAreal;
  };
  struct PendingLink {
    std::uint32_t areal;
    std::size_t edge;
    std::uint32_t other;
    float a, b;  // the shared stretch along x (horizontal edges) or y (vertical edges)
  };
  std::vector<PendingLink> pending;
  for (std::uint32_t r = 0; r < o.rows; ++r) {
    const auto& xs = m.splits[r];
    const float y0 = m.row_y[r], y1 = m.row_y[r + 1];
    for (std::size_t c = 0; c + 1 < xs.size(); ++c) {
      const float x0 = xs[c], x1 = xs[c + 1];
      nav::ArealPolygon& p = m.input.areals[ids[r][c]];
      p.anchor = {(x0 + x1) * 0.5f, (y0 + y1) * 0.5f};
      p.logic_flag = rng.unit_f32() < o.blocked_share ? kBlockedLogic : 0u;
      // Counter-clockwise: bottom (left -> right), right side, top (right -> left), left side.
      auto cuts = [&](std::int64_t row) {
        std::vector<float> out;
        if (row < 0 || row >= static_cast<std::int64_t>(o.rows)) return out;
        for (float x : m.splits[static_cast<std::size_t>(row)])
          if (x > x0 && x < x1) out.push_back(x);
        return out;
      };
      std::vector<float> bottom{x0};
      for (float x : cuts(static_cast<std::int64_t>(r) - 1)) bottom.push_back(x);
      bottom.push_back(x1);
      std::vector<float> top{x1};
      auto tc = cuts(static_cast<std::int64_t>(r) + 1);
      std::reverse(tc.begin(), tc.end());
      for (float x : tc) top.push_back(x);
      top.push_back(x0);
      for (std::size_t k = 0; k + 1 < bottom.size(); ++k) {
        p.ring.push_back({bottom[k], y0});
        const std::uint32_t other = r > 0 ? owner(r - 1, bottom[k], bottom[k + 1]) : nav::kNoAreal;
        p.links.push_back(other == nav::kNoAreal ? -1 : static_cast<std::int32_t>(other));
        if (other != nav::kNoAreal) pending.push_back({ids[r][c], p.ring.size() - 1, other, bottom[k], bottom[k + 1]});
      }
      // Right side.
      p.ring.push_back({x1, y0});
      const bool has_right = c + 2 < xs.size();
      p.links.push_back(has_right ? static_cast<std::int32_t>(ids[r][c + 1]) : -1);
      for (std::size_t k = 0; k + 1 < top.size(); ++k) {
        p.ring.push_back({top[k], y1});
        const std::uint32_t other = r + 1 < o.rows ? owner(r + 1, top[k + 1], top[k]) : nav::kNoAreal;
        p.links.push_back(other == nav::kNoAreal ? -1 : static_cast<std::int32_t>(other));
        if (other != nav::kNoAreal) pending.push_back({ids[r][c], p.ring.size() - 1, other, top[k + 1], top[k]});
      }
      // Left side.
      p.ring.push_back({x0, y1});
      p.links.push_back(c > 0 ? static_cast<std::int32_t>(ids[r][c - 1]) : -1);
    }
  }
  // At least one hole whenever holes are asked for (the middle areal).
  if (o.blocked_share > 0.0f && next > 2 &&
      std::none_of(m.input.areals.begin(), m.input.areals.end(),
                   [](const nav::ArealPolygon& p) { return p.logic_flag != 0; }))
    m.input.areals[next / 2].logic_flag = kBlockedLogic;
  // Facing edges: the other areal's edge linking back over the same stretch; the vertical
  // sides face each other's opposite side.
  for (auto& p : m.input.areals) p.link_edges.assign(p.links.size(), -1);
  for (const PendingLink& l : pending) {
    const nav::ArealPolygon& other = m.input.areals[l.other];
    for (std::size_t k = 0; k < other.ring.size(); ++k) {
      if (other.links[k] != static_cast<std::int32_t>(l.areal)) continue;
      const core::Vec2 a = other.ring[k];
      const core::Vec2 b = other.ring[(k + 1) % other.ring.size()];
      if (a.y != b.y) continue;
      if (std::min(a.x, b.x) == l.a && std::max(a.x, b.x) == l.b)
        m.input.areals[l.areal].link_edges[l.edge] = static_cast<std::int32_t>(k);
    }
  }
  for (std::uint32_t id = 0; id < m.input.areals.size(); ++id) {
    auto& p = m.input.areals[id];
    for (std::size_t k = 0; k < p.ring.size(); ++k) {
      if (p.links[k] < 0) continue;
      const core::Vec2 a = p.ring[k];
      const core::Vec2 b = p.ring[(k + 1) % p.ring.size()];
      if (a.x != b.x) continue;  // horizontal: done above
      const auto& other = m.input.areals[static_cast<std::size_t>(p.links[k])];
      for (std::size_t j = 0; j < other.ring.size(); ++j) {
        const core::Vec2 u = other.ring[j];
        const core::Vec2 v = other.ring[(j + 1) % other.ring.size()];
        if (u.x == v.x && u.x == a.x && other.links[j] == static_cast<std::int32_t>(id))
          p.link_edges[k] = static_cast<std::int32_t>(j);
      }
    }
  }
  nav::CandidateGrid g;
  g.min = {0.0f, 0.0f};
  g.max = {o.width, o.height};
  g.cells_x = g.cells_y = o.grid_cells;
  g.cells.resize(std::size_t{o.grid_cells} * o.grid_cells);
  const float cw = o.width / static_cast<float>(o.grid_cells);
  const float ch = o.height / static_cast<float>(o.grid_cells);
  for (std::uint32_t id = 0; id < m.input.areals.size(); ++id) {
    float lo_x = o.width, lo_y = o.height, hi_x = 0, hi_y = 0;
    for (auto v : m.input.areals[id].ring) {
      lo_x = std::min(lo_x, v.x);
      lo_y = std::min(lo_y, v.y);
      hi_x = std::max(hi_x, v.x);
      hi_y = std::max(hi_y, v.y);
    }
    for (std::uint32_t cy = 0; cy < o.grid_cells; ++cy)
      for (std::uint32_t cx = 0; cx < o.grid_cells; ++cx) {
        const float bx0 = static_cast<float>(cx) * cw, bx1 = bx0 + cw;
        const float by0 = static_cast<float>(cy) * ch, by1 = by0 + ch;
        if (hi_x >= bx0 && lo_x <= bx1 && hi_y >= by0 && lo_y <= by1) g.cells[cy * o.grid_cells + cx].push_back(id);
      }
  }
  m.input.grid = std::move(g);
  return m;
}

}  // namespace sortie::test
