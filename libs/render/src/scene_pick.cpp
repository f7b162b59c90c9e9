// Picking in the mission scene: a ray against each visible object's world box, then against
// its triangles, and against the terrain's triangles; the nearest hit wins.
#include <cmath>
#include <limits>

#include "mission_scene_impl.hpp"

namespace sortie::render {
namespace {

// Möller-Trumbore, both sides; distance along the ray or nullopt.
std::optional<float> ray_triangle(const core::Vec3& o, const core::Vec3& d, const core::Vec3& a, const core::Vec3& b,
                                  const core::Vec3& c) {
  const core::Vec3 e1 = b - a;
  const core::Vec3 e2 = c - a;
  const core::Vec3 p = core::cross(d, e2);
  const float det = core::dot(e1, p);
  if (!(std::fabs(det) > 1e-12f)) return std::nullopt;
  const float inv = 1.0f / det;
  const core::Vec3 t = o - a;
  const float u = core::dot(t, p) * inv;
  if (u < 0.0f || u > 1.0f) return std::nullopt;
  const core::Vec3 q = core::cross(t, e1);
  const float v = core::dot(d, q) * inv;
  if (v < 0.0f || u + v > 1.0f) return std::nullopt;
  const float dist = core::dot(e2, q) * inv;
  if (!(dist > 0.0f)) return std::nullopt;
  return dist;
}

// Slab test: true when the ray meets the box before `limit`.
bool ray_box(const core::Vec3& o, const core::Vec3& d, const core::Aabb& box, float limit) {
  if (box.empty()) return false;
  float t0 = 0.0f;
  float t1 = limit;
  const float os[3] = {o.x, o.y, o.z};
  const float ds[3] = {d.x, d.y, d.z};
  const float lo[3] = {box.min.x, box.min.y, box.min.z};
  const float hi[3] = {box.max.x, box.max.y, box.max.z};
  for (int k = 0; k < 3; ++k) {
    if (ds[k] == 0.0f) {
      if (os[k] < lo[k] || os[k] > hi[k]) return false;
      continue;
    }
    float a = (lo[k] - os[k]) / ds[k];
    float b = (hi[k] - os[k]) / ds[k];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return false;
  }
  return true;
}

// Nearest hit of the ray with the triangles of `mesh` (drawn with `model`).
std::optional<float> ray_mesh(const core::Vec3& o, const core::Vec3& d, const MeshView& mesh, const core::Mat4& model,
                              float limit) {
  std::optional<float> best;
  const std::size_t n = mesh.index_count() / 3 * 3;
  for (std::size_t i = 0; i < n; i += 3) {
    auto idx = [&](std::size_t k) { return mesh.indices.empty() ? k : std::size_t{mesh.indices[k]}; };
    const auto a = model.transform_point(mesh.positions[idx(i)]);
    const auto b = model.transform_point(mesh.positions[idx(i + 1)]);
    const auto c = model.transform_point(mesh.positions[idx(i + 2)]);
    if (auto t = ray_triangle(o, d, a, b, c); t && *t < limit && (!best || *t < *best)) best = t;
  }
  return best;
}

}  // namespace

std::optional<ScenePick> MissionScene::pick(const core::Vec3& origin, const core::Vec3& direction) const {
  const core::Vec3 d = core::normalize_or(direction, {0.0f, 0.0f, 0.0f});
  if (core::length_squared(d) == 0.0f) return std::nullopt;
  float limit = std::numeric_limits<float>::max();
  std::optional<ScenePick> best;
  if (ray_box(origin, d, impl_->terrain_bounds, limit)) {
    for (const auto& draw : impl_->terrain_draws) {
      if (auto t = ray_mesh(origin, d, draw.mesh, draw.model, limit)) {
        limit = *t;
        best = ScenePick{-1, true, *t, origin + d * *t};
      }
    }
  }
  for (const auto& o : impl_->objects) {
    if (!o.visible || !ray_box(origin, d, o.local_bounds.transformed(o.placement), limit)) continue;
    for (std::size_t k = 0; k < o.draw_count; ++k) {
      const auto& draw = impl_->object_draws[o.first_draw + k];
      if (auto t = ray_mesh(origin, d, draw.mesh, draw.model, limit)) {
        limit = *t;
        best = ScenePick{o.placed_index, false, *t, origin + d * *t};
      }
    }
  }
  return best;
}

std::optional<ScenePick> MissionScene::pick(const Camera& camera, const Viewport& viewport, float x, float y) const {
  const auto a = camera.unproject(x, y, 0.0f, viewport);
  const auto b = camera.unproject(x, y, 1.0f, viewport);
  if (!a || !b) return std::nullopt;
  return pick(*a, *b - *a);
}

}  // namespace sortie::render
