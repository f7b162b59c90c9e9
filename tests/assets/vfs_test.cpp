#include "sortie/assets/vfs.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sortie/assets/game_path.hpp"

using namespace sortie::assets;
namespace fs = std::filesystem;

TEST(GamePath, normalizes_separators_and_keeps_case) {
  auto p = normalize_path("DATA\\MAPS\\Tut_1/land");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->path, "DATA/MAPS/Tut_1/land");
  EXPECT_EQ(p->key, "DATA/MAPS/TUT_1/LAND");
  EXPECT_EQ(p->file_name(), "land");
  EXPECT_EQ(p->parent(), "DATA/MAPS/Tut_1");
  EXPECT_EQ(p->segments().size(), 4u);
}

TEST(GamePath, strict_legacy_rejects_each_bad_form) {
  EXPECT_EQ(normalize_path("").error().code, "path.empty");
  EXPECT_EQ(normalize_path(std::string_view("a\0b", 3)).error().code, "path.embedded_nul");
  EXPECT_EQ(normalize_path("/abs").error().code, "path.absolute");
  EXPECT_EQ(normalize_path("\\abs").error().code, "path.absolute");
  EXPECT_EQ(normalize_path("C:x").error().code, "path.absolute");
  EXPECT_EQ(normalize_path("a//b").error().code, "path.parent_traversal");
  EXPECT_EQ(normalize_path("a/./b").error().code, "path.parent_traversal");
  EXPECT_EQ(normalize_path("a/").error().code, "path.parent_traversal");
  EXPECT_EQ(normalize_path("a/../b").error().code, "path.parent_traversal");
  EXPECT_EQ(normalize_path("a/b:c").error().code, "path.absolute");
}

TEST(GamePath, host_compatible_drops_empty_and_dot_segments) {
  EXPECT_EQ(normalize_path("a//./b/", PathPolicy::host_compatible)->path, "a/b");
  EXPECT_EQ(normalize_path("a/b:c", PathPolicy::host_compatible)->path, "a/b:c");
  EXPECT_EQ(normalize_path("./", PathPolicy::host_compatible).error().code, "path.empty");
  EXPECT_EQ(normalize_path("a/../b", PathPolicy::host_compatible).error().code, "path.parent_traversal");
}

class DirectoryVfsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::temp_directory_path() / ("sortie_vfs_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "Data" / "Maps");
    std::ofstream(root_ / "Data" / "Maps" / "Land.msh") << "terrain";
    std::ofstream(root_ / "objects.rlb") << "rlb";
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(DirectoryVfsTest, resolves_every_segment_case_insensitively) {
  DirectoryVfs vfs(root_);
  auto bytes = vfs.read(*normalize_path("DATA\\MAPS\\land.MSH"));
  ASSERT_TRUE(bytes.has_value()) << bytes.error().to_string();
  EXPECT_EQ(std::string(bytes->begin(), bytes->end()), "terrain");
  EXPECT_TRUE(vfs.exists(*normalize_path("OBJECTS.RLB")));
}

TEST_F(DirectoryVfsTest, missing_file_is_not_found) {
  DirectoryVfs vfs(root_);
  auto r = vfs.read(*normalize_path("DATA/MAPS/Land.map"));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "vfs.not_found");
}

TEST_F(DirectoryVfsTest, two_names_folding_equal_are_ambiguous_even_with_exact_match) {
  fs::create_directories(root_ / "data");
  DirectoryVfs vfs(root_);
  auto r = vfs.read(*normalize_path("Data/Maps/Land.msh"));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "vfs.ambiguous");
}

TEST_F(DirectoryVfsTest, refuses_symlinks) {
  fs::create_symlink(root_ / "objects.rlb", root_ / "link.rlb");
  DirectoryVfs vfs(root_);
  auto r = vfs.read(*normalize_path("link.rlb"));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "vfs.symlink");
}

TEST_F(DirectoryVfsTest, lists_sorted_by_key) {
  DirectoryVfs vfs(root_);
  auto all = vfs.list();
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].path, "Data/Maps/Land.msh");
  EXPECT_EQ((*all)[1].path, "objects.rlb");
  auto maps = vfs.list("data/maps");
  ASSERT_TRUE(maps.has_value());
  EXPECT_EQ(maps->size(), 1u);
}

TEST(MemoryVfs, list_is_segment_boundary_safe) {
  MemoryVfs vfs;
  ASSERT_TRUE(vfs.add("DATA/a", {1}).has_value());
  ASSERT_TRUE(vfs.add("DATA2/b", {2}).has_value());
  auto l = vfs.list("data");
  ASSERT_TRUE(l.has_value());
  ASSERT_EQ(l->size(), 1u);
  EXPECT_EQ((*l)[0].path, "DATA/a");
  EXPECT_EQ(vfs.read(*normalize_path("data/A"))->at(0), 1);
  EXPECT_EQ(vfs.read(*normalize_path("nope")).error().code, "vfs.not_found");
}
