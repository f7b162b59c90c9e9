// Terrain decode/encode throughput at corpus map size: Land.msh with ~6,000 vertices
// (78 x 78 heightfield: 6,084 vertices, 11,858 faces) and Land.map with 600 areals and a
// 128 x 128 grid. Run pinned: taskset -c 0 build/release/bench/bench_terrain
#include <benchmark/benchmark.h>

#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/terrain_builder.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

const LandMsh& corpus_msh() {
  static const LandMsh m = make_land_msh_from_heightfield(make_sample_heightfield(78, 78, 2026), {8}).value();
  return m;
}
const core::Bytes& msh_bytes() {
  static const core::Bytes b = write_land_msh(corpus_msh()).value();
  return b;
}
const LandMap& corpus_map() {
  static const LandMap m = make_land_map_for(corpus_msh(), {25, 24}).value();
  return m;
}
const core::Bytes& map_bytes() {
  static const core::Bytes b = write_land_map(corpus_map()).value();
  return b;
}

const ReadOptions kStrict{core::Profile::strict, "Land.msh"};

void set_bytes(benchmark::State& state, std::size_t n) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}

}  // namespace

// Whole file: NRes container (owned copy, directory checks) + stream decode + face/slot validation.
static void BM_LandMshRead(benchmark::State& state) {
  const auto& bytes = msh_bytes();
  for (auto _ : state) {
    auto m = read_land_msh(bytes, kStrict);
    benchmark::DoNotOptimize(m);
  }
  set_bytes(state, bytes.size());
  state.counters["file_bytes"] = static_cast<double>(bytes.size());
}
BENCHMARK(BM_LandMshRead);

// Stream codec only (decode + validation), on an already-read container.
static void BM_LandMshDecodeStreams(benchmark::State& state) {
  const auto& bytes = msh_bytes();
  const auto archive = read_nres(bytes).value();
  std::vector<LandStream> streams;
  for (std::size_t i = 0; i < archive.size(); ++i) {
    const auto& e = archive.entries[i];
    streams.push_back({e.type_id, e.attr1, e.attr2, e.attr3, e.name, archive.payload(i), e.data_offset});
  }
  for (auto _ : state) {
    auto m = decode_land_msh_streams(streams, kStrict);
    benchmark::DoNotOptimize(m);
  }
  set_bytes(state, bytes.size());
}
BENCHMARK(BM_LandMshDecodeStreams);

// A 300,000-face Land.msh (the size of the independent reader comparison, issue 17 part 7): the
// 181 x 181 heightfield's 64,800 faces repeated with their neighbours cleared (u16 neighbour
// indices cannot name faces past 65,535), 32,761 positions. Bytes/s = file bytes decoded.
const core::Bytes& big_msh_bytes() {
  static const core::Bytes b = [] {
    LandMsh m = make_land_msh_from_heightfield(make_sample_heightfield(181, 181, 2026), {8}).value();
    const std::vector<TerrainFace28> base = m.faces;
    m.faces.clear();
    while (m.faces.size() < 300'000) {
      for (TerrainFace28 f : base) {
        if (m.faces.size() == 300'000) break;
        f.neighbours = {kNoNeighbour, kNoNeighbour, kNoNeighbour};
        m.faces.push_back(f);
      }
    }
    return write_land_msh(m).value();
  }();
  return b;
}

// Compatible profile: the same decode and checks as strict on this file (before the reader
// stopped taking face 65535's 0xFFFF for a self link, strict rejected it).
static void BM_LandMshRead300k(benchmark::State& state) {
  const auto& bytes = big_msh_bytes();
  const ReadOptions compatible{core::Profile::compatible, "Land.msh"};
  std::size_t faces = 0;
  for (auto _ : state) {
    auto m = read_land_msh(bytes, compatible);
    faces = m ? m->faces.size() : 0;
    benchmark::DoNotOptimize(m);
  }
  set_bytes(state, bytes.size());
  state.counters["faces"] = static_cast<double>(faces);
  state.counters["faces_per_s"] =
      benchmark::Counter(static_cast<double>(faces), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_LandMshRead300k)->Unit(benchmark::kMillisecond);

static void BM_LandMshWrite(benchmark::State& state) {
  const auto& m = corpus_msh();
  for (auto _ : state) {
    auto b = write_land_msh(m);
    benchmark::DoNotOptimize(b);
  }
  set_bytes(state, msh_bytes().size());
}
BENCHMARK(BM_LandMshWrite);

static void BM_LandMapRead(benchmark::State& state) {
  const auto& bytes = map_bytes();
  const ReadOptions o{core::Profile::strict, "Land.map"};
  for (auto _ : state) {
    auto m = read_land_map(bytes, o);
    benchmark::DoNotOptimize(m);
  }
  set_bytes(state, bytes.size());
  state.counters["file_bytes"] = static_cast<double>(bytes.size());
}
BENCHMARK(BM_LandMapRead);

static void BM_LandMapWrite(benchmark::State& state) {
  const auto& m = corpus_map();
  for (auto _ : state) {
    auto b = write_land_map(m);
    benchmark::DoNotOptimize(b);
  }
  set_bytes(state, map_bytes().size());
}
BENCHMARK(BM_LandMapWrite);

static void BM_LandMshBuild(benchmark::State& state) {
  const auto hf = make_sample_heightfield(78, 78, 2026);
  for (auto _ : state) {
    auto m = make_land_msh_from_heightfield(hf, {8});
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK(BM_LandMshBuild)->Unit(benchmark::kMillisecond);
