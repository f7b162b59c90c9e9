#pragma once
// ArealMap: navigation over areal polygons (spec iron3d-formats §18; seed 000 "Поиск области",
// "Маршрут"). Any source fills an ArealInput: a Land.map (nav/iron3d_input.hpp), a squad map, a
// FOnline hex grid. A point is located through the candidate grid and an exact even-odd test;
// when several areals hold it, boundary geometry and the class/logic words decide; a miss is
// always explicit, and the nearest areal is a separate call. A route is a sequence of areal ids
// over the adjacency graph built from the edge links; its corridor is the chain of portal edges
// between consecutive areals, and a funnel (the "simple stupid funnel") pulls the shortest
// polyline through those portals. Routing and smoothing live in areal_route.cpp.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <tl/expected.hpp>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"

namespace sortie::nav {

inline constexpr double kEdgeEpsilon = 1e-4;  // a point this close to a boundary edge is inside
inline constexpr std::uint32_t kNoAreal = 0xFFFFFFFFu;
inline constexpr std::size_t kLandmarks = 8;   // A* landmarks (ALT heuristic) per map
inline constexpr double kStraightness = 1e-3;  // A* cost per unit an entered anchor is off the line

enum class LocateSource : std::uint8_t { grid, scan };

struct LocateResult {
  std::uint32_t areal = 0;
  LocateSource source = LocateSource::grid;  // scan = no grid candidate held the point
  bool on_edge = false;                      // held only through the 1e-4 edge rule
  bool walkable = true;                      // by the map's ArealPolicy
};

// Why a locate missed: no areal holds the point at all, or (walkable_only) only areals the
// policy blocks hold it.
enum class LocateMiss : std::uint8_t { no_areal, not_walkable };
std::string_view to_string(LocateMiss miss);

using Route = std::vector<std::uint32_t>;

// One areal: a boundary ring (XY, either winding) with a link per edge.
struct ArealPolygon {
  core::Vec2 anchor;             // the areal's reference point: A* costs, corridor fallback
  std::vector<core::Vec2> ring;  // boundary vertices; edge k runs from ring[k] to ring[k + 1 mod n]
  // links[k] for k < ring.size(): the areal across edge k, -1 = none. Entries past the ring
  // (Land.map polygon blocks) count for adjacency only; a shorter list leaves edges unlinked.
  std::vector<std::int32_t> links;
  std::uint32_t class_id = 0;    // raw, kept for callers (Land.map class_id)
  std::uint32_t logic_flag = 0;  // raw, kept for callers (Land.map logic_flag)
  // The areal's plane (Land.map anchor z and normal): the height preference of a locate that
  // gives a z. A normal with |z| <= 1e-6 means "flat at anchor_z".
  float anchor_z = 0.0f;
  core::Vec3 normal{0.0f, 0.0f, 1.0f};
  // link_edges[k]: the edge of links[k]'s ring that edge k faces (Land.map edge_ref), -1 or
  // absent = unknown (the whole edge k is the portal).
  std::vector<std::int32_t> link_edges;
  bool operator==(const ArealPolygon&) const = default;
};

// Candidate lists over a regular grid: [min, max] split into cells_x * cells_y equal cells with
// f64 boundaries; a point on an inner cell boundary belongs to the lower cell (§18).
struct CandidateGrid {
  core::Vec2 min;
  core::Vec2 max;
  std::uint32_t cells_x = 0;
  std::uint32_t cells_y = 0;
  std::vector<std::vector<std::uint32_t>> cells;  // row-major (y * cells_x + x): areal ids, any order
  bool operator==(const CandidateGrid&) const = default;
};

struct ArealInput {
  std::vector<ArealPolygon> areals;
  // Without a grid (or with zero cells, or min > max) every locate scans all areals.
  std::optional<CandidateGrid> grid;
  bool operator==(const ArealInput&) const = default;
};

// Which areals a mover may enter, decided from the raw class and logic words. Their meaning in
// Land.map is not recovered (spec §16), so the caller states it; the default blocks nothing.
struct ArealPolicy {
  std::uint32_t blocked_logic_mask = 0;        // logic_flag & mask != 0 -> not walkable
  std::vector<std::uint32_t> blocked_classes;  // class_id listed -> not walkable
  [[nodiscard]] bool walkable(std::uint32_t class_id, std::uint32_t logic_flag) const;
};

struct LocateOptions {
  bool walkable_only = false;  // areals the policy blocks never answer (miss: not_walkable)
  std::optional<float> z;      // among overlapping areals, prefer the plane nearest this height
};

struct NearestResult {
  std::uint32_t areal = 0;
  core::Vec2 point;    // the query point when an areal holds it, else the nearest boundary point
  float distance = 0;  // XY distance from the query point to `point`
};

// One portal of a corridor: the stretch of boundary shared by route[i] and route[i + 1], with
// `left`/`right` as seen by a mover crossing from `from` into `to`. A degenerate portal
// (left == right) is an anchor the corridor must pass (no edge names the next areal).
struct Portal {
  core::Vec2 left;
  core::Vec2 right;
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  bool operator==(const Portal&) const = default;
};

// A route from a point to a point: the areals, their portals, and the funnel-smoothed polyline
// from `points.front()` == from to `points.back()` == to (consecutive duplicates removed).
// funnel(corridor, from, to) == points.
struct Path {
  Route areals;
  // The portals the path crosses, in order: one between each pair of consecutive areals
  // (from != to), and inside an areal whose ring is not convex the diagonals between the
  // triangles it is split into (from == to == that areal; docs/navigation.md).
  std::vector<Portal> corridor;
  std::vector<core::Vec2> points;
  double length = 0.0;  // sum of the segment lengths of `points` (f64)
  LocateResult start;
  LocateResult goal;
};

struct PathOptions {
  // Endpoints are located with these options; the route then enters only walkable areals when
  // walkable_only is set.
  LocateOptions locate{.walkable_only = true, .z = std::nullopt};
  std::optional<float> goal_z;  // height preference for the goal (locate.z is the start's)
};

// Scratch memory of the route searches, reused between queries (not thread-safe: one per thread).
class PathWorkspace {
 public:
  PathWorkspace() = default;

 private:
  friend class ArealMap;
  struct Entry {
    double f;
    double g;
    std::uint32_t id;
  };
  void reset(std::size_t areals);
  std::vector<double> g_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint32_t> stamp_;  // == generation_: g_/parent_ valid; == generation_ + 1: closed
  std::vector<Entry> heap_;
  std::uint32_t generation_ = 0;
};

class ArealMap {
 public:
  ArealMap() = default;
  // Errors: nav.areal.link (areals[i].links[k] is neither -1 nor an areal id), nav.areal.grid
  // (grid.cells[c] names a missing areal, grid.cells does not hold cells_x * cells_y lists, or
  // more than 2^32 - 1 ids in all), nav.areal.limit (more than 2^31 - 1 areals or 2^32 - 1 links).
  static core::Result<ArealMap> build(const ArealInput& input, const ArealPolicy& policy = {});

  // ---- locate ----
  // Grid cell -> candidates (ascending id), each tested exactly; no candidate holds the point ->
  // every areal scanned in index order. Among the areals holding the point the choice is, in
  // this order: strictly inside beats held only through the 1e-4 edge rule; walkable beats
  // blocked; with options.z, the plane nearest z; among strictly-inside ones, the larger
  // clearance (distance to the nearest own boundary edge); the lowest id.
  [[nodiscard]] tl::expected<LocateResult, LocateMiss> locate_areal(core::Vec2 p,
                                                                    const LocateOptions& options = {}) const;
  [[nodiscard]] std::optional<LocateResult> locate_detail(float x, float y) const;
  [[nodiscard]] std::optional<std::uint32_t> locate(float x, float y) const;
  // The areal holding p (distance 0), else the areal whose boundary is nearest to p within
  // max_distance (ties: lowest id) and that boundary point; nullopt when none is that close.
  // A separate call on purpose: falling back to the nearest areal is the caller's decision.
  [[nodiscard]] std::optional<NearestResult> nearest(core::Vec2 p, float max_distance,
                                                     const LocateOptions& options = {}) const;
  // Even-odd test with the 1e-4 edge rule.
  [[nodiscard]] bool contains(std::uint32_t areal, float x, float y) const;
  // Grid cell of (x, y), nullopt outside the grid bounds (§18: f64 boundaries, inclusive upper edges).
  [[nodiscard]] std::optional<std::size_t> cell_of(float x, float y) const;

  // Neighbour ids from the links, de-duplicated and ascending (self links dropped).
  [[nodiscard]] std::span<const std::uint32_t> neighbours(std::uint32_t areal) const;

  // ---- routes (areal_route.cpp) ----
  // §18 route: BFS (neighbours visited ascending, first discovery wins), fewest areals.
  // start == goal -> [start]; unreachable or out-of-range ids -> nullopt.
  [[nodiscard]] std::optional<Route> route(std::uint32_t start, std::uint32_t goal) const;
  // A*: edge cost = XY distance between the two anchors; heuristic = the larger of the XY
  // anchor distance to the goal and the landmark bound max |d(L, goal) - d(L, n)| over up to
  // kLandmarks landmarks whose graph distances build() precomputes (both admissible and
  // consistent). Returns a route of minimal summed anchor distance, where routes of (nearly) the
  // same length are told apart by a small cost per areal entered, kStraightness times the
  // distance of its anchor from the straight line between the endpoints (the start and goal
  // anchors here, the two points in find_path): on a grid of equal areals, where every staircase
  // has the same length, the route hugs the line and the funnel straightens it. The open list is
  // ordered by f ascending, then g descending (deeper first), then id ascending, so the result
  // is deterministic. Start and goal in different connected parts answer nullopt at once. When
  // the shortest route is unique in both metrics (e.g. a chain) it is the same route as route().
  // walkable_only: the route enters no areal the policy blocks (start and goal included).
  [[nodiscard]] std::optional<Route> route_astar(std::uint32_t start, std::uint32_t goal,
                                                 PathWorkspace* workspace = nullptr, bool walkable_only = false) const;
  // The portal between each pair of consecutive areals: the edges of route[i] linked to
  // route[i + 1], clipped to the facing edge when the link names it (edge_ref); of several
  // such edges the longest (then the lowest edge index). No edge names the next areal (a link
  // past the ring) -> a degenerate portal at its anchor. Ids out of range stop the corridor.
  [[nodiscard]] std::vector<Portal> portals(std::span<const std::uint32_t> route) const;
  // Locate both endpoints, A*, portals, funnel. Errors: nav.path.off_map (an endpoint in no
  // areal), nav.path.not_walkable (only blocked areals hold an endpoint),
  // nav.path.unreachable (no route between the two areals).
  [[nodiscard]] core::Result<Path> find_path(core::Vec2 from, core::Vec2 to, const PathOptions& options = {},
                                             PathWorkspace* workspace = nullptr) const;
  // find_path with both endpoints already located (start holds `from`, goal holds `to`): A*,
  // portals, funnel. walkable_only as in PathOptions::locate. Error: nav.path.unreachable.
  [[nodiscard]] core::Result<Path> path_between(const LocateResult& start, core::Vec2 from, const LocateResult& goal,
                                                core::Vec2 to, bool walkable_only = true,
                                                PathWorkspace* workspace = nullptr) const;

  // Waypoints for a route from `from` to `to`: the midpoint of the boundary edge each areal
  // shares with the next one (the link naming it; the next anchor if no link does), then `to`.
  // `from` itself is not included (the mover is there). An empty route gives [to].
  [[nodiscard]] std::vector<core::Vec2> corridor(std::span<const std::uint32_t> route, core::Vec2 from,
                                                 core::Vec2 to) const;

  [[nodiscard]] std::size_t areal_count() const { return areals_.size(); }
  [[nodiscard]] core::Vec2 anchor(std::uint32_t areal) const { return areals_.at(areal).anchor; }
  [[nodiscard]] std::uint32_t class_id(std::uint32_t areal) const { return areals_.at(areal).class_id; }
  [[nodiscard]] std::uint32_t logic_flag(std::uint32_t areal) const { return areals_.at(areal).logic_flag; }
  [[nodiscard]] bool walkable(std::uint32_t areal) const { return areal < areals_.size() && areals_[areal].walkable; }
  [[nodiscard]] std::span<const core::Vec2> ring(std::uint32_t areal) const { return areals_.at(areal).ring; }
  // Height of the areal's plane at (x, y).
  [[nodiscard]] float plane_z(std::uint32_t areal, float x, float y) const;
  // XY bounds of every boundary vertex (empty box without areals).
  [[nodiscard]] core::Aabb bounds() const { return bounds_; }

 private:
  struct ArealShape {
    core::Vec2 anchor;
    std::vector<core::Vec2> ring;     // boundary vertices (XY)
    std::vector<std::int32_t> links;  // link per boundary edge (-1 none)
    std::vector<std::int32_t> link_edges;
    float min_x = 0, min_y = 0, max_x = 0, max_y = 0;
    std::uint32_t class_id = 0;
    std::uint32_t logic_flag = 0;
    float anchor_z = 0.0f;
    core::Vec3 normal{0.0f, 0.0f, 1.0f};
    bool walkable = true;
    bool ccw = true;                  // ring winding (signed area >= 0)
    std::uint32_t pieces = kNoAreal;  // index into pieces_ when the ring is not convex
  };
  // A ring that is not convex, split into triangles (ear clipping over the ring without its
  // straight vertices; areal_pieces.cpp). The diagonals join the triangles into a tree; a path
  // through the areal crosses the diagonals between the triangle it enters and the one it leaves.
  struct Pieces {
    struct Diagonal {
      std::uint32_t a = 0;  // p -> q is a counter-clockwise edge of triangle a, q -> p of triangle b
      std::uint32_t b = 0;
      core::Vec2 p;
      core::Vec2 q;
    };
    std::vector<std::array<core::Vec2, 3>> triangles;  // counter-clockwise
    std::vector<std::uint32_t> edge_triangle;          // per ring edge: the triangle holding it
    std::vector<Diagonal> diagonals;
  };
  // The ring split into triangles; nullopt when it is convex, or when ear clipping finds no ear
  // (a self-intersecting ring): such an areal keeps its ring as its only piece.
  static std::optional<Pieces> split_ring(std::span<const core::Vec2> ring, bool ccw);
  // The triangle holding p (the one p is deepest inside when none holds it exactly).
  static std::uint32_t triangle_of(const Pieces& pieces, core::Vec2 p);
  // The ring edge of `areal` nearest to p (lowest index on ties).
  [[nodiscard]] std::size_t nearest_edge(std::uint32_t areal, core::Vec2 p) const;
  // Appends the diagonals crossed inside a non-convex areal from the triangle holding `enter`
  // (an entry point or a point on the entry portal) to the one holding `leave`; `enter_edge` /
  // `leave_edge` name the ring edge the point lies on, or kNoEdge for an inner point.
  static constexpr std::size_t kNoEdge = static_cast<std::size_t>(-1);
  void inner_portals(std::uint32_t areal, core::Vec2 enter, std::size_t enter_edge, core::Vec2 leave,
                     std::size_t leave_edge, std::vector<Portal>& out) const;
  // The corridor of find_path: portals() with the inner portals of every non-convex areal.
  [[nodiscard]] std::vector<Portal> path_corridor(std::span<const std::uint32_t> route, core::Vec2 from,
                                                  core::Vec2 to) const;
  // 0 = outside, 1 = within the edge tolerance only, 2 = strictly inside.
  [[nodiscard]] int classify(std::uint32_t areal, float x, float y) const;
  // f64 distance from (x, y) to the nearest edge of the areal's ring; `closest` gets the point.
  [[nodiscard]] double boundary_distance(std::uint32_t areal, double x, double y, core::Vec2* closest) const;
  [[nodiscard]] std::span<const std::uint32_t> cell_candidates(std::size_t cell) const;
  void build_search_tables();
  // A* core shared by route_astar and find_path.
  [[nodiscard]] std::optional<Route> search(std::uint32_t start, std::uint32_t goal, PathWorkspace& ws,
                                            bool walkable_only, core::Vec2 line_a, core::Vec2 line_b) const;

  std::vector<ArealShape> areals_;
  std::vector<Pieces> pieces_;                  // of the areals whose ring is not convex
  std::vector<std::uint32_t> adjacency_;        // concatenated neighbour lists
  std::vector<std::uint32_t> adjacency_start_;  // areal_count + 1 offsets
  std::vector<double> adjacency_cost_;          // anchor distance per adjacency_ entry
  std::vector<std::uint32_t> component_;        // connected part of the whole graph, per areal
  std::vector<std::uint32_t> walk_component_;   // connected part of the walkable subgraph (kNoAreal: blocked)
  std::size_t landmark_count_ = 0;
  // Graph distances from and to each landmark, areal-major ([areal * landmark_count_ + l]);
  // infinity = no route. Both directions, so the bound holds when links are one-way.
  std::vector<double> from_landmark_;
  std::vector<double> to_landmark_;
  std::uint32_t cells_x_ = 0, cells_y_ = 0;
  double grid_min_x_ = 0, grid_min_y_ = 0, grid_span_x_ = 0, grid_span_y_ = 0;
  std::vector<std::uint32_t> cell_start_;  // cell_count + 1 offsets into cell_ids_
  std::vector<std::uint32_t> cell_ids_;    // candidates per cell, ascending
  core::Aabb bounds_;
};

// The simple stupid funnel: the shortest polyline from `from` to `to` through `portals` in
// order (each crossed between its right and left end), as [from, corners..., to] with
// consecutive duplicates removed. A portal whose ends coincide is a point the line must touch.
std::vector<core::Vec2> funnel(std::span<const Portal> portals, core::Vec2 from, core::Vec2 to);

}  // namespace sortie::nav
