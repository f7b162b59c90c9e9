#pragma once
// A GameContext over the demo sample game's files or any modified copy of them (tests inject
// faults that way); the files themselves are sortie_test/demo_files.hpp's.
#include <gtest/gtest.h>

#include <memory>

#include "sortie/mission/game_context.hpp"
#include "sortie_test/demo_files.hpp"

namespace sortie::test {

inline mission::GameContext game_over(const Files& files) {
  auto vfs = std::make_unique<assets::MemoryVfs>();
  for (const auto& [path, bytes] : files) EXPECT_TRUE(vfs->add(path, bytes).has_value()) << path;
  return mission::GameContext::over(std::move(vfs));
}

}  // namespace sortie::test
