// RsLi decode throughput per method (bytes/s of *output*) on ~2 MiB of generated, text-like
// structured data, plus whole-entry decoding through the archive. Run pinned:
//   taskset -c 0 build/release/bench/bench_rsli
#include <benchmark/benchmark.h>

#include <string_view>

#include "sortie/core/rng.hpp"
#include "sortie/iron3d/rsli.hpp"
#include "sortie/iron3d/rsli_codec.hpp"

namespace {

using sortie::core::Bytes;
namespace iron3d = sortie::iron3d;

// Text-like records with repeated words, numbers and occasional binary runs: compresses about
// 3:1 with LZSS, like the font and sprite tables the format carries.
const Bytes& sample() {
  static const Bytes data = [] {
    sortie::core::Rng rng(42);
    static constexpr std::string_view kWords[] = {"unit ", "tank ", "bunker ",    "sprite ", "frame=", "x=",
                                                  "y=",    "\r\n",  "; comment ", "IRON3D ", "NULL ",  "texture "};
    Bytes b;
    b.reserve(2u << 20);
    while (b.size() < (2u << 20)) {
      const auto pick = rng.below(16);
      if (pick < 12) {
        b.insert(b.end(), kWords[pick].begin(), kWords[pick].end());
      } else if (pick < 14) {
        for (int k = 0; k < 3; ++k) b.push_back(static_cast<std::uint8_t>('0' + rng.below(10)));
      } else {
        for (unsigned k = 0, n = rng.below(6); k < n; ++k) b.push_back(static_cast<std::uint8_t>(rng.below(256)));
      }
    }
    b.resize(2u << 20);
    return b;
  }();
  return data;
}

void report(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(sample().size()));
}

void BM_xor_stream(benchmark::State& state) {
  Bytes buf = sample();
  for (auto _ : state) {
    iron3d::xor_stream(0xBEEF, buf);
    benchmark::DoNotOptimize(buf.data());
    benchmark::ClobberMemory();
  }
  report(state);
}
BENCHMARK(BM_xor_stream);

void BM_lzss_decode(benchmark::State& state) {
  const Bytes packed = iron3d::lzss_encode(sample());
  state.counters["ratio"] = static_cast<double>(sample().size()) / static_cast<double>(packed.size());
  for (auto _ : state) {
    auto out = iron3d::lzss_decode(packed, sample().size());
    benchmark::DoNotOptimize(out->data());
  }
  report(state);
}
BENCHMARK(BM_lzss_decode);

void BM_lzhuf_decode(benchmark::State& state) {
  const Bytes packed = iron3d::lzhuf_encode(sample());
  state.counters["ratio"] = static_cast<double>(sample().size()) / static_cast<double>(packed.size());
  for (auto _ : state) {
    auto out = iron3d::lzhuf_decode(packed, sample().size());
    benchmark::DoNotOptimize(out->data());
  }
  report(state);
}
BENCHMARK(BM_lzhuf_decode);

void BM_inflate_raw(benchmark::State& state) {
  const Bytes packed = *iron3d::deflate_raw(sample());
  state.counters["ratio"] = static_cast<double>(sample().size()) / static_cast<double>(packed.size());
  for (auto _ : state) {
    auto out = iron3d::inflate_raw(packed, sample().size());
    benchmark::DoNotOptimize(out->data());
  }
  report(state);
}
BENCHMARK(BM_inflate_raw);

// Through the archive: read the table, then decode the one entry (XOR layer included).
void BM_archive_entry(benchmark::State& state) {
  const auto method = static_cast<iron3d::RsliMethod>(state.range(0));
  auto ed = iron3d::RsliEditor::create(0x1111);
  (void)ed.add("DATA.BIN", sample(), method);
  const Bytes lib = *ed.write();
  state.SetLabel(std::string(iron3d::rsli_method_name(static_cast<std::uint16_t>(method))));
  for (auto _ : state) {
    auto a = iron3d::read_rsli(lib, iron3d::RsliReadOptions{});
    auto out = iron3d::decode_rsli_entry(*a, 0);
    benchmark::DoNotOptimize(out->data());
  }
  report(state);
}
BENCHMARK(BM_archive_entry)->Arg(0x000)->Arg(0x020)->Arg(0x040)->Arg(0x060)->Arg(0x080)->Arg(0x0A0)->Arg(0x100);

void BM_lzss_encode(benchmark::State& state) {
  for (auto _ : state) {
    auto out = iron3d::lzss_encode(sample());
    benchmark::DoNotOptimize(out.data());
  }
  report(state);
}
BENCHMARK(BM_lzss_encode);

}  // namespace
