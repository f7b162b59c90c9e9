#pragma once
// ArealMap: navigation over areal polygons (spec iron3d-formats §18; seed 000 "Поиск области",
// "Маршрут"). Any source fills an ArealInput: a Land.map (nav/iron3d_input.hpp), a squad map, a
// FOnline hex grid. A point is located through the candidate grid and an exact even-odd test; a
// route is a sequence of areal ids over the adjacency graph built from the edge links; a corridor
// turns a route into waypoints for a movement controller. A miss is always explicit (nullopt).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"

namespace sortie::nav {

inline constexpr double kEdgeEpsilon = 1e-4;  // a point this close to a boundary edge is inside

enum class LocateSource : std::uint8_t { grid, scan };

struct LocateResult {
  std::uint32_t areal = 0;
  LocateSource source = LocateSource::grid;  // scan = no grid candidate held the point
};

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

class ArealMap {
 public:
  ArealMap() = default;
  // Errors: nav.areal.link (areals[i].links[k] is neither -1 nor an areal id), nav.areal.grid
  // (grid.cells[c] names a missing areal, grid.cells does not hold cells_x * cells_y lists, or
  // more than 2^32 - 1 ids in all), nav.areal.limit (more than 2^31 - 1 areals or 2^32 - 1 links).
  static core::Result<ArealMap> build(const ArealInput& input);

  // Grid cell -> candidates (ascending id); among the candidates holding the point, one holding
  // it strictly inside (not only through the 1e-4 edge rule) wins, lowest id first. No candidate
  // -> every areal scanned in index order with the same rule. nullopt = explicit miss.
  [[nodiscard]] std::optional<LocateResult> locate_detail(float x, float y) const;
  [[nodiscard]] std::optional<std::uint32_t> locate(float x, float y) const;
  // Even-odd test with the 1e-4 edge rule.
  [[nodiscard]] bool contains(std::uint32_t areal, float x, float y) const;
  // Grid cell of (x, y), nullopt outside the grid bounds (§18: f64 boundaries, inclusive upper edges).
  [[nodiscard]] std::optional<std::size_t> cell_of(float x, float y) const;

  // Neighbour ids from the links, de-duplicated and ascending (self links dropped).
  [[nodiscard]] std::span<const std::uint32_t> neighbours(std::uint32_t areal) const;

  // §18 route: BFS (neighbours visited ascending, first discovery wins), fewest areals.
  // start == goal -> [start]; unreachable or out-of-range ids -> nullopt.
  [[nodiscard]] std::optional<Route> route(std::uint32_t start, std::uint32_t goal) const;
  // A*: edge cost = XY distance between the two anchors, heuristic = XY anchor distance to the
  // goal (admissible by the triangle inequality). Returns a route of minimal summed anchor
  // distance; ties are broken by (f, g, id) ascending, so the result is deterministic. When the
  // shortest route is unique in both metrics (e.g. a chain, or a tiling of equal areals where
  // the fewest-hop route is unique) it is the same route as route(); otherwise it may differ.
  [[nodiscard]] std::optional<Route> route_astar(std::uint32_t start, std::uint32_t goal) const;

  // Waypoints for a route from `from` to `to`: the midpoint of the boundary edge each areal
  // shares with the next one (the link naming it; the next anchor if no link does), then `to`.
  // `from` itself is not included (the mover is there). An empty route gives [to].
  [[nodiscard]] std::vector<core::Vec2> corridor(std::span<const std::uint32_t> route, core::Vec2 from,
                                                 core::Vec2 to) const;

  [[nodiscard]] std::size_t areal_count() const { return areals_.size(); }
  [[nodiscard]] core::Vec2 anchor(std::uint32_t areal) const { return areals_.at(areal).anchor; }
  [[nodiscard]] std::uint32_t class_id(std::uint32_t areal) const { return areals_.at(areal).class_id; }
  [[nodiscard]] std::uint32_t logic_flag(std::uint32_t areal) const { return areals_.at(areal).logic_flag; }

 private:
  struct ArealShape {
    core::Vec2 anchor;
    std::vector<core::Vec2> ring;     // boundary vertices (XY)
    std::vector<std::int32_t> links;  // link per boundary edge (-1 none)
    float min_x = 0, min_y = 0, max_x = 0, max_y = 0;
    std::uint32_t class_id = 0;
    std::uint32_t logic_flag = 0;
  };
  // 0 = outside, 1 = within the edge tolerance only, 2 = strictly inside.
  [[nodiscard]] int classify(std::uint32_t areal, float x, float y) const;

  std::vector<ArealShape> areals_;
  std::vector<std::uint32_t> adjacency_;        // concatenated neighbour lists
  std::vector<std::uint32_t> adjacency_start_;  // areal_count + 1 offsets
  std::uint32_t cells_x_ = 0, cells_y_ = 0;
  double grid_min_x_ = 0, grid_min_y_ = 0, grid_span_x_ = 0, grid_span_y_ = 0;
  std::vector<std::uint32_t> cell_start_;  // cell_count + 1 offsets into cell_ids_
  std::vector<std::uint32_t> cell_ids_;    // candidates per cell, ascending
};

}  // namespace sortie::nav
