#include "sortie/move/collision.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sortie::move {
namespace {

constexpr std::int64_t kCellLimit = std::int64_t{1} << 30;
// The dense cell table is used while the occupied cells' box holds at most this many cells.
constexpr std::uint64_t kDenseMinCells = 4096;
constexpr std::uint64_t kDenseCellsPerEntry = 32;

}  // namespace

std::int64_t UniformGrid::cell_coord(float v) const {
  const double c = std::floor(static_cast<double>(v) / static_cast<double>(cell_));
  return static_cast<std::int64_t>(std::clamp(c, -static_cast<double>(kCellLimit), static_cast<double>(kCellLimit)));
}

std::uint64_t UniformGrid::key(std::int64_t cx, std::int64_t cy) {
  return (static_cast<std::uint64_t>(cy + kCellLimit + 1) << 32) | static_cast<std::uint64_t>(cx + kCellLimit + 1);
}

void UniformGrid::build(std::span<const core::Vec2> positions, float cell) {
  cell_ = cell > 0.0f ? cell : 1.0f;
  positions_.assign(positions.begin(), positions.end());
  entries_.clear();
  entries_.reserve(positions.size());
  cell_start_.clear();
  dense_ = false;
  if (positions.empty()) return;
  std::int64_t min_x = kCellLimit, max_x = -kCellLimit, min_y = kCellLimit, max_y = -kCellLimit;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const std::int64_t cx = cell_coord(positions[i].x);
    const std::int64_t cy = cell_coord(positions[i].y);
    min_x = std::min(min_x, cx);
    max_x = std::max(max_x, cx);
    min_y = std::min(min_y, cy);
    max_y = std::max(max_y, cy);
    entries_.emplace_back(key(cx, cy), static_cast<std::uint32_t>(i));
  }
  // Coordinates are clamped to +-2^30, so the extents and their product fit in 64 bits.
  const auto width = static_cast<std::uint64_t>(max_x - min_x + 1);
  const auto height = static_cast<std::uint64_t>(max_y - min_y + 1);
  const std::uint64_t limit = std::max<std::uint64_t>(kDenseMinCells, kDenseCellsPerEntry * positions.size());
  if (width > limit || height > limit || width * height > limit) {
    std::sort(entries_.begin(), entries_.end());
    return;
  }
  // Dense table over the occupied cells: a counting sort by row-major cell, stable in index,
  // gives the same (key, index) order as sorting, and every cell's range in O(1).
  dense_ = true;
  min_x_ = min_x;
  min_y_ = min_y;
  max_x_ = max_x;
  max_y_ = max_y;
  width_ = width;
  cell_start_.assign(width * height + 1, 0);
  auto slot = [&](std::uint64_t k) {
    const std::int64_t cx = static_cast<std::int64_t>(k & 0xFFFFFFFFu) - kCellLimit - 1;
    const std::int64_t cy = static_cast<std::int64_t>(k >> 32) - kCellLimit - 1;
    return static_cast<std::uint64_t>(cy - min_y) * width + static_cast<std::uint64_t>(cx - min_x);
  };
  for (const auto& e : entries_) cell_start_[slot(e.first) + 1] += 1;
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  sorted_.resize(entries_.size());
  fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (const auto& e : entries_) sorted_[fill_[slot(e.first)]++] = e;
  entries_.swap(sorted_);
}

std::pair<std::uint32_t, std::uint32_t> UniformGrid::cell_range(std::int64_t cy, std::int64_t x0,
                                                                std::int64_t x1) const {
  const std::uint64_t row = static_cast<std::uint64_t>(cy - min_y_) * width_;
  return {cell_start_[row + static_cast<std::uint64_t>(x0 - min_x_)],
          cell_start_[row + static_cast<std::uint64_t>(x1 - min_x_) + 1]};
}

void UniformGrid::query(core::Vec2 p, float r, std::vector<std::uint32_t>& out) const {
  out.clear();
  std::int64_t x0 = cell_coord(p.x - r), x1 = cell_coord(p.x + r);
  std::int64_t y0 = cell_coord(p.y - r), y1 = cell_coord(p.y + r);
  if (dense_) {
    x0 = std::max(x0, min_x_);
    x1 = std::min(x1, max_x_);
    y0 = std::max(y0, min_y_);
    y1 = std::min(y1, max_y_);
    if (x0 <= x1) {
      for (std::int64_t cy = y0; cy <= y1; ++cy) {
        const auto [begin, end] = cell_range(cy, x0, x1);
        for (std::uint32_t k = begin; k < end; ++k) out.push_back(entries_[k].second);
      }
    }
    std::sort(out.begin(), out.end());
    return;
  }
  // Rows come in ascending key order, so each row's search starts where the previous row ended.
  auto from = entries_.begin();
  for (std::int64_t cy = y0; cy <= y1; ++cy) {
    // One row: the cells x0..x1 are consecutive keys.
    auto it = std::lower_bound(from, entries_.end(), std::make_pair(key(x0, cy), std::uint32_t{0}));
    const std::uint64_t hi = key(x1, cy);
    for (; it != entries_.end() && it->first <= hi; ++it) out.push_back(it->second);
    from = it;
  }
  std::sort(out.begin(), out.end());
}

void UniformGrid::pairs(std::vector<std::pair<std::uint32_t, std::uint32_t>>& out) const {
  out.clear();
  for (const auto& [k, i] : entries_) {
    const std::int64_t cx = static_cast<std::int64_t>(k & 0xFFFFFFFFu) - kCellLimit - 1;
    const std::int64_t cy = static_cast<std::int64_t>(k >> 32) - kCellLimit - 1;
    if (dense_) {
      const std::int64_t x0 = std::max(cx - 1, min_x_), x1 = std::min(cx + 1, max_x_);
      for (std::int64_t y = std::max(cy - 1, min_y_); y <= std::min(cy + 1, max_y_); ++y) {
        const auto [begin, end] = cell_range(y, x0, x1);
        for (std::uint32_t e = begin; e < end; ++e) {
          if (entries_[e].second > i) out.emplace_back(i, entries_[e].second);
        }
      }
      continue;
    }
    for (std::int64_t y = cy - 1; y <= cy + 1; ++y) {
      auto it = std::lower_bound(entries_.begin(), entries_.end(), std::make_pair(key(cx - 1, y), std::uint32_t{0}));
      const std::uint64_t hi = key(cx + 1, y);
      for (; it != entries_.end() && it->first <= hi; ++it) {
        if (it->second > i) out.emplace_back(i, it->second);
      }
    }
  }
  std::sort(out.begin(), out.end());
}

bool interacts(const ProxyView& a, const ProxyView& b) {
  if (a.is_static && b.is_static) return false;
  return (a.collides_with & b.category) != 0 && (b.collides_with & a.category) != 0;
}

std::optional<Contact> narrow_phase(const ProxyView& a, const ProxyView& b) {
  if (!interacts(a, b)) return std::nullopt;
  const float dx = b.xy.x - a.xy.x;
  const float dy = b.xy.y - a.xy.y;
  const float reach = a.radius + b.radius;
  // Vertical gap between the two capsule segments (0 when either is a disc).
  float gap = 0.0f;
  if (a.shape == Shape::capsule && b.shape == Shape::capsule) {
    // The axis segment; a capsule lower than two radii is a sphere at half its height.
    auto segment = [](const ProxyView& p) {
      const float lo = p.z + std::min(p.radius, p.height * 0.5f);
      const float hi = p.z + std::max(p.height - p.radius, p.height * 0.5f);
      return std::pair{lo, hi};
    };
    const auto [alo, ahi] = segment(a);
    const auto [blo, bhi] = segment(b);
    gap = std::max(0.0f, std::max(alo, blo) - std::min(ahi, bhi));
  }
  if (!(gap < reach)) return std::nullopt;
  const float planar_sq = dx * dx + dy * dy;
  // The XY distance at which the 3-D distance is exactly `reach`.
  const float needed = gap > 0.0f ? std::sqrt(reach * reach - gap * gap) : reach;
  if (!(planar_sq < needed * needed)) return std::nullopt;
  const float planar = std::sqrt(planar_sq);
  Contact c;
  if (planar > 0.0f) {
    c.normal = core::Vec2{dx / planar, dy / planar};
  } else {
    c.normal = core::Vec2{1.0f, 0.0f};
  }
  c.depth = needed - planar;
  if (!(c.depth > 0.0f)) return std::nullopt;
  return c;
}

}  // namespace sortie::move
