// The file readers' size limit (core::kDefaultFileLimit, file_io.hpp), fed at the limit (accepted)
// and limit + 1 (io.too_large), and the length-prefixed string's default bound. Sparse files
// declare the default's 256 MiB without their bytes: the mapping takes them without reading, and
// read_file refuses one byte more before reading; read_file at the limit is fed through a small
// override.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sortie/core/bytes.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/mapped_file.hpp"

namespace sortie::core {
namespace {

namespace fs = std::filesystem;

class CoreLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie_core_limits_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path sparse(const std::string& name, std::uint64_t size) const {
    const fs::path p = dir_ / name;
    { std::ofstream(p, std::ios::binary) << 'x'; }
    fs::resize_file(p, size);
    return p;
  }
  fs::path dir_;
};

TEST_F(CoreLimits, default_file_limit) {
  const fs::path at = sparse("at.bin", kDefaultFileLimit);
  auto mapped = MappedFile::open(at);
  ASSERT_TRUE(mapped.has_value()) << mapped.error().to_string();
  EXPECT_EQ(mapped->bytes().size(), kDefaultFileLimit);
  const fs::path over = sparse("over.bin", kDefaultFileLimit + 1);
  EXPECT_EQ(MappedFile::open(over).error().code, "io.too_large");
  EXPECT_EQ(read_file(over).error().code, "io.too_large");
  EXPECT_EQ(read_text_file(over).error().code, "io.too_large");
  EXPECT_EQ(SharedBytes::from_file(over).error().code, "io.too_large");
}

TEST_F(CoreLimits, read_file_override) {
  const fs::path p = sparse("small.bin", 100);
  auto at = read_file(p, 100);
  ASSERT_TRUE(at.has_value()) << at.error().to_string();
  EXPECT_EQ(at->size(), 100u);
  EXPECT_EQ(read_file(p, 99).error().code, "io.too_large");
  EXPECT_TRUE(read_text_file(p, 100).has_value());
  EXPECT_EQ(read_text_file(p, 99).error().code, "io.too_large");
}

TEST(CoreLimitsBytes, lp_string_default) {
  auto lp = [](std::uint32_t n) {
    ByteWriter w;
    w.u32(n);
    w.bytes(std::string(n, 's'));
    return w.take();
  };
  constexpr std::uint32_t kDefault = 64 * 1024;  // ByteReader::lp_string's default
  const Bytes at_bytes = lp(kDefault);
  ByteReader at(at_bytes);
  auto s = at.lp_string();
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->size(), kDefault);
  const Bytes over_bytes = lp(kDefault + 1);
  ByteReader over(over_bytes);
  EXPECT_EQ(over.lp_string().error().code, "bytes.string_too_long");
}

}  // namespace
}  // namespace sortie::core
