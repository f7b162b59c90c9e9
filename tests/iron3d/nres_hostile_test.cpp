// One hostile input per check of spec §3.2 and per malformed fixture of §3.6.
#include <gtest/gtest.h>

#include <limits>

#include "nres_fixtures.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using namespace nres_test;

NresReadOptions compatible() {
  NresReadOptions o;
  o.profile = core::Profile::compatible;
  return o;
}

// Reads and expects a rejection with `code`; returns the diagnostic for further checks.
core::Diagnostic rejected(const Bytes& b, std::string_view code, const NresReadOptions& o = {}) {
  auto a = read_nres(b, o);
  EXPECT_FALSE(a) << "accepted, expected " << code;
  if (a) return {};
  EXPECT_EQ(a.error().code, code) << a.error().to_string();
  return a.error();
}

Bytes header_only(std::uint32_t version, std::int32_t count, std::uint32_t total) {
  Bytes b = hex("4e526573 00000000 00000000 00000000");
  put_u32(b, 4, version);
  put_u32(b, 8, static_cast<std::uint32_t>(count));
  put_u32(b, 12, total);
  return b;
}

TEST(NresHostile, rejects_bad_magic) {
  Bytes b = simple({{"one", "x"}});
  b[0] = 'B', b[1] = 'A', b[2] = 'D', b[3] = '!';
  auto d = rejected(b, "nres.magic");
  EXPECT_EQ(d.offset, 0u);
  EXPECT_NE(d.found.find("42414421"), std::string::npos);
}

TEST(NresHostile, rejects_buffer_shorter_than_header) {
  auto d = rejected(hex("4e526573 0001"), "nres.magic");
  EXPECT_NE(d.found.find("4e526573"), std::string::npos);
  rejected(Bytes{}, "nres.magic");
}

TEST(NresHostile, rejects_input_above_limit) {
  NresReadOptions o;
  o.limits.max_input = 100;
  o.file_name = "big.rlb";
  Bytes b = simple({{"one", std::string(200, 'x')}});
  auto d = rejected(b, "nres.limit", o);
  EXPECT_EQ(d.file, "big.rlb");
}

TEST(NresHostile, rejects_version_0x101) {
  Bytes b = header_only(0x101, 0, 16);
  auto d = rejected(b, "nres.version");
  EXPECT_EQ(d.offset, 4u);
  EXPECT_EQ(d.field, "version");
  EXPECT_EQ(d.found, "0x101");
}

TEST(NresHostile, rejects_negative_entry_count) {
  auto d = rejected(header_only(0x100, -1, 16), "nres.entry_count");
  EXPECT_EQ(d.offset, 8u);
}

TEST(NresHostile, rejects_entry_count_int_max_before_allocation) {
  auto d = rejected(header_only(0x100, std::numeric_limits<std::int32_t>::max(), 16), "nres.limit");
  EXPECT_EQ(d.field, "entry_count");
}

TEST(NresHostile, rejects_entry_count_above_configured_limit) {
  NresReadOptions o;
  o.limits.max_entries = 2;
  rejected(simple({{"a", "1"}, {"b", "2"}, {"c", "3"}}), "nres.limit", o);
  o.limits.max_entries = 3;
  EXPECT_TRUE(read_nres(simple({{"a", "1"}, {"b", "2"}, {"c", "3"}}), o));
}

TEST(NresHostile, rejects_total_size_one_more_than_actual) {
  Bytes b = simple({{"one", "x"}});
  put_u32(b, 12, static_cast<std::uint32_t>(b.size() + 1));
  auto d = rejected(b, "nres.total_size");
  EXPECT_EQ(d.offset, 12u);
}

TEST(NresHostile, rejects_directory_before_header) {
  Bytes b = header_only(0x100, 1, 64);
  b.resize(64, 0);
  rejected(b, "nres.directory_bounds");
}

TEST(NresHostile, rejects_name_without_terminator) {
  Bytes b = simple({{"one", "x"}, {"two", "y"}});
  const std::size_t rec = record_at(b, 1);
  for (std::size_t k = 0; k < 36; ++k) b[rec + kName + k] = 'N';
  auto d = rejected(b, "nres.name_terminator");
  EXPECT_EQ(d.field, "entries[1].name");
  EXPECT_EQ(d.offset, rec + kName);
}

TEST(NresHostile, rejects_offset_plus_size_overflow) {
  Bytes b = simple({{"one", "x"}});
  const std::size_t rec = record_at(b, 0);
  put_u32(b, rec + kOffset, 0xfffffff0u);
  put_u32(b, rec + kSize, 0x20);
  auto d = rejected(b, "nres.entry_overflow");
  EXPECT_EQ(d.field, "entries[0].data_offset");
}

TEST(NresHostile, rejects_data_offset_15) {
  Bytes b = simple({{"one", "x"}});
  put_u32(b, record_at(b, 0) + kOffset, 15);
  auto d = rejected(b, "nres.entry_bounds");
  EXPECT_EQ(d.field, "entries[0].data_offset");
  EXPECT_EQ(d.offset, record_at(b, 0) + kOffset);
}

TEST(NresHostile, rejects_size_crossing_directory) {
  Bytes b = simple({{"one", "x"}});
  put_u32(b, record_at(b, 0) + kSize, 9);  // 16 + 9 > directory offset 24
  rejected(b, "nres.entry_bounds");
}

TEST(NresHostile, checks_name_of_entry_before_its_range) {
  Bytes b = simple({{"one", "x"}});
  const std::size_t rec = record_at(b, 0);
  for (std::size_t k = 0; k < 36; ++k) b[rec + kName + k] = 'N';
  put_u32(b, rec + kOffset, 3);
  rejected(b, "nres.name_terminator");
}

TEST(NresHostile, checks_range_of_entry_0_before_name_of_entry_1) {
  Bytes b = simple({{"one", "x"}, {"two", "y"}});
  put_u32(b, record_at(b, 0) + kOffset, 3);
  const std::size_t rec1 = record_at(b, 1);
  for (std::size_t k = 0; k < 36; ++k) b[rec1 + kName + k] = 'N';
  rejected(b, "nres.entry_bounds");
}

TEST(NresHostile, rejects_empty_name) {
  Bytes b = simple({{"one", "x"}, {"two", "y"}});
  b[record_at(b, 1) + kName] = 0;
  auto d = rejected(b, "nres.empty_name");
  EXPECT_EQ(d.field, "entries[1].name");
}

TEST(NresHostile, rejects_payload_above_limit) {
  NresReadOptions o;
  o.limits.max_payload = 4;
  auto d = rejected(simple({{"a", "12"}, {"b", "12345"}}), "nres.limit", o);
  EXPECT_EQ(d.field, "entries[1].size");
}

TEST(NresHostile, rejects_payload_sum_above_limit) {
  NresReadOptions o;
  o.limits.max_total_payload = 6;
  auto d = rejected(simple({{"a", "1234"}, {"b", "1234"}}), "nres.limit", o);
  EXPECT_EQ(d.field, "entries[1].size");
}

TEST(NresHostile, checks_payload_limit_before_overlap) {
  Bytes b = simple({{"a", "1234"}, {"b", "12345"}});
  put_u32(b, record_at(b, 1) + kOffset, 16);  // overlaps entry 0
  NresReadOptions o;
  o.limits.max_payload = 4;
  rejected(b, "nres.limit", o);
  rejected(b, "nres.overlap");
}

TEST(NresHostile, rejects_overlapping_payloads) {
  Bytes b = simple({{"a", "12345678"}, {"b", "abcd"}});
  put_u32(b, record_at(b, 1) + kOffset, 20);
  auto d = rejected(b, "nres.overlap");
  EXPECT_EQ(d.field, "entries[1].data_offset");
}

TEST(NresHostile, rejects_zero_length_entry_inside_payload) {
  Bytes b = simple({{"a", "12345678"}, {"b", ""}});
  put_u32(b, record_at(b, 1) + kOffset, 18);
  rejected(b, "nres.overlap");
}

TEST(NresHostile, accepts_zero_length_entry_at_payload_start_and_end) {
  Bytes b = simple({{"a", "12345678"}, {"b", ""}, {"c", ""}});
  put_u32(b, record_at(b, 1) + kOffset, 16);
  put_u32(b, record_at(b, 2) + kOffset, 24);
  auto a = read_nres(b);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_TRUE(a->gaps.empty());
  EXPECT_EQ(write_nres_lossless(*a), b);
}

TEST(NresHostile, rejects_sort_index_out_of_range_in_strict) {
  Bytes b = simple({{"one", "x"}});
  put_u32(b, record_at(b, 0) + kSort, 1);
  auto d = rejected(b, "nres.sort_index_range");
  EXPECT_EQ(d.field, "entries[0].sort_index");
  auto a = read_nres(b, compatible());
  ASSERT_TRUE(a);
  EXPECT_FALSE(a->lookup_order_valid);
  ASSERT_EQ(a->warnings.size(), 1u);
  EXPECT_EQ(a->warnings[0].code, "nres.sort_index_range");
  EXPECT_EQ(a->warnings[0].severity, core::Severity::warning);
  EXPECT_EQ(a->find("ONE"), std::optional<std::size_t>(0));
  EXPECT_EQ(write_nres_lossless(*a), b);
  // The canonical writer rebuilds the table, which then passes strict.
  auto fixed = read_nres(write_nres_canonical(*a));
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->entries[0].sort_index, 0u);
}

TEST(NresHostile, rejects_duplicate_sort_index_in_strict_and_scans_in_compatible) {
  Bytes b = simple({{"B", "1"}, {"A", "2"}});
  put_u32(b, record_at(b, 0) + kSort, 0);
  put_u32(b, record_at(b, 1) + kSort, 0);
  auto d = rejected(b, "nres.sort_index_duplicate");
  EXPECT_EQ(d.field, "entries[1].sort_index");
  auto a = read_nres(b, compatible());
  ASSERT_TRUE(a);
  EXPECT_FALSE(a->lookup_order_valid);
  EXPECT_EQ(a->find("A"), std::optional<std::size_t>(1));
  EXPECT_EQ(a->find("b"), std::optional<std::size_t>(0));
}

TEST(NresHostile, rejects_unsorted_permutation_at_position_1) {
  Bytes b = simple({{"b", "1"}, {"a", "2"}});
  put_u32(b, record_at(b, 0) + kSort, 0);
  put_u32(b, record_at(b, 1) + kSort, 1);
  auto d = rejected(b, "nres.sort_order");
  EXPECT_EQ(d.field, "entries[1].sort_index");
  auto a = read_nres(b, compatible());
  ASSERT_TRUE(a);
  EXPECT_EQ(a->warnings.at(0).code, "nres.sort_order");
  EXPECT_EQ(a->find("a"), std::optional<std::size_t>(1));
}

TEST(NresHostile, rejects_preserved_bytes_above_limit) {
  Bytes b = with_prefix_gap(simple({{"one", "x"}}), hex("aabbccdd"));
  NresReadOptions o;
  o.limits.max_preserved = 8;  // gaps: 4 prefix bytes + 7 padding bytes
  rejected(b, "nres.limit", o);
  o.limits.max_preserved = 11;
  EXPECT_TRUE(read_nres(b, o));
}

TEST(NresHostile, arbitrary_short_buffers_with_plausible_headers_never_crash) {
  core::Rng rng(0x4e526573);
  std::size_t accepted = 0;
  for (std::size_t len = 0; len < 160; ++len) {
    for (int round = 0; round < 40; ++round) {
      Bytes b(len);
      for (auto& x : b) x = static_cast<std::uint8_t>(rng.next_u32());
      if (len >= 16) {
        b[0] = 'N', b[1] = 'R', b[2] = 'e', b[3] = 's';
        put_u32(b, 4, 0x100);
        put_u32(b, 8, rng.below(3));
        put_u32(b, 12, static_cast<std::uint32_t>(len));
      }
      auto a = read_nres(b, round % 2 ? compatible() : NresReadOptions{});
      if (a) {
        ++accepted;
        EXPECT_EQ(write_nres_lossless(*a), b);
        for (const auto& e : a->entries) (void)a->find(e.name.text());
      } else {
        EXPECT_TRUE(a.error().code.starts_with("nres.")) << a.error().code;
      }
    }
  }
  EXPECT_GT(accepted, 0u);  // zero-entry archives with random data regions are valid
}

}  // namespace
}  // namespace sortie::iron3d
