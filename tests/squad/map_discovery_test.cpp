// Squad map discovery (`sortie squad accept [--maps ...]`): the given maps, or the repository's.
#include "sortie/squad/map_discovery.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace sortie::squad {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMap = "squad-map 1\nname Test room\nsquad 3\ngrid 6 4\n######\n#@.h.#\n#...H#\n######\n";

class MapDiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-map-discovery-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "maps");
    for (const char* name : {"b.txt", "a.txt"}) std::ofstream(dir_ / "maps" / name) << kMap;
    std::ofstream(dir_ / "maps" / "notes.md") << "not a map";
    fs::create_directories(dir_ / "empty");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST(MapDiscovery, default_dirs_are_the_working_directory_then_beside_the_build_and_the_install) {
  const auto none = default_map_dirs({});
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0], fs::path("data") / "squad");
  const auto dirs = default_map_dirs("/src/build/release/apps/sortie/sortie");
  ASSERT_EQ(dirs.size(), 3u);
  EXPECT_EQ(dirs[1].lexically_normal(), fs::path("/src/data/squad"));
  EXPECT_EQ(dirs[2].lexically_normal(), fs::path("/src/build/release/apps/share/sortie/squad"));
  EXPECT_FALSE(current_executable().empty());  // this test binary
  EXPECT_TRUE(fs::exists(current_executable()));
}

TEST_F(MapDiscoveryTest, a_directory_gives_its_txt_maps_sorted_then_files_in_order) {
  auto maps = collect_maps({(dir_ / "maps").string(), (dir_ / "maps" / "b.txt").string()}, {});
  ASSERT_TRUE(maps.has_value()) << maps.error().to_string();
  ASSERT_EQ(maps->size(), 3u);
  EXPECT_EQ((*maps)[0].label, "a.txt");
  EXPECT_EQ((*maps)[1].label, "b.txt");
  EXPECT_EQ((*maps)[2].label, "b.txt");
  EXPECT_EQ((*maps)[0].map.name, "Test room");
}

TEST_F(MapDiscoveryTest, without_args_the_first_default_directory_that_exists) {
  auto maps = collect_maps({}, {dir_ / "absent", dir_ / "maps", dir_ / "empty"});
  ASSERT_TRUE(maps.has_value()) << maps.error().to_string();
  EXPECT_EQ(maps->size(), 2u);
  auto nothing = collect_maps({}, {dir_ / "absent", dir_ / "empty"});
  ASSERT_FALSE(nothing.has_value());
  EXPECT_EQ(nothing.error().code, "usage.squad.maps");
}

TEST_F(MapDiscoveryTest, an_empty_directory_or_a_broken_map_is_an_error) {
  auto empty = collect_maps({(dir_ / "empty").string()}, {});
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().code, "usage.squad.maps");
  EXPECT_EQ(empty.error().file, (dir_ / "empty").string());
  std::ofstream(dir_ / "broken.txt") << "squad-map 9\n";
  auto broken = collect_maps({(dir_ / "broken.txt").string()}, {});
  ASSERT_FALSE(broken.has_value());
  EXPECT_EQ(broken.error().code.rfind("squad.map", 0), 0u) << broken.error().code;
}

}  // namespace
}  // namespace sortie::squad
