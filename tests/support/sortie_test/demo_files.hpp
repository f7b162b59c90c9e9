#pragma once
// The demo sample game (scale demo, seed 1, RsLi objects.rlb) as files in memory, generated once
// per test process by sortie's own writers; every test folder that needs the sample uses this
// one (copy it to modify files).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "sortie/assets/sample_game.hpp"

namespace sortie::test {

using Files = std::map<std::string, core::Bytes>;

inline const Files& demo_files() {
  static const Files files = [] {
    auto g = assets::generate_sample_files({assets::SampleScale::demo, 1, assets::ArchiveFormat::rsli});
    EXPECT_TRUE(g.has_value()) << (g ? "" : g.error().to_string());
    return g ? g->first : Files{};
  }();
  return files;
}

}  // namespace sortie::test
