#pragma once
// The static walls of a squad map: a grid of unit cells, each floor or wall. Cell (cx, cy) covers
// [cx, cx+1) x [cy, cy+1); x grows to the east (columns), y to the south (rows, down on screen).
// Everything outside the grid is wall. Queries are exact grid walks (DDA), no sampling.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sortie/core/math.hpp"

namespace sortie::squad {

class WallGrid {
 public:
  WallGrid() = default;
  // `solid` holds width x height bytes, row-major, non-zero = wall.
  WallGrid(int width, int height, std::vector<std::uint8_t> solid);

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  [[nodiscard]] std::span<const std::uint8_t> cells() const { return solid_; }

  [[nodiscard]] bool solid(int cx, int cy) const {
    if (cx < 0 || cy < 0 || cx >= width_ || cy >= height_) return true;
    return solid_[static_cast<std::size_t>(cy) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(cx)] != 0;
  }
  [[nodiscard]] bool solid_at(core::Vec2 p) const;
  // Inside the map rectangle [0, width] x [0, height].
  [[nodiscard]] bool inside(core::Vec2 p) const;

  // First parameter t in [0, 1] at which the segment a->b enters a wall cell (0 when a is in one);
  // nullopt when the whole segment is on floor. A segment through the exact corner shared by two
  // diagonal wall cells counts as blocked.
  [[nodiscard]] std::optional<float> raycast(core::Vec2 a, core::Vec2 b) const;
  [[nodiscard]] bool blocked(core::Vec2 a, core::Vec2 b) const { return raycast(a, b).has_value(); }
  // A body of radius r moving from a to b: the centre line and the two lines r to either side.
  [[nodiscard]] bool blocked_thick(core::Vec2 a, core::Vec2 b, float r) const;

  // True when a disc of radius r at p overlaps a wall cell.
  [[nodiscard]] bool circle_overlaps(core::Vec2 p, float r) const;
  // The disc pushed out of every wall cell it overlaps (two passes over the nearby cells in row
  // order: deterministic, and exact for the corners a grid map can form).
  [[nodiscard]] core::Vec2 resolve_circle(core::Vec2 p, float r) const;
  // Sum over nearby wall cells of the unit normal pointing away from the cell, each weighted by
  // (1 - gap / reach) where gap is the distance from the disc's edge to the cell (gap < reach).
  [[nodiscard]] core::Vec2 repulsion(core::Vec2 p, float r, float reach) const;

 private:
  // f(cx, cy) for each wall cell of the square of half side `extent` around p, in row order.
  template <class F>
  void for_each_wall_near(core::Vec2 p, float extent, F&& f) const;

  int width_ = 0;
  int height_ = 0;
  std::vector<std::uint8_t> solid_;
};

// Closest point of the unit cell (cx, cy) to p.
core::Vec2 closest_point_in_cell(core::Vec2 p, int cx, int cy);

}  // namespace sortie::squad
