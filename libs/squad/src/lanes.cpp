#include "sortie/squad/lanes.hpp"

#include <algorithm>
#include <cmath>

#include "sortie/squad/det_math.hpp"

namespace sortie::squad {

LaneCheck lane_clear_from(const WallGrid& walls, const Tuning& tuning, const BodyGrid& allies, std::int32_t shooter,
                          core::Vec2 from, core::Vec2 target, LaneDetail detail) {
  LaneCheck out;
  out.muzzle = muzzle_point(from, target, tuning.muzzle_offset);
  const float threshold = lane_threshold(tuning);
  const float threshold2 = threshold * threshold;
  const auto check_allies = [&] {
    allies.for_each_near_segment(out.muzzle, target, threshold, [&](const BodyGrid::Item& it) {
      if (static_cast<std::int32_t>(it.index) == shooter) return false;
      const float t = closest_param_on_segment(it.pos, out.muzzle, target);
      const core::Vec2 q = out.muzzle + (target - out.muzzle) * t;
      if (core::length_squared(it.pos - q) < threshold2) {
        out.blocked_by_ally = true;
        out.ally = static_cast<std::int32_t>(it.index);
        return true;
      }
      return false;
    });
  };
  const auto check_walls = [&] { out.blocked_by_wall = walls.blocked(out.muzzle, target); };
  const auto check_range = [&] { out.out_of_range = core::distance(out.muzzle, target) > tuning.weapon_range; };
  if (detail == LaneDetail::all_reasons) {
    check_allies();
    check_walls();
    check_range();
  } else {
    check_range();
    if (!out.out_of_range) check_walls();
    if (!out.out_of_range && !out.blocked_by_wall) check_allies();
  }
  out.clear = !out.blocked_by_ally && !out.blocked_by_wall && !out.out_of_range;
  return out;
}

core::Vec2 lane_push(core::Vec2 p, const Lane& lane, float reserve, float strength) {
  const float d = distance_point_segment(p, lane.from, lane.to);
  if (!(d < reserve)) return {};
  const core::Vec2 dir = core::normalize_or(lane.to - lane.from, {1.0f, 0.0f});
  const core::Vec2 right = core::perp(dir);
  const float side = core::dot(p - lane.from, right) < 0.0f ? -1.0f : 1.0f;
  const float magnitude = std::min(1.0f, (1.0f - d / reserve) * strength);
  return right * (side * magnitude);
}

void LaneRegistry::reset(float width, float height) {
  cols_ = std::max(1, static_cast<int>(std::ceil(width)));
  rows_ = std::max(1, static_cast<int>(std::ceil(height)));
  lanes_.clear();
  start_.assign(static_cast<std::size_t>(cols_) * static_cast<std::size_t>(rows_) + 1, 0);
  items_.clear();
}

int LaneRegistry::cell_index(core::Vec2 p) const {
  const int cx = std::clamp(static_cast<int>(std::floor(p.x)), 0, cols_ - 1);
  const int cy = std::clamp(static_cast<int>(std::floor(p.y)), 0, rows_ - 1);
  return cy * cols_ + cx;
}

void LaneRegistry::build(float reserve) {
  reserve_ = reserve;
  scratch_.clear();
  const float reach = reserve + 0.70710678f;  // + half the unit cell's diagonal
  for (std::size_t li = 0; li < lanes_.size(); ++li) {
    const Lane& l = lanes_[li];
    const int x0 = std::clamp(static_cast<int>(std::floor(std::min(l.from.x, l.to.x) - reserve)), 0, cols_ - 1);
    const int x1 = std::clamp(static_cast<int>(std::floor(std::max(l.from.x, l.to.x) + reserve)), 0, cols_ - 1);
    const int y0 = std::clamp(static_cast<int>(std::floor(std::min(l.from.y, l.to.y) - reserve)), 0, rows_ - 1);
    const int y1 = std::clamp(static_cast<int>(std::floor(std::max(l.from.y, l.to.y) + reserve)), 0, rows_ - 1);
    for (int cy = y0; cy <= y1; ++cy) {
      for (int cx = x0; cx <= x1; ++cx) {
        const core::Vec2 centre{static_cast<float>(cx) + 0.5f, static_cast<float>(cy) + 0.5f};
        if (distance_point_segment(centre, l.from, l.to) > reach) continue;
        scratch_.emplace_back(static_cast<std::uint32_t>(cy * cols_ + cx), static_cast<std::uint32_t>(li));
      }
    }
  }
  const std::size_t cells = static_cast<std::size_t>(cols_) * static_cast<std::size_t>(rows_);
  start_.assign(cells + 1, 0);
  for (const auto& [cell, lane] : scratch_) ++start_[cell + 1];
  for (std::size_t c = 0; c < cells; ++c) start_[c + 1] += start_[c];
  items_.resize(scratch_.size());
  std::vector<std::uint32_t> next(start_.begin(), start_.end() - 1);
  // scratch_ is in lane order, so each cell lists its lanes in registry order.
  for (const auto& [cell, lane] : scratch_) items_[next[cell]++] = lane;
}

core::Vec2 LaneRegistry::avoidance(core::Vec2 p, std::int32_t self, float strength) const {
  core::Vec2 sum;
  if (lanes_.empty()) return sum;
  const auto c = static_cast<std::size_t>(cell_index(p));
  // Pushes of the lanes whose reserve holds p; and whether two of them push against each other.
  core::Vec2 dir_sum;
  bool opposed = false;
  core::Vec2 first_push;
  int pushing = 0;
  for (std::uint32_t k = start_[c]; k < start_[c + 1]; ++k) {
    const Lane& l = lanes_[items_[k]];
    if (l.agent == self) continue;
    const core::Vec2 push = lane_push(p, l, reserve_, strength);
    if (core::length_squared(push) == 0.0f) continue;
    if (pushing == 0) {
      first_push = push;
    } else if (core::dot(push, first_push) < 0.0f) {
      opposed = true;
    }
    ++pushing;
    sum += push;
    dir_sum += core::normalize_or(l.to - l.from, {1.0f, 0.0f});
  }
  if (opposed) {
    // Between lanes the pushes cancel and would hold the agent in the middle: leave the whole
    // bundle by its nearer edge instead, across the lanes' mean direction.
    const core::Vec2 across = core::perp(core::normalize_or(dir_sum, core::perp(first_push)));
    float need_plus = 0.0f;
    float need_minus = 0.0f;
    for (std::uint32_t k = start_[c]; k < start_[c + 1]; ++k) {
      const Lane& l = lanes_[items_[k]];
      if (l.agent == self || distance_point_segment(p, l.from, l.to) >= reserve_) continue;
      const core::Vec2 q = l.from + (l.to - l.from) * closest_param_on_segment(p, l.from, l.to);
      const float side = core::dot(p - q, across);
      need_plus = std::max(need_plus, reserve_ - side);
      need_minus = std::max(need_minus, reserve_ + side);
    }
    const bool plus = need_plus <= need_minus;
    const float need = plus ? need_plus : need_minus;
    return across * ((plus ? 1.0f : -1.0f) * std::min(1.0f, need / reserve_ * strength));
  }
  const float len = core::length(sum);
  if (len > 1.0f) sum = sum / len;
  return sum;
}

int LaneRegistry::count_blocked(core::Vec2 p, std::int32_t self, float threshold) const {
  int n = 0;
  if (lanes_.empty()) return n;
  const auto c = static_cast<std::size_t>(cell_index(p));
  for (std::uint32_t k = start_[c]; k < start_[c + 1]; ++k) {
    const Lane& l = lanes_[items_[k]];
    if (l.agent == self) continue;
    if (distance_point_segment(p, l.from, l.to) < threshold) ++n;
  }
  return n;
}

}  // namespace sortie::squad
