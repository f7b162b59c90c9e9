// The movement stack side by side with Recast/Detour (docs/decisions/0011-detour-benchmark.md),
// on the corpus-scale terrain of bench_nav: a 78 x 78 heightfield (616 x 616 units, 11,858
// faces) and its Land.map of 600 areals (25 x 24).
//   locate: sortie ArealMap::locate vs dtNavMeshQuery::findNearestPoly
//   route:  sortie ArealMap::find_path (locate both ends, A*, portals, funnel) vs
//           findNearestPoly x 2 + findPath + findStraightPath
// over the same 10,000 random endpoint pairs, each query timed alone: the counters p50_ns,
// p99_ns (and found = queries that answered). The Detour navmesh is built once from the same
// triangles with Recast, in tiles of 64 units. Then one control step (a world tick) of 1,000
// moving units with collisions.
// Run pinned: taskset -c 0 build/release/bench/bench_move
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "corpus_terrain.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/core/stats.hpp"
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/environment.hpp"
#include "sortie/move/move_system.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/nav/terrain_world.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/world.hpp"

#if SORTIE_WITH_DETOUR
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <Recast.h>
#endif

using namespace sortie;

namespace {

constexpr std::size_t kPairs = 10'000;
constexpr float kTile = 64.0f;        // Detour tile side, world units
constexpr float kAgentRadius = 1.5f;  // the scenario's unit body
constexpr float kAgentHeight = 3.0f;

using bench::corpus_areals;
using bench::corpus_map;
using bench::corpus_msh;
using bench::corpus_soup;
using bench::corpus_world;

struct Endpoint {
  core::Vec2 xy;
  float z = 0.0f;  // terrain height (Detour's search centre)
};

// 10,000 pairs of points uniformly over the terrain, 1 unit inside its edge (deterministic).
const std::vector<std::pair<Endpoint, Endpoint>>& pairs() {
  static const auto v = [] {
    const auto b = corpus_world().bounds();
    core::Rng rng(11, 0x4D4F5645);
    auto point = [&] {
      Endpoint e;
      e.xy.x = b.min.x + 1.0f + rng.unit_f32() * (b.max.x - b.min.x - 2.0f);
      e.xy.y = b.min.y + 1.0f + rng.unit_f32() * (b.max.y - b.min.y - 2.0f);
      e.z = corpus_world().height_at(e.xy.x, e.xy.y).value_or(0.0f);
      return e;
    };
    std::vector<std::pair<Endpoint, Endpoint>> out(kPairs);
    for (auto& p : out) {
      p.first = point();
      p.second = point();
    }
    return out;
  }();
  return v;
}

// Times `query(a, b)` (true: the query found something) once per pair in every iteration:
// p50/p99 per query in ns, the pairs found in the last iteration and pairs/s into the counters.
template <class Query>
void time_pairs(benchmark::State& state, const Query& query) {
  const auto& ps = pairs();  // made before the first timed iteration
  std::vector<double> ns;
  std::size_t found = 0;
  for (auto _ : state) {
    found = 0;
    for (const auto& [a, b] : ps) {
      const auto t0 = std::chrono::steady_clock::now();
      const bool hit = query(a, b);
      const auto t1 = std::chrono::steady_clock::now();
      ns.push_back(static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
      found += hit ? 1 : 0;
    }
  }
  const core::Summary times = core::summarize(std::move(ns));
  state.counters["p50_ns"] = times.p50;
  state.counters["p99_ns"] = times.p99;
  state.counters["found"] = static_cast<double>(found);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kPairs));
}

void BM_SortieLocate(benchmark::State& state) {
  const auto& m = corpus_areals();
  time_pairs(state, [&](const Endpoint& a, const Endpoint&) {
    auto r = m.locate(a.xy.x, a.xy.y);
    benchmark::DoNotOptimize(r);
    return r.has_value();
  });
}
BENCHMARK(BM_SortieLocate)->Unit(benchmark::kMillisecond);

void BM_SortieRouteAndSmooth(benchmark::State& state) {
  const auto& m = corpus_areals();
  nav::PathWorkspace ws;
  time_pairs(state, [&](const Endpoint& a, const Endpoint& b) {
    auto r = m.find_path(a.xy, b.xy, {}, &ws);
    benchmark::DoNotOptimize(r);
    return r.has_value();
  });
}
BENCHMARK(BM_SortieRouteAndSmooth)->Unit(benchmark::kMillisecond);

#if SORTIE_WITH_DETOUR

// Recast works Y-up: sortie (x, y, z) -> Recast (x, z, y).
struct RecastInput {
  std::vector<float> verts;
  std::vector<int> tris;
  float bmin[3]{};
  float bmax[3]{};
};

RecastInput recast_input() {
  const auto& soup = corpus_soup();
  RecastInput in;
  for (const auto& p : soup.positions) {
    in.verts.insert(in.verts.end(), {p.x, p.z, p.y});
  }
  for (const auto& f : soup.faces) {
    // Recast's walkable test wants the normal up (+Y); the axis swap may have mirrored it.
    int t[3] = {static_cast<int>(f.vertices[0]), static_cast<int>(f.vertices[1]), static_cast<int>(f.vertices[2])};
    const float* a = &in.verts[static_cast<std::size_t>(t[0]) * 3];
    const float* b = &in.verts[static_cast<std::size_t>(t[1]) * 3];
    const float* c = &in.verts[static_cast<std::size_t>(t[2]) * 3];
    const float ny = (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]);
    if (ny < 0.0f) std::swap(t[1], t[2]);
    in.tris.insert(in.tris.end(), {t[0], t[1], t[2]});
  }
  rcCalcBounds(in.verts.data(), static_cast<int>(in.verts.size() / 3), in.bmin, in.bmax);
  return in;
}

struct NavMeshDeleter {
  void operator()(dtNavMesh* m) const { dtFreeNavMesh(m); }
};
struct QueryDeleter {
  void operator()(dtNavMeshQuery* q) const { dtFreeNavMeshQuery(q); }
};

// One tile of the navmesh (Recast's tiled pipeline); nullptr data when the tile has no polygon.
bool build_tile(const RecastInput& in, int tx, int ty, dtNavMesh& mesh) {
  rcConfig cfg{};
  cfg.cs = 0.5f;
  cfg.ch = 0.25f;
  cfg.walkableSlopeAngle = 45.0f;
  cfg.walkableHeight = static_cast<int>(std::ceil(kAgentHeight / cfg.ch));
  cfg.walkableClimb = static_cast<int>(std::floor(0.9f / cfg.ch));
  cfg.walkableRadius = static_cast<int>(std::ceil(kAgentRadius / cfg.cs));
  cfg.maxEdgeLen = static_cast<int>(12.0f / cfg.cs);
  cfg.maxSimplificationError = 1.3f;
  cfg.minRegionArea = 8 * 8;
  cfg.mergeRegionArea = 20 * 20;
  cfg.maxVertsPerPoly = DT_VERTS_PER_POLYGON;
  cfg.tileSize = static_cast<int>(kTile / cfg.cs);
  cfg.borderSize = cfg.walkableRadius + 3;
  cfg.width = cfg.tileSize + cfg.borderSize * 2;
  cfg.height = cfg.tileSize + cfg.borderSize * 2;
  cfg.detailSampleDist = 6.0f * cfg.cs;
  cfg.detailSampleMaxError = 1.0f * cfg.ch;
  cfg.bmin[0] = in.bmin[0] + static_cast<float>(tx) * kTile - static_cast<float>(cfg.borderSize) * cfg.cs;
  cfg.bmin[1] = in.bmin[1];
  cfg.bmin[2] = in.bmin[2] + static_cast<float>(ty) * kTile - static_cast<float>(cfg.borderSize) * cfg.cs;
  cfg.bmax[0] = in.bmin[0] + static_cast<float>(tx + 1) * kTile + static_cast<float>(cfg.borderSize) * cfg.cs;
  cfg.bmax[1] = in.bmax[1];
  cfg.bmax[2] = in.bmin[2] + static_cast<float>(ty + 1) * kTile + static_cast<float>(cfg.borderSize) * cfg.cs;

  rcContext ctx(false);
  const int nv = static_cast<int>(in.verts.size() / 3);
  const int nt = static_cast<int>(in.tris.size() / 3);
  std::unique_ptr<rcHeightfield, decltype(&rcFreeHeightField)> hf(rcAllocHeightfield(), rcFreeHeightField);
  if (!rcCreateHeightfield(&ctx, *hf, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch)) return false;
  std::vector<unsigned char> areas(static_cast<std::size_t>(nt), 0);
  rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, in.verts.data(), nv, in.tris.data(), nt, areas.data());
  if (!rcRasterizeTriangles(&ctx, in.verts.data(), nv, in.tris.data(), areas.data(), nt, *hf, cfg.walkableClimb))
    return false;
  rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *hf);
  rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf);
  rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *hf);
  std::unique_ptr<rcCompactHeightfield, decltype(&rcFreeCompactHeightfield)> chf(rcAllocCompactHeightfield(),
                                                                                 rcFreeCompactHeightfield);
  if (!rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf, *chf)) return false;
  if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf)) return false;
  if (!rcBuildDistanceField(&ctx, *chf)) return false;
  if (!rcBuildRegions(&ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea)) return false;
  std::unique_ptr<rcContourSet, decltype(&rcFreeContourSet)> cset(rcAllocContourSet(), rcFreeContourSet);
  if (!rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset)) return false;
  std::unique_ptr<rcPolyMesh, decltype(&rcFreePolyMesh)> pmesh(rcAllocPolyMesh(), rcFreePolyMesh);
  if (!rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh)) return false;
  std::unique_ptr<rcPolyMeshDetail, decltype(&rcFreePolyMeshDetail)> dmesh(rcAllocPolyMeshDetail(),
                                                                           rcFreePolyMeshDetail);
  if (!rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dmesh)) return false;
  if (pmesh->npolys == 0) return true;  // nothing walkable here
  for (int i = 0; i < pmesh->npolys; ++i) pmesh->flags[i] = pmesh->areas[i] == RC_WALKABLE_AREA ? 1 : 0;

  dtNavMeshCreateParams params{};
  params.verts = pmesh->verts;
  params.vertCount = pmesh->nverts;
  params.polys = pmesh->polys;
  params.polyAreas = pmesh->areas;
  params.polyFlags = pmesh->flags;
  params.polyCount = pmesh->npolys;
  params.nvp = pmesh->nvp;
  params.detailMeshes = dmesh->meshes;
  params.detailVerts = dmesh->verts;
  params.detailVertsCount = dmesh->nverts;
  params.detailTris = dmesh->tris;
  params.detailTriCount = dmesh->ntris;
  params.walkableHeight = kAgentHeight;
  params.walkableRadius = kAgentRadius;
  params.walkableClimb = 0.9f;
  params.tileX = tx;
  params.tileY = ty;
  params.tileLayer = 0;
  std::copy(pmesh->bmin, pmesh->bmin + 3, params.bmin);
  std::copy(pmesh->bmax, pmesh->bmax + 3, params.bmax);
  params.cs = cfg.cs;
  params.ch = cfg.ch;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&params, &data, &size)) return false;
  if (dtStatusFailed(mesh.addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr))) {
    dtFree(data);
    return false;
  }
  return true;
}

struct Detour {
  std::unique_ptr<dtNavMesh, NavMeshDeleter> mesh;
  std::unique_ptr<dtNavMeshQuery, QueryDeleter> query;
  dtQueryFilter filter;
  int tiles = 0;
  int polys = 0;
};

const Detour& detour() {
  static const Detour d = [] {
    Detour out;
    const RecastInput in = recast_input();
    const int tiles_x = static_cast<int>(std::ceil((in.bmax[0] - in.bmin[0]) / kTile));
    const int tiles_y = static_cast<int>(std::ceil((in.bmax[2] - in.bmin[2]) / kTile));
    out.mesh.reset(dtAllocNavMesh());
    dtNavMeshParams p{};
    std::copy(in.bmin, in.bmin + 3, p.orig);
    p.tileWidth = kTile;
    p.tileHeight = kTile;
    p.maxTiles = 256;      // 8 bits of tile index
    p.maxPolys = 1 << 14;  // the remaining 22 - 8 bits of a 32-bit poly ref
    if (dtStatusFailed(out.mesh->init(&p))) std::abort();
    for (int ty = 0; ty < tiles_y; ++ty)
      for (int tx = 0; tx < tiles_x; ++tx) {
        if (!build_tile(in, tx, ty, *out.mesh)) std::abort();
      }
    for (int i = 0; i < out.mesh->getMaxTiles(); ++i) {
      const dtMeshTile* t = static_cast<const dtNavMesh&>(*out.mesh).getTile(i);
      if (t != nullptr && t->header != nullptr) {
        ++out.tiles;
        out.polys += t->header->polyCount;
      }
    }
    out.query.reset(dtAllocNavMeshQuery());
    if (dtStatusFailed(out.query->init(out.mesh.get(), 4096))) std::abort();
    out.filter.setIncludeFlags(1);
    return out;
  }();
  return d;
}

constexpr float kExtents[3] = {2.0f, 4.0f, 2.0f};  // search box half size (Recast axes)

dtPolyRef nearest(const Detour& d, const Endpoint& e, float* at) {
  const float c[3] = {e.xy.x, e.z, e.xy.y};
  dtPolyRef ref = 0;
  d.query->findNearestPoly(c, kExtents, &d.filter, &ref, at);
  return ref;
}

void BM_DetourLocate(benchmark::State& state) {
  const Detour& d = detour();
  time_pairs(state, [&](const Endpoint& a, const Endpoint&) {
    float at[3];
    const dtPolyRef r = nearest(d, a, at);
    benchmark::DoNotOptimize(r);
    return r != 0;
  });
  state.counters["tiles"] = d.tiles;
  state.counters["polys"] = d.polys;
}
BENCHMARK(BM_DetourLocate)->Unit(benchmark::kMillisecond);

void BM_DetourRouteAndSmooth(benchmark::State& state) {
  const Detour& d = detour();
  constexpr int kMaxPolys = 1024;
  std::vector<dtPolyRef> corridor(kMaxPolys);
  std::vector<float> straight(std::size_t{kMaxPolys} * 3);
  std::vector<unsigned char> flags(kMaxPolys);
  std::vector<dtPolyRef> refs(kMaxPolys);
  time_pairs(state, [&](const Endpoint& a, const Endpoint& b) {
    float pa[3];
    float pb[3];
    const dtPolyRef ra = nearest(d, a, pa);
    const dtPolyRef rb = nearest(d, b, pb);
    if (ra == 0 || rb == 0) return false;
    int n = 0;
    if (dtStatusFailed(d.query->findPath(ra, rb, pa, pb, &d.filter, corridor.data(), &n, kMaxPolys)) || n == 0)
      return false;
    float end[3] = {pb[0], pb[1], pb[2]};
    if (corridor[static_cast<std::size_t>(n - 1)] != rb) {  // partial path: stop at the last polygon
      d.query->closestPointOnPoly(corridor[static_cast<std::size_t>(n - 1)], pb, end, nullptr);
    }
    int m = 0;
    d.query->findStraightPath(pa, end, corridor.data(), n, straight.data(), flags.data(), refs.data(), &m, kMaxPolys);
    benchmark::DoNotOptimize(m);
    return m > 0;
  });
}
BENCHMARK(BM_DetourRouteAndSmooth)->Unit(benchmark::kMillisecond);

#endif  // SORTIE_WITH_DETOUR

// One world tick of 1,000 units walking with the full stack (Behavior / Wizard / Control,
// collisions) over the corpus terrain and areal map. Units stand on a 6-unit grid in the
// middle of the map, each ordered to a random point up to 200 units away, so they keep moving
// (and meeting) for the measured ticks; `moving` = units with a speed after the last tick.
void BM_ControlStep1000Units(benchmark::State& state) {
  auto env = move::make_environment(corpus_msh(), corpus_map(), move::MoveParams{}).value();
  world::WorldConfig cfg;
  cfg.seed = 7;
  cfg.commands = move::move_command_registry(env);
  world::World w(cfg);
  const auto b = corpus_world().bounds();
  const core::Vec2 centre{(b.min.x + b.max.x) * 0.5f, (b.min.y + b.max.y) * 0.5f};
  core::Rng rng(5, 0x43545253);
  std::vector<world::ObjectId> units;
  for (std::uint32_t i = 0; i < 1000; ++i) {
    const world::ObjectId id{w.local_player(), mission::class_ids::kTmaUnit, i};
    core::Transform t;
    const float x = centre.x + (static_cast<float>(i % 40) - 20.0f) * 6.0f;
    const float y = centre.y + (static_cast<float>(i / 40) - 12.5f) * 6.0f;
    t.position = {x, y, corpus_world().height_at(x, y).value_or(0.0f)};
    auto h = w.create_object(id, "unit", t);
    if (!h || !w.add_to_game(*h)) std::abort();
    move::EnableCommand e;
    e.target = id;
    e.radius = kAgentRadius;
    e.height = kAgentHeight;
    e.max_speed = 6.0f;
    if (!w.submit(world::make_command(0, e))) std::abort();
    const float gx = std::clamp(x + (rng.unit_f32() * 2.0f - 1.0f) * 200.0f, b.min.x + 8.0f, b.max.x - 8.0f);
    const float gy = std::clamp(y + (rng.unit_f32() * 2.0f - 1.0f) * 200.0f, b.min.y + 8.0f, b.max.y - 8.0f);
    if (!w.submit(world::make_command(0, move::GotoCommand{id, core::Vec2{gx, gy}, 6.0f}))) std::abort();
    units.push_back(id);
  }
  if (!w.tick()) std::abort();  // enable, plan
  for (auto _ : state) {
    if (!w.tick()) std::abort();
  }
  std::size_t moving = 0;
  for (const auto& id : units) {
    const auto* o = w.find_live(id);
    if (o == nullptr) continue;
    const auto* c = o->components.get<move::ControlState>();
    if (c != nullptr && std::fabs(c->speed) > 0.0f) ++moving;
  }
  const move::MoveSystem* s = move::find_move_system(w);
  state.counters["moving"] = static_cast<double>(moving);
  state.counters["contacts"] = s != nullptr ? static_cast<double>(s->stats().contacts) : 0.0;
  state.counters["arrivals"] = s != nullptr ? static_cast<double>(s->stats().arrivals) : 0.0;
}
BENCHMARK(BM_ControlStep1000Units)->Unit(benchmark::kMillisecond)->Iterations(300);

}  // namespace
