// sortie's areal routes against Detour on the same polygons (docs/decisions/0011-detour-benchmark.md,
// docs/navigation.md). The maps are the generated set of nav_maps.hpp: grids of square and
// triangular areals with rectangular obstacles cut out (16, 32 and 64 cells a side: about
// 300, 1,200 and 4,900 areals), so routes bend round holes. Detour gets the very same polygons
// and links as one tile (dtCreateNavMeshData from the areals; no Recast voxelisation, no 3-D
// terrain), so both sides search the same graph and straighten through the same portals.
// Each benchmark times one step alone, per query, over 2,000 endpoint pairs that have a route:
//   Locate: both endpoints (sortie locate_areal x 2 vs findNearestPoly x 2, 0.25-unit box)
//   Search: with both ends located, the route and its straightened points
//           (sortie path_between: A*, portals, funnel; Detour findPath + findStraightPath)
// Counters: p50_ns, p99_ns, areals, pairs, mean_points (points per path).
// Run pinned: taskset -c 0 build/release/bench/bench_nav_detour
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "nav_maps.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/core/stats.hpp"
#include "sortie/nav/areal_map.hpp"

#if SORTIE_WITH_DETOUR
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#endif

using namespace sortie;

namespace {

constexpr std::size_t kPairs = 2'000;

struct Fixture {
  bench::NavMap map;
  nav::ArealMap areals;
  std::vector<std::pair<core::Vec2, core::Vec2>> pairs;  // both ends walkable and joined by a route
};

const Fixture& fixture(std::uint32_t cells) {
  static std::map<std::uint32_t, std::unique_ptr<Fixture>> cache;
  auto& slot = cache[cells];
  if (slot) return *slot;
  slot = std::make_unique<Fixture>();
  Fixture& f = *slot;
  f.map = bench::make_nav_map({cells, 8.0f, 0.2f, 0.5f, 0, 7 + cells});
  f.areals = nav::ArealMap::build(f.map.input).value();
  core::Rng rng(cells, 0x50414952);
  auto point = [&] {
    for (;;) {
      const std::uint32_t c = rng.below(cells * cells);
      if (!f.map.open[c]) continue;
      // Inside the cell, a quarter unit off its sides (not on a shared edge).
      const float x = static_cast<float>(c % cells) * 8.0f + 0.25f + rng.unit_f32() * 7.5f;
      const float y = static_cast<float>(c / cells) * 8.0f + 0.25f + rng.unit_f32() * 7.5f;
      return core::Vec2{x, y};
    }
  };
  nav::PathWorkspace ws;
  while (f.pairs.size() < kPairs) {
    const core::Vec2 a = point(), b = point();
    if (f.areals.find_path(a, b, {}, &ws)) f.pairs.emplace_back(a, b);
  }
  return f;
}

// Times `query(a, b)` once per pair in every iteration: p50/p99 per query in ns.
template <class Query>
void time_pairs(benchmark::State& state, const Fixture& f, const Query& query) {
  std::vector<double> ns;
  ns.reserve(f.pairs.size() * 64);
  std::size_t points = 0;
  for (auto _ : state) {
    points = 0;
    for (const auto& [a, b] : f.pairs) {
      const auto t0 = std::chrono::steady_clock::now();
      const std::size_t n = query(a, b);
      const auto t1 = std::chrono::steady_clock::now();
      ns.push_back(static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
      points += n;
    }
  }
  const core::Summary times = core::summarize(std::move(ns));
  state.counters["p50_ns"] = times.p50;
  state.counters["p99_ns"] = times.p99;
  state.counters["areals"] = static_cast<double>(f.areals.areal_count());
  state.counters["pairs"] = static_cast<double>(f.pairs.size());
  state.counters["mean_points"] = static_cast<double>(points) / static_cast<double>(f.pairs.size());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * f.pairs.size()));
}

const nav::LocateOptions kWalkable{.walkable_only = true, .z = std::nullopt};

void BM_SortieLocate(benchmark::State& state) {
  const Fixture& f = fixture(static_cast<std::uint32_t>(state.range(0)));
  time_pairs(state, f, [&](core::Vec2 a, core::Vec2 b) -> std::size_t {
    auto ra = f.areals.locate_areal(a, kWalkable);
    auto rb = f.areals.locate_areal(b, kWalkable);
    benchmark::DoNotOptimize(ra);
    benchmark::DoNotOptimize(rb);
    return (ra ? 1 : 0) + (rb ? 1 : 0);
  });
}
BENCHMARK(BM_SortieLocate)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

void BM_SortieSearch(benchmark::State& state) {
  const Fixture& f = fixture(static_cast<std::uint32_t>(state.range(0)));
  std::vector<std::pair<nav::LocateResult, nav::LocateResult>> ends;
  for (const auto& [a, b] : f.pairs)
    ends.emplace_back(*f.areals.locate_areal(a, kWalkable), *f.areals.locate_areal(b, kWalkable));
  nav::PathWorkspace ws;
  std::size_t i = 0;
  time_pairs(state, f, [&](core::Vec2 a, core::Vec2 b) -> std::size_t {
    const auto& [sa, sb] = ends[i++ % ends.size()];
    auto p = f.areals.path_between(sa, a, sb, b, true, &ws);
    benchmark::DoNotOptimize(p);
    return p ? p->points.size() : 0;
  });
}
BENCHMARK(BM_SortieSearch)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

#if SORTIE_WITH_DETOUR

struct NavMeshDeleter {
  void operator()(dtNavMesh* m) const { dtFreeNavMesh(m); }
};
struct QueryDeleter {
  void operator()(dtNavMeshQuery* q) const { dtFreeNavMeshQuery(q); }
};

constexpr float kCell = 0.5f;  // Detour vertex quantum (the map's coordinates are multiples of it)

struct Detour {
  std::unique_ptr<dtNavMesh, NavMeshDeleter> mesh;
  std::unique_ptr<dtNavMeshQuery, QueryDeleter> query;
  dtQueryFilter filter;
  int polys = 0;
};

// One tile holding every areal as a polygon with its links (sortie (x, y) -> Recast (x, 0, y);
// the rings are reversed so that Detour sees them clockwise from above, as Recast builds them).
const Detour& detour(std::uint32_t cells) {
  static std::map<std::uint32_t, std::unique_ptr<Detour>> cache;
  auto& slot = cache[cells];
  if (slot) return *slot;
  slot = std::make_unique<Detour>();
  Detour& d = *slot;
  const Fixture& f = fixture(cells);
  const auto& areals = f.map.input.areals;
  constexpr int kNvp = 6;
  std::vector<unsigned short> verts;
  std::map<std::pair<int, int>, unsigned short> vertex_of;
  std::vector<unsigned short> polys(areals.size() * 2 * kNvp, 0xffff);
  for (std::size_t i = 0; i < areals.size(); ++i) {
    const auto& a = areals[i];
    const std::size_t n = a.ring.size();
    for (std::size_t k = 0; k < n; ++k) {
      // Reversed ring: Detour vertex k is ring[n - 1 - k]; Detour edge k (k -> k + 1) is ring
      // edge n - 2 - k (mod n).
      const core::Vec2 v = a.ring[n - 1 - k];
      const std::pair<int, int> key{static_cast<int>(std::lround(v.x / kCell)),
                                    static_cast<int>(std::lround(v.y / kCell))};
      auto it = vertex_of.find(key);
      if (it == vertex_of.end()) {
        it = vertex_of.emplace(key, static_cast<unsigned short>(verts.size() / 3)).first;
        verts.insert(verts.end(), {static_cast<unsigned short>(key.first), 0, static_cast<unsigned short>(key.second)});
      }
      polys[i * 2 * kNvp + k] = it->second;
      const std::size_t edge = (2 * n - 2 - k) % n;
      const std::int32_t link = a.links[edge];
      if (link >= 0) polys[i * 2 * kNvp + kNvp + k] = static_cast<unsigned short>(link);
    }
  }
  std::vector<unsigned short> flags(areals.size(), 1);
  std::vector<unsigned char> area_ids(areals.size(), 0);
  dtNavMeshCreateParams params{};
  params.verts = verts.data();
  params.vertCount = static_cast<int>(verts.size() / 3);
  params.polys = polys.data();
  params.polyFlags = flags.data();
  params.polyAreas = area_ids.data();
  params.polyCount = static_cast<int>(areals.size());
  params.nvp = kNvp;
  params.walkableHeight = 2.0f;
  params.walkableRadius = 0.0f;
  params.walkableClimb = 0.5f;
  params.bmin[0] = 0.0f;
  params.bmin[1] = -1.0f;
  params.bmin[2] = 0.0f;
  params.bmax[0] = f.map.extent;
  params.bmax[1] = 1.0f;
  params.bmax[2] = f.map.extent;
  params.cs = kCell;
  params.ch = kCell;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&params, &data, &size)) std::abort();
  d.mesh.reset(dtAllocNavMesh());
  if (dtStatusFailed(d.mesh->init(data, size, DT_TILE_FREE_DATA))) std::abort();
  d.polys = params.polyCount;
  d.query.reset(dtAllocNavMeshQuery());
  if (dtStatusFailed(d.query->init(d.mesh.get(), std::min(65535, d.polys + 64)))) std::abort();
  d.filter.setIncludeFlags(1);
  return d;
}

constexpr float kExtents[3] = {0.25f, 1.0f, 0.25f};  // search box half size (Recast axes)

dtPolyRef locate(const Detour& d, core::Vec2 p, float* at) {
  const float c[3] = {p.x, 0.0f, p.y};
  dtPolyRef ref = 0;
  d.query->findNearestPoly(c, kExtents, &d.filter, &ref, at);
  return ref;
}

void BM_DetourLocate(benchmark::State& state) {
  const auto cells = static_cast<std::uint32_t>(state.range(0));
  const Fixture& f = fixture(cells);
  const Detour& d = detour(cells);
  time_pairs(state, f, [&](core::Vec2 a, core::Vec2 b) -> std::size_t {
    float pa[3], pb[3];
    const dtPolyRef ra = locate(d, a, pa);
    const dtPolyRef rb = locate(d, b, pb);
    benchmark::DoNotOptimize(ra);
    benchmark::DoNotOptimize(rb);
    return (ra != 0 ? 1 : 0) + (rb != 0 ? 1 : 0);
  });
}
BENCHMARK(BM_DetourLocate)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

void BM_DetourSearch(benchmark::State& state) {
  const auto cells = static_cast<std::uint32_t>(state.range(0));
  const Fixture& f = fixture(cells);
  const Detour& d = detour(cells);
  struct Ends {
    dtPolyRef ra, rb;
    float pa[3], pb[3];
  };
  std::vector<Ends> ends;
  for (const auto& [a, b] : f.pairs) {
    Ends e{};
    e.ra = locate(d, a, e.pa);
    e.rb = locate(d, b, e.pb);
    if (e.ra == 0 || e.rb == 0) std::abort();  // every pair is on the mesh
    ends.push_back(e);
  }
  constexpr int kMax = 4096;
  std::vector<dtPolyRef> corridor(kMax);
  std::vector<float> straight(std::size_t{kMax} * 3);
  std::vector<unsigned char> flags(kMax);
  std::vector<dtPolyRef> refs(kMax);
  std::size_t i = 0;
  time_pairs(state, f, [&](core::Vec2, core::Vec2) -> std::size_t {
    const Ends& e = ends[i++ % ends.size()];
    int n = 0;
    if (dtStatusFailed(d.query->findPath(e.ra, e.rb, e.pa, e.pb, &d.filter, corridor.data(), &n, kMax)) || n == 0)
      return 0;
    int m = 0;
    d.query->findStraightPath(e.pa, e.pb, corridor.data(), n, straight.data(), flags.data(), refs.data(), &m, kMax);
    benchmark::DoNotOptimize(m);
    return static_cast<std::size_t>(m);
  });
  state.counters["polys"] = d.polys;
  // The same graph, straightened through the same portals: the summed lengths should agree up
  // to the routes each A* picks (length_ratio = Detour / sortie).
  double ours = 0.0, theirs = 0.0;
  nav::PathWorkspace ws;
  for (std::size_t k = 0; k < f.pairs.size(); ++k) {
    const Ends& e = ends[k];
    ours += f.areals.find_path(f.pairs[k].first, f.pairs[k].second, {}, &ws)->length;
    int n = 0, m = 0;
    d.query->findPath(e.ra, e.rb, e.pa, e.pb, &d.filter, corridor.data(), &n, kMax);
    d.query->findStraightPath(e.pa, e.pb, corridor.data(), n, straight.data(), flags.data(), refs.data(), &m, kMax);
    for (int j = 0; j + 1 < m; ++j) {
      const float* p = &straight[static_cast<std::size_t>(j) * 3];
      theirs += std::hypot(static_cast<double>(p[3] - p[0]), static_cast<double>(p[5] - p[2]));
    }
  }
  state.counters["length_ratio"] = theirs / ours;
}
BENCHMARK(BM_DetourSearch)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

#endif  // SORTIE_WITH_DETOUR

}  // namespace
