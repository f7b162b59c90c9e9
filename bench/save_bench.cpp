// A save of the corpus-scale mission (issue #19 part 4: written in <= 50 ms, <= 5 MB): the corpus
// sample's m01 played to tick 600 (the viewer's game: mission::PlaySession, F5), then its world
// image assembled (mission::save_image) and the save written atomically (play_save +
// write_save), and read back and checked (mission::read_save) as a load does before it
// re-simulates.
// Counters: bytes of the file, objects in the image.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "corpus_sample.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/mission/play_session.hpp"
#include "sortie/mission/save_game.hpp"
#include "sortie/mission/save_image.hpp"
#include "sortie/world/world.hpp"

using namespace sortie;

namespace {

constexpr std::uint64_t kSaveTick = 600;

struct Played {
  mission::GameContext game;
  std::unique_ptr<mission::PlaySession> play;
};

// m01 of the corpus sample played to kSaveTick: its scenario (SuperAI, the Lua script, the
// native bundles) with the player's clan ordered once (a headless run's scenario wins at tick
// 169; a played game lasts: the script gives the person 240 s).
Played& played() {
  static Played* p = [] {
    auto game = mission::GameContext::open(bench::corpus_dir());
    if (!game) std::abort();
    auto* out = new Played{std::move(*game), nullptr};
    mission::MissionLoadOptions lo;
    lo.world.seed = 1;
    auto report = out->game.load("m01", lo);
    if (!report || !report->ok) std::abort();
    auto play = mission::PlaySession::start(*out->game.current());
    if (!play) std::abort();
    out->play = std::move(*play);
    while (out->play->tick_number() < kSaveTick) {
      const auto units = out->play->player_units();
      if (out->play->tick_number() == 20 && !units.empty()) {
        const auto& w = out->play->world();
        const core::Vec3 at = w.find(*w.lookup(units[0]))->transform.position;
        out->play->go(units, {at.x + 10.0f, at.y + 4.0f});
      }
      if (!out->play->tick()) std::abort();
    }
    return out;
  }();
  return *p;
}

mission::SaveGame save_of(const Played& p) {
  return mission::play_save(*p.play, "", "corpus", "m01", 1);
}

const std::filesystem::path& save_path() {
  static const std::filesystem::path path = std::filesystem::temp_directory_path() / "sortie-bench-save.save";
  return path;
}

}  // namespace

// The image and the file: what `sortie run --save-at 600 --save FILE` adds to the run.
static void BM_SaveCorpusWrite(benchmark::State& state) {
  const Played& p = played();
  for (auto _ : state) {
    const mission::SaveGame s = save_of(p);
    if (!mission::write_save(save_path(), s)) std::abort();
  }
  state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(save_path()));
  state.counters["objects"] = static_cast<double>(save_of(p).image["world"]["objects"].size());
}
BENCHMARK(BM_SaveCorpusWrite)->Unit(benchmark::kMillisecond);

// The image alone.
static void BM_SaveCorpusImage(benchmark::State& state) {
  const Played& p = played();
  for (auto _ : state) benchmark::DoNotOptimize(mission::save_image(p.play->world(), p.play->runtime()));
}
BENCHMARK(BM_SaveCorpusImage)->Unit(benchmark::kMillisecond);

// Reading and checking the file (before the re-simulation of a load).
static void BM_SaveCorpusRead(benchmark::State& state) {
  const Played& p = played();
  if (!mission::write_save(save_path(), save_of(p))) std::abort();
  for (auto _ : state) {
    auto s = mission::read_save(save_path());
    if (!s) std::abort();
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_SaveCorpusRead)->Unit(benchmark::kMillisecond);
