// fuzz_seeds OUT_DIR: writes the seed corpus of every fuzz target with sortie's own writers.
#include <cstdio>
#include <filesystem>
#include <map>

#include "seeds.hpp"
#include "sortie/core/file_io.hpp"

namespace sortie::fuzz {
namespace {
std::map<std::string, SeedFn>& registry() {
  static std::map<std::string, SeedFn> r;
  return r;
}
}  // namespace
void register_seeds(std::string target, SeedFn fn) {
  registry().emplace(std::move(target), std::move(fn));
}
}  // namespace sortie::fuzz

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seeds OUT_DIR\n");
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path out = argv[1];
  for (auto& [target, fn] : sortie::fuzz::registry()) {
    sortie::fuzz::SeedSink sink;
    fn(sink);
    fs::create_directories(out / target);
    for (auto& [name, bytes] : sink.seeds) {
      auto st = sortie::core::write_file_atomic(out / target / name, bytes);
      if (!st) {
        std::fprintf(stderr, "fuzz_seeds: %s\n", st.error().to_string().c_str());
        return 2;
      }
    }
    std::printf("%s: %zu seeds\n", target.c_str(), sink.seeds.size());
  }
  return 0;
}
