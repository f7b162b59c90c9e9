#include "sortie/iron3d/varset.hpp"

#include <gtest/gtest.h>

#include <bit>

#include "sortie/formats/formats.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

core::Result<Varset> parse(std::string_view text, const ReadOptions& o = {}) {
  return read_varset(core::as_bytes(text), o);
}

}  // namespace

TEST(Varset, declarations_define_the_index_space) {
  // CRLF lines, a cp1251 comment byte, FUNCTION and blank lines ignored, STRING kept apart.
  const std::string text =
      "// \xCF\xE5\xF0\xE5\xEC\xE5\xED\xED\xFB\xE5\r\n"
      "VAR(float, f0, 0.5);  // half\r\n"
      "\r\n"
      "FUNCTION(Foo, 1)\r\n"
      "  VAR( DWORD , ST_SOLVING , 1 )\r\n"
      "STRING(Greeting, \"hello, world\");\r\n"
      "VAR(DWORD, TARGET_BY_PLACE, 0x0202);\r\n"
      "VAR(float, neg, -2.25)";
  auto v = parse(text);
  ASSERT_TRUE(v) << v.error().to_string();
  ASSERT_EQ(v->vars.size(), 4u);
  EXPECT_EQ(v->vars[0].type, VarType::float32);
  EXPECT_EQ(v->vars[0].name, "f0");
  EXPECT_EQ(v->vars[0].as_float(), 0.5f);
  EXPECT_EQ(v->vars[0].line, 1u);
  EXPECT_EQ(v->vars[1].type, VarType::dword);
  EXPECT_EQ(v->vars[1].default_value.bits, 1u);
  EXPECT_EQ(v->vars[2].default_value.bits, 0x0202u);  // 514
  EXPECT_EQ(v->vars[2].default_value.raw, "0x0202");
  EXPECT_EQ(v->vars[3].as_float(), -2.25f);
  EXPECT_EQ(v->find("TARGET_BY_PLACE"), 2u);
  EXPECT_EQ(v->find("Greeting"), std::nullopt);
  ASSERT_EQ(v->strings.size(), 1u);
  EXPECT_EQ(v->strings[0].name, "Greeting");
  EXPECT_EQ(v->strings[0].value, "hello, world");
  EXPECT_EQ(v->strings[0].line, 5u);
  EXPECT_EQ(write_varset(*v), core::Bytes(text.begin(), text.end()));
}

TEST(Varset, ranged_declaration_keeps_min_and_max) {
  auto v = parse("VAR(DWORD, level, 3, 0, 0x10);\nVAR(float, k, 0.25, -1, 1e1);\n");
  ASSERT_TRUE(v) << v.error().to_string();
  ASSERT_EQ(v->vars.size(), 2u);
  ASSERT_TRUE(v->vars[0].min && v->vars[0].max);
  EXPECT_EQ(v->vars[0].min->bits, 0u);
  EXPECT_EQ(v->vars[0].max->bits, 16u);
  EXPECT_EQ(std::bit_cast<float>(v->vars[1].max->bits), 10.0f);
  EXPECT_EQ(std::bit_cast<float>(v->vars[1].min->bits), -1.0f);
  EXPECT_EQ(v->lines.size(), 3u);  // the empty piece after the final '\n' is kept for writing
}

TEST(Varset, rejects_unknown_type) {
  auto v = parse("VAR(BYTE, b, 1);");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.type");
  EXPECT_EQ(v.error().field, "vars[0].type");
}

TEST(Varset, rejects_malformed_float) {
  auto v = parse("VAR(float, f, 1.2.3);");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.value");
}

TEST(Varset, rejects_non_finite_float) {
  auto v = parse("VAR(float, f, 1e99);");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.value");
}

TEST(Varset, rejects_oversized_hex) {
  auto v = parse("VAR(DWORD, big, 0x100000000);");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.value");
  EXPECT_EQ(v.error().field, "vars[0].default");
}

TEST(Varset, rejects_negative_dword) {
  auto v = parse("VAR(DWORD, d, -1);");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.value");
}

TEST(Varset, rejects_unterminated_declaration) {
  auto v = parse("VAR(DWORD, a, 1\nVAR(DWORD, b, 2);");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.syntax");
  EXPECT_EQ(v.error().offset, 0u);
}

TEST(Varset, rejects_wrong_field_count) {
  auto v = parse("\nVAR(DWORD, a);");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.syntax");
  EXPECT_EQ(v.error().offset, 1u);
  EXPECT_EQ(v.error().field, "lines[1]");
}

TEST(Varset, rejects_declaration_count_above_the_limit) {
  std::string text;
  for (std::size_t i = 0; i <= kVarsetMaxDeclarations; ++i) text += "VAR(DWORD, v, 0);\n";
  auto v = parse(text);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.limit");
}

TEST(Varset, builder_output_reads_back) {
  auto v = build_varset({{VarType::dword, "ClanID", "0"}, {VarType::float32, "fX", "1.5"}}, {{"Name", "x"}});
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_EQ(v->vars.size(), 2u);
  EXPECT_EQ(v->vars[1].as_float(), 1.5f);
  EXPECT_EQ(v->strings.at(0).value, "x");
  const auto* f = sortie::formats::detect_format(write_varset(*v), "varset.var");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "varset");
}
