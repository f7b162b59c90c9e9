#include "sortie/render/mesh.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace sortie::render {
namespace {

std::size_t primitive_size(Primitive p) {
  switch (p) {
    case Primitive::triangles:
      return 3;
    case Primitive::lines:
      return 2;
    case Primitive::points:
      return 1;
  }
  return 1;
}

const char* primitive_name(Primitive p) {
  switch (p) {
    case Primitive::triangles:
      return "triangles";
    case Primitive::lines:
      return "lines";
    case Primitive::points:
      return "points";
  }
  return "?";
}

core::Status check_attribute(std::size_t count, std::size_t positions, const char* field) {
  if (count != 0 && count != positions)
    return core::fail(
        core::Diagnostic::error("render.mesh.attribute_count", "attribute array length differs from positions")
            .in(field)
            .expect(fmt::format("0 or {}", positions), std::to_string(count)));
  return {};
}

}  // namespace

std::size_t MeshView::primitive_count() const {
  return index_count() / primitive_size(primitive);
}

core::Status validate_mesh(const MeshView& mesh) {
  const std::size_t n = mesh.positions.size();
  SORTIE_CHECK(check_attribute(mesh.normals.size(), n, "normals"));
  SORTIE_CHECK(check_attribute(mesh.uvs.size(), n, "uvs"));
  SORTIE_CHECK(check_attribute(mesh.colors.size(), n, "colors"));
  const std::size_t size = primitive_size(mesh.primitive);
  const std::size_t count = mesh.index_count();
  if (count % size != 0)
    return core::fail(
        core::Diagnostic::error("render.mesh.index_count", "index count is not a multiple of the primitive size")
            .in(mesh.indices.empty() ? "positions" : "indices")
            .expect(fmt::format("a multiple of {} ({})", size, primitive_name(mesh.primitive)), std::to_string(count)));
  if (mesh.indices.empty()) return {};
  // One pass that only asks whether any index is out of range (vectorises, even on SSE2); the
  // slow search for the first one runs only on failure.
  const std::uint32_t limit = n > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<std::uint32_t>(n);
  std::uint32_t bad = 0;
  for (const std::uint32_t i : mesh.indices) bad |= i >= limit ? 1u : 0u;
  if (!bad && n <= 0xFFFFFFFFu) return {};
  for (std::size_t k = 0; k < mesh.indices.size(); ++k) {
    if (mesh.indices[k] >= n)
      return core::fail(core::Diagnostic::error("render.mesh.index_range", "index out of range")
                            .in(fmt::format("indices[{}]", k))
                            .expect(fmt::format("< {}", n), std::to_string(mesh.indices[k])));
  }
  return {};
}

core::Aabb Mesh::bounds() const {
  core::Aabb box;
  for (const auto& p : positions) box.expand(p);
  return box;
}

void Mesh::append(const Mesh& other, const core::Mat4& transform) {
  const std::size_t base = positions.size();
  if (base == 0 && indices.empty()) primitive = other.primitive;
  const bool want_normals = !normals.empty() || !other.normals.empty();
  const bool want_uvs = !uvs.empty() || !other.uvs.empty();
  const bool want_colors = !colors.empty() || !other.colors.empty();
  if (want_normals && normals.size() < base) normals.resize(base, {0.0f, 0.0f, 1.0f});
  if (want_uvs && uvs.size() < base) uvs.resize(base);
  if (want_colors && colors.size() < base) colors.resize(base, kWhite);
  // Indices first: a mesh without indices takes its positions in order.
  if (indices.empty() && base > 0) {
    indices.resize(base);
    for (std::size_t i = 0; i < base; ++i) indices[i] = static_cast<std::uint32_t>(i);
  }
  const core::Mat4 normal_matrix = transform.inverse().transposed();
  for (std::size_t i = 0; i < other.positions.size(); ++i) {
    positions.push_back(transform.transform_point(other.positions[i]));
    if (want_normals) {
      const core::Vec3 n = i < other.normals.size() ? other.normals[i] : core::Vec3{0.0f, 0.0f, 1.0f};
      normals.push_back(core::normalize_or(normal_matrix.transform_direction(n), {0.0f, 0.0f, 1.0f}));
    }
    if (want_uvs) uvs.push_back(i < other.uvs.size() ? other.uvs[i] : core::Vec2{});
    if (want_colors) colors.push_back(i < other.colors.size() ? other.colors[i] : kWhite);
  }
  if (other.indices.empty()) {
    for (std::size_t i = 0; i < other.positions.size(); ++i) indices.push_back(static_cast<std::uint32_t>(base + i));
  } else {
    for (const std::uint32_t i : other.indices) indices.push_back(static_cast<std::uint32_t>(base + i));
  }
}

}  // namespace sortie::render
