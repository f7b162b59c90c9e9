// fmt and json on very large maps, built from the corpus's largest map (den.fomap): copies of its
// placements tiled side by side (hexes shifted, ids renumbered) until the map has the wanted
// size, plus a carpet of adjacent SameSibling triggers that the multihex merge must join.
//
//   build/release/bench/bench_fomap_big --benchmark_filter='/52'
//   build/release/bench/bench_fomap_big --benchmark_filter='/200'
//   SORTIE_FOMAP_BIG_WRITE=/tmp/big build/release/bench/bench_fomap_big --benchmark_filter=Json/52
//     also writes the generated map there (big52.fomap), to time the CLI with /usr/bin/time -v
//
// Counters: `peak_rss_mb` is the process's peak resident set so far (run one size per process
// for a clean figure); `x_input` is that peak divided by the map's size.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "sortie/core/file_io.hpp"
#include "sortie/fomap/canonical.hpp"
#include "sortie/fomap/json_model.hpp"
#include "sortie_test/corpus.hpp"

namespace {

namespace fs = std::filesystem;
using sortie::fomap::Project;

const fs::path& corpus() {
  static const fs::path p = sortie::test::fomap_corpus();
  return p;
}

const Project& tla_project() {
  static const Project p = Project::load({corpus() / "protos/cvet__fonline-tla"});
  return p;
}

// `prefix N rest` -> the same line with N shifted; nullopt when the line does not start so.
bool shift_number(std::string_view line, std::string_view prefix, std::int64_t by, std::string& out) {
  if (!line.starts_with(prefix)) return false;
  const std::string_view digits = line.substr(prefix.size());
  std::int64_t v = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (digits.empty()) return false;
  out.append(prefix);
  out.append(std::to_string(v == 0 ? 0 : v + by));
  return true;
}

// `<lead>x y<tail>` with x, y decimal (maybe negative) -> shifted by (dx, dy).
bool shift_pair(std::string_view line, std::string_view lead, std::string_view tail_a, std::string_view tail_b, int dx,
                int dy, std::string& out) {
  if (!line.starts_with(lead)) return false;
  std::string_view rest = line.substr(lead.size());
  std::string_view tail;
  if (rest.ends_with(tail_a))
    tail = tail_a;
  else if (rest.ends_with(tail_b))
    tail = tail_b;
  else
    return false;
  rest.remove_suffix(tail.size());
  const std::size_t sp = rest.find(' ');
  if (sp == std::string_view::npos) return false;
  const int x = std::atoi(std::string(rest.substr(0, sp)).c_str());
  const int y = std::atoi(std::string(rest.substr(sp + 1)).c_str());
  out.append(lead);
  out.append(std::to_string(x + dx)).append(" ").append(std::to_string(y + dy));
  out.append(tail);
  return true;
}

// den.fomap tiled until the text reaches about `megabytes` (10^6 bytes), then a 150 x 150 carpet of
// Trigger items (SameSibling: the merge joins them into one).
std::string big_map(std::size_t megabytes) {
  constexpr int kCarpet = 150;
  constexpr std::size_t kCarpetBytes = kCarpet * kCarpet * 64;  // about 64 bytes per trigger section
  const auto den = sortie::core::read_text_file(corpus() / "new/cvet__fonline-tla/Maps/den.fomap");
  if (!den) return {};
  const std::string_view text = *den;
  const std::size_t first = text.find("\n[$Name/") + 1;
  const std::string_view body = text.substr(first);
  const std::size_t target = megabytes * 1'000'000;
  const std::size_t copies = target / body.size() + 1;  // at most; the loop stops at the target
  std::size_t cols = 1;
  while (cols * cols < copies) ++cols;
  const int w = 368, h = 334;  // den is 368 x 333; an even step keeps the hex parity
  std::string out =
      "[ProtoMap]\nSize = " + std::to_string(w * cols) + " " + std::to_string(h * cols + kCarpet + 10) + "\n\n";
  out.reserve(copies * body.size() + 2 * kCarpetBytes);
  std::size_t c = 0;
  for (; c < copies && out.size() + kCarpetBytes < target; ++c) {
    const int dx = static_cast<int>(c % cols) * w, dy = static_cast<int>(c / cols) * h;
    const std::int64_t by = static_cast<std::int64_t>(c) * 100'000'000;
    std::size_t pos = 0;
    while (pos < body.size()) {
      const std::size_t nl = body.find('\n', pos);
      const std::string_view line = body.substr(pos, (nl == std::string_view::npos ? body.size() : nl) - pos);
      pos = nl == std::string_view::npos ? body.size() : nl + 1;
      if (!shift_number(line, "$Id = ", by, out) && !shift_number(line, "CritterId = ", by, out) &&
          !shift_number(line, "ContainerId = ", by, out) && !shift_pair(line, "Hex = ", "", "", dx, dy, out) &&
          !shift_pair(line, " \"", "\" \\", "\"", dx, dy, out))
        out.append(line);
      out.push_back('\n');
    }
  }
  std::int64_t id = static_cast<std::int64_t>(c) * 100'000'000 + 1;
  for (int y = 0; y < kCarpet; ++y)
    for (int x = 0; x < kCarpet; ++x)
      out += "[$Name/Item]\n$Id = " + std::to_string(id++) + "\n$Proto = Trigger\nHex = " + std::to_string(x + 2) +
             " " + std::to_string(h * static_cast<int>(cols) + y + 2) + "\n\n";
  return out;
}

const std::string& map_of(std::size_t megabytes) {
  static std::map<std::size_t, std::string> made;
  auto it = made.find(megabytes);
  if (it != made.end()) return it->second;
  std::string text = big_map(megabytes);
  if (const char* dir = std::getenv("SORTIE_FOMAP_BIG_WRITE"); dir && *dir && !text.empty())
    (void)sortie::core::write_file_atomic(fs::path(dir) / ("big" + std::to_string(megabytes) + ".fomap"), text);
  return made.emplace(megabytes, std::move(text)).first->second;
}

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

// Counts what is written, keeps nothing.
class CountingBuf : public std::streambuf {
 public:
  std::size_t bytes = 0;

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) ++bytes;
    return c;
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    bytes += static_cast<std::size_t>(n);
    return n;
  }
};

// Runs `once(text, project)` (which gives the output size) on the map of `state.range(0)` MB.
template <class Once>
void run_big(benchmark::State& state, const char* output_counter, const Once& once) {
  if (corpus().empty()) {
    state.SkipWithError("corpus/fomap not found");
    return;
  }
  const std::string& text = map_of(static_cast<std::size_t>(state.range(0)));
  const Project& project = tla_project();
  std::size_t out = 0;
  for (auto _ : state) {
    const std::optional<std::size_t> bytes = once(text, project);
    if (!bytes) {
      state.SkipWithError("the map did not go through");
      return;
    }
    out = *bytes;
  }
  const double mib = 1024.0 * 1024.0;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["input_mb"] = static_cast<double>(text.size()) / mib;
  state.counters[output_counter] = static_cast<double>(out) / mib;
  state.counters["peak_rss_mb"] = peak_rss_mb();
  state.counters["x_input"] = peak_rss_mb() * mib / static_cast<double>(text.size());
}

void BM_FomapFmtBig(benchmark::State& state) {
  run_big(state, "output_mb", [](const std::string& text, const Project& project) -> std::optional<std::size_t> {
    auto r = sortie::fomap::format_text(text, "big.fomap", project);
    if (!r) return std::nullopt;
    return r->text.size();
  });
}
BENCHMARK(BM_FomapFmtBig)->Arg(52)->Arg(200)->Unit(benchmark::kSecond)->Iterations(1);

void BM_FomapJsonBig(benchmark::State& state) {
  run_big(state, "json_mb", [](const std::string& text, const Project& project) -> std::optional<std::size_t> {
    const auto c = sortie::fomap::MapContainer::from_text(text, "big.fomap");
    CountingBuf buf;
    std::ostream os(&buf);
    sortie::fomap::write_container_json(os, c, project);
    return buf.bytes;
  });
}
BENCHMARK(BM_FomapJsonBig)->Arg(52)->Arg(200)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
