// Calculation-pass throughput: ticks per second of an idle and a busy world (every tick
// includes the state hash over the canonical encoding).
//   taskset -c 0 build/release/bench/bench_world --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>

#include "sortie/move/demo_world.hpp"
#include "sortie/world/world.hpp"

using namespace sortie::world;
using sortie::move::DemoConfig;
using sortie::move::populate_demo_world;

namespace {

std::unique_ptr<World> make_world(std::uint32_t units, bool busy) {
  auto world = std::make_unique<World>(WorldConfig{.seed = 42, .keep_hash_history = false});
  DemoConfig config;
  config.units = units;
  config.controllers = busy;
  config.churn = busy;
  if (!populate_demo_world(*world, config)) std::abort();
  return world;
}

}  // namespace

// Idle: a few objects without controllers; the cost is the pass skeleton plus the hash.
static void BM_TickIdle(benchmark::State& state) {
  auto world_ptr = make_world(static_cast<std::uint32_t>(state.range(0)), false);
  World& world = *world_ptr;
  for (auto _ : state) {
    if (!world.tick()) state.SkipWithError("tick failed");
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["ticks_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TickIdle)->Arg(16);

// Busy: units with move controllers, arrival/damage events, delete + respawn from handlers.
static void BM_TickBusy(benchmark::State& state) {
  auto world_ptr = make_world(static_cast<std::uint32_t>(state.range(0)), true);
  World& world = *world_ptr;
  for (int i = 0; i < 50; ++i) (void)world.tick();  // let arrivals and churn start
  for (auto _ : state) {
    if (!world.tick()) state.SkipWithError("tick failed");
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["ticks_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["objects"] = static_cast<double>(world.live_count());
}
BENCHMARK(BM_TickBusy)->Arg(500)->Arg(5000)->Unit(benchmark::kMicrosecond);

// The state hash alone (canonical encoding + xxh3) of a busy world, to see its share.
static void BM_StateHash(benchmark::State& state) {
  auto world_ptr = make_world(static_cast<std::uint32_t>(state.range(0)), true);
  World& world = *world_ptr;
  for (auto _ : state) benchmark::DoNotOptimize(world.compute_state_hash());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_StateHash)->Arg(5000)->Unit(benchmark::kMicrosecond);

// A snapshot for the renderer (immutable copy) of a busy world.
static void BM_Snapshot(benchmark::State& state) {
  auto world_ptr = make_world(static_cast<std::uint32_t>(state.range(0)), true);
  World& world = *world_ptr;
  for (auto _ : state) benchmark::DoNotOptimize(world.snapshot());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Snapshot)->Arg(5000)->Unit(benchmark::kMicrosecond);
