#pragma once
// Mesh description: positions plus optional per-vertex normals, texture coordinates and
// colours, and an optional index list. MeshView is non-owning (what a DrawCall carries); Mesh
// owns its arrays and hands out views.
#include <cstdint>
#include <span>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/render/color.hpp"

namespace sortie::render {

enum class Primitive : std::uint8_t {
  triangles,  // 3 indices per triangle
  lines,      // 2 indices per segment
  points,     // 1 index per point
};

struct MeshView {
  std::span<const core::Vec3> positions;
  std::span<const core::Vec3> normals;     // empty, or one per position (needed when lit)
  std::span<const core::Vec2> uvs;         // empty, or one per position (u right, v down the image)
  std::span<const Rgba8> colors;           // empty (white), or one per position
  std::span<const std::uint32_t> indices;  // empty: positions taken in order
  Primitive primitive = Primitive::triangles;

  [[nodiscard]] std::size_t index_count() const { return indices.empty() ? positions.size() : indices.size(); }
  [[nodiscard]] std::size_t primitive_count() const;
};

// Checks a view before it is drawn: attribute arrays empty or as long as positions, index count
// a multiple of the primitive size, every index < positions.size(). Codes
// render.mesh.attribute_count, render.mesh.index_count, render.mesh.index_range (field
// "indices[i]", expected "< N", found the index).
core::Status validate_mesh(const MeshView& mesh);

struct Mesh {
  std::vector<core::Vec3> positions;
  std::vector<core::Vec3> normals;
  std::vector<core::Vec2> uvs;
  std::vector<Rgba8> colors;
  std::vector<std::uint32_t> indices;
  Primitive primitive = Primitive::triangles;

  [[nodiscard]] MeshView view() const { return {positions, normals, uvs, colors, indices, primitive}; }
  [[nodiscard]] core::Aabb bounds() const;
  [[nodiscard]] std::size_t triangle_count() const {
    return primitive == Primitive::triangles ? indices.size() / 3 : 0;
  }
  // Appends `other` (same primitive) with its positions transformed by `transform` and its
  // normals by the inverse transpose (renormalised). Attributes one side lacks are filled with
  // defaults (normal +Z, uv 0, colour white) so the arrays stay parallel.
  void append(const Mesh& other, const core::Mat4& transform = core::Mat4::identity());
};

}  // namespace sortie::render
