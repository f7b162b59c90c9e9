// Lint + bake throughput over the whole current-format corpus (corpus/fomap/new), one thread.
// Run: taskset -c 0 build/release/bench/bench_fomap_bake
// Counters: bytes/s over the map text; peak_rss_mb (process peak, includes the proto catalog).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "sortie/core/file_io.hpp"
#include "sortie/fomap/bake.hpp"
#include "sortie/fomap/hash.hpp"
#include "sortie/fomap/lint.hpp"
#include "sortie_test/corpus.hpp"

namespace {

namespace fs = std::filesystem;
using namespace sortie;

fs::path corpus_dir() {
  return sortie::test::fomap_corpus();
}

struct Corpus {
  std::unique_ptr<fomap::Project> project;
  std::unique_ptr<fomap::BakeRegistrars> regs;
  std::vector<std::pair<std::string, std::string>> files;  // path, text
  std::int64_t bytes = 0;
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus k;
    const fs::path dir = corpus_dir();
    if (!fs::exists(dir / "new")) return k;
    k.project = std::make_unique<fomap::Project>(
        fomap::Project::load({dir / "protos/cvet__fonline-tla", dir / "protos/cvet__fonline@84990df655"}));
    k.regs = std::make_unique<fomap::BakeRegistrars>(k.project->properties);
    for (const auto& p : fomap::find_map_containers({dir / "new"})) {
      auto t = core::read_text_file(p);
      if (!t) continue;
      k.bytes += static_cast<std::int64_t>(t->size());
      k.files.emplace_back(p.string(), std::move(*t));
    }
    return k;
  }();
  return c;
}

double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

void run(benchmark::State& state, bool do_lint, bool do_bake) {
  const Corpus& c = corpus();
  if (c.files.empty()) {
    state.SkipWithError("corpus/fomap absent");
    return;
  }
  fomap::LintOptions strict;
  strict.strict = true;
  std::size_t failures = 0;
  for (auto _ : state) {
    // One session per pass, as `sortie fomap bake` uses one per run over the whole pack.
    fomap::BakeSession session(*c.project, *c.regs);
    for (const auto& [path, text] : c.files) {
      const fomap::MapContainer container = fomap::MapContainer::from_text(text, path);
      if (do_lint) {
        const auto report = fomap::lint_container(container, *c.project, strict);
        failures += report.errors();
      }
      if (do_bake) {
        for (const auto& out : session.bake_container(container)) {
          if (!out.baked) {
            ++failures;
            continue;
          }
          benchmark::DoNotOptimize(out.baked->server_bytes());
          benchmark::DoNotOptimize(out.baked->client_bytes());
        }
      }
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * c.bytes);
  state.counters["files"] = static_cast<double>(c.files.size());
  state.counters["failures"] = static_cast<double>(failures);
  state.counters["peak_rss_mb"] = peak_rss_mb();
}

void BM_FomapLintAndBakeCorpus(benchmark::State& state) {
  run(state, true, true);
}
void BM_FomapBakeCorpus(benchmark::State& state) {
  run(state, false, true);
}
void BM_FomapLintCorpus(benchmark::State& state) {
  run(state, true, false);
}

void BM_FomapStringHash(benchmark::State& state) {
  const std::string s = "art/tiles/cave/floor_0123456789.frm";
  for (auto _ : state) benchmark::DoNotOptimize(fomap::string_hash(s));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(s.size()));
}

}  // namespace

BENCHMARK(BM_FomapLintAndBakeCorpus)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_FomapBakeCorpus)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_FomapLintCorpus)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_FomapStringHash);
