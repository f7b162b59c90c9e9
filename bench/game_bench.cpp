// Frame time of the squad game's picture (libs/game SquadView) at 1280 x 720: the isometric scene
// through libs/render, the horror layer's light/fog pass, tracers and flashes, and the finishing
// pass (vignette, grain, tension), with and without the debug overlay, on 1 and 2 threads. The
// moment is 20 s into the scripted run of data/squad/rooms.txt (seed 1), observed every tick.
//   taskset -c 0 build/release/bench/bench_game --benchmark_filter='/threads:1'
//   build/release/bench/bench_game
#include <benchmark/benchmark.h>

#include <filesystem>
#include <optional>

#include "sortie/game/squad_snapshot.hpp"
#include "sortie/game/squad_view.hpp"
#include "sortie/squad/run.hpp"

using namespace sortie;

namespace {

struct Scene {
  std::optional<game::SquadView> view;
  game::SquadSnapshot snapshot;
};

// 20 s of the scripted run, observed every tick by a view with the given options.
bool prepare(Scene& scene, const game::SquadViewOptions& options) {
  const auto map = squad::load_squad_map(std::filesystem::path(SORTIE_SOURCE_DIR) / "data" / "squad" / "rooms.txt");
  if (!map) return false;
  scene.view.emplace(options);
  squad::RunOptions ro;
  ro.seconds = 20.0;
  ro.seed = 1;
  const auto rep = squad::run_squad(*map, ro, [&](const squad::SquadSim& sim) {
    scene.snapshot = game::take_snapshot(sim, sim.tick() == 1200);
    scene.view->observe(scene.snapshot);
  });
  return rep.has_value();
}

void BM_SquadFrame(benchmark::State& state) {
  game::SquadViewOptions o;
  o.width = 1280;
  o.height = 720;
  o.threads = static_cast<unsigned>(state.range(0));
  o.horror = state.range(1) != 0;
  o.overlay = state.range(2) != 0;
  Scene scene;
  if (!prepare(scene, o)) {
    state.SkipWithError("data/squad/rooms.txt did not run");
    return;
  }
  render::Framebuffer fb;
  game::SquadFrameStats stats;
  double scene_ms = 0.0;
  double light_ms = 0.0;
  double light_map_ms = 0.0;
  double post_ms = 0.0;
  for (auto _ : state) {
    if (!scene.view->render(scene.snapshot, fb, &stats)) {
      state.SkipWithError("render failed");
      return;
    }
    scene_ms += stats.scene.total_ms;
    light_ms += stats.light_ms;
    light_map_ms += stats.light_map_ms;
    post_ms += stats.post_ms;
    benchmark::DoNotOptimize(fb.color().data());
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["scene_ms"] = scene_ms / n;
  state.counters["light_ms"] = light_ms / n;
  state.counters["light_map_ms"] = light_map_ms / n;
  state.counters["post_ms"] = post_ms / n;
  state.counters["fps"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_SquadFrame)
    ->ArgNames({"threads", "horror", "overlay"})
    ->Args({1, 1, 0})
    ->Args({2, 1, 0})
    ->Args({1, 1, 1})
    ->Args({1, 0, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
