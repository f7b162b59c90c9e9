// NRes reader, writers, lookup and editor (spec §3, vectors §31.1).
#include "sortie/iron3d/nres.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "nres_fixtures.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/formats/formats.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using namespace nres_test;

// §31.1: two entries, 152 bytes.
Bytes spec_vector() {
  Bytes b =
      hex("4e526573 00010000 02000000 98000000"
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
  EXPECT_TRUE(a->gap_is_zero(0));
  EXPECT_EQ(write_nres_canonical(*a), input);
  EXPECT_EQ(write_nres_lossless(*a), input);
}

TEST(Nres, builder_reproduces_spec_vector_31_1) {
  auto built = NresBuilder().add(7, "beta", hex("78797a"), 1, 2, 3).add(nres_type_tag("MAT0"), "Alpha", {}).build();
  ASSERT_TRUE(built);
  EXPECT_EQ(*built, spec_vector());
}

TEST(Nres, sort_column_is_permutation_not_rank) {
  auto built =
      NresBuilder().add(1, "Zulu", hex("01")).add(2, "alpha", hex("0202")).add(3, "Mike", hex("030303")).build();
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

TEST(Nres, reads_empty_archive) {
  const Bytes b = hex("4e526573 00010000 00000000 10000000");
  auto a = read_nres(b);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->entries.size(), 0u);
  EXPECT_EQ(a->directory_offset, 16u);
  EXPECT_TRUE(a->gaps.empty());
  EXPECT_EQ(a->find("x"), std::nullopt);
  EXPECT_EQ(write_nres_lossless(*a), b);
  EXPECT_EQ(write_nres_canonical(*a), b);
  EXPECT_EQ(build_nres({}).value(), b);
}

TEST(Nres, reads_one_entry_with_aligned_directory) {
  auto a = read_nres(simple({{"one", "x"}}));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->entries[0].data_offset, 16u);
  EXPECT_EQ(a->entries[0].size, 1u);
  EXPECT_EQ(a->directory_offset % 8, 0u);
  EXPECT_EQ(a->directory_offset, 24u);
  ASSERT_EQ(a->gaps.size(), 1u);
  EXPECT_EQ(a->gaps[0].offset, 17u);
  EXPECT_EQ(a->gaps[0].size, 7u);
}

TEST(Nres, finds_names_case_insensitively) {
  auto a = read_nres(simple({{"zz", "1"}, {"MiXeD", "2"}, {"aa", "3"}}));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->find("mixed"), std::optional<std::size_t>(1));
  EXPECT_EQ(a->find("MIXED"), std::optional<std::size_t>(1));
  EXPECT_EQ(a->find("MiXeD"), std::optional<std::size_t>(1));
  EXPECT_EQ(a->find("mixe"), std::nullopt);
  EXPECT_EQ(a->find(std::string_view("mixed\0", 6)), std::nullopt);
  EXPECT_EQ(a->find(std::string(40, 'a')), std::nullopt);
}

TEST(Nres, folds_only_ascii_and_orders_underscore_after_letters) {
  // Upper fold: '_' (0x5f) sorts after 'Z' (0x5a); bytes >= 0x80 are never folded.
  auto a = read_nres(simple({{"a_b", "1"}, {"aZb", "2"}, {"\xe0", "3"}, {"\xc0", "4"}}));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->entries[0].sort_index, 1u);  // aZb < a_b
  EXPECT_EQ(a->entries[1].sort_index, 0u);
  EXPECT_EQ(a->entries[2].sort_index, 3u);  // 0xc0 < 0xe0
  EXPECT_EQ(a->entries[3].sort_index, 2u);
  EXPECT_EQ(a->find("\xe0"), std::optional<std::size_t>(2));
  EXPECT_EQ(a->find("\xc0"), std::optional<std::size_t>(3));
}

TEST(Nres, keeps_bytes_after_nul_in_both_writers) {
  auto built = NresBuilder().add(1, std::string("one\0TAIL!", 9), bytes_of("p")).build();
  ASSERT_TRUE(built);
  auto a = read_nres(*built);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->entries[0].name.text(), "one");
  EXPECT_TRUE(a->entries[0].name.has_tail());
  EXPECT_EQ(std::string_view(a->entries[0].name.raw.data(), 9), std::string_view("one\0TAIL!", 9));
  EXPECT_EQ(a->find("ONE"), std::optional<std::size_t>(0));
  EXPECT_EQ(write_nres_lossless(*a), *built);
  EXPECT_EQ(write_nres_canonical(*a), *built);
  const auto j = nres_to_json(*a);
  EXPECT_EQ(j["entries"][0]["name"], "one");
  // One NRes JSON view (inspect, archive list, the extraction manifest): "name_hex" is the raw field.
  EXPECT_EQ(j["entries"][0]["name_hex"].get<std::string>().substr(0, 18), "6f6e65005441494c21");
  EXPECT_EQ(j["entries"][0]["name_hex"], nres_manifest(*a, {}, {})["entries"][0]["name_hex"]);
}

TEST(Nres, duplicate_names_resolve_to_first_in_physical_order) {
  Bytes b = simple({{"x", "0"}, {"duplicate", "1"}, {"DUPLICATE", "2"}});
  auto a = read_nres(b);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->find("Duplicate"), std::optional<std::size_t>(1));
  // A table listing the later duplicate first is still sorted; lookup still answers 1.
  ASSERT_EQ(get_u32(b, record_at(b, 0) + kSort), 1u);
  put_u32(b, record_at(b, 0) + kSort, 2);
  put_u32(b, record_at(b, 1) + kSort, 1);
  auto swapped = read_nres(b);
  ASSERT_TRUE(swapped) << swapped.error().to_string();
  EXPECT_EQ(swapped->find("duplicate"), std::optional<std::size_t>(1));
  EXPECT_EQ(swapped->find_linear("duplicate"), std::optional<std::size_t>(1));
  EXPECT_EQ(swapped->find_sorted("DUPLICATE"), std::optional<std::size_t>(1));
}

TEST(Nres, lookup_with_long_shared_prefixes) {
  NresBuilder builder;
  for (int i = 0; i < 300; ++i) builder.add(1, "texture_name_" + std::to_string(i * 7 % 300), bytes_of("x"));
  auto a = read_nres(builder.build().value());
  ASSERT_TRUE(a);
  for (std::size_t i = 0; i < a->entries.size(); ++i) {
    EXPECT_EQ(a->find(a->entries[i].name.text()), std::optional<std::size_t>(i));
  }
  EXPECT_EQ(a->find("texture_name_300"), std::nullopt);
  for (const std::string q : {"texture_name_1", "TEXTURE_NAME_29", "texture_name_2999", "t", "texture_name_"})
    EXPECT_EQ(a->find(q), a->find_sorted(q)) << q;
  for (std::size_t i = 0; i < a->entries.size(); ++i) {
    EXPECT_EQ(a->find_sorted(a->entries[i].name.text()), std::optional<std::size_t>(i));
    EXPECT_EQ(a->find_linear(a->entries[i].name.text()), std::optional<std::size_t>(i));
  }
  EXPECT_EQ(a->find("TEXTURE_NAME_"), std::nullopt);
}

TEST(Nres, lossless_keeps_nonzero_prefix_gap_and_canonical_drops_it) {
  const Bytes canonical = simple({{"b", "12345"}, {"a", "xyz"}});
  const Bytes b = with_prefix_gap(canonical, hex("aabbccdd"));
  auto a = read_nres(b);
  ASSERT_TRUE(a) << a.error().to_string();
  ASSERT_GE(a->gaps.size(), 1u);
  EXPECT_EQ(a->gaps[0].offset, 16u);
  EXPECT_EQ(a->gaps[0].size, 4u);
  EXPECT_FALSE(a->gap_is_zero(0));
  EXPECT_EQ(bytes_of(a->gap_bytes(0)), hex("aabbccdd"));
  EXPECT_EQ(bytes_of(a->payload(0)), bytes_of("12345"));
  EXPECT_EQ(write_nres_lossless(*a), b);
  EXPECT_EQ(write_nres_canonical(*a), canonical);
}

TEST(Nres, generated_archives_round_trip_lossless_and_canonical) {
  core::Rng rng(42);
  for (int round = 0; round < 200; ++round) {
    NresBuilder builder;
    const std::uint32_t n = rng.below(6);
    for (std::uint32_t i = 0; i < n; ++i) {
      std::string name;
      const std::uint32_t len = 1 + rng.below(35);
      for (std::uint32_t k = 0; k < len; ++k) name.push_back(static_cast<char>("aAbB_zZ09.\xc0"[rng.below(11)]));
      Bytes payload(rng.below(20));
      for (auto& x : payload) x = static_cast<std::uint8_t>(rng.next_u32());
      builder.add(rng.next_u32(), name, payload, rng.next_u32(), rng.next_u32(), rng.next_u32());
    }
    const Bytes b = builder.build().value();
    auto a = read_nres(b);
    ASSERT_TRUE(a) << a.error().to_string();
    ASSERT_EQ(a->entries.size(), n);
    EXPECT_EQ(write_nres_lossless(*a), b);
    EXPECT_EQ(write_nres_canonical(*a), b);
    for (std::uint32_t i = 0; i < n; ++i) {
      const auto& spec = builder.specs()[i];
      EXPECT_EQ(a->entries[i].name.text(), spec.name);
      EXPECT_EQ(bytes_of(a->payload(i)), spec.payload);
      EXPECT_EQ(a->entries[i].attr3, spec.attr3);
      auto found = a->find(spec.name);
      ASSERT_TRUE(found);
      EXPECT_EQ(nres_compare_names(a->entries[*found].name.text(), spec.name), 0);
      EXPECT_LE(*found, i);
    }
  }
}

TEST(Nres, builder_rejects_bad_names) {
  EXPECT_EQ(NresBuilder().add(1, std::string(36, 'n'), {}).build().error().code, "nres.name_length");
  EXPECT_EQ(NresBuilder().add(1, "", {}).build().error().code, "nres.empty_name");
  EXPECT_EQ(NresBuilder().add(1, "ok", {}).add(1, std::string(37, 'n'), {}).build().error().field, "entries[1].name");
  EXPECT_TRUE(NresBuilder().add(1, std::string(35, 'n'), {}).build());
}

TEST(Nres, json_model_has_every_entry_field) {
  auto a = read_nres(spec_vector());
  ASSERT_TRUE(a);
  const auto j = nres_to_json(*a);
  EXPECT_EQ(j["format"], "nres");
  EXPECT_EQ(j["version"], 256);
  EXPECT_EQ(j["entry_count"], 2);
  EXPECT_EQ(j["total_size"], 152);
  EXPECT_EQ(j["directory_offset"], 24);
  EXPECT_EQ(j["lookup_order_valid"], true);
  const auto& e1 = j["entries"][1];
  EXPECT_EQ(e1["index"], 1);
  EXPECT_EQ(e1["name"], "Alpha");
  EXPECT_EQ(e1["type_id"], 0x3054414D);
  EXPECT_EQ(e1["type_tag"], "MAT0");
  EXPECT_EQ(e1["size"], 0);
  EXPECT_EQ(e1["data_offset"], 24);
  EXPECT_EQ(e1["sort_index"], 0);
  EXPECT_EQ(e1["name_hex"], "416c706861" + std::string(62, '0'));  // "Alpha", then NULs to 36 bytes
  EXPECT_FALSE(e1.contains("name_raw_hex"));
  const auto& e0 = j["entries"][0];
  EXPECT_EQ(e0["attr1"], 1);
  EXPECT_EQ(e0["attr2"], 2);
  EXPECT_EQ(e0["attr3"], 3);
  EXPECT_FALSE(e0.contains("type_tag"));
  EXPECT_EQ(j["gaps"][0]["offset"], 19);
  EXPECT_EQ(j["gaps"][0]["all_zero"], true);
}

TEST(Nres, format_table_detects_inspects_and_round_trips) {
  const FormatInfo* f = sortie::formats::find_format("nres");
  ASSERT_NE(f, nullptr);
  const Bytes b = spec_vector();
  EXPECT_EQ(f->detect(b, "x.rlb"), 1);
  EXPECT_EQ(f->detect(hex("4e4c0001"), "x.rlb"), 0);
  EXPECT_EQ(sortie::formats::detect_format(b, "x.lib"), f);
  auto j = f->inspect(b, {});
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["entries"].size(), 2u);
  EXPECT_EQ(f->roundtrip(b, {}).value(), b);
  Bytes bad = b;
  bad[4] = 2;
  auto err = f->inspect(bad, {core::Profile::strict, "bad.rlb"});
  ASSERT_FALSE(err);
  EXPECT_EQ(err.error().code, "nres.version");
  EXPECT_EQ(err.error().file, "bad.rlb");
  EXPECT_TRUE(f->check(b, {}).value().findings.empty());
}

}  // namespace
}  // namespace sortie::iron3d
