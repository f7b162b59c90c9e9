// SuperAI for two hostile clans of 100 units each on the corpus-scale terrain (78 x 78
// heightfield, 600 areals): the clans start 160 units apart, one patrols into the other (40 s of game time), so
// the measured ticks have radar sweeps with sight rays, pursuits and contacts. Each iteration
// is one tick: both controllers' steps (timed alone: `superai_us` wall, `superai_cpu_us` this
// thread's CPU time) and the world's tick with the
// movement stack. Issue #18's budget: SuperAI for 2 clans x 100 units plus 100 script handlers
// <= 1 ms per tick on one core.
// Run pinned: taskset -c 0 build/release/bench/bench_superai
#include <benchmark/benchmark.h>
#include <time.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "corpus_terrain.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/environment.hpp"
#include "sortie/scenario/super_ai.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/world.hpp"

using namespace sortie;

namespace {

using bench::corpus_world;

// This thread's CPU time: the controllers' cost without the time other processes take.
double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

void BM_SuperAI2x100Units(benchmark::State& state) {
  auto env = move::make_environment(bench::corpus_msh(), bench::corpus_map(), move::MoveParams{}).value();
  world::WorldConfig cfg;
  cfg.seed = 11;
  cfg.commands = move::move_command_registry(env);
  world::World w(cfg);
  const auto b = corpus_world().bounds();
  const core::Vec2 centre{(b.min.x + b.max.x) * 0.5f, (b.min.y + b.max.y) * 0.5f};

  scenario::MissionFacts facts;
  facts.mission = "bench";
  facts.movement = env;
  auto data = std::make_shared<assets::MissionData>();
  data->tma.clans.push_back(iron3d::TmaClan::standard("Blue", 1, {centre.x - 80, centre.y}, "", 0, "", 0));
  data->tma.clans.push_back(iron3d::TmaClan::standard("Red", 1, {centre.x + 80, centre.y}, "", 0, "", 0));
  data->tma.clans[0].add_relation("Red", -1);
  facts.data = data;

  std::uint32_t index = 0;
  for (std::int64_t clan = 0; clan < 2; ++clan) {
    const float x0 = clan == 0 ? centre.x - 110.0f : centre.x + 50.0f;
    for (std::uint32_t i = 0; i < 100; ++i) {
      const world::ObjectId id{w.local_player(), mission::class_ids::kTmaUnit, index++};
      core::Transform t;
      const float x = x0 + static_cast<float>(i % 10) * 6.0f;
      const float y = centre.y + (static_cast<float>(i / 10) - 5.0f) * 6.0f;
      t.position = {x, y, corpus_world().height_at(x, y).value_or(0.0f)};
      auto h = w.create_object(id, "unit", t);
      if (!h || !w.add_to_game(*h)) std::abort();
      (*w.object(*h))->properties.set("clan", clan);
      move::EnableCommand e;
      e.target = id;
      e.radius = 1.5f;
      e.height = 3.0f;
      if (!w.submit(world::make_command(0, e))) std::abort();
    }
  }
  scenario::SuperAIConfig attack;
  attack.patrol_route = {{centre.x + 80, centre.y}};
  scenario::SuperAI blue("Blue", attack), red("Red");
  std::vector<world::Event> events;
  auto context = [&] {
    return scenario::ScenarioContext{w,
                                     facts,
                                     w.clock().tick,
                                     [&w](world::Command c) { return w.submit(std::move(c)); },
                                     [](std::string_view, std::string) {},
                                     events};
  };
  {
    auto ctx = context();
    if (!blue.start(ctx) || !red.start(ctx)) std::abort();
  }
  if (!w.tick()) std::abort();  // bodies
  double superai_ns = 0, superai_cpu_ns = 0;
  std::int64_t ticks = 0;
  for (auto _ : state) {
    auto ctx = context();
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_ns();
    if (!blue.step(ctx) || !red.step(ctx)) std::abort();
    superai_cpu_ns += thread_cpu_ns() - c0;
    superai_ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    if (!w.tick()) std::abort();
    ++ticks;
  }
  state.counters["superai_us"] = ticks > 0 ? superai_ns / 1000.0 / static_cast<double>(ticks) : 0.0;
  state.counters["superai_cpu_us"] = ticks > 0 ? superai_cpu_ns / 1000.0 / static_cast<double>(ticks) : 0.0;
  state.counters["orders"] = static_cast<double>(blue.stats().orders + red.stats().orders);
  state.counters["sightings"] = static_cast<double>(blue.stats().sightings + red.stats().sightings);
  state.counters["sight_rays"] = static_cast<double>(blue.stats().sight_rays + red.stats().sight_rays);
  state.counters["kills"] = static_cast<double>(blue.stats().kills + red.stats().kills);
}
BENCHMARK(BM_SuperAI2x100Units)->Unit(benchmark::kMillisecond)->Iterations(2400);

}  // namespace
