#pragma once
// TerrainWorld: the prepared query structure over a triangle soup (spec iron3d-formats §18;
// seed 000 "Пространственные задачи runtime"). Any source fills a TriangleSoup: a Land.msh
// (nav/iron3d_input.hpp: every TerrainFace28 with its full mask), a squad map, a FOnline grid.
// A BVH splits the faces at the median centroid of the longest node axis; queries visit
// candidates in ascending face index. Every float operation runs in a fixed order and the
// library is built with -ffp-contract=off, so results are bit-identical across runs.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"

namespace sortie::nav {

inline constexpr std::size_t kBvhLeafFaces = 8;
inline constexpr float kBvhEpsilon = 1e-4f;          // node AABB tests
inline constexpr float kBarycentricEpsilon = 1e-4f;  // height_at: weights in [-eps, 1 + eps]
inline constexpr float kDegenerateArea = 1e-6f;      // height_at: |denominator| <= this skips the face
inline constexpr float kRayDetEpsilon = 1e-6f;       // raycast: |det| <= this rejects
inline constexpr float kRayUvEpsilon = 1e-5f;        // raycast: u, v and u + v tolerance

// The input: positions and faces (three position indices and a surface mask each). Face i keeps
// index i in every result (RayHit::face, HeightSample::face, candidates).
struct TriangleSoup {
  struct Face {
    std::array<std::uint32_t, 3> vertices{};  // indices into positions
    std::uint32_t mask = 0;                   // surface flags; raycast(mask != 0) keeps faces sharing a bit
    bool operator==(const Face&) const = default;
  };
  std::vector<core::Vec3> positions;
  std::vector<Face> faces;
  bool operator==(const TriangleSoup&) const = default;
};

// Leaf when count > 0 (faces are order_[first, first + count)); otherwise children left, right.
struct BvhNode {
  core::Aabb box;
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  std::uint32_t left = 0;
  std::uint32_t right = 0;
  [[nodiscard]] bool leaf() const { return count > 0; }
};

struct RayHit {
  std::uint32_t face = 0;
  float distance = 0;  // ray parameter t: in units of |dir| (the distance when dir is unit)
  float u = 0;         // barycentric weight of vertex 1
  float v = 0;         // barycentric weight of vertex 2
  core::Vec3 point;    // origin + t * dir
};

struct HeightSample {
  float z = 0;
  std::uint32_t face = 0;  // the face giving the maximum (lowest index on equal heights)
};

// Height and unit normal (Z >= 0) of the face giving it, from one walk of the BVH.
struct SurfaceSample {
  float z = 0;
  core::Vec3 normal{0.0f, 0.0f, 1.0f};
  std::uint32_t face = 0;
};

class TerrainWorld {
 public:
  TerrainWorld() = default;
  // Errors: nav.terrain.vertex (faces[i].vertices[k] names a missing position),
  // nav.terrain.face_limit (more than 2^31 faces).
  static core::Result<TerrainWorld> build(const TriangleSoup& soup);

  // Maximum interpolated Z among faces whose 2-D barycentric weights at (x, y) are all within
  // [-1e-4, 1.0001]; nullopt = no surface there.
  [[nodiscard]] std::optional<float> height_at(float x, float y) const;
  [[nodiscard]] std::optional<HeightSample> sample_at(float x, float y) const;
  // Unit normal (Z >= 0) of the face that gives height_at; nullopt = no surface.
  [[nodiscard]] std::optional<core::Vec3> normal_at(float x, float y) const;
  // height_at and normal_at in one query (same values); nullopt = no surface or a degenerate face.
  [[nodiscard]] std::optional<SurfaceSample> surface_at(float x, float y) const;
  // Nearest hit (distance >= 0) by Möller–Trumbore; mask != 0 keeps faces sharing a bit with it.
  // Ties keep the lower face index.
  [[nodiscard]] std::optional<RayHit> raycast(const core::Vec3& origin, const core::Vec3& dir,
                                              std::uint32_t mask = 0) const;

  // Candidate faces (ascending index) of the leaves whose XY box covers (x, y) / the ray hits.
  [[nodiscard]] std::vector<std::uint32_t> candidates_at(float x, float y) const;
  [[nodiscard]] std::vector<std::uint32_t> candidates_on_ray(const core::Vec3& origin, const core::Vec3& dir) const;

  [[nodiscard]] std::size_t face_count() const { return faces_.size(); }
  [[nodiscard]] const std::vector<BvhNode>& nodes() const { return nodes_; }
  // Face indices in BVH leaf order (leaves address ranges of it).
  [[nodiscard]] const std::vector<std::uint32_t>& leaf_order() const { return order_; }
  // The root box; an empty box (core::Aabb{}) when there are no faces.
  [[nodiscard]] core::Aabb bounds() const { return nodes_.empty() ? core::Aabb{} : nodes_[0].box; }

 private:
  struct Face {
    core::Vec3 a, b, c;
    std::uint32_t mask = 0;
  };
  std::uint32_t build_node(std::uint32_t first, std::uint32_t count, std::vector<core::Vec3>& centroids);
  // Barycentric terms of a face in XY, as face_height uses them.
  struct Plane2 {
    float e0 = 0, e1 = 0, e2 = 0, e3 = 0, cx = 0, cy = 0, d = 0;
    bool usable = false;  // |d| > kDegenerateArea
  };
  [[nodiscard]] std::optional<float> face_height(std::uint32_t face, float x, float y) const;
  // Depth-first walk of the BVH (left child first): `enter(box)` prunes nodes, `visit(face)` is
  // called for every face of every leaf reached.
  template <class Enter, class Visit>
  void walk(Enter enter, Visit visit) const;
  // The leaf grid: a uniform XY grid over the root box whose cells list (ascending node index)
  // every leaf whose covers_xy range reaches the cell. A point's cell holds every leaf the BVH
  // walk would reach for it, so sample_at tests those leaves instead of walking from the root,
  // in the walk's order (node indices are the walk's pre-order). Left empty (walk only) when a
  // vertex is not finite.
  void build_leaf_grid();
  [[nodiscard]] std::uint32_t grid_cell(double v, double origin, double inv, std::uint32_t count) const;

  std::vector<Face> faces_;
  std::vector<Plane2> planes_;
  std::vector<core::Aabb> face_boxes_;
  std::vector<std::uint32_t> order_;
  std::vector<BvhNode> nodes_;
  double grid_x0_ = 0.0, grid_y0_ = 0.0, grid_inv_x_ = 0.0, grid_inv_y_ = 0.0;
  std::uint32_t grid_nx_ = 0, grid_ny_ = 0;
  std::vector<std::uint32_t> grid_first_;   // cell (row-major) -> first entry of grid_leaves_; size cells + 1
  std::vector<std::uint32_t> grid_leaves_;  // leaf node indices, ascending within a cell
};

}  // namespace sortie::nav
