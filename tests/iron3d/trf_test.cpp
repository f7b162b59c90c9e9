#include "sortie/iron3d/trf.hpp"

#include <gtest/gtest.h>

#include "sortie/formats/formats.hpp"

using namespace sortie;
using namespace sortie::iron3d;

TEST(Trf, names_are_the_entry_names_in_directory_order) {
  auto bytes = build_trf({"w_gun01", "t_tower02", "b_depot"});
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  auto t = read_trf(*bytes);
  ASSERT_TRUE(t) << t.error().to_string();
  EXPECT_EQ(t->names(), (std::vector<std::string>{"w_gun01", "t_tower02", "b_depot"}));
  EXPECT_EQ(write_trf(*t), *bytes);
}

TEST(Trf, keeps_payloads_attributes_and_name_tails) {
  NresBuilder b;
  b.add(7, std::string("gun\0TAIL", 8), core::Bytes{1, 2, 3}, 4, 5, 6);
  b.add(0x12345678, " spaced ", core::Bytes{9});
  auto bytes = b.build();
  ASSERT_TRUE(bytes);
  auto t = read_trf(*bytes);
  ASSERT_TRUE(t) << t.error().to_string();
  EXPECT_EQ(t->names(), (std::vector<std::string>{"gun", "spaced"}));
  EXPECT_EQ(t->archive.entries[0].attr1, 4u);
  EXPECT_EQ(t->archive.entries[1].type_id, 0x12345678u);
  EXPECT_EQ(write_trf(*t), *bytes);
  const auto j = trf_json(*t);
  EXPECT_EQ(j["names"][0]["size"], 3);
}

TEST(Trf, rejects_an_empty_name_in_strict_and_warns_in_compatible) {
  NresBuilder b;
  b.add(0, std::string(" ", 1), {});
  auto bytes = b.build();
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  auto strict = read_trf(*bytes);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, "trf.empty_name");
  core::Diagnostics warnings;
  auto compat = read_trf(*bytes, ReadOptions{core::Profile::compatible, "x.trf"}, &warnings);
  ASSERT_TRUE(compat);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "trf.empty_name");
}

TEST(Trf, rejects_a_file_that_is_no_nres) {
  const core::Bytes junk{'T', 'R', 'F', '!', 0, 0, 0, 0};
  auto t = read_trf(junk);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code.rfind("nres.", 0), 0u) << t.error().code;
}

TEST(Trf, is_a_row_of_the_format_table) {
  auto bytes = build_trf({"a", "b"});
  ASSERT_TRUE(bytes);
  const auto* fmt = formats::detect_format(*bytes, "MISSIONS/SCRIPTS/enemy.trf");
  ASSERT_NE(fmt, nullptr);
  EXPECT_EQ(fmt->name, "trf");
  EXPECT_EQ(formats::detect_format(*bytes, "archive.lib")->name, "nres");
  auto back = fmt->roundtrip(*bytes, {});
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, *bytes);
}
