// The scenario runtime's step with a Lua mission script: 100 handlers active every tick (each
// reads a unit's position and areal and keeps a count in a global), on the demo sample's m01.
// The time is the step alone (manual timing): the world's own tick runs outside the clock. The
// counter step_cpu_us is the step's thread CPU time, which a busy machine does not inflate.
#include <benchmark/benchmark.h>
#include <time.h>

#include <chrono>
#include <memory>
#include <stdexcept>

#include "sortie/assets/sample_game.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/mission/mission_scenario.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/scenario/lua_mission.hpp"
#include "sortie/scenario/runtime.hpp"

namespace {

using namespace sortie;

constexpr const char* kScript = R"lua(
counts = {}
local all = units()
for i = 1, 100 do
  counts[i] = 0
  local id = all[(i - 1) % #all + 1]
  every(0, function()
    local x, y = position(id)
    if x and areal_at(x, y) then counts[i] = counts[i] + 1 end
  end)
end
)lua";

struct Setup {
  mission::GameContext game;
  std::unique_ptr<scenario::ScenarioRuntime> runtime;
};

std::unique_ptr<Setup> make_setup(const char* script) {
  auto files = assets::generate_sample_files({assets::SampleScale::demo, 1, assets::ArchiveFormat::rsli});
  if (!files) throw std::runtime_error(files.error().to_string());
  auto vfs = std::make_unique<assets::MemoryVfs>();
  for (const auto& [path, bytes] : files->first)
    if (path != "MISSIONS/m01/mission.lua") (void)vfs->add(path, bytes);
  auto s = std::make_unique<Setup>(Setup{mission::GameContext::over(std::move(vfs)), nullptr});
  auto report = s->game.load("m01");
  if (!report || !report->ok) throw std::runtime_error("m01 did not load");
  mission::LoadedMission& m = *s->game.current();
  s->runtime = std::make_unique<scenario::ScenarioRuntime>(*m.world, mission::mission_facts(m, "m01"));
  auto part = scenario::LuaMission::load(script, "MISSIONS/m01/mission.lua");
  if (!part) throw std::runtime_error(part.error().to_string());
  s->runtime->add(std::move(*part));
  for (auto& c : mission::movement_start_commands(m, mission::ScenarioOptions{}, 0))
    (void)m.world->submit(std::move(c));
  return s;
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void BM_LuaStep100Handlers(benchmark::State& state) {
  auto s = make_setup(kScript);
  world::World& w = *s->game.current()->world;
  if (!s->runtime->step()) throw std::runtime_error("start failed");
  double cpu = 0;
  for (auto _ : state) {
    if (!w.tick()) throw std::runtime_error("tick failed");
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_seconds();
    auto st = s->runtime->step();
    cpu += thread_cpu_seconds() - c0;
    const auto t1 = std::chrono::steady_clock::now();
    if (!st || !s->runtime->parts()[0].running) throw std::runtime_error("the script stopped");
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
  }
  state.counters["handlers"] = 100;
  state.counters["step_cpu_us"] = cpu * 1e6 / static_cast<double>(state.iterations());
}
BENCHMARK(BM_LuaStep100Handlers)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(2000);

}  // namespace
