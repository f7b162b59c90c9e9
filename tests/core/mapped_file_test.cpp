// core::MappedFile and core::SharedBytes: mapped bytes equal the file, the owner keeps them
// alive, errors carry the io.* codes of read_file.
#include "sortie/core/mapped_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "sortie/core/file_io.hpp"

using namespace sortie::core;
namespace fs = std::filesystem;

namespace {

class MappedFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie_mapped_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const Bytes& bytes) {
    const fs::path p = dir_ / name;
    EXPECT_TRUE(write_file_atomic(p, bytes).has_value());
    return p;
  }
  fs::path dir_;
};

TEST_F(MappedFileTest, maps_the_exact_file_bytes) {
  const Bytes bytes{'N', 'R', 'e', 's', 0, 1, 0xff, 7};
  const auto m = MappedFile::open(write("a.bin", bytes));
  ASSERT_TRUE(m.has_value()) << m.error().to_string();
  EXPECT_EQ(Bytes(m->bytes().begin(), m->bytes().end()), bytes);
}

TEST_F(MappedFileTest, empty_file_maps_to_an_empty_view) {
  const auto m = MappedFile::open(write("empty.bin", {}));
  ASSERT_TRUE(m.has_value());
  EXPECT_TRUE(m->bytes().empty());
}

TEST_F(MappedFileTest, rejects_missing_file_directory_and_size_above_the_limit) {
  auto missing = MappedFile::open(dir_ / "absent.bin");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, "io.open");
  auto directory = MappedFile::open(dir_);
  ASSERT_FALSE(directory.has_value());
  EXPECT_EQ(directory.error().code, "io.open");
  EXPECT_EQ(directory.error().message, "is a directory, not a file");
  auto big = MappedFile::open(write("big.bin", Bytes(100, 1)), 99);
  ASSERT_FALSE(big.has_value());
  EXPECT_EQ(big.error().code, "io.too_large");
  EXPECT_EQ(big.error().found, "100 bytes");
}

TEST_F(MappedFileTest, moved_mapping_keeps_its_bytes) {
  auto m = MappedFile::open(write("a.bin", Bytes{1, 2, 3}));
  ASSERT_TRUE(m.has_value());
  const std::uint8_t* data = m->bytes().data();
  MappedFile moved = std::move(*m);
  EXPECT_EQ(moved.bytes().data(), data);
  EXPECT_EQ(moved.bytes().size(), 3u);
  EXPECT_TRUE(m->bytes().empty());  // NOLINT(bugprone-use-after-move): the source is empty by contract
}

TEST_F(MappedFileTest, shared_bytes_from_a_file_outlive_the_file_being_replaced) {
  const fs::path p = write("a.bin", Bytes{1, 2, 3, 4});
  auto shared = SharedBytes::from_file(p);
  ASSERT_TRUE(shared.has_value());
  const SharedBytes copy = *shared;  // shares, does not copy
  EXPECT_EQ(copy.data(), shared->data());
  // sortie's writers replace by rename: the mapping still shows the old bytes.
  ASSERT_TRUE(write_file_atomic(p, Bytes{9, 9}).has_value());
  EXPECT_EQ(Bytes(copy.view().begin(), copy.view().end()), (Bytes{1, 2, 3, 4}));
}

TEST_F(MappedFileTest, shared_bytes_take_over_a_vector_without_copying) {
  Bytes bytes{5, 6, 7};
  const std::uint8_t* data = bytes.data();
  const SharedBytes shared(std::move(bytes));
  EXPECT_EQ(shared.data(), data);
  EXPECT_EQ(shared.size(), 3u);
  const SharedBytes copied = SharedBytes::copy_of(shared.view());
  EXPECT_NE(copied.data(), data);
  EXPECT_EQ(Bytes(copied.view().begin(), copied.view().end()), (Bytes{5, 6, 7}));
}

TEST_F(MappedFileTest, shared_bytes_of_a_device_are_read_and_errors_keep_io_codes) {
  // /dev/null cannot be mapped: it is read instead (and is empty).
  auto null = SharedBytes::from_file("/dev/null");
  ASSERT_TRUE(null.has_value()) << null.error().to_string();
  EXPECT_TRUE(null->empty());
  auto dir = SharedBytes::from_file(dir_);
  ASSERT_FALSE(dir.has_value());
  EXPECT_EQ(dir.error().code, "io.open");
  auto missing = SharedBytes::from_file(dir_ / "absent");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, "io.open");
}

}  // namespace
