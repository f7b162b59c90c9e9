// Decode throughput of the asset format readers over builder-made inputs.
#include <benchmark/benchmark.h>

#include "sortie/iron3d/fxid.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/object_refs.hpp"
#include "sortie/iron3d/texm.hpp"
#include "sortie/iron3d/unit_dat.hpp"
#include "sortie/iron3d/wear.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

template <class F>
void run(benchmark::State& state, const core::Bytes& bytes, F&& read) {
  for (auto _ : state) {
    auto r = read(core::ByteView(bytes));
    if (!r) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

void BM_unit_dat(benchmark::State& s) {
  std::vector<UnitComponentSpec> c(18, {"objects.rlb", "w_m_component", "component"});
  run(s, write_unit_dat(*build_unit_dat(c)), [](core::ByteView b) { return read_unit_dat(b); });
}
void BM_object_refs(benchmark::State& s) {
  std::vector<ObjectRef> refs(64, *make_object_ref("static.rlb", "s_tree_0_04.msh"));
  run(s, write_object_refs(refs), [](core::ByteView b) { return read_object_refs(b); });
}
void BM_msh(benchmark::State& s) {
  // A 64x64 grid (4096 vertices, 7938 triangles), one batch per 6 rows.
  MshBuildInput in;
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) in.positions.push_back({float(x), float(y), float((x * y) % 7)});
  for (int y = 0; y < 63; ++y)
    for (int x = 0; x < 63; ++x) {
      const auto v = static_cast<std::uint16_t>(y * 64 + x);
      for (auto i : {v, std::uint16_t(v + 1), std::uint16_t(v + 65), v, std::uint16_t(v + 65), std::uint16_t(v + 64)})
        in.indices.push_back(i);
    }
  const auto bytes = *write_msh_canonical(*build_msh_model(in));
  run(s, bytes, [](core::ByteView b) { return read_msh(b); });
}
void BM_wear(benchmark::State& s) {
  std::vector<std::string> m(40, "MATERIAL_NAME");
  run(s, write_wear(*build_wear(m, {"LM_A"})), [](core::ByteView b) { return read_wear(b); });
}
void BM_mat0(benchmark::State& s) {
  std::vector<std::string> t(29, "TEXTURE.0");
  run(s, write_mat0(*build_mat0(t, true)), [](core::ByteView b) { return read_mat0(b, 6); });
}
void BM_texm_read(benchmark::State& s) {
  run(s, write_texm(*build_texm(256, 256, 565, 9)), [](core::ByteView b) { return read_texm(b); });
}
void BM_texm_decode_rgba8(benchmark::State& s) {
  const auto format = static_cast<std::uint32_t>(s.range(0));
  const auto t = *build_texm(256, 256, format, 1);
  for (auto _ : s) {
    auto img = decode_texm_rgba8(t);
    benchmark::DoNotOptimize(img);
  }
  s.SetItemsProcessed(static_cast<std::int64_t>(s.iterations()) * 256 * 256);
}
void BM_fxid(benchmark::State& s) {
  Fxid fx;
  for (std::uint32_t i = 0; i < 40; ++i) fx.commands.push_back(*make_fxid_command(1 + i % 10, true));
  run(s, write_fxid(fx), [](core::ByteView b) { return read_fxid(b); });
}

}  // namespace

BENCHMARK(BM_unit_dat);
BENCHMARK(BM_object_refs);
BENCHMARK(BM_msh);
BENCHMARK(BM_wear);
BENCHMARK(BM_mat0);
BENCHMARK(BM_texm_read);
BENCHMARK(BM_texm_decode_rgba8)->Arg(565)->Arg(8888)->Arg(0);
BENCHMARK(BM_fxid);
