#include <benchmark/benchmark.h>

#include "sortie/core/bytes.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/core/text.hpp"

using namespace sortie::core;

static void BM_ByteReaderU32(benchmark::State& state) {
  Bytes data(1 << 20, 0x5a);
  for (auto _ : state) {
    ByteReader r(data);
    std::uint64_t sum = 0;
    while (r.remaining() >= 4) sum += *r.u32();
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(data.size()));
}
BENCHMARK(BM_ByteReaderU32);

static void BM_Hash64(benchmark::State& state) {
  Bytes data(1 << 20, 0x5a);
  for (auto _ : state) benchmark::DoNotOptimize(hash64(data));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(data.size()));
}
BENCHMARK(BM_Hash64);

static void BM_Cp1251Decode(benchmark::State& state) {
  std::string text;
  for (int i = 0; i < 4096; ++i) text.push_back(static_cast<char>(0xC0 + (i % 64)));
  for (auto _ : state) benchmark::DoNotOptimize(cp1251_to_utf8(text));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(text.size()));
}
BENCHMARK(BM_Cp1251Decode);
