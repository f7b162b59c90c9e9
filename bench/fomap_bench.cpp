// Lint throughput over the whole current-format corpus (corpus/fomap/new), one core:
//   taskset -c 0 build/release/bench/bench_fomap
// Reports bytes/second (target >= 100 MB/s for lint).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sortie/core/file_io.hpp"
#include "sortie/fomap/canonical.hpp"
#include "sortie/fomap/lint.hpp"
#include "sortie_test/corpus.hpp"

namespace {

namespace fs = std::filesystem;

fs::path corpus_root() {
  return sortie::test::fomap_corpus();
}

struct Corpus {
  std::vector<std::pair<std::string, std::string>> maps;  // path, text
  std::vector<std::size_t> project_of;                    // index into projects
  std::vector<sortie::fomap::Project> projects;
  std::size_t bytes = 0;
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus k;
    const fs::path root = corpus_root();
    if (root.empty()) return k;
    const std::pair<const char*, const char*> sets[] = {
        {"new/cvet__fonline-tla", "protos/cvet__fonline-tla"},
        {"new/cvet__fonline@84990df655/Examples/ContentShowcase",
         "protos/cvet__fonline@84990df655/Examples/ContentShowcase"},
        {"new/cvet__fonline@84990df655/Examples/MinimalMultiplayer",
         "protos/cvet__fonline@84990df655/Examples/MinimalMultiplayer"},
    };
    for (const auto& [maps, protos] : sets) {
      if (!fs::exists(root / maps)) continue;
      k.projects.push_back(sortie::fomap::Project::load({root / protos}));
      std::vector<fs::path> files;
      for (const auto& e : fs::recursive_directory_iterator(root / maps))
        if (e.is_regular_file() && e.path().extension() == ".fomap") files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        auto t = sortie::core::read_text_file(f);
        if (!t) continue;
        k.bytes += t->size();
        k.maps.emplace_back(f.generic_string(), std::move(*t));
        k.project_of.push_back(k.projects.size() - 1);
      }
    }
    return k;
  }();
  return c;
}

void BM_FomapLintCorpus(benchmark::State& state) {
  const Corpus& c = corpus();
  if (c.maps.empty()) {
    state.SkipWithError("corpus/fomap/new not found");
    return;
  }
  std::size_t findings = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < c.maps.size(); ++i) {
      auto m = sortie::fomap::MapContainer::from_text(c.maps[i].second, c.maps[i].first);
      auto r = sortie::fomap::lint_container(m, c.projects[c.project_of[i]], {.strict = true});
      findings += r.findings.size();
    }
  }
  benchmark::DoNotOptimize(findings);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(c.bytes));
  state.counters["files"] = static_cast<double>(c.maps.size());
}
BENCHMARK(BM_FomapLintCorpus)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_FomapGrammarCorpus(benchmark::State& state) {
  const Corpus& c = corpus();
  if (c.maps.empty()) {
    state.SkipWithError("corpus/fomap/new not found");
    return;
  }
  std::size_t sections = 0;
  for (auto _ : state)
    for (const auto& [path, text] : c.maps) sections += sortie::fomap::parse_config(text).sections().size();
  benchmark::DoNotOptimize(sections);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(c.bytes));
}
BENCHMARK(BM_FomapGrammarCorpus)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_FomapFmtCorpus(benchmark::State& state) {
  const Corpus& c = corpus();
  if (c.maps.empty()) {
    state.SkipWithError("corpus/fomap/new not found");
    return;
  }
  std::size_t out_bytes = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < c.maps.size(); ++i) {
      auto m = sortie::fomap::MapContainer::from_text(c.maps[i].second, c.maps[i].first);
      auto r = sortie::fomap::format_container(m, c.projects[c.project_of[i]]);
      if (r) out_bytes += r->size();
    }
  }
  benchmark::DoNotOptimize(out_bytes);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(c.bytes));
}
BENCHMARK(BM_FomapFmtCorpus)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
