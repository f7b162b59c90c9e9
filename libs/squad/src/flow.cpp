#include "sortie/squad/flow.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sortie::squad {

void FlowField::compute(const WallGrid& walls, std::span<const std::int32_t> source_cells, int x0, int y0, int x1,
                        int y1, std::int32_t max_steps) {
  walls_ = &walls;
  x0_ = std::max(0, x0);
  y0_ = std::max(0, y0);
  const int xe = std::min(walls.width() - 1, x1);
  const int ye = std::min(walls.height() - 1, y1);
  w_ = std::max(0, xe - x0_ + 1);
  h_ = std::max(0, ye - y0_ + 1);
  dist_.assign(static_cast<std::size_t>(w_) * static_cast<std::size_t>(h_), -1);
  queue_.clear();
  const int map_w = walls.width();
  for (const std::int32_t cell : source_cells) {
    const int cx = cell % map_w;
    const int cy = cell / map_w;
    if (cx < x0_ || cy < y0_ || cx >= x0_ + w_ || cy >= y0_ + h_ || walls.solid(cx, cy)) continue;
    const auto k = static_cast<std::size_t>((cy - y0_) * w_ + (cx - x0_));
    if (dist_[k] == 0) continue;
    dist_[k] = 0;
    queue_.push_back(static_cast<std::int32_t>(k));
  }
  constexpr int kDx[4] = {1, -1, 0, 0};
  constexpr int kDy[4] = {0, 0, 1, -1};
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const std::int32_t k = queue_[head];
    const std::int32_t d = dist_[static_cast<std::size_t>(k)];
    if (d >= max_steps) continue;
    const int lx = k % w_;
    const int ly = k / w_;
    for (int n = 0; n < 4; ++n) {
      const int nx = lx + kDx[n];
      const int ny = ly + kDy[n];
      if (nx < 0 || ny < 0 || nx >= w_ || ny >= h_) continue;
      if (walls.solid(nx + x0_, ny + y0_)) continue;
      const auto nk = static_cast<std::size_t>(ny * w_ + nx);
      if (dist_[nk] >= 0) continue;
      dist_[nk] = d + 1;
      queue_.push_back(static_cast<std::int32_t>(nk));
    }
  }
}

void FlowField::compute_all(const WallGrid& walls, std::span<const std::int32_t> source_cells) {
  compute(walls, source_cells, 0, 0, walls.width() - 1, walls.height() - 1, std::numeric_limits<std::int32_t>::max());
}

std::int32_t FlowField::distance(int cx, int cy) const {
  const int lx = cx - x0_;
  const int ly = cy - y0_;
  if (lx < 0 || ly < 0 || lx >= w_ || ly >= h_) return -1;
  return dist_[static_cast<std::size_t>(ly * w_ + lx)];
}

std::int32_t FlowField::distance_at(core::Vec2 p) const {
  if (!core::is_finite(p)) return -1;
  return distance(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y)));
}

std::optional<core::Vec2> FlowField::next_waypoint(core::Vec2 p) const {
  if (walls_ == nullptr || !core::is_finite(p)) return std::nullopt;
  const int cx = static_cast<int>(std::floor(p.x));
  const int cy = static_cast<int>(std::floor(p.y));
  const std::int32_t here = distance(cx, cy);
  if (here <= 0) return std::nullopt;
  constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  constexpr int kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  std::int32_t best = here;
  int bx = 0;
  int by = 0;
  for (int n = 0; n < 8; ++n) {
    const int nx = cx + kDx[n];
    const int ny = cy + kDy[n];
    if (kDx[n] != 0 && kDy[n] != 0 && (walls_->solid(cx + kDx[n], cy) || walls_->solid(cx, cy + kDy[n]))) continue;
    const std::int32_t d = distance(nx, ny);
    if (d < 0 || d >= best) continue;
    best = d;
    bx = nx;
    by = ny;
  }
  if (best == here) return std::nullopt;
  return core::Vec2{static_cast<float>(bx) + 0.5f, static_cast<float>(by) + 0.5f};
}

}  // namespace sortie::squad
