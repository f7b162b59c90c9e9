// NresEditor: replace, rename, add, remove; lossless-layout and canonical encodes (§3.4).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "nres_fixtures.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using namespace nres_test;

NresArchive must_read(const Bytes& b) {
  auto a = read_nres(b);
  EXPECT_TRUE(a) << a.error().to_string();
  return a ? std::move(*a) : NresArchive{};
}

TEST(NresEdit, unchanged_editor_reproduces_input_in_both_modes) {
  const Bytes b = simple({{"b", "12345"}, {"a", "xyz"}, {"c", ""}});
  NresEditor ed(must_read(b));
  EXPECT_EQ(ed.encode_lossless_layout().value(), b);
  EXPECT_EQ(ed.encode_canonical().value(), b);
}

TEST(NresEdit, replace_recomputes_offsets_and_keeps_alignment_in_canonical) {
  NresEditor ed(must_read(simple({{"first", "12"}, {"second", "abc"}})));
  ASSERT_TRUE(ed.replace(0, bytes_of("0123456789")));
  auto a = must_read(ed.encode_canonical().value());
  EXPECT_EQ(a.entries[0].size, 10u);
  EXPECT_EQ(a.entries[1].data_offset, 32u);
  EXPECT_EQ(a.entries[1].data_offset % 8, 0u);
  EXPECT_EQ(bytes_of(a.payload(0)), bytes_of("0123456789"));
  EXPECT_EQ(bytes_of(a.payload(1)), bytes_of("abc"));
  EXPECT_EQ(ed.replace(5, {}).error().code, "nres.entry_index");
}

TEST(NresEdit, lossless_layout_keeps_nonzero_gap_and_canonical_drops_it) {
  const Bytes b = with_prefix_gap(simple({{"one", "x"}}), hex("aabbccdd"));
  NresEditor ed(must_read(b));
  EXPECT_EQ(ed.encode_lossless_layout().value(), b);
  ASSERT_TRUE(ed.replace(0, bytes_of("longer")));
  const Bytes lossless = ed.encode_lossless_layout().value();
  auto a = must_read(lossless);
  EXPECT_EQ(bytes_of(a.gap_bytes(0)), hex("aabbccdd"));
  EXPECT_EQ(a.entries[0].data_offset, 20u);
  EXPECT_EQ(bytes_of(a.payload(0)), bytes_of("longer"));
  auto c = must_read(ed.encode_canonical().value());
  EXPECT_EQ(c.entries[0].data_offset, 16u);
  EXPECT_TRUE(c.gaps.size() == 1 && c.gap_is_zero(0));
}

TEST(NresEdit, rename_rebuilds_sort_table) {
  NresEditor ed(must_read(simple({{"beta", "1"}, {"zeta", "2"}})));
  ASSERT_TRUE(ed.rename(1, "alpha"));
  auto a = must_read(ed.encode_lossless_layout().value());
  EXPECT_EQ(a.entries[1].name.text(), "alpha");
  EXPECT_EQ(a.entries[0].sort_index, 1u);
  EXPECT_EQ(a.entries[1].sort_index, 0u);
  EXPECT_EQ(a.find("ALPHA"), std::optional<std::size_t>(1));
  EXPECT_EQ(a.find("zeta"), std::nullopt);
}

TEST(NresEdit, rename_rejects_36_bytes_and_nul) {
  NresEditor ed(must_read(simple({{"one", "1"}})));
  EXPECT_EQ(ed.rename(0, std::string(36, 'n')).error().code, "nres.name_length");
  EXPECT_EQ(ed.rename(0, std::string("a\0b", 3)).error().code, "nres.name_nul");
  EXPECT_EQ(ed.rename(0, "").error().code, "nres.empty_name");
  EXPECT_TRUE(ed.rename(0, std::string(35, 'n')));
  std::string expected(36, 'n');
  expected[35] = '\0';
  EXPECT_EQ(ed.entry(0).name.raw, expected);
}

TEST(NresEdit, rename_zero_fills_the_old_tail) {
  auto built = NresBuilder().add(1, std::string("longname\0TAIL", 13), bytes_of("p")).build().value();
  NresEditor ed(must_read(built));
  ASSERT_TRUE(ed.rename(0, "ab"));
  std::string expected(36, '\0');
  expected[0] = 'a';
  expected[1] = 'b';
  EXPECT_EQ(ed.entry(0).name.raw, expected);
}

TEST(NresEdit, add_appends_aligned_entry_and_remove_keeps_gaps) {
  const Bytes b = with_prefix_gap(simple({{"one", "xyz"}, {"two", "ab"}}), hex("aabbccdd"));
  NresEditor ed(must_read(b));
  auto idx = ed.add(NresEntrySpec{nres_type_tag("MAT0"), 1, 2, 3, "new", bytes_of("payload")});
  ASSERT_TRUE(idx);
  EXPECT_EQ(*idx, 2u);
  auto a = must_read(ed.encode_lossless_layout().value());
  ASSERT_EQ(a.entries.size(), 3u);
  EXPECT_EQ(a.entries[2].data_offset % 8, 0u);
  EXPECT_EQ(bytes_of(a.payload(2)), bytes_of("payload"));
  EXPECT_EQ(a.entries[2].type_id, nres_type_tag("MAT0"));
  EXPECT_EQ(a.find("NEW"), std::optional<std::size_t>(2));
  EXPECT_EQ(bytes_of(a.gap_bytes(0)), hex("aabbccdd"));

  ASSERT_TRUE(ed.remove(0));
  auto r = must_read(ed.encode_lossless_layout().value());
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].name.text(), "two");
  EXPECT_EQ(bytes_of(r.payload(0)), bytes_of("ab"));
  // The removed payload's own padding (5 zero bytes) stays, now adjacent to the prefix gap.
  EXPECT_EQ(bytes_of(r.gap_bytes(0)), hex("aabbccdd 0000000000"));
  EXPECT_EQ(r.find("one"), std::nullopt);
  EXPECT_EQ(r.find("new"), std::optional<std::size_t>(1));
  EXPECT_EQ(ed.add(NresEntrySpec{1, 0, 0, 0, std::string(36, 'x'), {}}).error().code, "nres.name_length");
}

TEST(NresEdit, generated_edit_and_rename_loops_stay_valid) {
  core::Rng rng(7);
  for (int round = 0; round < 100; ++round) {
    NresBuilder builder;
    const std::uint32_t n = 1 + rng.below(4);
    for (std::uint32_t i = 0; i < n; ++i) builder.add(i, fmt::format("e{}", rng.below(50)), Bytes(rng.below(12), 7));
    NresEditor ed(must_read(builder.build().value()));
    std::vector<std::pair<std::string, Bytes>> expect;
    for (std::uint32_t i = 0; i < n; ++i)
      expect.emplace_back(std::string(ed.entry(i).name.text()), ed.entry(i).payload);
    for (int step = 0; step < 4; ++step) {
      const std::size_t i = rng.below(static_cast<std::uint32_t>(ed.size()));
      switch (rng.below(3)) {
        case 0: {
          Bytes p(rng.below(20), static_cast<std::uint8_t>(step));
          ASSERT_TRUE(ed.replace(i, p));
          expect[i].second = p;
          break;
        }
        case 1: {
          const std::string name = fmt::format("r{}", rng.below(100));
          ASSERT_TRUE(ed.rename(i, name));
          expect[i].first = name;
          break;
        }
        default: {
          const std::string name = fmt::format("n{}", rng.below(100));
          ASSERT_TRUE(ed.add(NresEntrySpec{9, 0, 0, 0, name, Bytes(3, 1)}));
          expect.emplace_back(name, Bytes(3, 1));
        }
      }
    }
    for (const Bytes& out : {ed.encode_lossless_layout().value(), ed.encode_canonical().value()}) {
      auto a = must_read(out);
      ASSERT_EQ(a.entries.size(), expect.size());
      for (std::size_t i = 0; i < expect.size(); ++i) {
        EXPECT_EQ(a.entries[i].name.text(), expect[i].first);
        EXPECT_EQ(bytes_of(a.payload(i)), expect[i].second);
        auto f = a.find(expect[i].first);
        ASSERT_TRUE(f);
        EXPECT_LE(*f, i);
      }
    }
  }
}

}  // namespace
}  // namespace sortie::iron3d
