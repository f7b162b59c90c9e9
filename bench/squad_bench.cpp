// Squad simulation cost per tick for 5, 50, 500 and 5,000 agents (squads of five) and as many
// hostiles, walls on, on a generated map whose area grows with the agent count (constant density).
// Every tick includes the canonical state hash. The input alternates 3 s of advancing (a new
// direction each time) and 3 s of holding, so the solver, lanes, leash and melee all run.
//   taskset -c 0 build/release/bench/bench_squad --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
// Targets (issue 10): <= 2 ms per tick at 500 agents and <= 16 ms at 5,000 on one core; the
// Complexity() line reports the fitted growth (N log N expected with the spatial grids).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "sortie/core/rng.hpp"
#include "sortie/squad/sim.hpp"

using namespace sortie;
using namespace sortie::squad;

namespace {

SquadMap make_map(int agents) {
  const int squads = std::max(1, agents / 5);
  // About 12 cells per agent and per hostile.
  const int side = std::max(24, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(agents) * 24.0))));
  SquadMap m;
  m.name = "bench";
  m.width = side;
  m.height = side;
  m.solid.assign(static_cast<std::size_t>(side) * static_cast<std::size_t>(side), 0);
  const auto wall = [&](int x, int y) {
    m.solid[static_cast<std::size_t>(y) * static_cast<std::size_t>(side) + static_cast<std::size_t>(x)] = 1;
  };
  for (int i = 0; i < side; ++i) {
    wall(i, 0);
    wall(i, side - 1);
    wall(0, i);
    wall(side - 1, i);
  }
  // 2x2 pillars every 7 cells, and a short wall segment every 14.
  for (int y = 5; y + 1 < side - 1; y += 7) {
    for (int x = 5; x + 1 < side - 1; x += 7) {
      wall(x, y);
      wall(x + 1, y);
      wall(x, y + 1);
      wall(x + 1, y + 1);
      if ((x / 7 + y / 7) % 2 == 0 && x + 4 < side - 1) {
        for (int k = 2; k <= 4; ++k) wall(x + k, y);
      }
    }
  }
  const auto free = [&](int x, int y) {
    return m.solid[static_cast<std::size_t>(y) * static_cast<std::size_t>(side) + static_cast<std::size_t>(x)] == 0;
  };
  // Squads on a lattice with room for a wedge around each disc.
  const int per_row = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(squads)))));
  const double step = static_cast<double>(side - 8) / per_row;
  for (int s = 0; s < squads; ++s) {
    int x = 4 + static_cast<int>(step * (s % per_row + 0.5));
    int y = 4 + static_cast<int>(step * (s / per_row + 0.5));
    while (!free(x, y)) ++x;
    m.squads.push_back({x, y});
  }
  core::Rng rng(99, 7);
  while (static_cast<int>(m.hostiles.size()) < agents) {
    const int x = 1 + static_cast<int>(rng.below(static_cast<std::uint32_t>(side - 2)));
    const int y = 1 + static_cast<int>(rng.below(static_cast<std::uint32_t>(side - 2)));
    if (free(x, y)) m.hostiles.push_back({x, y});
  }
  m.squad_size = 5;
  // Constant populations: nobody dies, every hostile hunts from the start.
  m.tune = {{"targetHp", "1000000000"}, {"agentHp", "1000000000"}, {"hostileSense", "4096"}};
  return m;
}

InputFrame frame_for(std::uint64_t tick) {
  const std::uint64_t phase = tick / 180;
  if (phase % 2 == 1) return {};
  static const core::Vec2 dirs[4] = {{1.0f, 0.0f}, {0.0f, 1.0f}, {-1.0f, 0.0f}, {0.0f, -1.0f}};
  return InputFrame::moving_towards(dirs[(phase / 2) % 4]);
}

void BM_SquadTick(benchmark::State& state) {
  const int agents = static_cast<int>(state.range(0));
  auto sim = SquadSim::create(make_map(agents), SimConfig{.seed = 1});
  if (!sim) {
    state.SkipWithError(sim.error().to_string().c_str());
    return;
  }
  for (int k = 0; k < 120; ++k) sim->step(frame_for(sim->tick()));  // let the hostiles close in
  for (auto _ : state) {
    sim->step(frame_for(sim->tick()));
    benchmark::DoNotOptimize(sim->state_hash());
  }
  state.SetComplexityN(agents);
  state.counters["agents"] = static_cast<double>(sim->agents().size());
  state.counters["hostiles"] = static_cast<double>(sim->targets().size());
  state.counters["bullets"] = static_cast<double>(sim->bullets().size());
  state.counters["lanes"] = static_cast<double>(sim->lanes().size());
  state.counters["shots"] = static_cast<double>(sim->stats().shots);
  state.counters["friendly_hits"] = static_cast<double>(sim->stats().friendly_hits);
}

}  // namespace

// 600 ticks (10 simulated seconds) per size: every size is timed over the same stretch of play.
BENCHMARK(BM_SquadTick)
    ->Arg(5)
    ->Arg(50)
    ->Arg(500)
    ->Arg(5000)
    ->Iterations(600)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oAuto);
