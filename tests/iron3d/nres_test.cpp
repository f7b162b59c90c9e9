// NRes reader, writers, lookup and editor (spec §3, vectors §31.1).
#include <gtest/gtest.h>

#include <cstring>

#include "nres_fixtures.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using nres_test::bytes_of;
using nres_test::hex;

// §31.1: two entries, 152 bytes.
Bytes spec_vector() {
  Bytes b = hex(
      "4e526573 00010000 02000000 98000000"
      "78797a00 00000000"
      "07000000 01000000 02000000 03000000 03000000"
      "62657461 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000"
      "10000000 01000000"
      "4d415430 00000000 00000000 00000000 00000000"
      "416c7068 61000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000"
      "18000000 00000000");
  return b;
}

TEST(Nres, decodes_spec_vector_31_1) {
  const Bytes input = spec_vector();
  ASSERT_EQ(input.size(), 152u);
  auto a = read_nres(input);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->version, 0x100u);
  EXPECT_EQ(a->entry_count, 2);
  EXPECT_EQ(a->total_size, 152u);
  EXPECT_EQ(a->directory_offset, 24u);
  ASSERT_EQ(a->entries.size(), 2u);
  const NresEntry& beta = a->entries[0];
  EXPECT_EQ(beta.type_id, 7u);
  EXPECT_EQ(beta.attr1, 1u);
  EXPECT_EQ(beta.attr2, 2u);
  EXPECT_EQ(beta.size, 3u);
  EXPECT_EQ(beta.attr3, 3u);
  EXPECT_EQ(beta.name.text(), "beta");
  EXPECT_EQ(beta.name.raw.size(), 36u);
  EXPECT_EQ(beta.data_offset, 0x10u);
  EXPECT_EQ(beta.sort_index, 1u);
  const NresEntry& alpha = a->entries[1];
  EXPECT_EQ(alpha.type_id, nres_type_tag("MAT0"));
  EXPECT_EQ(alpha.type_id, 0x3054414Du);
  EXPECT_EQ(alpha.size, 0u);
  EXPECT_EQ(alpha.name.text(), "Alpha");
  EXPECT_EQ(alpha.data_offset, 0x18u);
  EXPECT_EQ(alpha.sort_index, 0u);
  EXPECT_TRUE(a->lookup_order_valid);
  EXPECT_EQ(a->find("ALPHA"), std::optional<std::size_t>(1));
  EXPECT_EQ(a->find("BETA"), std::optional<std::size_t>(0));
  EXPECT_EQ(a->find("gamma"), std::nullopt);
  EXPECT_EQ(bytes_of(a->payload(0)), hex("78797a"));
  EXPECT_TRUE(a->payload(1).empty());
  ASSERT_EQ(a->gaps.size(), 1u);
  EXPECT_EQ(a->gaps[0].offset, 19u);
  EXPECT_EQ(a->gaps[0].size, 5u);
  EXPECT_TRUE(a->gaps[0].all_zero);
  EXPECT_EQ(write_nres_canonical(*a), input);
  EXPECT_EQ(write_nres_lossless(*a), input);
}

TEST(Nres, builder_reproduces_spec_vector_31_1) {
  auto built = NresBuilder().add(7, "beta", hex("78797a"), 1, 2, 3).add(nres_type_tag("MAT0"), "Alpha", {}).build();
  ASSERT_TRUE(built);
  EXPECT_EQ(*built, spec_vector());
}

TEST(Nres, sort_column_is_permutation_not_rank) {
  auto built = NresBuilder().add(1, "Zulu", hex("01")).add(2, "alpha", hex("0202")).add(3, "Mike", hex("030303")).build();
  ASSERT_TRUE(built);
  auto a = read_nres(*built);
  ASSERT_TRUE(a) << a.error().to_string();
  ASSERT_EQ(a->entries.size(), 3u);
  EXPECT_EQ(a->entries[0].sort_index, 1u);
  EXPECT_EQ(a->entries[1].sort_index, 2u);
  EXPECT_EQ(a->entries[2].sort_index, 0u);
  EXPECT_EQ(a->find("alpha"), std::optional<std::size_t>(1));
  EXPECT_EQ(a->find("Mike"), std::optional<std::size_t>(2));
  EXPECT_EQ(a->find("Zulu"), std::optional<std::size_t>(0));
  EXPECT_EQ(a->find("zulu"), std::optional<std::size_t>(0));
  EXPECT_EQ(a->find("Zul"), std::nullopt);
  EXPECT_EQ(a->find("Zulux"), std::nullopt);
  EXPECT_EQ(bytes_of(a->payload(2)), hex("030303"));
}

}  // namespace
}  // namespace sortie::iron3d
