// Mission load time on the corpus-scale sample (issue: warm <= 50 ms, cold <= 200 ms on one core),
// per phase (ms_resources is the prepared-visual store), the cost of preparing the visuals alone,
// ticks per second of the loaded mission world, and the demo sample's generation in memory (part
// of the first `sortie run`; the sounds are synthesised and encoded there).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>

#include "corpus_sample.hpp"
#include "sortie/assets/sample_game.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/mission/scenario.hpp"

using namespace sortie;

namespace {

using bench::corpus_dir;

void report_phases(benchmark::State& state, const std::map<std::string, double>& sums) {
  for (const auto& [phase, ms] : sums)
    state.counters["ms_" + phase] = benchmark::Counter(ms / static_cast<double>(state.iterations()));
}

mission::GameContext open_corpus() {
  auto game = mission::GameContext::open(corpus_dir());
  if (!game) std::abort();
  return std::move(*game);
}

void load_once(mission::GameContext& game, std::map<std::string, double>& sums) {
  auto report = game.load("m01");
  if (!report || !report->ok) std::abort();
  for (const auto& t : report->timings) sums[t.phase] += t.milliseconds;
  benchmark::DoNotOptimize(game.current());
}

}  // namespace

// Cold: a new VFS, repository, resolver and visual cache every time (archives read, mounted,
// decoded anew).
static void BM_MissionLoadCold(benchmark::State& state) {
  std::map<std::string, double> sums;
  for (auto _ : state) {
    auto game = open_corpus();
    load_once(game, sums);
  }
  report_phases(state, sums);
}
BENCHMARK(BM_MissionLoadCold)->Unit(benchmark::kMillisecond);

// Warm: archives mounted and resources decoded by a previous load of the same mission.
static void BM_MissionLoadWarm(benchmark::State& state) {
  auto game = open_corpus();
  std::map<std::string, double> warmup;
  load_once(game, warmup);
  std::map<std::string, double> sums;
  for (auto _ : state) load_once(game, sums);
  report_phases(state, sums);
}
BENCHMARK(BM_MissionLoadWarm)->Unit(benchmark::kMillisecond);

// Phase 5 alone: the prepared-visual store of m01 from an empty visual cache (archives mounted):
// every mesh, material and texture decoded once, full RGBA8 mip chains built.
static void BM_PrepareVisuals(benchmark::State& state) {
  auto game = open_corpus();
  auto md = game.prepare("m01");
  if (!md || !md->ok()) std::abort();
  assets::VisualStoreStats stats;
  assets::VisualCacheStats decoded;
  for (auto _ : state) {
    assets::VisualCache cache;
    auto store = assets::build_visual_store(game.repository(), cache, *md);
    if (!store) std::abort();
    stats = (*store)->stats();
    decoded = cache.stats();
    benchmark::DoNotOptimize(store);
  }
  state.counters["meshes"] = benchmark::Counter(static_cast<double>(stats.meshes));
  state.counters["materials"] = benchmark::Counter(static_cast<double>(stats.materials));
  state.counters["textures"] =
      benchmark::Counter(static_cast<double>(decoded.textures_decoded + decoded.lightmaps_decoded));
  state.counters["rgba_MiB"] = benchmark::Counter(static_cast<double>(stats.texture_bytes) / (1024.0 * 1024.0));
  state.counters["textures_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * (decoded.textures_decoded + decoded.lightmaps_decoded)),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PrepareVisuals)->Unit(benchmark::kMillisecond);

// Ticks per second of the corpus mission with move orders (the `sortie run` workload).
static void BM_MissionTicks(benchmark::State& state) {
  auto game = open_corpus();
  if (!game.load("m01")) std::abort();
  mission::ScenarioOptions so;
  so.ticks = 100;
  so.orders_per_wave = 16;
  so.order_interval = 10;
  for (auto _ : state) {
    auto r = mission::run_scenario(*game.current(), so);
    benchmark::DoNotOptimize(r);
  }
  state.counters["ticks_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * so.ticks), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MissionTicks)->Unit(benchmark::kMillisecond);

static void BM_SampleGenerate_demo(benchmark::State& state) {
  std::uint64_t bytes = 0;
  for (auto _ : state) {
    auto files = assets::generate_sample_files({assets::SampleScale::demo, 1, assets::ArchiveFormat::rsli});
    if (!files) std::abort();
    bytes = files->second.bytes;
    benchmark::DoNotOptimize(files->first);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SampleGenerate_demo)->Unit(benchmark::kMillisecond);
