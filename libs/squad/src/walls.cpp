#include "sortie/squad/walls.hpp"

#include <cmath>
#include <limits>

namespace sortie::squad {
namespace {
int cell_of(float v) {
  return static_cast<int>(std::floor(v));
}
}  // namespace

template <class F>
void WallGrid::for_each_wall_near(core::Vec2 p, float extent, F&& f) const {
  const int x0 = cell_of(p.x - extent);
  const int x1 = cell_of(p.x + extent);
  const int y0 = cell_of(p.y - extent);
  const int y1 = cell_of(p.y + extent);
  for (int cy = y0; cy <= y1; ++cy) {
    for (int cx = x0; cx <= x1; ++cx) {
      if (solid(cx, cy)) f(cx, cy);
    }
  }
}

WallGrid::WallGrid(int width, int height, std::vector<std::uint8_t> solid)
    : width_(width), height_(height), solid_(std::move(solid)) {}

bool WallGrid::solid_at(core::Vec2 p) const {
  if (!core::is_finite(p)) return true;
  return solid(cell_of(p.x), cell_of(p.y));
}

bool WallGrid::inside(core::Vec2 p) const {
  return p.x >= 0.0f && p.y >= 0.0f && p.x <= static_cast<float>(width_) && p.y <= static_cast<float>(height_);
}

core::Vec2 closest_point_in_cell(core::Vec2 p, int cx, int cy) {
  const auto x0 = static_cast<float>(cx);
  const auto y0 = static_cast<float>(cy);
  return {core::clamp(p.x, x0, x0 + 1.0f), core::clamp(p.y, y0, y0 + 1.0f)};
}

std::optional<float> WallGrid::raycast(core::Vec2 a, core::Vec2 b) const {
  if (!core::is_finite(a) || !core::is_finite(b)) return 0.0f;
  int cx = cell_of(a.x);
  int cy = cell_of(a.y);
  if (solid(cx, cy)) return 0.0f;
  const float dx = b.x - a.x;
  const float dy = b.y - a.y;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const int step_x = dx > 0.0f ? 1 : (dx < 0.0f ? -1 : 0);
  const int step_y = dy > 0.0f ? 1 : (dy < 0.0f ? -1 : 0);
  const float adx = std::fabs(dx);
  const float ady = std::fabs(dy);
  float t_max_x =
      step_x == 0 ? kInf : (step_x > 0 ? static_cast<float>(cx + 1) - a.x : a.x - static_cast<float>(cx)) / adx;
  float t_max_y =
      step_y == 0 ? kInf : (step_y > 0 ? static_cast<float>(cy + 1) - a.y : a.y - static_cast<float>(cy)) / ady;
  const float t_delta_x = step_x == 0 ? kInf : 1.0f / adx;
  const float t_delta_y = step_y == 0 ? kInf : 1.0f / ady;
  // Bounded walk: at most one step per crossed grid line.
  const int max_steps = static_cast<int>(adx + ady) + 4;
  for (int i = 0; i < max_steps; ++i) {
    float t = 0.0f;
    if (t_max_x < t_max_y) {
      t = t_max_x;
      if (t > 1.0f) return std::nullopt;
      cx += step_x;
      t_max_x += t_delta_x;
    } else if (t_max_y < t_max_x) {
      t = t_max_y;
      if (t > 1.0f) return std::nullopt;
      cy += step_y;
      t_max_y += t_delta_y;
    } else {
      // Exactly through a cell corner: both side cells must be open to pass.
      t = t_max_x;
      if (t > 1.0f) return std::nullopt;
      if (solid(cx + step_x, cy) || solid(cx, cy + step_y)) return t;
      cx += step_x;
      cy += step_y;
      t_max_x += t_delta_x;
      t_max_y += t_delta_y;
    }
    if (solid(cx, cy)) return t;
  }
  return std::nullopt;
}

bool WallGrid::blocked_thick(core::Vec2 a, core::Vec2 b, float r) const {
  if (blocked(a, b)) return true;
  const core::Vec2 side = core::perp(core::normalize_or(b - a, {1.0f, 0.0f})) * r;
  return blocked(a + side, b + side) || blocked(a - side, b - side);
}

bool WallGrid::circle_overlaps(core::Vec2 p, float r) const {
  if (!core::is_finite(p)) return true;
  bool hit = false;
  for_each_wall_near(p, r, [&](int cx, int cy) {
    if (core::length_squared(p - closest_point_in_cell(p, cx, cy)) < r * r) hit = true;
  });
  return hit;
}

core::Vec2 WallGrid::resolve_circle(core::Vec2 p, float r) const {
  if (!core::is_finite(p)) return p;
  for (int pass = 0; pass < 2; ++pass) {
    bool moved = false;
    for_each_wall_near(p, r, [&](int cx, int cy) {
      const core::Vec2 q = closest_point_in_cell(p, cx, cy);
      const core::Vec2 d = p - q;
      const float d2 = core::length_squared(d);
      if (d2 >= r * r) return;
      if (d2 > 0.0f) {
        p = q + d * (r / std::sqrt(d2));
        moved = true;
        return;
      }
      // Centre inside the wall cell: leave through the nearest face that opens onto floor.
      const auto x0f = static_cast<float>(cx);
      const auto y0f = static_cast<float>(cy);
      struct Face {
        float depth;
        core::Vec2 out;
        int nx;
        int ny;
      };
      const Face faces[4] = {{p.x - x0f, {x0f - r, p.y}, -1, 0},
                             {x0f + 1.0f - p.x, {x0f + 1.0f + r, p.y}, 1, 0},
                             {p.y - y0f, {p.x, y0f - r}, 0, -1},
                             {y0f + 1.0f - p.y, {p.x, y0f + 1.0f + r}, 0, 1}};
      const Face* best = nullptr;
      for (const auto& f : faces) {
        if (solid(cx + f.nx, cy + f.ny)) continue;
        if (best == nullptr || f.depth < best->depth) best = &f;
      }
      if (best == nullptr) return;  // buried: another cell's pass moves it
      p = best->out;
      moved = true;
    });
    if (!moved) break;
  }
  return p;
}

core::Vec2 WallGrid::repulsion(core::Vec2 p, float r, float reach) const {
  core::Vec2 sum;
  if (!(reach > 0.0f) || !core::is_finite(p)) return sum;
  for_each_wall_near(p, r + reach, [&](int cx, int cy) {
    const core::Vec2 d = p - closest_point_in_cell(p, cx, cy);
    const float dist = core::length(d);
    if (!(dist > 0.0f)) return;
    const float gap = dist - r;
    if (gap >= reach) return;
    const float w = gap <= 0.0f ? 1.0f : 1.0f - gap / reach;
    sum += d * (w / dist);
  });
  return sum;
}

}  // namespace sortie::squad
