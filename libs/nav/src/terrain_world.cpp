#include "sortie/nav/terrain_world.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sortie::nav {

using core::Aabb;
using core::Diagnostic;
using core::fail;
using core::Vec3;

namespace {

float axis_of(const Vec3& v, int axis) {
  return axis == 0 ? v.x : (axis == 1 ? v.y : v.z);
}

// The BVH's start box: +-FLT_MAX rather than core::Aabb's infinities, so a NaN coordinate
// leaves the same finite bound it always has (the boxes and the split are hashed indirectly).
Aabb empty_box() {
  constexpr float hi = std::numeric_limits<float>::max();
  return Aabb::from_min_max({hi, hi, hi}, {-hi, -hi, -hi});
}

bool covers_xy(const Aabb& b, float x, float y) {
  return x >= b.min.x - kBvhEpsilon && x <= b.max.x + kBvhEpsilon && y >= b.min.y - kBvhEpsilon &&
         y <= b.max.y + kBvhEpsilon;
}

// Slab test on the box grown by kBvhEpsilon; the ray starts at t = 0.
bool hits_box(const Aabb& b, const Vec3& o, const Vec3& d) {
  float t_near = 0.0f;
  float t_far = std::numeric_limits<float>::infinity();
  for (int axis = 0; axis < 3; ++axis) {
    const float lo = axis_of(b.min, axis) - kBvhEpsilon;
    const float hi = axis_of(b.max, axis) + kBvhEpsilon;
    const float oa = axis_of(o, axis);
    const float da = axis_of(d, axis);
    if (da == 0.0f) {
      if (oa < lo || oa > hi) return false;
      continue;
    }
    float t0 = (lo - oa) / da;
    float t1 = (hi - oa) / da;
    if (t0 > t1) std::swap(t0, t1);
    t_near = std::max(t_near, t0);
    t_far = std::min(t_far, t1);
    if (t_near > t_far) return false;
  }
  return true;
}

// Axis choice of §18: Y if ext.y > ext.x && ext.y >= ext.z; Z if ext.z > ext.x && ext.z > ext.y; else X.
int longest_axis(const Aabb& b) {
  const Vec3 ext = b.extent();
  if (ext.y > ext.x && ext.y >= ext.z) return 1;
  if (ext.z > ext.x && ext.z > ext.y) return 2;
  return 0;
}

}  // namespace

core::Result<TerrainWorld> TerrainWorld::build(const TriangleSoup& soup) {
  if (soup.faces.size() > std::numeric_limits<std::uint32_t>::max() / 2) {
    return fail(Diagnostic::error("nav.terrain.face_limit", "too many faces for the BVH")
                    .expect("<= 2^31", std::to_string(soup.faces.size())));
  }
  TerrainWorld w;
  w.faces_.reserve(soup.faces.size());
  w.planes_.reserve(soup.faces.size());
  w.face_boxes_.reserve(soup.faces.size());
  std::vector<Vec3> centroids;
  centroids.reserve(soup.faces.size());
  for (std::size_t i = 0; i < soup.faces.size(); ++i) {
    const auto& f = soup.faces[i];
    for (std::size_t k = 0; k < 3; ++k) {
      if (f.vertices[k] >= soup.positions.size()) {
        return fail(Diagnostic::error("nav.terrain.vertex", "face references a missing vertex")
                        .in(fmt::format("faces[{}].vertices[{}]", i, k))
                        .expect(fmt::format("< {}", soup.positions.size()), std::to_string(f.vertices[k])));
      }
    }
    Face face{soup.positions[f.vertices[0]], soup.positions[f.vertices[1]], soup.positions[f.vertices[2]], f.mask};
    Aabb box = empty_box();
    box.expand(face.a);
    box.expand(face.b);
    box.expand(face.c);
    const float third = 1.0f / 3.0f;
    centroids.push_back({(face.a.x + face.b.x + face.c.x) * third, (face.a.y + face.b.y + face.c.y) * third,
                         (face.a.z + face.b.z + face.c.z) * third});
    // face_height's terms: w0 = (e0 (x - cx) + e1 (y - cy)) / d, w1 = (e2 (x - cx) + e3 (y - cy)) / d.
    Plane2 p;
    p.e0 = face.b.y - face.c.y;
    p.e1 = face.c.x - face.b.x;
    p.e2 = face.c.y - face.a.y;
    p.e3 = face.a.x - face.c.x;
    p.cx = face.c.x;
    p.cy = face.c.y;
    p.d = p.e0 * (face.a.x - face.c.x) + p.e1 * (face.a.y - face.c.y);
    p.usable = !(std::fabs(p.d) <= kDegenerateArea);
    w.planes_.push_back(p);
    w.faces_.push_back(face);
    w.face_boxes_.push_back(box);
  }
  w.order_.resize(w.faces_.size());
  for (std::size_t i = 0; i < w.order_.size(); ++i) w.order_[i] = static_cast<std::uint32_t>(i);
  if (!w.faces_.empty()) {
    w.nodes_.reserve(2 * (w.faces_.size() / kBvhLeafFaces + 1));
    w.build_node(0, static_cast<std::uint32_t>(w.faces_.size()), centroids);
    w.build_leaf_grid();
  }
  return w;
}

// floor((v - origin) * inv) clamped to [0, count - 1]: non-decreasing in v (every step rounds
// monotonically), so v in [lo, hi] lands in a cell between those of lo and hi.
std::uint32_t TerrainWorld::grid_cell(double v, double origin, double inv, std::uint32_t count) const {
  const double c = std::floor((v - origin) * inv);
  if (!(c > 0.0)) return 0;
  if (c >= static_cast<double>(count - 1)) return count - 1;
  return static_cast<std::uint32_t>(c);
}

void TerrainWorld::build_leaf_grid() {
  for (const Face& f : faces_) {
    for (const Vec3& v : {f.a, f.b, f.c}) {
      if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) return;
    }
  }
  std::size_t leaves = 0;
  for (const BvhNode& n : nodes_) leaves += n.leaf() ? 1 : 0;
  // About four cells per leaf over the root's XY box (a point meets few leaves), at most kMaxGridSide a side.
  constexpr double kMaxGridSide = 1024.0;
  const Aabb& root = nodes_[0].box;
  const double ex = std::max(static_cast<double>(root.max.x) - static_cast<double>(root.min.x), 0.0);
  const double ey = std::max(static_cast<double>(root.max.y) - static_cast<double>(root.min.y), 0.0);
  const double side = 0.5 * std::sqrt(std::max(ex * ey, 1e-12) / static_cast<double>(leaves));
  const double nx = std::clamp(std::ceil(ex / side), 1.0, kMaxGridSide);
  const double ny = std::clamp(std::ceil(ey / side), 1.0, kMaxGridSide);
  grid_nx_ = static_cast<std::uint32_t>(nx);
  grid_ny_ = static_cast<std::uint32_t>(ny);
  grid_x0_ = static_cast<double>(root.min.x);
  grid_y0_ = static_cast<double>(root.min.y);
  grid_inv_x_ = ex > 0.0 ? nx / ex : 0.0;
  grid_inv_y_ = ey > 0.0 ? ny / ey : 0.0;
  // Each leaf's cell range from the very bounds covers_xy compares against.
  struct Range {
    std::uint32_t node, x0, x1, y0, y1;
  };
  std::vector<Range> ranges;
  ranges.reserve(leaves);
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Aabb& b = nodes_[i].box;
    if (!nodes_[i].leaf()) continue;
    ranges.push_back({static_cast<std::uint32_t>(i),
                      grid_cell(static_cast<double>(b.min.x - kBvhEpsilon), grid_x0_, grid_inv_x_, grid_nx_),
                      grid_cell(static_cast<double>(b.max.x + kBvhEpsilon), grid_x0_, grid_inv_x_, grid_nx_),
                      grid_cell(static_cast<double>(b.min.y - kBvhEpsilon), grid_y0_, grid_inv_y_, grid_ny_),
                      grid_cell(static_cast<double>(b.max.y + kBvhEpsilon), grid_y0_, grid_inv_y_, grid_ny_)});
  }
  grid_first_.assign(static_cast<std::size_t>(grid_nx_) * grid_ny_ + 1, 0);
  for (const Range& r : ranges) {
    for (std::uint32_t y = r.y0; y <= r.y1; ++y) {
      for (std::uint32_t x = r.x0; x <= r.x1; ++x) grid_first_[static_cast<std::size_t>(y) * grid_nx_ + x + 1] += 1;
    }
  }
  for (std::size_t c = 1; c < grid_first_.size(); ++c) grid_first_[c] += grid_first_[c - 1];
  grid_leaves_.resize(grid_first_.back());
  std::vector<std::uint32_t> fill(grid_first_.begin(), grid_first_.end() - 1);
  for (const Range& r : ranges) {  // ascending node index, so every cell's list is ascending
    for (std::uint32_t y = r.y0; y <= r.y1; ++y) {
      for (std::uint32_t x = r.x0; x <= r.x1; ++x)
        grid_leaves_[fill[static_cast<std::size_t>(y) * grid_nx_ + x]++] = r.node;
    }
  }
}

std::uint32_t TerrainWorld::build_node(std::uint32_t first, std::uint32_t count, std::vector<Vec3>& centroids) {
  Aabb box = empty_box();
  for (std::uint32_t i = first; i < first + count; ++i) {
    const Aabb& fb = face_boxes_[order_[i]];
    box.expand(fb.min);
    box.expand(fb.max);
  }
  const auto index = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(BvhNode{box, 0, 0, 0, 0});
  if (count <= kBvhLeafFaces) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return index;
  }
  const int axis = longest_axis(box);
  // Median split by centroid along the axis, stable by face index.
  auto begin = order_.begin() + first;
  std::sort(begin, begin + count, [&](std::uint32_t a, std::uint32_t b) {
    const float ca = axis_of(centroids[a], axis);
    const float cb = axis_of(centroids[b], axis);
    if (ca != cb) return ca < cb;
    return a < b;
  });
  const std::uint32_t half = count / 2;
  const std::uint32_t left = build_node(first, half, centroids);
  const std::uint32_t right = build_node(first + half, count - half, centroids);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

namespace {
// Faces of every leaf whose box passes `enter`, in ascending face index (depth-first traversal).
template <class Enter>
std::vector<std::uint32_t> collect_candidates(const std::vector<BvhNode>& nodes,
                                              const std::vector<std::uint32_t>& order, Enter enter) {
  std::vector<std::uint32_t> out;
  if (nodes.empty()) return out;
  std::uint32_t stack[64];
  std::size_t top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const BvhNode& n = nodes[stack[--top]];
    if (!enter(n.box)) continue;
    if (n.leaf()) {
      out.insert(out.end(), order.begin() + n.first, order.begin() + n.first + n.count);
    } else {
      stack[top++] = n.right;
      stack[top++] = n.left;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

std::vector<std::uint32_t> TerrainWorld::candidates_at(float x, float y) const {
  return collect_candidates(nodes_, order_, [&](const Aabb& box) { return covers_xy(box, x, y); });
}

std::vector<std::uint32_t> TerrainWorld::candidates_on_ray(const Vec3& origin, const Vec3& dir) const {
  return collect_candidates(nodes_, order_, [&](const Aabb& box) { return hits_box(box, origin, dir); });
}

std::optional<float> TerrainWorld::face_height(std::uint32_t face, float x, float y) const {
  // The same operations as from the vertices (the edge terms are stored as computed); a weight
  // outside the range ends the test early, which leaves every answer as it was.
  const Plane2& p = planes_[face];
  if (!p.usable) return std::nullopt;
  constexpr float lo = -kBarycentricEpsilon;
  constexpr float hi = 1.0f + kBarycentricEpsilon;
  const float dx = x - p.cx;
  const float dy = y - p.cy;
  const float w0 = (p.e0 * dx + p.e1 * dy) / p.d;
  if (w0 < lo || w0 > hi) return std::nullopt;
  const float w1 = (p.e2 * dx + p.e3 * dy) / p.d;
  if (w1 < lo || w1 > hi) return std::nullopt;
  const float w2 = 1.0f - w0 - w1;
  if (w2 < lo || w2 > hi) return std::nullopt;
  const Face& f = faces_[face];
  return w0 * f.a.z + w1 * f.b.z + w2 * f.c.z;
}

template <class Enter, class Visit>
void TerrainWorld::walk(Enter enter, Visit visit) const {
  if (nodes_.empty()) return;
  std::uint32_t stack[64];
  std::size_t top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const BvhNode& n = nodes_[stack[--top]];
    if (!enter(n.box)) continue;
    if (!n.leaf()) {
      stack[top++] = n.right;
      stack[top++] = n.left;
      continue;
    }
    for (std::uint32_t k = n.first; k < n.first + n.count; ++k) visit(order_[k]);
  }
}

std::optional<HeightSample> TerrainWorld::sample_at(float x, float y) const {
  // Leaves are walked without collecting candidates; the result equals visiting them in
  // ascending face index and keeping the first maximum (equal heights keep the lower index).
  std::optional<HeightSample> best;
  auto visit = [&](std::uint32_t i) {
    auto z = face_height(i, x, y);
    if (z && (!best || *z > best->z || (*z == best->z && i < best->face))) best = HeightSample{*z, i};
  };
  if (grid_first_.empty() || !std::isfinite(x) || !std::isfinite(y)) {
    walk([&](const Aabb& box) { return covers_xy(box, x, y); }, visit);
    return best;
  }
  // The leaves the walk reaches are exactly those whose own box covers the point (a parent's
  // box holds its children's); the point's cell lists all of them, in the walk's order.
  const std::size_t cell =
      static_cast<std::size_t>(grid_cell(static_cast<double>(y), grid_y0_, grid_inv_y_, grid_ny_)) * grid_nx_ +
      grid_cell(static_cast<double>(x), grid_x0_, grid_inv_x_, grid_nx_);
  for (std::uint32_t k = grid_first_[cell]; k < grid_first_[cell + 1]; ++k) {
    const BvhNode& n = nodes_[grid_leaves_[k]];
    if (!covers_xy(n.box, x, y)) continue;
    for (std::uint32_t f = n.first; f < n.first + n.count; ++f) visit(order_[f]);
  }
  return best;
}

std::optional<float> TerrainWorld::height_at(float x, float y) const {
  auto s = sample_at(x, y);
  if (!s) return std::nullopt;
  return s->z;
}

std::optional<Vec3> TerrainWorld::normal_at(float x, float y) const {
  auto s = surface_at(x, y);
  if (!s) return std::nullopt;
  return s->normal;
}

std::optional<SurfaceSample> TerrainWorld::surface_at(float x, float y) const {
  auto s = sample_at(x, y);
  if (!s) return std::nullopt;
  const Face& f = faces_[s->face];
  const Vec3 n = core::cross(f.b - f.a, f.c - f.a);
  const float len = core::length(n);
  if (!(len > 0.0f)) return std::nullopt;
  const float sign = n.z < 0.0f ? -1.0f : 1.0f;
  return SurfaceSample{s->z, n * (sign / len), s->face};
}

std::optional<RayHit> TerrainWorld::raycast(const Vec3& origin, const Vec3& dir, std::uint32_t mask) const {
  // Same result as visiting candidates in ascending face index where only a strictly smaller
  // distance replaces the best: equal distances keep the lower face index.
  std::optional<RayHit> best;
  walk([&](const Aabb& box) { return hits_box(box, origin, dir); },
       [&](std::uint32_t i) {
         const Face& f = faces_[i];
         if (mask != 0 && (f.mask & mask) == 0) return;
         const Vec3 e1 = f.b - f.a;
         const Vec3 e2 = f.c - f.a;
         const Vec3 p = core::cross(dir, e2);
         const float det = core::dot(e1, p);
         if (std::fabs(det) <= kRayDetEpsilon) return;
         const float inv = 1.0f / det;
         const Vec3 s = origin - f.a;
         const float u = core::dot(s, p) * inv;
         if (u < -kRayUvEpsilon || u > 1.0f + kRayUvEpsilon) return;
         const Vec3 q = core::cross(s, e1);
         const float v = core::dot(dir, q) * inv;
         if (v < -kRayUvEpsilon || u + v > 1.0f + kRayUvEpsilon) return;
         const float t = core::dot(e2, q) * inv;
         if (!(t >= 0.0f)) return;
         if (!best || t < best->distance || (t == best->distance && i < best->face)) {
           best = RayHit{i, t, u, v, origin + t * dir};
         }
       });
  return best;
}

}  // namespace sortie::nav
