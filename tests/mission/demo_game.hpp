#pragma once
// The demo sample game (seed 1, RsLi objects.rlb) in memory, shared by the mission tests, and a
// GameContext over any file set (tests modify copies of the files to inject faults).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "sortie/assets/sample_game.hpp"
#include "sortie/mission/game_context.hpp"

namespace sortie::mission::test {

using Files = std::map<std::string, core::Bytes>;

inline const Files& demo_files() {
  static const Files files = [] {
    auto g = assets::generate_sample_files({assets::SampleScale::demo, 1, assets::ArchiveFormat::rsli});
    EXPECT_TRUE(g.has_value());
    return g ? g->first : Files{};
  }();
  return files;
}

inline GameContext game_over(const Files& files) {
  auto vfs = std::make_unique<assets::MemoryVfs>();
  for (const auto& [path, bytes] : files) EXPECT_TRUE(vfs->add(path, bytes).has_value());
  return GameContext::over(std::move(vfs));
}

}  // namespace sortie::mission::test
