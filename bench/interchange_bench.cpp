// glTF export of the corpus-scale sample's missions (issue #20: the biggest mission, terrain +
// ~110 objects + textures, <= 300 ms on one core), the model import and PNG <-> Texm.
// Two timings per mission: the export alone from a prepared visual store (what the exporter
// costs), and the whole `sortie export mission` path (open, prepare, store, export, write).
//   taskset -c 0 build/release/bench/bench_interchange
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "corpus_sample.hpp"
#include "sortie/assets/sample_game.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/interchange/gltf_export.hpp"
#include "sortie/interchange/gltf_import.hpp"
#include "sortie/interchange/interchange_files.hpp"
#include "sortie/interchange/texture_png.hpp"
#include "sortie/mission/game_context.hpp"

using namespace sortie;

namespace {

using bench::corpus_dir;

const char* const kMissions[] = {"m01", "m02", "m03", "m04", "m05", "m06", "m07", "m08"};

struct Prepared {
  mission::GameContext game;
  assets::MissionData data;
  std::shared_ptr<const assets::VisualStore> store;
};

Prepared prepare(const char* name) {
  auto game = mission::GameContext::open(corpus_dir());
  if (!game) std::abort();
  auto md = game->prepare(name);
  if (!md) std::abort();
  assets::VisualCache cache;
  auto store = assets::build_visual_store(game->repository(), cache, *md);
  if (!store) std::abort();
  return {std::move(*game), std::move(*md), *store};
}

void BM_ExportMission(benchmark::State& state) {
  const char* name = kMissions[state.range(0)];
  const Prepared p = prepare(name);
  std::uint64_t bytes = 0, triangles = 0;
  for (auto _ : state) {
    auto e = interchange::export_mission_gltf(*p.store, p.data, {});
    if (!e) std::abort();
    bytes = e->files.front().bytes.size();
    triangles = e->stats.triangles;
    benchmark::DoNotOptimize(e);
  }
  state.SetLabel(name);
  state.counters["objects"] = static_cast<double>(p.data.tma.objects.size());
  state.counters["triangles"] = static_cast<double>(triangles);
  state.counters["glb_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ExportMission)->DenseRange(0, 7)->Unit(benchmark::kMillisecond);

// The whole command: open the game, prepare the mission and its visuals, export, write the file.
void BM_ExportMissionFile(benchmark::State& state) {
  const char* name = kMissions[state.range(0)];
  interchange::MissionExportRequest rq;
  rq.source.dir = corpus_dir();
  rq.mission = name;
  rq.out = std::filesystem::temp_directory_path() / "sortie-bench-export.glb";
  for (auto _ : state) {
    auto r = interchange::export_mission_file(rq);
    if (!r) std::abort();
    benchmark::DoNotOptimize(r);
  }
  state.SetLabel(name);
}
BENCHMARK(BM_ExportMissionFile)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond);

// Reading back the biggest mission's export as a model (every object flattened) is past the
// MSH limits; a unit is what import takes: the first tank of the sample, exported then imported.
void BM_ImportModel(benchmark::State& state) {
  auto game = mission::GameContext::open(corpus_dir());
  if (!game) std::abort();
  assets::VisualCache cache;
  auto store = assets::prepare_model(game->repository(), cache, "UNITS\\TANKS\\u_000.dat");
  if (!store) std::abort();
  auto glb = interchange::export_model_gltf(**store, {});
  if (!glb) std::abort();
  for (auto _ : state) {
    auto model = interchange::read_gltf_model({core::ByteView(glb->files.front().bytes), {}});
    if (!model) std::abort();
    auto entries = interchange::build_model_entries(*model, "bench");
    if (!entries) std::abort();
    benchmark::DoNotOptimize(entries);
  }
}
BENCHMARK(BM_ImportModel)->Unit(benchmark::kMillisecond);

void BM_TextureRoundTrip(benchmark::State& state) {
  auto t = iron3d::build_texm(256, 256, 565, 9);
  if (!t) std::abort();
  for (auto _ : state) {
    auto pngs = interchange::export_texture_png(*t, 0);
    if (!pngs) std::abort();
    std::vector<core::ByteView> views(pngs->begin(), pngs->end());
    auto back = interchange::import_texture_png(views, {});
    if (!back) std::abort();
    benchmark::DoNotOptimize(back);
  }
}
BENCHMARK(BM_TextureRoundTrip)->Unit(benchmark::kMillisecond);

}  // namespace
