// NRes open: the archive borrows its input (no copy), keeps it alive, stores names inline,
// computes gap flags on demand; the hash index agrees with the spec's lookups; the magic and
// directory peek used by format detection.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "nres_fixtures.hpp"
#include "sortie/core/mapped_file.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using namespace nres_test;

TEST(NresOpen, shared_input_is_borrowed_not_copied) {
  const core::SharedBytes input(simple({{"one", "first"}, {"two", "second!"}}));
  auto a = read_nres(input);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->bytes().data(), input.data());
  EXPECT_EQ(a->payload(1).data(), input.data() + 16 + 8);  // "first" padded to 8
  EXPECT_EQ(bytes_of(a->payload(1)), bytes_of("second!"));
}

TEST(NresOpen, moved_vector_is_taken_over_and_a_view_is_copied) {
  Bytes image = simple({{"one", "x"}});
  const std::uint8_t* data = image.data();
  auto moved = read_nres(std::move(image));
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->bytes().data(), data);
  const Bytes kept = simple({{"one", "x"}});
  auto copied = read_nres(core::ByteView(kept));
  ASSERT_TRUE(copied);
  EXPECT_NE(copied->bytes().data(), kept.data());
  EXPECT_EQ(bytes_of(copied->bytes()), kept);
}

TEST(NresOpen, archive_keeps_its_input_alive) {
  std::optional<NresArchive> a;
  {
    core::SharedBytes input(simple({{"alpha", "payload bytes"}}));
    auto r = read_nres(input);
    ASSERT_TRUE(r);
    a = std::move(*r);
  }  // the caller's SharedBytes is gone; the archive still shares the buffer
  EXPECT_EQ(bytes_of(a->payload(0)), bytes_of("payload bytes"));
  const NresArchive copy = *a;  // copies share the same immutable bytes
  EXPECT_EQ(copy.payload(0).data(), a->payload(0).data());
  EXPECT_EQ(copy.find("ALPHA"), std::optional<std::size_t>(0));
}

TEST(NresOpen, names_are_stored_inline_with_their_tail) {
  static_assert(sizeof(NresEntry) == 64, "a directory record is stored in 64 bytes, its name inline");
  auto a =
      read_nres(NresBuilder().add(1, std::string("ab\0tail", 7), bytes_of("p")).add(2, "plain", {}).build().value());
  ASSERT_TRUE(a);
  EXPECT_EQ(a->entries[0].name.text(), "ab");
  EXPECT_TRUE(a->entries[0].name.has_tail());
  EXPECT_EQ(a->entries[1].name.text(), "plain");
  EXPECT_FALSE(a->entries[1].name.has_tail());
  const core::FixedString fixed = a->entries[0].name;  // other formats' records take it as is
  EXPECT_EQ(fixed.raw, std::string("ab\0tail", 7) + std::string(29, '\0'));
  EXPECT_EQ(core::to_hex(a->entries[1].name.bytes()).substr(0, 12), "706c61696e00");
}

TEST(NresOpen, gap_flags_are_computed_from_the_gap_bytes) {
  // Entry "a" (3 bytes) padded with 5 zeros, then 4 bytes nobody indexes, then "b".
  Bytes b = simple({{"a", "abc"}, {"b", "defg"}});
  // Splice 4 non-zero bytes after the padding of "a": shift "b" and the directory by 4.
  Bytes spliced(b.begin(), b.begin() + 24);
  for (std::uint8_t v : {0xAA, 0xBB, 0xCC, 0xDD}) spliced.push_back(v);
  spliced.insert(spliced.end(), b.begin() + 24, b.end());
  put_u32(spliced, 12, static_cast<std::uint32_t>(spliced.size()));
  put_u32(spliced, record_at(spliced, 1) + kOffset, 28);
  auto a = read_nres(std::move(spliced));
  ASSERT_TRUE(a) << a.error().to_string();
  ASSERT_EQ(a->gaps.size(), 2u);  // padding after "a" with the spliced bytes; padding after "b"
  EXPECT_EQ(a->gaps[0].offset, 19u);
  EXPECT_EQ(a->gaps[0].size, 9u);  // 5 zero bytes of padding + AA BB CC DD
  EXPECT_FALSE(a->gap_is_zero(0));
  EXPECT_EQ(a->gaps[1].offset, 32u);
  EXPECT_TRUE(a->gap_is_zero(1));
}

// The hash index must give the spec's answer (first fold-equal entry in physical order) for
// every name, case variant, prefix and absent name, including 35-byte names and bytes >= 0x80.
TEST(NresOpen, hash_index_agrees_with_the_sort_table_and_the_linear_scan) {
  core::Rng rng(7);
  NresBuilder b;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < 3000; ++i) {
    std::string n = fmt::format("{}{:x}", i % 3 == 0 ? "TEXTURE_" : "m_", rng.next_u32());
    if (i % 7 == 0) n += std::string(35 - std::min<std::size_t>(n.size(), 35), 'z');  // 35 bytes
    if (i % 11 == 0) n += "\xe0\xc0";
    if (n.size() > 35) n.resize(35);
    if (i % 5 == 0 && !names.empty()) n = core::ascii_lower(names[rng.below(static_cast<std::uint32_t>(names.size()))]);
    names.push_back(n);
    b.add(1, n, {});
  }
  auto a = read_nres(b.build().value());
  ASSERT_TRUE(a) << a.error().to_string();
  std::size_t duplicates = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (const std::string& q :
         {names[i], core::ascii_upper(names[i]), names[i].substr(0, names[i].size() - 1), names[i] + "x"}) {
      const auto linear = a->find_linear(q);
      ASSERT_EQ(a->find(q), linear) << q;
      ASSERT_EQ(a->find_sorted(q), linear) << q;
    }
    if (*a->find(names[i]) != i) ++duplicates;
  }
  EXPECT_GT(duplicates, 500u);  // the case-folded repeats resolve to their first occurrence
  EXPECT_EQ(a->find(""), std::nullopt);
  EXPECT_EQ(a->find(std::string(36, 'A')), std::nullopt);
  EXPECT_EQ(a->find(std::string("m_\0x", 4)), std::nullopt);
}

TEST(NresOpen, magic_is_the_four_bytes_NRes_at_offset_0) {
  EXPECT_TRUE(nres_has_magic(core::as_bytes("NRes")));
  EXPECT_TRUE(nres_has_magic(simple({})));
  EXPECT_FALSE(nres_has_magic(core::as_bytes("NRe")));
  EXPECT_FALSE(nres_has_magic(core::as_bytes("nres")));
  EXPECT_FALSE(nres_has_magic(core::as_bytes(std::string_view("NL\0\1", 4))));
}

TEST(NresOpen, directory_types_need_a_sound_header_only) {
  Bytes b = NresBuilder().add(7, "a", bytes_of("x")).add(nres_type_tag("MAT0"), "b", {}).build().value();
  EXPECT_EQ(nres_directory_types(b), (std::vector<std::uint32_t>{7, nres_type_tag("MAT0")}));
  EXPECT_EQ(nres_directory_types(simple({})), std::vector<std::uint32_t>{});
  Bytes broken_entry = b;
  put_u32(broken_entry, record_at(b, 0) + kOffset, 0xfff0);  // payload out of bounds: still peekable
  EXPECT_FALSE(read_nres(broken_entry));
  EXPECT_EQ(nres_directory_types(broken_entry), (std::vector<std::uint32_t>{7, nres_type_tag("MAT0")}));
  Bytes bad_version = b;
  put_u32(bad_version, 4, 0x101);
  EXPECT_EQ(nres_directory_types(bad_version), std::nullopt);
  Bytes bad_total = b;
  put_u32(bad_total, 12, static_cast<std::uint32_t>(b.size() + 1));
  EXPECT_EQ(nres_directory_types(bad_total), std::nullopt);
  Bytes too_many = b;
  put_u32(too_many, 8, 3);  // the directory would start inside the header
  EXPECT_EQ(nres_directory_types(too_many), std::nullopt);
  Bytes negative = b;
  put_u32(negative, 8, 0xffffffffu);
  EXPECT_EQ(nres_directory_types(negative), std::nullopt);
  EXPECT_EQ(nres_directory_types(core::as_bytes("NRes")), std::nullopt);
}

}  // namespace
}  // namespace sortie::iron3d
