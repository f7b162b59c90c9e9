// Fuzzes nav's own input types (layout in seeds/nav_input_codec.hpp): TerrainWorld::build on a
// TriangleSoup and ArealMap::build on an ArealInput with hostile indices, links, grids and floats
// (NaN, infinities), then every query at the input's points. Checks the answers hold together:
// a located areal contains the point, a route runs start..goal over neighbours, a corridor has
// one waypoint per route step, a path joins its located endpoints, a height sample names a real
// face.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "seeds/nav_input_codec.hpp"
#include "sortie/core/bytes.hpp"
#include "sortie/core/math.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/nav/terrain_world.hpp"

namespace {

using namespace sortie;

constexpr std::size_t kMaxQueries = 16;  // each query may scan every areal and face

void check_terrain(const nav::TerrainWorld& w, core::Vec2 p) {
  if (auto s = w.sample_at(p.x, p.y); s && s->face >= w.face_count()) __builtin_trap();
  (void)w.normal_at(p.x, p.y);
  const core::Aabb b = w.bounds();
  (void)w.raycast({p.x, p.y, b.max.z + 1.0f}, {0, 0, -1});
  (void)w.raycast({b.min.x, b.min.y, b.max.z}, {p.x - b.min.x, p.y - b.min.y, -1.0f}, 0x1);
  for (std::uint32_t f : w.candidates_at(p.x, p.y))
    if (f >= w.face_count()) __builtin_trap();
}

void check_areals(const nav::ArealMap& m, core::Vec2 p, core::Vec2 q) {
  (void)m.cell_of(p.x, p.y);
  const auto a = m.locate(p.x, p.y);
  const auto b = m.locate(q.x, q.y);
  if (a && !m.contains(*a, p.x, p.y)) __builtin_trap();
  if (!a || !b) return;
  for (auto route : {m.route(*a, *b), m.route_astar(*a, *b)}) {
    if (!route) continue;
    if (route->empty() || route->front() != *a || route->back() != *b) __builtin_trap();
    for (std::size_t k = 0; k + 1 < route->size(); ++k) {
      const auto nb = m.neighbours((*route)[k]);
      if (!std::binary_search(nb.begin(), nb.end(), (*route)[k + 1])) __builtin_trap();
    }
    const auto corridor = m.corridor(*route, p, q);
    if (corridor.size() != route->size()) __builtin_trap();
    if (std::bit_cast<std::uint64_t>(corridor.back()) != std::bit_cast<std::uint64_t>(q)) __builtin_trap();
  }
  // Point to point: a path starts and ends at the query points, in the located areals, over
  // neighbours, with one portal per step (plus the diagonals of non-convex areals).
  if (auto path = m.find_path(p, q)) {
    if (path->areals.empty() || path->areals.front() != path->start.areal || path->areals.back() != path->goal.areal)
      __builtin_trap();
    // Portals between areals follow the route step by step; a portal inside one areal (from ==
    // to) is a diagonal of a non-convex areal's triangulation and must name the areal it is in.
    std::size_t step = 0;
    for (const nav::Portal& portal : path->corridor) {
      if (portal.from == portal.to) {
        if (step >= path->areals.size() || portal.from != path->areals[step]) __builtin_trap();
        continue;
      }
      if (step + 1 >= path->areals.size() || portal.from != path->areals[step] || portal.to != path->areals[step + 1])
        __builtin_trap();
      ++step;
    }
    if (step + 1 != path->areals.size()) __builtin_trap();
    if (path->points.empty() || std::bit_cast<std::uint64_t>(path->points.front()) != std::bit_cast<std::uint64_t>(p))
      __builtin_trap();
    for (std::size_t k = 0; k + 1 < path->areals.size(); ++k) {
      const auto nb = m.neighbours(path->areals[k]);
      if (!std::binary_search(nb.begin(), nb.end(), path->areals[k + 1])) __builtin_trap();
    }
  }
  if (auto near = m.nearest(p, 1e6f); near && near->areal >= m.areal_count()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = fuzz::decode_nav_fuzz_input(core::ByteView(data, size));
  const auto terrain = nav::TerrainWorld::build(in.soup);
  const auto areals = nav::ArealMap::build(in.areals);
  const std::size_t n = std::min(in.queries.size(), kMaxQueries);
  for (std::size_t i = 0; i < n; ++i) {
    const core::Vec2 p = in.queries[i];
    const core::Vec2 q = in.queries[(i + 1) % in.queries.size()];
    if (terrain) check_terrain(*terrain, p);
    if (areals) check_areals(*areals, p, q);
  }
  return 0;
}
