// Mission load time on the corpus-scale sample (issue: warm <= 50 ms, cold <= 200 ms on one core),
// per phase, and ticks per second of the loaded mission world.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>

#include "sortie/assets/sample_game.hpp"
#include "sortie/world/mission_loader.hpp"
#include "sortie/world/scenario.hpp"

using namespace sortie;

namespace {

const std::filesystem::path& corpus_dir() {
  static const std::filesystem::path dir = [] {
    auto d = assets::ensure_cached_sample({assets::SampleScale::corpus, 1, assets::ArchiveFormat::rsli},
                                          std::filesystem::temp_directory_path() / "sortie-bench");
    if (!d) std::abort();
    return *d;
  }();
  return dir;
}

void report_phases(benchmark::State& state, const std::map<std::string, double>& sums) {
  for (const auto& [phase, ms] : sums)
    state.counters["ms_" + phase] = benchmark::Counter(ms / static_cast<double>(state.iterations()));
}

void load_once(assets::ArchiveRepository& repo, assets::PrototypeResolver& resolver, std::map<std::string, double>& sums) {
  world::MissionSession session(repo, resolver);
  auto report = session.load("m01");
  if (!report || !report->ok) std::abort();
  for (const auto& t : report->timings) sums[t.phase] += t.milliseconds;
  benchmark::DoNotOptimize(session.current());
}

}  // namespace

// Cold: a new VFS, repository and resolver every time (archives read, mounted, decoded anew).
static void BM_MissionLoadCold(benchmark::State& state) {
  const auto& dir = corpus_dir();
  std::map<std::string, double> sums;
  for (auto _ : state) {
    assets::DirectoryVfs vfs(dir);
    assets::ArchiveRepository repo(vfs);
    assets::PrototypeResolver resolver(repo);
    load_once(repo, resolver, sums);
  }
  report_phases(state, sums);
}
BENCHMARK(BM_MissionLoadCold)->Unit(benchmark::kMillisecond);

// Warm: archives mounted and resources decoded by a previous load of the same mission.
static void BM_MissionLoadWarm(benchmark::State& state) {
  assets::DirectoryVfs vfs(corpus_dir());
  assets::ArchiveRepository repo(vfs);
  assets::PrototypeResolver resolver(repo);
  std::map<std::string, double> warmup;
  load_once(repo, resolver, warmup);
  std::map<std::string, double> sums;
  for (auto _ : state) load_once(repo, resolver, sums);
  report_phases(state, sums);
}
BENCHMARK(BM_MissionLoadWarm)->Unit(benchmark::kMillisecond);

// Ticks per second of the corpus mission with move orders (the `sortie run` workload).
static void BM_MissionTicks(benchmark::State& state) {
  assets::DirectoryVfs vfs(corpus_dir());
  assets::ArchiveRepository repo(vfs);
  assets::PrototypeResolver resolver(repo);
  world::MissionSession session(repo, resolver);
  if (!session.load("m01")) std::abort();
  world::ScenarioOptions so;
  so.ticks = 100;
  so.orders_per_wave = 16;
  so.order_interval = 10;
  for (auto _ : state) {
    auto r = world::run_scenario(*session.current(), so);
    benchmark::DoNotOptimize(r);
  }
  state.counters["ticks_per_s"] = benchmark::Counter(static_cast<double>(state.iterations() * so.ticks), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MissionTicks)->Unit(benchmark::kMillisecond);
