// data.tma decode/encode throughput on a synthetic mission at corpus scale (Part 2: 885 placed
// objects, 61 paths, 91 clans, 41 extras), with the property bags seen in the corpus:
// direct prototype keys carry Invulnerability + Life state (+ NOT USED), unit DAT refs carry
// the unit properties too. Target: decode >= 500 MB/s on one core (taskset -c 0).
#include <benchmark/benchmark.h>

#include "sortie/core/rng.hpp"
#include "sortie/iron3d/build_dat.hpp"
#include "sortie/iron3d/tma.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

Tma corpus_mission() {
  core::Rng rng(2026);
  Tma t;
  t.land_path = "DATA\\MAPS\\Part2_07\\land";
  t.description_raw = "MISSIONS\\Part2_07\\briefing.txt";
  for (int p = 0; p < 61; ++p) {
    std::vector<core::Vec3> pts;
    for (std::uint32_t k = 0, n = 2 + rng.below(14); k < n; ++k)
      pts.push_back({rng.unit_f32() * 1000, rng.unit_f32() * 1000, rng.unit_f32() * 10});
    t.add_path(p * 3 - 7, std::move(pts));
  }
  for (int c = 0; c < 91; ++c) {
    const std::string name = "Clan_" + std::to_string(c);
    TmaClan clan =
        c % 5 == 0 ? TmaClan::spatial(name, {rng.unit_f32() * 1000, rng.unit_f32() * 1000},
                                      "MISSIONS\\SCRIPTS\\default", {{{{1, 2, 3, 4, 5}}}, {{{6, 7, 8, 9, 10}}}}, "", -1)
                   : TmaClan::standard(name, 1 + rng.below(3), {rng.unit_f32() * 1000, 500},
                                       "MISSIONS\\SCRIPTS\\ai_clan", c, "MISSIONS\\TRF\\clan.trf", c + 1);
    for (int r = 0; r < 3; ++r) clan.add_relation("Clan_" + std::to_string((c + r + 1) % 91), r - 1);
    t.add_clan(std::move(clan));
  }
  static const char* const kUnitProps[] = {
      "LogicalID",    "ClanID",     "Type",          "MaxSpeedPercent",      "MaximumOre",      "CurrentOre",
      "ChargeRadius", "FreeBotNum", "FreeTechnoNum", "FreeConstructionTime", "FreeResearchTime"};
  for (int i = 0; i < 885; ++i) {
    const bool unit = i % 4 == 0;
    TmaObject o =
        unit ? TmaObject::placed("UNITS\\UNITS\\AutoDEMO\\w_m_wlk" + std::to_string(i % 9) + ".dat", "",
                                 {rng.unit_f32() * 1000, rng.unit_f32() * 1000, 3})
             : TmaObject::placed("s_tree_0" + std::to_string(i % 10), "tree_" + std::to_string(i),
                                 {rng.unit_f32() * 1000, rng.unit_f32() * 1000, 1.5F}, {0, 0, rng.unit_f32() * 6.28F});
    o.add_property("Invulnerability", {0, 0, 0, 0});
    o.add_property("Life state", {1, 0, 0, 0});
    if (unit)
      for (const char* p : kUnitProps) o.add_property(p, {rng.below(100), 0, 0, 0});
    for (std::uint32_t k = 0, n = rng.below(3); k < n; ++k) o.add_property("NOT USED", {0, 0, 0, 0});
    t.add_object(std::move(o));
  }
  for (int e = 0; e < 41; ++e) t.add_extra({{float(e), 2, 3}, {1, 2, 3, 4}});
  return t;
}

const core::Bytes& mission_bytes() {
  static const core::Bytes bytes = *write_tma(corpus_mission());
  return bytes;
}

void BM_TmaDecode(benchmark::State& state) {
  const auto& bytes = mission_bytes();
  for (auto _ : state) {
    auto t = read_tma(bytes);
    benchmark::DoNotOptimize(t);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes.size()));
  state.counters["file_bytes"] = static_cast<double>(bytes.size());
}
BENCHMARK(BM_TmaDecode);

void BM_TmaEncode(benchmark::State& state) {
  const auto& bytes = mission_bytes();
  const Tma t = *read_tma(bytes);
  for (auto _ : state) {
    auto out = write_tma(t);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes.size()));
}
BENCHMARK(BM_TmaEncode);

void BM_TmaLandPathPrefix(benchmark::State& state) {
  const auto& bytes = mission_bytes();
  for (auto _ : state) {
    auto land = read_tma_land_path(bytes);
    benchmark::DoNotOptimize(land);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes.size()));
}
BENCHMARK(BM_TmaLandPathPrefix);

}  // namespace
