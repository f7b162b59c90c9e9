// RsLi library archive: §31.2 vector, §4.8 fixtures, one hostile test per §4.5 check,
// lookup, lossless writer, editor (avoiding the §4.6 defects), format table entry.
#include "sortie/iron3d/rsli.hpp"

#include <gtest/gtest.h>

#include "rsli_fixture.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/formats/formats.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using core::Profile;
using test::bytes_of;
using test::FixtureRow;
using test::synthetic_rsli;

RsliReadOptions strict() {
  return RsliReadOptions::from_profile(Profile::strict, "t.rlb");
}
RsliReadOptions compatible() {
  return RsliReadOptions::from_profile(Profile::compatible, "t.rlb");
}

constexpr std::uint16_t kStored = 0x000, kXor = 0x020, kLzss = 0x040, kXorLzss = 0x060, kLzhuf = 0x080,
                        kXorLzhuf = 0x0A0, kDeflate = 0x100;

// §31.2, 103 bytes.
const Bytes kVector312 = {
    0x4e, 0x4c, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //
    0x00, 0x00, 0x00, 0x00, 0x11, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //
    0x71, 0x5d, 0xfa, 0x2e, 0x1f, 0x00, 0x1f, 0x2e, 0x7a, 0x9d, 0x93, 0xe1, 0x40, 0x81, 0x83, 0xc5,  //
    0x4e, 0x20, 0x5e, 0xed, 0x1c, 0x43, 0xfb, 0x33, 0x57, 0x71, 0x9c, 0x9b, 0xf8, 0x61, 0xef, 0x27,  //
    0x54, 0x12, 0x2a, 0x79, 0x9d, 0x90, 0xe5, 0x4d, 0x94, 0xbb, 0x84, 0xf5, 0x61, 0xe6, 0x38, 0x32,  //
    0x77, 0x90, 0x8f, 0xc6, 0x25, 0x3f, 0x78, 0x8b, 0xc4, 0xbb, 0xb0, 0xb3, 0xbf, 0xa9, 0x93, 0xd5,  //
    0x05, 0x47, 0x49, 0x5d, 0x78, 0x79, 0x7a};

core::Result<RsliArchive> read(const Bytes& b, const RsliReadOptions& o = strict()) {
  return read_rsli(b, o);
}

std::string code_of(const core::Result<RsliArchive>& r) {
  return r ? std::string("ok") : r.error().code;
}

Bytes decode(const RsliArchive& a, std::size_t i) {
  auto r = decode_rsli_entry(a, i);
  EXPECT_TRUE(r) << r.error().to_string();
  return r ? *r : Bytes{};
}

// ---------------------------------------------------------------- §31.2

TEST(RsliVector312, decodes_every_field_and_payload) {
  ASSERT_EQ(kVector312.size(), 103u);
  auto a = read(kVector312);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->header.entry_count(), 2);
  EXPECT_FALSE(a->header.presorted());
  EXPECT_EQ(a->header.xor_seed(), 0x1111u);
  EXPECT_TRUE(a->table_rebuilt);
  EXPECT_FALSE(a->ao_overlay);
  ASSERT_EQ(a->entries.size(), 2u);
  const auto& e0 = a->entries[0];
  EXPECT_EQ(e0.name.text(), "B");
  EXPECT_EQ(e0.flags, 0x60);
  EXPECT_EQ(e0.stored_cell, 0);
  EXPECT_EQ(e0.sort_to_original, 1);
  EXPECT_EQ(e0.unpacked_size, 3u);
  EXPECT_EQ(e0.data_offset_raw, 0x60u);
  EXPECT_EQ(e0.packed_size, 4u);
  const auto& e1 = a->entries[1];
  EXPECT_EQ(e1.name.text(), "A");
  EXPECT_EQ(e1.flags, 0);
  EXPECT_EQ(e1.sort_to_original, 0);
  EXPECT_EQ(e1.data_offset_raw, 0x64u);
  EXPECT_EQ(e1.packed_size, 3u);
  EXPECT_EQ(decode(*a, 0), bytes_of("ABC"));
  EXPECT_EQ(decode(*a, 1), bytes_of("xyz"));
  EXPECT_EQ(find_rsli_entry(*a, "B"), 0u);
  EXPECT_EQ(find_rsli_entry(*a, "a"), 1u);
  EXPECT_EQ(write_rsli(*a), kVector312);
}

TEST(RsliVector312, presorted_flag_with_non_permutation_cells_is_corrupt_table) {
  Bytes b = kVector312;
  b[14] = 0xBA;
  b[15] = 0xAB;
  auto s = read(b);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "rsli.corrupt_table");
  EXPECT_EQ(s.error().field, "entries[1].sort_to_original");
  auto c = read(b, compatible());
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->table_rebuilt);
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_EQ(c->warnings[0].code, "rsli.corrupt_table");
  EXPECT_EQ(decode(*c, 0), bytes_of("ABC"));
  EXPECT_EQ(find_rsli_entry(*c, "a"), 1u);
  EXPECT_EQ(write_rsli(*c), b);
}

// ---------------------------------------------------------------- valid fixtures (§4.8)

TEST(RsliRead, empty_library) {
  const Bytes b = synthetic_rsli({}, false, 0x1234);
  ASSERT_EQ(b.size(), 32u);
  auto a = read(b);
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->entries.empty());
  EXPECT_EQ(find_rsli_entry(*a, "X"), std::nullopt);
  EXPECT_EQ(write_rsli(*a), b);
}

TEST(RsliRead, table_xor_state_spans_entries) {
  const Bytes b = synthetic_rsli({{.name = "ONE", .unpacked = 1, .payload = bytes_of("1")},
                                  {.name = "TWO", .unpacked = 1, .payload = bytes_of("2")}},
                                 false, 0x5A5A);
  auto a = read(b);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->entries[1].name.text(), "TWO");
  // Restarting the stream for row 1 gives different bytes than the file holds.
  Bytes row1(b.begin() + 64, b.begin() + 96);
  xor_stream(0x5A5A, row1);
  EXPECT_NE(std::string(row1.begin(), row1.begin() + 3), "TWO");
}

TEST(RsliRead, presorted_cells_are_used_as_stored) {
  const Bytes b = synthetic_rsli({{.name = "B", .cell = 1, .unpacked = 1, .payload = bytes_of("b")},
                                  {.name = "A", .cell = 0, .unpacked = 1, .payload = bytes_of("a")}},
                                 true, 7);
  auto a = read(b);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_FALSE(a->table_rebuilt);
  EXPECT_EQ(find_rsli_entry(*a, "A"), 1u);
  EXPECT_EQ(find_rsli_entry(*a, "b"), 0u);
}

TEST(RsliRead, keeps_header_opaque_bytes_and_service_bytes) {
  Bytes b = synthetic_rsli({{.name = "S", .unpacked = 1, .payload = bytes_of("s"), .service = {1, 2, 3, 4}}}, false, 9);
  for (std::size_t i : {6u, 7u, 13u, 16u, 19u, 22u, 23u, 24u, 31u}) b[i] = static_cast<std::uint8_t>(0xC0 + i);
  // Seed bytes 22..23 are outside the 16-bit key; rebuild the table with the same low key.
  auto a = read(b);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->entries[0].service, (std::array<std::uint8_t, 4>{1, 2, 3, 4}));
  EXPECT_EQ(a->header.raw[31], 0xC0 + 31);
  EXPECT_EQ(write_rsli(*a), b);
}

TEST(RsliRead, decodes_every_method_with_spec_payloads) {
  // Stored, XOR (key 1 via presorted cells), LZSS, XOR+LZSS, LZHUF, XOR+LZHUF, Deflate.
  Bytes xor_abc = bytes_of("abc");
  xor_stream(1, xor_abc);
  Bytes xor_lzss{0x07, 'A', 'B', 'C'};
  xor_stream(2, xor_lzss);
  const Bytes b = synthetic_rsli(
      {
          {.name = "A", .flags = kStored, .cell = 0, .unpacked = 3, .payload = bytes_of("xyz")},
          {.name = "B", .flags = kXor, .cell = 1, .unpacked = 3, .payload = xor_abc},
          {.name = "C", .flags = kXorLzss, .cell = 2, .unpacked = 3, .payload = xor_lzss},
          {.name = "D", .flags = kLzss, .cell = 3, .unpacked = 4, .payload = {0x00, 0xFF, 0xF1}},
          {.name = "E", .flags = kLzhuf, .cell = 4, .unpacked = 1, .payload = {0x00}},
          {.name = "F",
           .flags = kDeflate,
           .cell = 5,
           .unpacked = 3,
           .payload = {0x01, 0x03, 0x00, 0xFC, 0xFF, 'r', 'a', 'w'}},
      },
      true, 0x4321);
  auto a = read(b);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(decode(*a, 0), bytes_of("xyz"));
  EXPECT_EQ(decode(*a, 1), bytes_of("abc"));
  EXPECT_EQ(decode(*a, 2), bytes_of("ABC"));
  EXPECT_EQ(decode(*a, 3), bytes_of("    "));
  EXPECT_EQ(decode(*a, 4), bytes_of("t"));
  EXPECT_EQ(decode(*a, 5), bytes_of("raw"));
}

TEST(RsliRead, xor_lzhuf_with_key_1_decodes_02_to_t) {
  const Bytes b = synthetic_rsli({{.name = "A", .cell = 1, .unpacked = 1, .payload = {0}},
                                  {.name = "T", .flags = kXorLzhuf, .cell = 0, .unpacked = 1, .payload = {0x02}}},
                                 false, 0);
  auto a = read(b);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->entries[1].sort_to_original, 1);  // rebuilt: sorted A(0), T(1) -> row 1 holds 1
  EXPECT_EQ(decode(*a, 1), bytes_of("t"));
}

TEST(RsliRead, ao_overlay_shifts_offsets_in_compatible_profile) {
  const Bytes b =
      synthetic_rsli({{.name = "R", .unpacked = 3, .payload = bytes_of("raw"), .raw_offset = 60}}, false, 3, 4u);
  auto a = read(b, compatible());
  ASSERT_TRUE(a) << a.error().to_string();
  ASSERT_TRUE(a->ao_overlay);
  EXPECT_EQ(*a->ao_overlay, 4u);
  EXPECT_EQ(a->entries[0].effective_offset, 64u);
  EXPECT_EQ(decode(*a, 0), bytes_of("raw"));
  EXPECT_EQ(a->warnings.at(0).code, "rsli.ao_trailer");
  EXPECT_EQ(write_rsli(*a), b);
}

TEST(RsliRead, accepts_payload_at_raw_offset_zero_returning_header_bytes) {
  const Bytes b = synthetic_rsli({{.name = "H", .unpacked = 2, .payload = {}, .packed = 2, .raw_offset = 0}}, false, 0);
  auto a = read(b);
  ASSERT_TRUE(a);
  EXPECT_EQ(decode(*a, 0), bytes_of("NL"));
}

// ---------------------------------------------------------------- lookup

TEST(RsliFind, uppercases_query_cuts_at_nul_and_never_finds_lowercase_names) {
  const Bytes b = synthetic_rsli(
      {{.name = "ZULU", .unpacked = 0}, {.name = "alpha", .unpacked = 0}, {.name = "MIKE", .unpacked = 0}}, false, 0);
  auto a = read(b);
  ASSERT_TRUE(a);
  EXPECT_EQ(find_rsli_entry(*a, "zulu"), 0u);
  EXPECT_EQ(find_rsli_entry(*a, std::string_view("MIKE\0junk", 9)), 2u);
  EXPECT_EQ(find_rsli_entry(*a, "alpha"), std::nullopt);
  EXPECT_EQ(find_rsli_entry(*a, "MIK"), std::nullopt);
}

TEST(RsliFind, full_twelve_byte_name_without_nul) {
  const Bytes b = synthetic_rsli({{.name = "ABCDEFGHIJKL", .unpacked = 1, .payload = bytes_of("q")}}, false, 0);
  auto a = read(b);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->entries[0].name.text(), "ABCDEFGHIJKL");
  EXPECT_EQ(find_rsli_entry(*a, "abcdefghijkl"), 0u);
}

// ---------------------------------------------------------------- §4.5 checks, one each

TEST(RsliHostile, rejects_file_over_size_limit) {
  RsliReadOptions o = strict();
  o.limits.max_file = 40;
  EXPECT_EQ(code_of(read_rsli(Bytes(41, 0), o)), "rsli.limit");
}

TEST(RsliHostile, rejects_file_shorter_than_header) {
  const Bytes b = {'N', 'L', 0, 1, 0, 0};
  auto r = read(b);
  EXPECT_EQ(code_of(r), "rsli.table_bounds");
}

TEST(RsliHostile, rejects_bad_magic) {
  Bytes b = synthetic_rsli({}, false, 0);
  b[1] = 'X';
  auto r = read(b);
  ASSERT_EQ(code_of(r), "rsli.magic");
  EXPECT_EQ(r.error().offset, 0u);
  EXPECT_EQ(r.error().file, "t.rlb");
}

TEST(RsliHostile, rejects_nonzero_reserved_byte) {
  Bytes b = synthetic_rsli({}, false, 0);
  b[2] = 1;
  auto r = read(b);
  ASSERT_EQ(code_of(r), "rsli.reserved");
  EXPECT_EQ(r.error().offset, 2u);
}

TEST(RsliHostile, rejects_version_2) {
  Bytes b = synthetic_rsli({}, false, 0);
  b[3] = 2;
  auto r = read(b);
  ASSERT_EQ(code_of(r), "rsli.version");
  EXPECT_EQ(r.error().found, "2");
}

TEST(RsliHostile, rejects_negative_entry_count) {
  Bytes b = synthetic_rsli({}, false, 0);
  b[4] = 0xFF;
  b[5] = 0xFF;
  EXPECT_EQ(code_of(read(b)), "rsli.entry_count");
}

TEST(RsliHostile, rejects_entry_count_over_limit) {
  RsliReadOptions o = strict();
  o.limits.max_entries = 1;
  const Bytes b = synthetic_rsli({{.name = "A"}, {.name = "B"}}, false, 0);
  EXPECT_EQ(code_of(read_rsli(b, o)), "rsli.limit");
}

TEST(RsliHostile, rejects_table_past_eof) {
  Bytes b = synthetic_rsli({}, false, 0);
  b[4] = 3;
  auto r = read(b);
  ASSERT_EQ(code_of(r), "rsli.table_bounds");
  EXPECT_EQ(r.error().offset, 32u);
}

TEST(RsliHostile, rejects_ao_overlay_past_eof_in_every_profile) {
  const Bytes b =
      synthetic_rsli({{.name = "R", .unpacked = 3, .payload = bytes_of("raw"), .raw_offset = 64}}, false, 0, 1000u);
  EXPECT_EQ(code_of(read(b)), "rsli.overlay_bounds");
  EXPECT_EQ(code_of(read(b, compatible())), "rsli.overlay_bounds");
}

TEST(RsliHostile, strict_rejects_ao_trailer) {
  const Bytes b = synthetic_rsli({{.name = "R", .unpacked = 3, .payload = bytes_of("raw")}}, false, 0, 4u);
  auto r = read(b);
  ASSERT_EQ(code_of(r), "rsli.ao_trailer");
  EXPECT_EQ(r.error().offset, b.size() - 6);
}

TEST(RsliHostile, rejects_packed_size_over_limit) {
  RsliReadOptions o = strict();
  o.limits.max_packed = 2;
  const Bytes b = synthetic_rsli({{.name = "R", .unpacked = 3, .payload = bytes_of("raw")}}, false, 0);
  auto r = read_rsli(b, o);
  ASSERT_EQ(code_of(r), "rsli.limit");
  EXPECT_EQ(r.error().field, "entries[0].packed_size");
}

TEST(RsliHostile, rejects_unpacked_size_over_limit) {
  const Bytes b =
      synthetic_rsli({{.name = "R", .flags = kLzss, .unpacked = 200u * 1024 * 1024, .payload = {0}}}, false, 0);
  auto r = read(b);
  ASSERT_EQ(code_of(r), "rsli.limit");
  EXPECT_EQ(r.error().field, "entries[0].unpacked_size");
}

TEST(RsliHostile, rejects_packed_size_past_eof) {
  const Bytes b = synthetic_rsli({{.name = "R", .unpacked = 3, .payload = bytes_of("raw"), .packed = 4}}, false, 0);
  auto r = read(b, compatible());
  ASSERT_EQ(code_of(r), "rsli.packed_past_eof");
  EXPECT_EQ(r.error().field, "entries[0].packed_size");
  EXPECT_EQ(r.error().offset, 32u + 28u);
}

Bytes interf8(std::string_view name, std::uint32_t declared) {
  return synthetic_rsli({{.name = std::string(name),
                          .flags = kDeflate,
                          .unpacked = 3,
                          .payload = {0x01, 0x03, 0x00, 0xFC, 0xFF, 'r', 'a', 'w'},
                          .packed = declared}},
                        false, 0);
}

TEST(RsliHostile, deflate_eof_plus_one_accepted_only_for_interf8_in_compatible) {
  const Bytes b = interf8("INTERF8.TEX", 9);
  auto c = read(b, compatible());
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_TRUE(c->entries[0].eof_quirk);
  EXPECT_EQ(c->entries[0].read_size, 8u);
  EXPECT_EQ(c->warnings.at(0).code, "rsli.deflate_eof_quirk");
  EXPECT_EQ(decode(*c, 0), bytes_of("raw"));
  EXPECT_EQ(write_rsli(*c), b);
  EXPECT_EQ(code_of(read(b)), "rsli.deflate_eof_quirk");
  RsliReadOptions off = compatible();
  off.allow_deflate_eof_plus_one = false;
  EXPECT_EQ(code_of(read_rsli(b, off)), "rsli.deflate_eof_quirk");
}

TEST(RsliHostile, deflate_eof_plus_one_rejected_for_other_names) {
  EXPECT_EQ(code_of(read(interf8("INTERF9.TEX", 9), compatible())), "rsli.deflate_eof_quirk");
}

TEST(RsliHostile, deflate_eof_plus_two_is_packed_past_eof) {
  EXPECT_EQ(code_of(read(interf8("INTERF8.TEX", 10), compatible())), "rsli.packed_past_eof");
}

TEST(RsliHostile, eof_plus_one_quirk_never_applies_to_other_methods) {
  const Bytes b = synthetic_rsli(
      {{.name = "INTERF8.TEX", .flags = kStored, .unpacked = 3, .payload = bytes_of("raw"), .packed = 4}}, false, 0);
  EXPECT_EQ(code_of(read(b, compatible())), "rsli.packed_past_eof");
}

TEST(RsliHostile, presorted_cell_out_of_range_is_corrupt_table) {
  const Bytes b = synthetic_rsli({{.name = "A", .cell = 5}, {.name = "B", .cell = 0}}, true, 0);
  EXPECT_EQ(code_of(read(b)), "rsli.corrupt_table");
  auto c = read(b, compatible());
  ASSERT_TRUE(c);
  EXPECT_EQ(c->entries[0].sort_to_original, 0);
  EXPECT_EQ(c->entries[1].sort_to_original, 1);
}

TEST(RsliHostile, presorted_unsorted_permutation_is_corrupt_table_and_rebuild_changes_xor_keys) {
  // Cells 0,1 over names B,A: a permutation, but B > A.
  Bytes payload = bytes_of("key");
  xor_stream(1, payload);  // the key entry "A" gets after the rebuild (row 1 holds 0, row 0 holds 1)
  const Bytes b = synthetic_rsli(
      {{.name = "B", .flags = kXor, .cell = 0, .unpacked = 3, .payload = payload}, {.name = "A", .cell = 1}}, true, 0);
  auto s = read(b);
  ASSERT_EQ(code_of(s), "rsli.corrupt_table");
  EXPECT_EQ(s.error().field, "entries[1].sort_to_original");
  auto c = read(b, compatible());
  ASSERT_TRUE(c);
  EXPECT_EQ(c->entries[0].sort_to_original, 1);
  EXPECT_EQ(decode(*c, 0), bytes_of("key"));
}

TEST(RsliHostile, unknown_method_parses_but_fails_on_decode) {
  const Bytes b = synthetic_rsli({{.name = "U", .flags = 0x1E0, .unpacked = 1, .payload = {1}}}, false, 0);
  auto a = read(b);
  ASSERT_TRUE(a);
  auto r = decode_rsli_entry(*a, 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.method_unsupported");
  EXPECT_EQ(r.error().field, "entries[0].flags");
}

TEST(RsliHostile, stored_with_fewer_bytes_than_unpacked_is_size_mismatch) {
  const Bytes b = synthetic_rsli({{.name = "S", .unpacked = 3, .payload = bytes_of("ab")}}, false, 0);
  auto a = read(b);
  ASSERT_TRUE(a);
  auto r = decode_rsli_entry(*a, 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.size_mismatch");
  EXPECT_EQ(r.error().field, "entries[0].packed_size");
}

TEST(RsliHostile, stored_with_more_bytes_than_unpacked_is_size_mismatch) {
  const Bytes b = synthetic_rsli({{.name = "S", .flags = kXor, .unpacked = 2, .payload = bytes_of("abc")}}, false, 0);
  auto a = read(b);
  ASSERT_TRUE(a);
  EXPECT_EQ(decode_rsli_entry(*a, 0).error().code, "rsli.size_mismatch");
}

TEST(RsliHostile, zlib_wrapped_deflate_entry_fails_on_decode) {
  const Bytes b = synthetic_rsli(
      {{.name = "Z", .flags = kDeflate, .unpacked = 3, .payload = {0x78, 0x01, 0x01, 0x03, 0x00, 0xFC, 0xFF, 'r'}}},
      false, 0);
  auto a = read(b);
  ASSERT_TRUE(a);
  auto r = decode_rsli_entry(*a, 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.deflate.corrupt");
  EXPECT_EQ(r.error().field, "entries[0].payload");
  EXPECT_EQ(r.error().file, "t.rlb");
}

TEST(RsliHostile, decode_limit_bounds_output) {
  const Bytes b = synthetic_rsli({{.name = "S", .unpacked = 3, .payload = bytes_of("abc")}}, false, 0);
  auto a = read(b);
  ASSERT_TRUE(a);
  EXPECT_EQ(decode_rsli_entry(*a, 0, 2).error().code, "rsli.limit");
  EXPECT_EQ(decode_rsli_entry(*a, 1).error().code, "rsli.index");
}

TEST(RsliHostile, arbitrary_short_buffers_never_crash) {
  core::Rng rng(2024);
  for (std::size_t len = 0; len < 128; ++len) {
    for (int variant = 0; variant < 40; ++variant) {
      Bytes b(len);
      for (auto& x : b) x = static_cast<std::uint8_t>(rng.below(256));
      if (variant % 2 == 0 && len >= 4) {
        b[0] = 'N', b[1] = 'L', b[2] = 0, b[3] = 1;
        if (len >= 6) b[4] = static_cast<std::uint8_t>(rng.below(4)), b[5] = 0;
      }
      if (variant % 4 == 0 && len >= 6) b[len - 6] = 'A', b[len - 5] = 'O';
      for (const auto& o : {strict(), compatible()}) {
        auto a = read_rsli(b, o);
        if (!a) {
          EXPECT_EQ(a.error().code.rfind("rsli.", 0), 0u) << a.error().code;
          continue;
        }
        EXPECT_EQ(write_rsli(*a), b);
        for (std::size_t i = 0; i < a->entries.size(); ++i) {
          auto d = decode_rsli_entry(*a, i, 1 << 20);
          if (d) {
            EXPECT_EQ(d->size(), a->entries[i].unpacked_size);
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------- editor / writer

TEST(RsliEditor, untouched_editor_writes_original_bytes) {
  auto a = read(kVector312);
  ASSERT_TRUE(a);
  auto ed = RsliEditor::open(*a);
  ASSERT_TRUE(ed);
  auto out = ed->write();
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, kVector312);
}

TEST(RsliEditor, writes_sort_permutation_not_ranks_for_three_entries) {
  auto ed = RsliEditor::create(0x7777);
  ASSERT_TRUE(ed.add("ZULU", bytes_of("z"), RsliMethod::stored));
  ASSERT_TRUE(ed.add("alpha", bytes_of("a"), RsliMethod::xor_only));
  ASSERT_TRUE(ed.add("MIKE", bytes_of("m"), RsliMethod::stored));
  auto out = ed.write();
  ASSERT_TRUE(out);
  auto a = read(*out);  // presorted header: stored cells are validated and used as-is
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_FALSE(a->table_rebuilt);
  EXPECT_EQ(a->entries[1].name.text(), "ALPHA");
  // Sorted: ALPHA(1), MIKE(2), ZULU(0) -> column 1,2,0 (ranks would be 2,0,1).
  EXPECT_EQ(a->entries[0].stored_cell, 1);
  EXPECT_EQ(a->entries[1].stored_cell, 2);
  EXPECT_EQ(a->entries[2].stored_cell, 0);
  EXPECT_EQ(find_rsli_entry(*a, "alpha"), 1u);
  EXPECT_EQ(find_rsli_entry(*a, "mike"), 2u);
  EXPECT_EQ(find_rsli_entry(*a, "zulu"), 0u);
  EXPECT_EQ(decode(*a, 1), bytes_of("a"));  // XOR keyed with its row's cell 2
}

TEST(RsliEditor, rename_reencrypts_xor_payloads_with_new_cells_and_keeps_service_bytes) {
  Bytes p0 = bytes_of("first");
  xor_stream(1, p0);
  Bytes lz = lzss_encode(bytes_of("second second second"));
  xor_stream(0, lz);
  const Bytes b = synthetic_rsli({{.name = "B", .flags = kXor, .unpacked = 5, .payload = p0, .service = {9, 8, 7, 6}},
                                  {.name = "A", .flags = kXorLzss | 0x0001, .unpacked = 20, .payload = lz}},
                                 false, 0x3333, 0u);
  auto a = read(b, compatible());
  ASSERT_TRUE(a) << a.error().to_string();
  ASSERT_EQ(decode(*a, 0), bytes_of("first"));
  auto ed = RsliEditor::open(*a);
  ASSERT_TRUE(ed);
  ASSERT_TRUE(ed->rename(0, "0FIRST"));  // now sorts first: cells swap
  auto out = ed->write();
  ASSERT_TRUE(out);
  auto c = read(*out, compatible());
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(c->entries[0].sort_to_original, 0);
  EXPECT_EQ(c->entries[1].sort_to_original, 1);
  EXPECT_EQ(decode(*c, 0), bytes_of("first"));
  EXPECT_EQ(decode(*c, 1), bytes_of("second second second"));
  EXPECT_EQ(c->entries[0].service, (std::array<std::uint8_t, 4>{9, 8, 7, 6}));
  EXPECT_EQ(c->entries[1].flags, kXorLzss | 0x0001);
  ASSERT_TRUE(c->ao_overlay);  // trailer re-appended
  EXPECT_EQ(*c->ao_overlay, 0u);
  EXPECT_EQ(Bytes(out->end() - 6, out->end()), Bytes(b.end() - 6, b.end()));
  EXPECT_EQ(Bytes(out->begin(), out->begin() + 32), Bytes(b.begin(), b.begin() + 32));
}

TEST(RsliEditor, refuses_rebuild_that_would_leave_the_ao_overlay_past_the_end) {
  // Found by fuzz_rsli: the rebuilt library was shorter than its re-appended overlay, so it
  // could not be read back.
  const Bytes b =
      synthetic_rsli({{.name = "R", .unpacked = 3, .payload = bytes_of("raw"), .raw_offset = 0}}, false, 3, 64u);
  auto a = read(b, compatible());
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(decode(*a, 0), bytes_of("raw"));
  auto ed = RsliEditor::open(*a);
  ASSERT_TRUE(ed);
  ASSERT_TRUE(ed->remove(0));
  auto out = ed->write();
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().code, "rsli.edit.overlay");
}

TEST(RsliEditor, add_replace_remove_round_trip_every_method) {
  const RsliMethod methods[] = {RsliMethod::stored, RsliMethod::xor_only,  RsliMethod::lzss,   RsliMethod::xor_lzss,
                                RsliMethod::lzhuf,  RsliMethod::xor_lzhuf, RsliMethod::deflate};
  core::Rng rng(11);
  auto ed = RsliEditor::create(0xBEEF);
  std::vector<Bytes> data;
  for (std::size_t m = 0; m < 7; ++m) {
    Bytes d(1 + rng.below(3000));
    for (auto& x : d) x = static_cast<std::uint8_t>(rng.below(m % 2 ? 256 : 5));
    data.push_back(d);
    const char name[3] = {'E', static_cast<char>('0' + 6 - m), 0};
    ASSERT_TRUE(ed.add(name, d, methods[m]));
  }
  auto out = ed.write();
  ASSERT_TRUE(out);
  auto a = read(*out);
  ASSERT_TRUE(a) << a.error().to_string();
  for (std::size_t m = 0; m < 7; ++m) {
    EXPECT_EQ(a->entries[m].method_bits(), static_cast<std::uint16_t>(methods[m]));
    EXPECT_EQ(decode(*a, m), data[m]) << m;
  }
  // Lossless writer and untouched editor reproduce the rebuilt archive.
  EXPECT_EQ(write_rsli(*a), *out);
  auto ed2 = RsliEditor::open(*a);
  ASSERT_TRUE(ed2);
  ASSERT_TRUE(ed2->replace(2, bytes_of("replaced with deflate"), RsliMethod::deflate));
  ASSERT_TRUE(ed2->remove(0));
  ASSERT_TRUE(ed2->rename(*ed2->find("e3"), "NEW"));
  auto out2 = ed2->write();
  ASSERT_TRUE(out2);
  auto b = read(*out2);
  ASSERT_TRUE(b) << b.error().to_string();
  ASSERT_EQ(b->entries.size(), 6u);
  EXPECT_EQ(decode(*b, 1), bytes_of("replaced with deflate"));
  EXPECT_EQ(decode(*b, *find_rsli_entry(*b, "new")), data[3]);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_TRUE(decode_rsli_entry(*b, i)) << i;
}

TEST(RsliEditor, rebuilding_a_canonical_archive_reproduces_it) {
  auto ed = RsliEditor::create(0x0102);
  ASSERT_TRUE(ed.add("B", bytes_of("bee"), RsliMethod::xor_lzss));
  ASSERT_TRUE(ed.add("A", bytes_of("ay"), RsliMethod::stored));
  auto out = ed.write();
  ASSERT_TRUE(out);
  auto a = read(*out);
  ASSERT_TRUE(a);
  auto ed2 = RsliEditor::open(*a);
  ASSERT_TRUE(ed2);
  ASSERT_TRUE(ed2->rename(0, "B"));  // a mutation that changes nothing
  auto again = ed2->write();
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *out);
}

TEST(RsliEditor, rejects_bad_names_indices_and_duplicates) {
  auto ed = RsliEditor::create();
  EXPECT_EQ(ed.add("THIRTEEN_BYTE", bytes_of("x"), RsliMethod::stored).error().code, "rsli.edit.name");
  EXPECT_EQ(ed.add("", bytes_of("x"), RsliMethod::stored).error().code, "rsli.edit.name");
  EXPECT_EQ(ed.add(std::string_view("A\0B", 3), bytes_of("x"), RsliMethod::stored).error().code, "rsli.edit.name");
  ASSERT_TRUE(ed.add("ONE", bytes_of("x"), RsliMethod::stored));
  EXPECT_EQ(ed.add("one", bytes_of("x"), RsliMethod::stored).error().code, "rsli.edit.duplicate_name");
  EXPECT_EQ(ed.remove(5).error().code, "rsli.index");
  EXPECT_EQ(ed.rename(1, "X").error().code, "rsli.index");
  EXPECT_EQ(parse_rsli_method("xor-lzss"), RsliMethod::xor_lzss);
  EXPECT_EQ(parse_rsli_method("DEFLATE"), RsliMethod::deflate);
  EXPECT_EQ(parse_rsli_method("bogus"), std::nullopt);
}

// ---------------------------------------------------------------- format table

TEST(RsliFormat, detects_inspects_checks_and_round_trips) {
  const FormatInfo* f = sortie::formats::find_format("rsli");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->detect(kVector312, "x.rlb"), 1);
  EXPECT_EQ(f->detect(bytes_of("NRes"), "x.rlb"), 0);
  EXPECT_EQ(sortie::formats::detect_format(kVector312, "gamefont.rlb"), f);
  ReadOptions ro{Profile::strict, "v.rlb"};
  auto j = f->inspect(kVector312, ro);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["format"], "rsli");
  EXPECT_EQ((*j)["header"]["xor_seed"], 0x1111);
  EXPECT_EQ((*j)["header"]["presorted"], false);
  EXPECT_TRUE((*j)["ao_overlay"].is_null());
  const auto& e0 = (*j)["entries"][0];
  EXPECT_EQ(e0["index"], 0);
  EXPECT_EQ(e0["name"]["text"], "B");
  EXPECT_EQ(e0["service_hex"], "00000000");
  EXPECT_EQ(e0["flags"], 0x60);
  EXPECT_EQ(e0["method"]["name"], "xor_lzss");
  EXPECT_EQ(e0["method"]["number"], 0x60);
  EXPECT_EQ(e0["sort_to_original"], 1);
  EXPECT_EQ(e0["unpacked_size"], 3);
  EXPECT_EQ(e0["data_offset_raw"], 0x60);
  EXPECT_EQ(e0["effective_offset"], 0x60);
  EXPECT_EQ(e0["packed_size"], 4);
  auto report = f->check(kVector312, ro);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->findings.empty());
  auto rt = f->roundtrip(kVector312, ro);
  ASSERT_TRUE(rt);
  EXPECT_EQ(*rt, kVector312);
  const Bytes zlib_entry = synthetic_rsli(
      {{.name = "Z", .flags = kDeflate, .unpacked = 3, .payload = {0x78, 0x01, 0x01, 0x03, 0x00, 0xFC, 0xFF, 'r'}}},
      false, 0);
  auto failed = f->check(zlib_entry, ro);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, "rsli.deflate.corrupt");
}

}  // namespace
}  // namespace sortie::iron3d
