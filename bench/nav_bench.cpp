// Terrain queries at corpus map size: a 78 x 78 heightfield (6,084 vertices, 11,858 faces) and a
// Land.map of 600 areals (25 x 24) with a 128 x 128 grid, as bench_terrain uses.
// Run pinned: taskset -c 0 build/release/bench/bench_nav --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true   (quote medians)
#include <benchmark/benchmark.h>

#include <vector>

#include "corpus_terrain.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/nav/terrain_world.hpp"

using namespace sortie;

namespace {

using bench::corpus_areal_input;
using bench::corpus_areals;
using bench::corpus_map;
using bench::corpus_msh;
using bench::corpus_soup;
using bench::corpus_world;

// 1,024 query points spread over the terrain bounds (deterministic).
std::vector<core::Vec2> query_points() {
  const auto b = corpus_world().bounds();
  core::Rng rng(42, 7);
  std::vector<core::Vec2> pts(1024);
  for (auto& p : pts) {
    p.x = b.min.x + rng.unit_f32() * (b.max.x - b.min.x);
    p.y = b.min.y + rng.unit_f32() * (b.max.y - b.min.y);
  }
  return pts;
}

// Land.msh -> TriangleSoup (the Iron3D edge; copies positions, widens indices).
void BM_TriangleSoupFromLandMsh(benchmark::State& state) {
  const auto& msh = corpus_msh();
  for (auto _ : state) {
    auto s = nav::triangle_soup_from(msh);
    benchmark::DoNotOptimize(s);
  }
  state.counters["faces"] = static_cast<double>(msh.faces.size());
}
BENCHMARK(BM_TriangleSoupFromLandMsh)->Unit(benchmark::kMicrosecond);

void BM_TerrainWorldBuild(benchmark::State& state) {
  const auto& soup = corpus_soup();
  for (auto _ : state) {
    auto w = nav::TerrainWorld::build(soup);
    benchmark::DoNotOptimize(w);
  }
  state.counters["faces"] = static_cast<double>(soup.faces.size());
}
BENCHMARK(BM_TerrainWorldBuild)->Unit(benchmark::kMillisecond);

void BM_HeightAt(benchmark::State& state) {
  const auto& w = corpus_world();
  const auto pts = query_points();
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = pts[i++ & 1023];
    benchmark::DoNotOptimize(w.height_at(p.x, p.y));
  }
}
BENCHMARK(BM_HeightAt);

void BM_RaycastDown(benchmark::State& state) {
  const auto& w = corpus_world();
  const auto pts = query_points();
  const float top = w.bounds().max.z + 10.0f;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = pts[i++ & 1023];
    benchmark::DoNotOptimize(w.raycast({p.x, p.y, top}, {0, 0, -1}, 0));
  }
}
BENCHMARK(BM_RaycastDown);

// Slanted rays from above the map centre toward random ground points (longer BVH walks).
void BM_RaycastSlanted(benchmark::State& state) {
  const auto& w = corpus_world();
  const auto pts = query_points();
  const auto b = w.bounds();
  const core::Vec3 eye{(b.min.x + b.max.x) * 0.5f, (b.min.y + b.max.y) * 0.5f, b.max.z + 200.0f};
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = pts[i++ & 1023];
    const core::Vec3 dir{p.x - eye.x, p.y - eye.y, b.min.z - eye.z};
    benchmark::DoNotOptimize(w.raycast(eye, dir, 0));
  }
}
BENCHMARK(BM_RaycastSlanted);

// Land.map -> ArealInput (the Iron3D edge; unpacks the grid into per-cell lists).
void BM_ArealInputFromLandMap(benchmark::State& state) {
  const auto& map = corpus_map();
  for (auto _ : state) {
    auto in = nav::areal_input_from(map);
    benchmark::DoNotOptimize(in);
  }
  state.counters["areals"] = static_cast<double>(map.areals.size());
}
BENCHMARK(BM_ArealInputFromLandMap)->Unit(benchmark::kMicrosecond);

void BM_ArealMapBuild(benchmark::State& state) {
  const auto& input = corpus_areal_input();
  for (auto _ : state) {
    auto m = nav::ArealMap::build(input);
    benchmark::DoNotOptimize(m);
  }
  state.counters["areals"] = static_cast<double>(input.areals.size());
}
BENCHMARK(BM_ArealMapBuild)->Unit(benchmark::kMicrosecond);

void BM_Locate(benchmark::State& state) {
  const auto& m = corpus_areals();
  const auto pts = query_points();
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = pts[i++ & 1023];
    benchmark::DoNotOptimize(m.locate(p.x, p.y));
  }
}
BENCHMARK(BM_Locate);

std::vector<std::pair<std::uint32_t, std::uint32_t>> route_pairs() {
  core::Rng rng(9, 3);
  const auto n = static_cast<std::uint32_t>(corpus_areals().areal_count());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs(256);
  for (auto& p : pairs) p = {rng.below(n), rng.below(n)};
  return pairs;
}

void BM_RouteBfs(benchmark::State& state) {
  const auto& m = corpus_areals();
  const auto pairs = route_pairs();
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [a, b] = pairs[i++ & 255];
    benchmark::DoNotOptimize(m.route(a, b));
  }
}
BENCHMARK(BM_RouteBfs)->Unit(benchmark::kMicrosecond);

void BM_RouteAstar(benchmark::State& state) {
  const auto& m = corpus_areals();
  const auto pairs = route_pairs();
  nav::PathWorkspace ws;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [a, b] = pairs[i++ & 255];
    benchmark::DoNotOptimize(m.route_astar(a, b, &ws));
  }
}
BENCHMARK(BM_RouteAstar)->Unit(benchmark::kMicrosecond);

void BM_RouteAndCorridor(benchmark::State& state) {
  const auto& m = corpus_areals();
  const auto pts = query_points();
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = pts[i & 1023];
    const auto& q = pts[(i + 512) & 1023];
    ++i;
    auto a = m.locate(p.x, p.y);
    auto b = m.locate(q.x, q.y);
    if (a && b) {
      auto r = m.route(*a, *b);
      if (r) benchmark::DoNotOptimize(m.corridor(*r, p, q));
    }
  }
}
BENCHMARK(BM_RouteAndCorridor)->Unit(benchmark::kMicrosecond);

}  // namespace

namespace {

// Point to point: locate both ends, A*, portals and the funnel (what a mover plans with).
void BM_FindPath(benchmark::State& state) {
  const auto& m = corpus_areals();
  const auto pts = query_points();
  nav::PathWorkspace ws;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = pts[i & 1023];
    const auto& q = pts[(i + 512) & 1023];
    ++i;
    benchmark::DoNotOptimize(m.find_path(p, q, {}, &ws));
  }
}
BENCHMARK(BM_FindPath)->Unit(benchmark::kMicrosecond);

}  // namespace
