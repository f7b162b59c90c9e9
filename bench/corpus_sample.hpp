#pragma once
// The corpus-scale sample game (seed 1, RsLi objects.rlb), generated once into the temporary
// directory and shared by the suites that time work on it.
#include <cstdlib>
#include <filesystem>

#include "sortie/assets/sample_game.hpp"

namespace sortie::bench {

inline const std::filesystem::path& corpus_dir() {
  static const std::filesystem::path dir = [] {
    auto d = assets::ensure_cached_sample({assets::SampleScale::corpus, 1, assets::ArchiveFormat::rsli},
                                          std::filesystem::temp_directory_path() / "sortie-bench");
    if (!d) std::abort();
    return *d;
  }();
  return dir;
}

}  // namespace sortie::bench
