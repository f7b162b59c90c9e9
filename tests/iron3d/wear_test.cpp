#include "sortie/iron3d/wear.hpp"

#include <gtest/gtest.h>

using namespace sortie;
using namespace sortie::iron3d;

namespace {
core::Result<Wear> parse(std::string_view s) {
  return read_wear(core::as_bytes(s));
}
}  // namespace

TEST(Wear, keeps_legacy_id_and_row_position) {
  const std::string text = "2\r\n100 MAT_A\r\n5 MAT_B\r\n";
  auto w = parse(text);
  ASSERT_TRUE(w) << w.error().to_string();
  ASSERT_EQ(w->materials.size(), 2u);
  EXPECT_EQ(w->materials[0].legacy_id, "100");
  EXPECT_EQ(w->materials[1].name, "MAT_B");
  EXPECT_EQ(wear_material_names(*w), (std::vector<std::string>{"MAT_A", "MAT_B"}));
  EXPECT_FALSE(w->has_lightmaps);
  const auto out = write_wear(*w);
  EXPECT_EQ(std::string(out.begin(), out.end()), text);
}

TEST(Wear, reads_one_lightmap) {
  auto w = parse("1\n0 MAT\n\nLIGHTMAPS\n1\n0 LM_A\n");
  ASSERT_TRUE(w) << w.error().to_string();
  EXPECT_TRUE(w->has_lightmaps);
  EXPECT_EQ(wear_lightmap_names(*w), (std::vector<std::string>{"LM_A"}));
}

TEST(Wear, round_trips_mixed_line_endings_and_extra_tokens) {
  const std::string text = "1 \n7\tMAT extra tokens\r\n\r\nLIGHTMAPS\n0\n\n  \n";
  auto w = parse(text);
  ASSERT_TRUE(w) << w.error().to_string();
  EXPECT_EQ(w->materials[0].name, "MAT");
  EXPECT_TRUE(w->lightmaps.empty());
  const auto out = write_wear(*w);
  EXPECT_EQ(std::string(out.begin(), out.end()), text);
}

TEST(Wear, keeps_cp1251_names_as_bytes) {
  const std::string text = "1\n0 \xcc\xc0\xd2\n";
  auto w = parse(text);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->materials[0].name, "\xcc\xc0\xd2");
  auto j = wear_json(*w);
  EXPECT_EQ(j["materials"][0]["name"]["text"], "\xd0\x9c\xd0\x90\xd0\xa2");
}

TEST(Wear, builder_output_is_accepted) {
  auto w = build_wear({"BODY", "GLASS"}, {"LM_BODY"});
  ASSERT_TRUE(w) << w.error().to_string();
  const auto bytes = write_wear(*w);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "2\r\n0 BODY\r\n1 GLASS\r\n\r\nLIGHTMAPS\r\n1\r\n0 LM_BODY\r\n");
  auto back = read_wear(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(wear_material_names(*back), (std::vector<std::string>{"BODY", "GLASS"}));
  EXPECT_EQ(wear_lightmap_names(*back), (std::vector<std::string>{"LM_BODY"}));
  auto none = build_wear({});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, "builder.wear");
  EXPECT_EQ(none.error().found, "0");
  auto spaced = build_wear({"HAS SPACE"});
  ASSERT_FALSE(spaced);
  EXPECT_EQ(spaced.error().code, "builder.wear");
  EXPECT_EQ(spaced.error().field, "materials[0]");
  EXPECT_EQ(spaced.error().found, "HAS SPACE");
}

TEST(Wear, name_rule_replaces_text_after_last_dot) {
  EXPECT_EQ(wear_name_for_msh("foo.msh"), "foo.wea");
  EXPECT_EQ(wear_name_for_msh("s_tree_0_04.MSH"), "s_tree_0_04.wea");
  EXPECT_EQ(wear_name_for_msh("a.b.msh"), "a.b.wea");
  EXPECT_EQ(wear_name_for_msh("noext"), "noext.wea");
}

TEST(Wear, rejects_empty_text) {
  EXPECT_EQ(parse("").error().code, "wear.empty");
}
TEST(Wear, rejects_non_numeric_count) {
  EXPECT_EQ(parse("x\n0 A\n").error().code, "wear.count");
}
TEST(Wear, rejects_zero_count) {
  EXPECT_EQ(parse("0\n").error().code, "wear.count_zero");
}

TEST(Wear, rejects_missing_row) {
  // The empty piece after the final newline is not a row (fparkan: MissingWearRow).
  auto w = parse("2\n0 ONLY_ONE\n");
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, "wear.row_missing");
  EXPECT_EQ(w.error().field, "materials[1]");
  EXPECT_EQ(parse("2\n0 A\n\n").error().code, "wear.row");  // a blank line is a (bad) row
}

TEST(Wear, rejects_text_of_only_carriage_returns) {
  EXPECT_EQ(parse("\r\r").error().code, "wear.empty");
}

TEST(Wear, rejects_huge_count_without_allocating) {
  auto w = parse("4294967295000\n0 A\n");
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, "wear.row_missing");
}

TEST(Wear, rejects_row_with_one_token) {
  auto w = parse("1\nLONELY\n");
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, "wear.row");
  EXPECT_EQ(w.error().offset, 2u);
  EXPECT_EQ(w.error().field, "materials[0]");
}

TEST(Wear, rejects_missing_separator) {
  EXPECT_EQ(parse("1\n0 MAT\nLIGHTMAPS\n1\n0 LM\n").error().code, "wear.lightmap_separator");
}
TEST(Wear, rejects_missing_marker) {
  EXPECT_EQ(parse("1\n0 MAT\n\nLIGHTMAPZ\n1\n0 LM\n").error().code, "wear.lightmap_marker");
}
TEST(Wear, rejects_bad_lightmap_count) {
  EXPECT_EQ(parse("1\n0 MAT\n\nLIGHTMAPS\nx\n").error().code, "wear.lightmap_count");
}
TEST(Wear, rejects_missing_lightmap_row) {
  EXPECT_EQ(parse("1\n0 MAT\n\nLIGHTMAPS\n3\n0 LM").error().code, "wear.lightmap_row_missing");
}
TEST(Wear, rejects_text_after_lightmaps) {
  EXPECT_EQ(parse("1\n0 MAT\n\nLIGHTMAPS\n1\n0 LM\nJUNK\n").error().code, "wear.lightmap_row");
}

TEST(Wear, format_info_by_extension) {
  const auto info = wear_format_info();
  const std::string text = "1\n0 M\n";
  EXPECT_EQ(info.detect(core::as_bytes(text), "Land1.wea"), 2);
  EXPECT_EQ(info.detect(core::as_bytes(text), "Land1.txt"), 0);
  EXPECT_EQ(*info.roundtrip(core::as_bytes(text), {}), core::Bytes(text.begin(), text.end()));
}
