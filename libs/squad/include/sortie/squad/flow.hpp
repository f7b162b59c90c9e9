#pragma once
// Breadth-first distance fields over the floor cells of a WallGrid, inside a window of cells.
// Hostiles follow a field grown from every live agent (the whole map); an agent whose straight
// line to its slot or post is cut by a wall follows a small field grown from its squad's disc.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/squad/walls.hpp"

namespace sortie::squad {

class FlowField {
 public:
  // 4-connected BFS from `sources` (cells; walls and cells outside the window are skipped) over
  // the window [x0, x1] x [y0, y1], stopping at distance `max_steps`.
  void compute(const WallGrid& walls, std::span<const std::int32_t> source_cells, int x0, int y0, int x1, int y1,
               std::int32_t max_steps);
  // The whole map.
  void compute_all(const WallGrid& walls, std::span<const std::int32_t> source_cells);

  // Steps to the nearest source, -1 when unreachable or outside the window.
  [[nodiscard]] std::int32_t distance(int cx, int cy) const;
  [[nodiscard]] std::int32_t distance_at(core::Vec2 p) const;
  // Centre of the neighbouring cell (8 directions, no cutting past a wall corner) with the
  // smallest distance below the current cell's; nullopt at a source, off the field or stuck.
  [[nodiscard]] std::optional<core::Vec2> next_waypoint(core::Vec2 p) const;
  [[nodiscard]] bool empty() const { return dist_.empty(); }

 private:
  const WallGrid* walls_ = nullptr;
  int x0_ = 0;
  int y0_ = 0;
  int w_ = 0;
  int h_ = 0;
  std::vector<std::int32_t> dist_;
  std::vector<std::int32_t> queue_;
};

}  // namespace sortie::squad
