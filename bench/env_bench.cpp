// env and sound: MS ADPCM decode throughput side by side with sox and ffmpeg on the same file
// (target: sortie >= 2x the peer), and the EnvironmentFrame cost at full intensity at 1280x720
// (target <= 0.5 ms per frame).
//
// Run on one core: taskset -c 0 build/release/bench/bench_env
// The peers run as child processes (inheriting the affinity) decoding the file to 16-bit PCM
// into /dev/null; BM_*_startup decodes a one-block file with the same command, so
// (peer - startup) is the peer's decode time. The sortie side includes the RIFF parse.
// Iteration times are CPU seconds (ours: this thread's; a peer's: the child's user + system
// time from wait4), so the comparison holds on a loaded machine; wall time is in `wall_ms`.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie/env/environment.hpp"
#include "sortie/iron3d/wave.hpp"
#include "sortie_test/process.hpp"

using namespace sortie;
namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kRate = 22050;
constexpr std::size_t kSeconds = 600;  // ten minutes of mono speech-band audio

struct AdpcmFiles {
  fs::path dir;
  fs::path big;    // kSeconds of audio, MS ADPCM (sox-encoded)
  fs::path small;  // one block, for the peers' start-up cost
  core::Bytes big_bytes;
  std::size_t frames = 0;
  std::string error;
};

// Removes the benchmark's temporary directory at exit.
struct RemoveAtExit {
  fs::path dir;
  explicit RemoveAtExit(fs::path d) : dir(std::move(d)) {}
  RemoveAtExit(const RemoveAtExit&) = delete;
  RemoveAtExit& operator=(const RemoveAtExit&) = delete;
  ~RemoveAtExit() {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
  }
};

const AdpcmFiles& files() {
  static const AdpcmFiles f = [] {
    AdpcmFiles out;
    if (!test::program_on_path("sox")) {
      out.error = "sox not on PATH (Debian package 'sox')";
      return out;
    }
    out.dir = fs::temp_directory_path() / ("sortie_env_bench_" + std::to_string(::getpid()));
    fs::create_directories(out.dir);
    auto make = [&](std::size_t frames, const std::string& stem) {
      std::vector<std::int16_t> pcm(frames);
      std::uint32_t lcg = 1;
      for (std::size_t i = 0; i < frames; ++i) {
        lcg = lcg * 1664525u + 1013904223u;
        const double t = static_cast<double>(i) / kRate;
        pcm[i] = static_cast<std::int16_t>(9000.0 * std::sin(2 * 3.141592653589793 * 300.0 * t) * std::sin(0.7 * t) +
                                           static_cast<double>(static_cast<std::int32_t>(lcg >> 17) - 16384) * 0.3);
      }
      const fs::path pcm_path = out.dir / (stem + "_pcm.wav");
      const fs::path adpcm_path = out.dir / (stem + ".wav");
      if (!core::write_file_atomic(pcm_path, iron3d::write_wave(iron3d::make_pcm16_wave(kRate, 1, pcm))) ||
          test::run_program({"sox", pcm_path.string(), "-e", "ms-adpcm", adpcm_path.string()}) != 0)
        out.error = "could not write or encode " + adpcm_path.string();
      return adpcm_path;
    };
    out.big = make(kRate * kSeconds, "big");
    out.small = make(500, "small");
    if (out.error.empty()) {
      auto bytes = core::read_file(out.big);
      if (bytes) out.big_bytes = std::move(*bytes);
      auto d = iron3d::decode_wave(out.big_bytes);
      if (d)
        out.frames = d->frames();
      else
        out.error = d.error().to_string();
    }
    return out;
  }();
  static const RemoveAtExit cleanup{f.dir};
  return f;
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void report(benchmark::State& state, const AdpcmFiles& f) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * f.frames));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.big_bytes.size()));
}

void BM_AdpcmDecode_sortie(benchmark::State& state) {
  const auto& f = files();
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  double wall = 0.0;
  for (auto _ : state) {
    const double c0 = thread_cpu_seconds();
    const double w0 = wall_seconds();
    auto d = iron3d::decode_wave(f.big_bytes);
    benchmark::DoNotOptimize(d->samples.data());
    state.SetIterationTime(thread_cpu_seconds() - c0);
    wall += wall_seconds() - w0;
  }
  state.counters["wall_ms"] = wall * 1000.0 / static_cast<double>(state.iterations());
  report(state, f);
}
BENCHMARK(BM_AdpcmDecode_sortie)->Unit(benchmark::kMillisecond)->UseManualTime();

void peer(benchmark::State& state, const std::vector<std::string>& args, bool small) {
  const auto& f = files();
  if (!f.error.empty() || !test::program_on_path(args[0])) {
    state.SkipWithError(f.error.empty() ? (args[0] + " not on PATH").c_str() : f.error.c_str());
    return;
  }
  std::vector<std::string> cmd = args;
  for (auto& a : cmd)
    if (a == "IN") a = (small ? f.small : f.big).string();
  double wall = 0.0;
  for (auto _ : state) {
    double cpu = 0.0;
    const double w0 = wall_seconds();
    if (test::run_program(cmd, &cpu) != 0) {
      state.SkipWithError((args[0] + " failed").c_str());
      return;
    }
    wall += wall_seconds() - w0;
    state.SetIterationTime(cpu);
  }
  state.counters["wall_ms"] = wall * 1000.0 / static_cast<double>(state.iterations());
  if (!small) report(state, f);
}

const std::vector<std::string> kSox = {"sox", "IN", "-t", "raw", "-e", "signed-integer", "-b", "16", "/dev/null"};
const std::vector<std::string> kFfmpeg = {"ffmpeg", "-nostdin", "-v", "quiet", "-threads", "1",
                                          "-i",     "IN",       "-f", "s16le", "-y",       "/dev/null"};

void BM_AdpcmDecode_sox(benchmark::State& state) {
  peer(state, kSox, false);
}
void BM_AdpcmDecode_sox_startup(benchmark::State& state) {
  peer(state, kSox, true);
}
void BM_AdpcmDecode_ffmpeg(benchmark::State& state) {
  peer(state, kFfmpeg, false);
}
void BM_AdpcmDecode_ffmpeg_startup(benchmark::State& state) {
  peer(state, kFfmpeg, true);
}
BENCHMARK(BM_AdpcmDecode_sox)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_AdpcmDecode_sox_startup)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_AdpcmDecode_ffmpeg)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_AdpcmDecode_ffmpeg_startup)->Unit(benchmark::kMillisecond)->UseManualTime();

// Encoding: one minute of the same mono signal (PCM in memory) to MS ADPCM at the Windows block
// size (512 bytes, 1012 frames), and the sox encoder on the same minute for comparison.
const std::vector<std::int16_t>& encode_input() {
  static const std::vector<std::int16_t> pcm = [] {
    std::vector<std::int16_t> out(std::size_t{kRate} * 60);
    std::uint32_t lcg = 1;
    for (std::size_t i = 0; i < out.size(); ++i) {
      lcg = lcg * 1664525u + 1013904223u;
      const double t = static_cast<double>(i) / kRate;
      out[i] = static_cast<std::int16_t>(9000.0 * std::sin(2 * 3.141592653589793 * 300.0 * t) * std::sin(0.7 * t) +
                                         static_cast<double>(static_cast<std::int32_t>(lcg >> 17) - 16384) * 0.3);
    }
    return out;
  }();
  return pcm;
}

void BM_AdpcmEncode_sortie(benchmark::State& state) {
  const auto& pcm = encode_input();
  for (auto _ : state) {
    auto w = iron3d::encode_ms_adpcm(kRate, 1, pcm);
    benchmark::DoNotOptimize(w->chunks.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * pcm.size()));
}
BENCHMARK(BM_AdpcmEncode_sortie)->Unit(benchmark::kMillisecond);

// Full intensity rain (1000 drops at 1280x720, 60 degrees) with lightning, a moving and turning
// camera, 16 ms frames: the whole update (schedule sample, metrics, particle move + wrap,
// loop and lightning events).
void environment_frames(benchmark::State& state, std::string_view kind) {
  const std::string text =
      "sortie-weather 1\nmaterial rain r\nsample rain rain.wav\nmaterial snow s\nsample snow snow.wav\n"
      "material lightning l\nsample lightning t.wav\nlightning_bounds -500 -500 500 500 0\n"
      "key 0 " +
      std::string(kind) + " 1 lightning\n";
  auto sched = env::read_weather_text(core::as_bytes(text));
  env::Environment environment(*sched, 1);
  std::int64_t t = 0;
  std::size_t particles = 0;
  for (auto _ : state) {
    const float a = static_cast<float>(t) * 0.0005f;
    auto cam = env::CameraFrame::look({static_cast<float>(t) * 0.01f, 0.0f, 20.0f}, {std::cos(a), std::sin(a), -0.1f});
    cam.viewport_width = 1280, cam.viewport_height = 720, cam.aspect = 1280.0 / 720.0;
    const auto& f = environment.update(t, cam);
    particles = f.particles.size();
    benchmark::DoNotOptimize(f.particles.data());
    t += 16;
  }
  state.counters["particles"] = static_cast<double>(particles);
}
void BM_EnvironmentFrame_rain_1280x720(benchmark::State& state) {
  environment_frames(state, "rain");
}
void BM_EnvironmentFrame_snow_1280x720(benchmark::State& state) {
  environment_frames(state, "snow");
}
BENCHMARK(BM_EnvironmentFrame_rain_1280x720)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EnvironmentFrame_snow_1280x720)->Unit(benchmark::kMicrosecond);

}  // namespace
