#pragma once
// Where the real FOnline map corpus is, for tests and benchmarks. The corpus is not part of
// the repository; CMake finds it next to the checkout (../shared/corpus/fomap, or one level
// further up from a worktree) or takes SORTIE_FOMAP_CORPUS. The environment variable of the
// same name overrides it at run time. Tests that need the corpus skip when it is absent.
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace sortie::test {

// The corpus root (holding new/, old/, protos/), or an empty path when there is none.
inline std::filesystem::path fomap_corpus() {
  std::filesystem::path p;
  if (const char* e = std::getenv("SORTIE_FOMAP_CORPUS"); e && *e) {
    p = e;
  } else {
    p = SORTIE_FOMAP_CORPUS;
  }
  std::error_code ec;
  if (p.empty() || !std::filesystem::exists(p / "new", ec)) return {};
  return p.lexically_normal();
}

}  // namespace sortie::test
