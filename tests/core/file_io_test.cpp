// In-place rewrites and all-or-nothing file sets (file_io.hpp).
#include "sortie/core/file_io.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <random>

namespace sortie::core {
namespace {

namespace fs = std::filesystem;

class CoreFileIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie_file_io_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void put(const fs::path& p, std::string_view text) const { ASSERT_TRUE(write_file_atomic(p, text)); }
  static std::string get(const fs::path& p) { return read_text_file(p).value_or("<missing>"); }
  // Names in the directory (temporaries would show up here).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  static unsigned mode_of(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    return st.st_mode & 07777;
  }
  fs::path dir_;
};

TEST_F(CoreFileIo, rewrite_keeps_the_permission_bits) {
  const fs::path f = dir_ / "private.fomap";
  put(f, "old\n");
  fs::permissions(f, fs::perms::owner_read | fs::perms::owner_write);
  ASSERT_TRUE(rewrite_file(f, "new\n"));
  EXPECT_EQ(get(f), "new\n");
  EXPECT_EQ(mode_of(f), 0600u);
  fs::permissions(f, static_cast<fs::perms>(0640));
  ASSERT_TRUE(rewrite_file(f, "newer\n"));
  EXPECT_EQ(mode_of(f), 0640u);
  EXPECT_EQ(names(), std::vector<std::string>{"private.fomap"});
}

TEST_F(CoreFileIo, rewrite_writes_through_a_symlink_and_keeps_the_link) {
  fs::create_directories(dir_ / "real");
  const fs::path target = dir_ / "real/map.fomap";
  const fs::path link = dir_ / "map.fomap";
  put(target, "old\n");
  fs::permissions(target, static_cast<fs::perms>(0600));
  fs::create_symlink("real/map.fomap", link);
  ASSERT_TRUE(rewrite_file(link, "new\n"));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::read_symlink(link), fs::path("real/map.fomap"));
  EXPECT_EQ(get(target), "new\n");
  EXPECT_EQ(mode_of(target), 0600u);
  EXPECT_EQ(names(), (std::vector<std::string>{"map.fomap", "real"}));
}

TEST_F(CoreFileIo, rewrite_of_a_dangling_link_or_a_directory_is_an_io_error) {
  fs::create_symlink("nowhere.fomap", dir_ / "dangling.fomap");
  auto r = rewrite_file(dir_ / "dangling.fomap", "x");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "io.open");
  fs::create_directories(dir_ / "d.fomap");
  auto d = rewrite_file(dir_ / "d.fomap", "x");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "io.open");
}

TEST_F(CoreFileIo, a_set_is_written_whole) {
  put(dir_ / "a", "old a");
  const std::string a = "new a", b = "new b";
  const FileWrite set[] = {{dir_ / "a", as_bytes(a)}, {dir_ / "b", as_bytes(b)}};
  ASSERT_TRUE(write_files_together(set));
  EXPECT_EQ(get(dir_ / "a"), "new a");
  EXPECT_EQ(get(dir_ / "b"), "new b");
  EXPECT_EQ(names(), (std::vector<std::string>{"a", "b"}));
}

TEST_F(CoreFileIo, a_set_whose_second_file_cannot_be_placed_leaves_the_first_as_it_was) {
  put(dir_ / "a", "old a");
  fs::create_directories(dir_ / "b");  // a directory where the second file should go
  const std::string a = "new a", b = "new b";
  const FileWrite set[] = {{dir_ / "a", as_bytes(a)}, {dir_ / "b", as_bytes(b)}};
  auto r = write_files_together(set);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "io.write");
  EXPECT_EQ(get(dir_ / "a"), "old a");
  EXPECT_EQ(names(), (std::vector<std::string>{"a", "b"}));  // no temporary or kept copy left
  // When the first file did not exist before, it does not exist afterwards either.
  const FileWrite fresh[] = {{dir_ / "c", as_bytes(a)}, {dir_ / "b", as_bytes(b)}};
  ASSERT_FALSE(write_files_together(fresh));
  EXPECT_FALSE(fs::exists(dir_ / "c"));
  EXPECT_EQ(names(), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace sortie::core
