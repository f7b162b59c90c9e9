// NRes: open + directory of a 100,000-entry archive (target <= 20 ms); open of a 16 MB archive
// with 100,000 entries, borrowed (target >= 2,500 MB/s: twice the Rust peer's 1,250 MB/s),
// copied and mapped from a file; 1M lookups, hit and miss (target <= 200 ns each).
// Run: taskset -c 0 build/release/bench/bench_nres
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie/core/mapped_file.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/nres.hpp"

using namespace sortie;

namespace {

constexpr std::size_t kEntries = 100'000;
constexpr std::size_t kQueries = 1'000'000;

// Names look like game resources: a few shared prefixes, mixed case, varied lengths.
std::string entry_name(std::size_t i) {
  static constexpr const char* kPrefix[] = {"b_", "TEXTURE_", "Unit", "fx_spark_", "MAT_"};
  return fmt::format("{}{:x}_{}", kPrefix[i % 5], (i * 2654435761u) & 0xffffff, i);
}

core::Bytes build_archive(std::size_t max_payload) {
  iron3d::NresBuilder b;
  core::Rng rng(1);
  for (std::size_t i = 0; i < kEntries; ++i)
    b.add(rng.next_u32(), entry_name(i), core::Bytes(rng.below(static_cast<std::uint32_t>(max_payload)), 0x5a),
          rng.next_u32(), 0, 0);
  return b.build().value();
}

// 100,000 entries, payloads of 0..47 bytes (8.7 MiB).
const core::Bytes& archive_bytes() {
  static const core::Bytes bytes = build_archive(48);
  return bytes;
}
// 100,000 entries, payloads of 0..191 bytes: 16.4 MB, the size of the peer comparison.
const core::SharedBytes& archive_16mb() {
  static const core::SharedBytes bytes(build_archive(192));
  return bytes;
}

const iron3d::NresArchive& archive() {
  static const iron3d::NresArchive a = iron3d::read_nres(archive_bytes()).value();
  return a;
}

void count_bytes(benchmark::State& state, std::size_t size) {
  state.counters["entries"] = kEntries;
  state.counters["MB"] = static_cast<double>(size) / 1e6;
  state.counters["MB/s"] =
      benchmark::Counter(static_cast<double>(size) / 1e6, benchmark::Counter::kIsIterationInvariantRate);
}

// Query names packed in one buffer (views into it), so the benchmark measures the lookup and
// not a cache miss on a separately allocated query string.
struct Queries {
  std::string pool;
  std::vector<std::string_view> names;
};
Queries queries(bool hit) {
  core::Rng rng(hit ? 2 : 3);
  Queries q;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (std::size_t i = 0; i < kQueries; ++i) {
    std::string n = entry_name(rng.below(kEntries));
    if (rng.below(2)) n = core::ascii_lower(n);  // case-insensitive hits
    if (!hit) n.back() = 'x';                    // same prefix, never present
    spans.emplace_back(q.pool.size(), n.size());
    q.pool += n;
  }
  for (auto [at, len] : spans) q.names.emplace_back(q.pool.data() + at, len);
  return q;
}

// Opens `input` (a SharedBytes: borrowed; a ByteView: copied first) once per iteration.
template <typename Input>
void open_repeatedly(benchmark::State& state, const Input& input) {
  for (auto _ : state) {
    auto a = iron3d::read_nres(input);
    if (!a || a->entries.size() != kEntries) state.SkipWithError("read failed");
    benchmark::DoNotOptimize(a);
  }
  count_bytes(state, input.size());
}

void BM_NresOpen100k(benchmark::State& state) {
  open_repeatedly(state, core::SharedBytes(archive_bytes()));
}
BENCHMARK(BM_NresOpen100k)->Unit(benchmark::kMillisecond)->Repetitions(7)->ReportAggregatesOnly(true);

// Borrowed input: the archive shares the buffer (no copy). The comparison figure.
void BM_NresOpen16MB(benchmark::State& state) {
  open_repeatedly(state, archive_16mb());
}
BENCHMARK(BM_NresOpen16MB)->Unit(benchmark::kMillisecond)->Repetitions(7)->ReportAggregatesOnly(true);

// A caller's ByteView is copied first (the archive may outlive the caller's buffer).
void BM_NresOpenCopy16MB(benchmark::State& state) {
  open_repeatedly(state, archive_16mb().view());
}
BENCHMARK(BM_NresOpenCopy16MB)->Unit(benchmark::kMillisecond)->Repetitions(3)->ReportAggregatesOnly(true);

// From a file: map (core::MappedFile) and open, per iteration; the file is in the page cache.
void BM_NresOpenMappedFile16MB(benchmark::State& state) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "sortie_bench_nres_16mb.lib";
  if (!core::write_file_atomic(path, archive_16mb().view())) {
    state.SkipWithError("cannot write the temporary archive");
    return;
  }
  for (auto _ : state) {
    auto mapped = core::SharedBytes::from_file(path);
    if (!mapped) {
      state.SkipWithError("cannot map the archive");
      break;
    }
    auto a = iron3d::read_nres(std::move(*mapped));
    if (!a || a->entries.size() != kEntries) state.SkipWithError("read failed");
    benchmark::DoNotOptimize(a);
  }
  std::error_code ec;
  std::filesystem::remove(path, ec);
  count_bytes(state, archive_16mb().size());
}
BENCHMARK(BM_NresOpenMappedFile16MB)->Unit(benchmark::kMillisecond)->Repetitions(3)->ReportAggregatesOnly(true);

void lookup(benchmark::State& state, bool hit) {
  const auto& a = archive();
  const Queries q = queries(hit);
  std::size_t found = 0;
  for (auto _ : state) {
    for (const std::string_view name : q.names) found += a.find(name).has_value();
    benchmark::DoNotOptimize(found);
  }
  if (found != (hit ? state.iterations() * kQueries : 0)) state.SkipWithError("unexpected lookup result");
  // Per-lookup time = iteration time / 1M (ns per lookup = reported ms * 1e6 / 1e6).
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kQueries));
}
void BM_NresLookupHit1M(benchmark::State& state) {
  lookup(state, true);
}
void BM_NresLookupMiss1M(benchmark::State& state) {
  lookup(state, false);
}
BENCHMARK(BM_NresLookupHit1M)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_NresLookupMiss1M)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

// The spec's binary search through the sort table, for comparison with the hash index.
void BM_NresLookupSortedHit1M(benchmark::State& state) {
  const auto& a = archive();
  const Queries q = queries(true);
  std::size_t found = 0;
  for (auto _ : state) {
    for (const std::string_view name : q.names) found += a.find_sorted(name).has_value();
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kQueries));
}
BENCHMARK(BM_NresLookupSortedHit1M)->Unit(benchmark::kMillisecond)->Repetitions(3)->ReportAggregatesOnly(true);

}  // namespace
