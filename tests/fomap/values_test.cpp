// Property values (spec/fomap.md §5.2, §5.3), §3.5 lenient ids, §7 multihex, §13 protos.
#include "sortie/fomap/values.hpp"

#include <gtest/gtest.h>

#include "sortie/fomap/multihex.hpp"
#include "sortie/fomap/project.hpp"

namespace sortie::fomap {
namespace {

const PropertyCatalog& cat() {
  static const PropertyCatalog c = PropertyCatalog::engine();
  return c;
}
PropertyType type_of(std::string_view entity, std::string_view name) {
  return cat().find(entity, name)->type;
}

std::string canon(std::string_view entity, std::string_view name, std::string_view text) {
  auto r = canonical_value_text(type_of(entity, name), text, cat());
  return r ? *r : "ERR:" + r.error().code;
}

TEST(FomapValues, engine_catalog_has_108_properties_with_authorability) {
  EXPECT_EQ(cat().all().size(), 108u);
  EXPECT_FALSE(cat().find("Critter", "MovingSpeed")->authorable);
  EXPECT_FALSE(cat().find("Map", "SpritesZoom")->authorable);
  EXPECT_TRUE(cat().find("Item", "MultihexMesh")->authorable);
  EXPECT_TRUE(cat().find("Item", "Hidden")->server_only);
}

TEST(FomapValues, property_migration_maps_old_names) {
  ASSERT_NE(cat().find("Item", "IsStatic"), nullptr);
  EXPECT_EQ(cat().find("Item", "IsStatic")->name, "Static");
  EXPECT_EQ(cat().find("Critter", "Cond")->name, "Condition");
  EXPECT_EQ(cat().find("Map", "DayTime")->name, "DayColorTime");
}

TEST(FomapValues, integers_truncate_floats_and_reject_plus_and_overflow) {
  EXPECT_EQ(canon("Item", "Count", "1.9"), "1");
  EXPECT_EQ(canon("Item", "Count", "1e3"), "1000");
  EXPECT_EQ(canon("Item", "Count", "0x10"), "16");
  EXPECT_EQ(canon("Item", "Count", "+5"), "ERR:fomap.value.integer");
  EXPECT_EQ(canon("Item", "TileLayer", "-1"), "ERR:fomap.value.range");
  EXPECT_EQ(canon("Item", "TileLayer", "256"), "ERR:fomap.value.range");
  EXPECT_EQ(canon("Item", "Count", "not-an-int"), "ERR:fomap.value.integer");
}

TEST(FomapValues, bools_accept_any_case_and_zero_one) {
  EXPECT_EQ(canon("Item", "Static", "true"), "True");
  EXPECT_EQ(canon("Item", "Static", "FALSE"), "False");
  EXPECT_EQ(canon("Item", "Static", "1.0"), "True");
  EXPECT_EQ(canon("Item", "Static", "0"), "False");
  EXPECT_EQ(canon("Item", "Static", "2"), "ERR:fomap.value.bool");
  EXPECT_EQ(canon("Item", "Static", "yes"), "ERR:fomap.value.bool");
}

TEST(FomapValues, floats_use_six_decimals_then_strip) {
  PropertyType t = parse_property_type("float32", cat().enums());
  EXPECT_EQ(*canonical_value_text(t, "1.5", cat()), "1.5");
  EXPECT_EQ(*canonical_value_text(t, "2", cat()), "2");
  EXPECT_EQ(*canonical_value_text(t, "2.5f", cat()), "2.5");
  EXPECT_FALSE(canonical_value_text(t, "inf", cat()).has_value());
}

TEST(FomapValues, enums_by_name_or_declared_number) {
  EXPECT_EQ(canon("Item", "Ownership", "2"), "ItemContainer");
  EXPECT_EQ(canon("Item", "Ownership", "CritterInventory"), "CritterInventory");
  EXPECT_EQ(canon("Item", "Ownership", "7"), "ERR:fomap.value.enum");
  EXPECT_EQ(canon("Critter", "Condition", "Dead"), "Dead");
}

TEST(FomapValues, struct_values_need_exact_bare_fields) {
  EXPECT_EQ(canon("Item", "Hex", "10   20"), "10 20");
  EXPECT_EQ(canon("Item", "Hex", "\"1 2\""), "ERR:fomap.value.fields");
  EXPECT_EQ(canon("Item", "Hex", "1 2 3"), "ERR:fomap.value.fields");
  EXPECT_EQ(canon("Map", "ScrollAxialArea", "-130 50 172 142"), "-130 50 172 142");
  EXPECT_EQ(canon("Item", "Hex", "40000 1"), "ERR:fomap.value.range");
}

TEST(FomapValues, multihex_mesh_needs_quoted_pairs) {
  EXPECT_EQ(canon("Item", "MultihexMesh", "\"79 139\"   \"85 139\""), "\"79 139\" \"85 139\"");
  EXPECT_EQ(canon("Item", "MultihexMesh", "79 139 85 139"), "ERR:fomap.value.element_quote");
  EXPECT_EQ(canon("Item", "MultihexMesh", "\"1 2\"\"3 4\""), "\"1 2\" \"3 4\"");
  EXPECT_EQ(canon("Item", "MultihexMesh", ""), "");
}

TEST(FomapValues, arrays_of_numbers_and_strings) {
  EXPECT_EQ(canon("Map", "DayColor", "18  128 103"), "18 128 103");
  PropertyType s = parse_property_type("string[]", cat().enums());
  EXPECT_EQ(*canonical_value_text(s, "\"a b\" c", cat()), "\"a b\" c");
  PropertyType d = parse_property_type("int32=>int32", cat().enums());
  auto v = parse_value(d, "1 2 3", cat());  // trailing key without value ignored
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->entries.size(), 1u);
}

TEST(FomapValues, string_decoder_rules) {
  EXPECT_EQ(*decode_string("\"Tutorial yard\""), "Tutorial yard");
  EXPECT_EQ(*decode_string("a\\nb"), "a\nb");
  EXPECT_EQ(*decode_string("a\\qb"), "a\\qb");
  EXPECT_EQ(*decode_string("a\\rb"), "ab");
  EXPECT_EQ(*decode_string("keep\\#hash"), "keep\\#hash");
  EXPECT_EQ(*decode_string("x\"y"), "x\"y");
  EXPECT_EQ(decode_string("\"open").error().code, "fomap.value.string_quote");
  EXPECT_EQ(decode_string("\"a\" b").error().code, "fomap.value.string_quote");
  EXPECT_EQ(decode_string("end\\").error().code, "fomap.value.string_escape");
}

TEST(FomapValues, element_encoding_quotes_when_needed) {
  EXPECT_EQ(encode_element("abc"), "abc");
  EXPECT_EQ(encode_element(""), "\"\"");
  EXPECT_EQ(encode_element("a b"), "\"a b\"");
  EXPECT_EQ(encode_element("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(encode_element("a\nb\r"), "\"a\\nb\"");
}

TEST(FomapValues, tokenizer_never_fails) {
  auto t = tokenize_value("  \"open quote");
  ASSERT_EQ(t.tokens.size(), 1u);
  EXPECT_EQ(t.tokens[0], "open quote");
  auto u = tokenize_value("a\\ b c");
  ASSERT_EQ(u.tokens.size(), 2u);
  EXPECT_EQ(u.tokens[0], "a\\ b");
}

TEST(FomapValues, lenient_id_parse_matches_to_int64) {
  EXPECT_EQ(lenient_int64(" 42 "), 42);
  EXPECT_EQ(lenient_int64("0x10"), 16);
  EXPECT_EQ(lenient_int64("-5"), -5);
  EXPECT_EQ(lenient_int64("--5"), 0);
  EXPECT_EQ(lenient_int64("+5"), 0);
  EXPECT_EQ(lenient_int64("abc"), 0);
  EXPECT_EQ(lenient_int64("12.7"), 12);
  EXPECT_EQ(lenient_int64("9223372036854775808"), INT64_MIN);  // >= 2^63 wraps negative
  EXPECT_EQ(lenient_int64("99999999999999999999"), -1);        // beyond 2^64-1
  EXPECT_EQ(lenient_int64(std::string(81, '1')), 0);
  EXPECT_EQ(strict_decimal_int64("0x10"), std::nullopt);
  EXPECT_EQ(strict_decimal_int64("4294975901"), 4294975901LL);
}

TEST(FomapValues, multihex_lines_walk_engine_cases) {
  const std::uint8_t a[] = {2, 2, 4, 1};
  EXPECT_EQ(multihex_lines(a, {5, 5}, 10, 10).size(), 3u);
  const std::uint8_t b[] = {9, 5, 2};  // dir 9 == 3, odd byte ignored
  auto hb = multihex_lines(b, {5, 5}, 10, 10);
  EXPECT_EQ(hb.size(), 4u);               // one of the five steps leaves the map
  const std::uint8_t c[] = {2, 1, 5, 1};  // SE then NW back: the origin is not emitted
  EXPECT_EQ(multihex_lines(c, {5, 5}, 10, 10).size(), 1u);
  const Hex mesh[] = {{7, 7}, {5, 5}};
  auto fp = multihex_footprint({5, 5}, a, mesh, 10, 10);
  EXPECT_EQ(fp.size(), 5u);
  EXPECT_EQ(fp.front(), (Hex{5, 5}));
}

TEST(FomapProtos, parent_chain_later_parent_wins_and_child_wins) {
  ProtoCatalog pc;
  auto notes = pc.add_text(
      "[ProtoItem]\n$Name = A\nCount = 1\nLightDistance = 1\n"
      "[ProtoItem]\n$Name = B\nCount = 2\n"
      "[ProtoItem]\n$Name = C\n$Parent = A B\nIsStatic = True\n$Text engl = \"x\"\n",
      "p.fopro");
  EXPECT_TRUE(notes.empty());
  auto r = pc.resolve(cat());
  EXPECT_TRUE(r.empty());
  const Proto* c = pc.find("Item", "C");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved.at("Count"), "2");
  EXPECT_EQ(c->resolved.at("LightDistance"), "1");
  EXPECT_EQ(c->resolved.at("Static"), "True");  // migrated from IsStatic
  EXPECT_EQ(c->texts.at("$Text engl"), "\"x\"");
}

TEST(FomapProtos, reports_missing_cross_type_and_cyclic_parents) {
  ProtoCatalog pc;
  pc.add_text(
      "[ProtoItem]\n$Name = A\n$Parent = Nope\n[ProtoItem]\n$Name = B\n$Parent = G\n[ProtoCritter]\n$Name = G\n"
      "[ProtoItem]\n$Name = X\n$Parent = Y\n[ProtoItem]\n$Name = Y\n$Parent = X\n",
      "p.fopro");
  auto r = pc.resolve(cat());
  std::vector<std::string> codes;
  for (const auto& d : r) codes.push_back(d.code);
  EXPECT_NE(std::find(codes.begin(), codes.end(), "fomap.proto.parent_missing"), codes.end());
  EXPECT_NE(std::find(codes.begin(), codes.end(), "fomap.proto.parent_cross_type"), codes.end());
  EXPECT_NE(std::find(codes.begin(), codes.end(), "fomap.proto.parent_cycle"), codes.end());
}

TEST(FomapProtos, unnamed_proto_takes_stem_and_duplicates_are_reported) {
  ProtoCatalog pc;
  EXPECT_TRUE(pc.add_text("[ProtoMap]\nSize = 10 10\n[$Name/Item]\n$Proto = X\n", "Maps/HeaderOnly.fomap").empty());
  EXPECT_NE(pc.find("Map", "HeaderOnly"), nullptr);
  auto d = pc.add_text("[ProtoMap]\n$Name = HeaderOnly\n", "other.fomap");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "fomap.proto.duplicate");
}

TEST(FomapProtos, project_declarations_type_and_authorability) {
  PropertyCatalog c = PropertyCatalog::engine();
  c.add_project_enums("enum\tvalue_name\tvalue\nCritterItemSlot\tSecondary\t2\n", "e.tsv");
  c.add_project_declarations(
      "entity\tside\ttype\tname\tflags\nCritter\tCommon\tint32\tTeamId\tMutable OwnerSync Persistent\n"
      "Critter\tCommon\tint32\tTempThing\tMutable\nItem\tCommon\tint32\tV\tVirtual\n",
      "d.tsv");
  EXPECT_TRUE(c.find("Critter", "TeamId")->authorable);
  EXPECT_EQ(c.find("Critter", "TempThing")->excluded_reason, "temporary");
  EXPECT_EQ(c.find("Item", "V")->excluded_reason, "virtual");
  EXPECT_EQ(*canonical_value_text(c.find("Item", "CritterSlot")->type, "Secondary", c), "Secondary");
}

TEST(FomapValues, ends_in_open_quote_finds_a_quote_the_text_never_closes) {
  EXPECT_TRUE(ends_in_open_quote("\"41 30\" \"42 3"));
  EXPECT_TRUE(ends_in_open_quote("\"a\\\""));  // the only quote after `a` is escaped
  EXPECT_FALSE(ends_in_open_quote("\"41 30\" \"42 30\""));
  EXPECT_FALSE(ends_in_open_quote("\"\" plain a\\\"b"));  // a quote inside a bare token opens nothing
  EXPECT_FALSE(ends_in_open_quote(""));
  // The token reader itself still reads the open pair to the end (the engine does the same).
  const Tokens t = tokenize_value("\"41 30\" \"42 3");
  ASSERT_EQ(t.tokens.size(), 2u);
  EXPECT_EQ(t.tokens[1], "42 3");
}

}  // namespace
}  // namespace sortie::fomap
