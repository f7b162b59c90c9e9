#pragma once
// The collision manager's two phases (seed 001 "Collision pipeline"): a broad phase over the
// proxies on a uniform grid, indexed in ObjectId order, giving every candidate pair once in
// ascending (i, j) order; and the narrow phase between two bodies (discs and vertical capsules).
// Contacts against the terrain are the movement system's (move_system.cpp): ground, slope and
// walkable areal under a candidate position.
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "sortie/core/math.hpp"
#include "sortie/move/components.hpp"

namespace sortie::move {

// A body as the narrow phase sees it at one position.
struct ProxyView {
  core::Vec2 xy{};
  float z = 0.0f;  // ground contact point (the capsule's lowest point)
  Shape shape = Shape::capsule;
  float radius = 0.0f;
  float height = 0.0f;
  std::uint32_t category = 0;
  std::uint32_t collides_with = 0;
  bool is_static = false;
};

// Uniform grid over XY. Entries are (cell key, index); an index is the body's rank in ObjectId
// order, so every answer is ordered by ObjectId whatever the positions. While the occupied
// cells' box is small (at most max(4096, 32 * bodies) cells) a dense per-cell start table
// addresses each cell's entries directly; otherwise rows are found by binary search. Both give
// the same answers.
class UniformGrid {
 public:
  // cell > 0; positions finite.
  void build(std::span<const core::Vec2> positions, float cell);
  // Indices whose cell overlaps the square [p - r, p + r], ascending.
  void query(core::Vec2 p, float r, std::vector<std::uint32_t>& out) const;
  // Every pair (i < j) in the same or adjacent cells, ascending (i, j). With cell >= the largest
  // sum of two radii, every overlapping pair is among them.
  void pairs(std::vector<std::pair<std::uint32_t, std::uint32_t>>& out) const;
  [[nodiscard]] float cell() const { return cell_; }

 private:
  [[nodiscard]] std::int64_t cell_coord(float v) const;
  static std::uint64_t key(std::int64_t cx, std::int64_t cy);
  // Dense mode: the entries [first, second) of cells x0..x1 (inside the table) of row cy.
  [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> cell_range(std::int64_t cy, std::int64_t x0,
                                                                   std::int64_t x1) const;
  float cell_ = 1.0f;
  std::vector<core::Vec2> positions_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> entries_;  // sorted by (key, index)
  bool dense_ = false;
  std::int64_t min_x_ = 0, min_y_ = 0, max_x_ = 0, max_y_ = 0;
  std::uint64_t width_ = 0;
  std::vector<std::uint32_t> cell_start_;  // dense: row-major cell -> first entry; one past the end last
  // Scratch kept between builds (no allocation per step).
  std::vector<std::pair<std::uint64_t, std::uint32_t>> sorted_;
  std::vector<std::uint32_t> fill_;
};

// Whether two categories interact (each collides with the other's category; two static bodies
// never do).
bool interacts(const ProxyView& a, const ProxyView& b);

struct Contact {
  core::Vec2 normal{};  // unit XY direction from a to b
  float depth = 0.0f;   // XY distance to move them apart (> 0)
};

// Narrow phase: overlap of two bodies. Discs ignore heights; two capsules overlap when their
// vertical segments come closer than the sum of the radii. The push is in XY only (units stay
// on the ground): depth makes the 3-D distance equal to the sum of the radii. Coincident
// centres push along +X from a to b. Symmetric: narrow_phase(b, a) gives -normal, same depth,
// bit for bit.
std::optional<Contact> narrow_phase(const ProxyView& a, const ProxyView& b);

}  // namespace sortie::move
