#pragma once
// Uniform spatial grid over bodies (agents or targets), rebuilt in O(n) by a counting sort each
// time positions change. Queries visit cells in row order and, inside a cell, bodies in index
// order, so every traversal is deterministic. Neighbour, lane and bullet queries cost
// O(bodies near the query) instead of O(n).
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "sortie/core/math.hpp"

namespace sortie::squad {

class BodyGrid {
 public:
  struct Item {
    std::uint32_t index = 0;
    core::Vec2 pos;
  };

  // Covers [0, width] x [0, height]; positions outside are clamped into the border cells.
  void reset(float width, float height, float cell);
  // Rebuilds from `count` bodies; pos_of(i, out) returns false for bodies to leave out.
  template <class PosOf>
  void build(std::size_t count, PosOf&& pos_of);

  [[nodiscard]] float cell_size() const { return cell_; }
  [[nodiscard]] std::size_t size() const { return items_.size(); }

  // f(const Item&) -> bool (true stops). Visits every body whose centre is within r of c (and
  // possibly a few more: callers test exact distances).
  template <class F>
  bool for_each_in_circle(core::Vec2 c, float r, F&& f) const;
  // Bodies whose centre may be within r of the segment a-b.
  template <class F>
  bool for_each_near_segment(core::Vec2 a, core::Vec2 b, float r, F&& f) const;

 private:
  [[nodiscard]] int cx_of(float x) const {
    const int c = static_cast<int>(std::floor(x * inv_cell_));
    return c < 0 ? 0 : (c >= cols_ ? cols_ - 1 : c);
  }
  [[nodiscard]] int cy_of(float y) const {
    const int c = static_cast<int>(std::floor(y * inv_cell_));
    return c < 0 ? 0 : (c >= rows_ ? rows_ - 1 : c);
  }
  template <class F>
  bool visit_cell(int cx, int cy, F& f) const {
    const std::size_t c = static_cast<std::size_t>(cy) * static_cast<std::size_t>(cols_) + static_cast<std::size_t>(cx);
    for (std::uint32_t k = start_[c]; k < start_[c + 1]; ++k) {
      if (f(items_[k])) return true;
    }
    return false;
  }

  float cell_ = 1.0f;
  float inv_cell_ = 1.0f;
  int cols_ = 1;
  int rows_ = 1;
  std::vector<std::uint32_t> start_;  // cols*rows + 1 prefix sums
  std::vector<Item> items_;
  std::vector<std::uint32_t> scratch_cell_;
  std::vector<Item> scratch_items_;
  std::vector<std::uint32_t> next_;
};

template <class PosOf>
void BodyGrid::build(std::size_t count, PosOf&& pos_of) {
  const std::size_t cells = static_cast<std::size_t>(cols_) * static_cast<std::size_t>(rows_);
  start_.assign(cells + 1, 0);
  scratch_cell_.clear();
  scratch_items_.clear();
  for (std::size_t i = 0; i < count; ++i) {
    core::Vec2 p;
    if (!pos_of(i, p)) continue;
    const auto c = static_cast<std::uint32_t>(cy_of(p.y) * cols_ + cx_of(p.x));
    scratch_cell_.push_back(c);
    scratch_items_.push_back({static_cast<std::uint32_t>(i), p});
    ++start_[c + 1];
  }
  for (std::size_t c = 0; c < cells; ++c) start_[c + 1] += start_[c];
  items_.resize(scratch_items_.size());
  next_.assign(start_.begin(), start_.end() - 1);
  for (std::size_t k = 0; k < scratch_items_.size(); ++k) items_[next_[scratch_cell_[k]]++] = scratch_items_[k];
}

template <class F>
bool BodyGrid::for_each_in_circle(core::Vec2 c, float r, F&& f) const {
  if (items_.empty()) return false;
  const int x0 = cx_of(c.x - r), x1 = cx_of(c.x + r);
  const int y0 = cy_of(c.y - r), y1 = cy_of(c.y + r);
  for (int cy = y0; cy <= y1; ++cy) {
    for (int cx = x0; cx <= x1; ++cx) {
      if (visit_cell(cx, cy, f)) return true;
    }
  }
  return false;
}

template <class F>
bool BodyGrid::for_each_near_segment(core::Vec2 a, core::Vec2 b, float r, F&& f) const {
  if (items_.empty()) return false;
  const int x0 = cx_of(std::min(a.x, b.x) - r), x1 = cx_of(std::max(a.x, b.x) + r);
  const int y0 = cy_of(std::min(a.y, b.y) - r), y1 = cy_of(std::max(a.y, b.y) + r);
  const core::Vec2 ab = b - a;
  const float len2 = core::length_squared(ab);
  const float reach = r + cell_ * 0.70710678f;  // + half the cell diagonal
  const float reach2 = reach * reach;
  for (int cy = y0; cy <= y1; ++cy) {
    for (int cx = x0; cx <= x1; ++cx) {
      const core::Vec2 centre{(static_cast<float>(cx) + 0.5f) * cell_, (static_cast<float>(cy) + 0.5f) * cell_};
      float t = len2 > 0.0f ? core::dot(centre - a, ab) / len2 : 0.0f;
      t = core::clamp(t, 0.0f, 1.0f);
      if (core::length_squared(centre - (a + ab * t)) > reach2) continue;
      if (visit_cell(cx, cy, f)) return true;
    }
  }
  return false;
}

}  // namespace sortie::squad
