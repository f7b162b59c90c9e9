#include "sortie/move/collision.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sortie::move {
namespace {

constexpr std::int64_t kCellLimit = std::int64_t{1} << 30;

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
  for (std::size_t i = 0; i < positions.size(); ++i) {
    entries_.emplace_back(key(cell_coord(positions[i].x), cell_coord(positions[i].y)), static_cast<std::uint32_t>(i));
  }
  std::sort(entries_.begin(), entries_.end());
}

void UniformGrid::query(core::Vec2 p, float r, std::vector<std::uint32_t>& out) const {
  out.clear();
  const std::int64_t x0 = cell_coord(p.x - r), x1 = cell_coord(p.x + r);
  const std::int64_t y0 = cell_coord(p.y - r), y1 = cell_coord(p.y + r);
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
