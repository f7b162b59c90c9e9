#include "sortie/fomap/hash.hpp"

#include <gtest/gtest.h>

#include <string>

namespace sortie::fomap {
namespace {

struct Vector {
  std::string input;
  std::uint64_t hash;
};

TEST(FomapHash, matches_every_spec_vector) {
  const Vector vectors[] = {
      {"a", 0x6cf84e5a2465e867ULL},
      {"abc", 0xb4808df22d44ffcfULL},
      {"abcd", 0xe73573b4c2ddfea0ULL},
      {"Item", 0x95f6358f62a3ca00ULL},
      {"Critter", 0x2a3a5a6591ebe4c1ULL},
      {"Map", 0xdfe30208f8ba04b8ULL},
      {"ProtoMap", 0x18fa50d1817a0ebdULL},
      {"TestItem", 0x75706a5f6571696eULL},
      {"EssentialsTest", 0xa06f3f92f40b8974ULL},
      {"art/tiles/floor.frm", 0x63beedc076ccc8b0ULL},
      {"0123456789abcdef", 0x461ebd6f5b59dfa7ULL},
      {"0123456789abcdefg", 0x7603b7053e7dbc5aULL},
      {std::string(17, 'a'), 0xd1cb000f73f1a0dcULL},
      {std::string(48, 'b'), 0xfb15a9b39c45b589ULL},
      {std::string(49, 'c'), 0xdacf849a5d64c369ULL},
      {std::string(100, 'd'), 0xa28290b3aa3a101eULL},
  };
  for (const auto& v : vectors) EXPECT_EQ(string_hash(v.input), v.hash) << v.input;
}

TEST(FomapHash, empty_string_is_the_null_hash) {
  EXPECT_EQ(string_hash(""), 0u);
  EXPECT_EQ(wyhash_bytes(""), 0x42bc986dc5eec4d3ULL);
}

TEST(FomapHash, is_case_sensitive_and_byte_exact) {
  EXPECT_NE(string_hash("item"), string_hash("Item"));
  EXPECT_NE(string_hash(std::string("a\0", 2)), string_hash("a"));
}

TEST(FomapHash, formats_as_sixteen_hex_digits) {
  EXPECT_EQ(hash_text(0x6cf84e5a2465e867ULL), "0x6cf84e5a2465e867");
  EXPECT_EQ(hash_text(0), "0x0000000000000000");
}

}  // namespace
}  // namespace sortie::fomap
