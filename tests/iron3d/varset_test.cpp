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
  auto v = parse("\nVAR(DWORD, a);");  // two fields
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

// Spec §20.3: only VAR( lines are declarations; everything else, a malformed STRING included, is
// ignored and kept byte for byte.
TEST(Varset, ignores_malformed_string_line) {
  const std::string text =
      "STRING(no comma)\nSTRING(\nSTRING(, x)\nSTRING(a, b) junk\nVAR(DWORD, d, 7)\nSTRING(ok, \"v\")";
  auto v = parse(text);
  ASSERT_TRUE(v) << v.error().to_string();
  ASSERT_EQ(v->vars.size(), 1u);
  EXPECT_EQ(v->vars[0].default_value.bits, 7u);
  ASSERT_EQ(v->strings.size(), 1u);
  EXPECT_EQ(v->strings[0].name, "ok");
  EXPECT_EQ(v->strings[0].line, 5u);
  EXPECT_EQ(write_varset(*v), core::Bytes(text.begin(), text.end()));
}

TEST(Varset, accepts_semicolon_after_a_space) {
  auto v = parse("VAR(DWORD, a, 1) ;\r\nVAR(float, b, 2)\t;  // c\n");
  ASSERT_TRUE(v) << v.error().to_string();
  ASSERT_EQ(v->vars.size(), 2u);
  EXPECT_EQ(v->vars[1].as_float(), 2.0f);
}

TEST(Varset, rejects_text_after_the_closing_parenthesis) {
  auto v = parse("VAR(DWORD, a, 1) x");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.syntax");
  auto w = parse("VAR(DWORD, a, 1);;");
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, "varset.syntax");
}

TEST(Varset, underflowing_float_is_a_value) {
  auto v = parse(
      "VAR(float, a, 1e-50)\nVAR(float, b, -1e-50)\nVAR(float, c, 1e-45)\nVAR(float, d, 1e-40)\n"
      "VAR(float, e, 1.5e-39)");
  ASSERT_TRUE(v) << v.error().to_string();
  ASSERT_EQ(v->vars.size(), 5u);
  EXPECT_EQ(v->vars[0].default_value.bits, 0u);           // rounds to +0
  EXPECT_EQ(v->vars[1].default_value.bits, 0x80000000u);  // rounds to -0
  EXPECT_EQ(v->vars[2].default_value.bits, 1u);           // the smallest subnormal
  EXPECT_EQ(v->vars[3].default_value.bits, std::bit_cast<std::uint32_t>(1e-40f));
  EXPECT_EQ(v->vars[4].default_value.bits, std::bit_cast<std::uint32_t>(1.5e-39f));
}

TEST(Varset, rejects_overflowing_float) {
  auto v = parse("VAR(float, f, -1e39);");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "varset.value");
  auto n = parse("VAR(float, f, nan);");
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().code, "varset.value");
}

TEST(Varset, accepts_a_plus_sign) {
  auto v = parse("VAR(float, a, +1.5)\nVAR(DWORD, b, +12)\nVAR(DWORD, c, 0x+1F)\nVAR(float, d, +.5)");
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_EQ(v->vars[0].as_float(), 1.5f);
  EXPECT_EQ(v->vars[1].default_value.bits, 12u);
  EXPECT_EQ(v->vars[2].default_value.bits, 31u);
  EXPECT_EQ(v->vars[3].as_float(), 0.5f);
  for (const char* bad : {"VAR(DWORD, b, ++1)", "VAR(DWORD, b, +)", "VAR(DWORD, b, 0x)", "VAR(float, b, +-1)",
                          "VAR(DWORD, b, +0x10)", "VAR(DWORD, b, 1 2)"}) {
    auto r = parse(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, "varset.value") << bad;
  }
}

TEST(Varset, four_fields_keep_the_extra_field_and_warn) {
  core::Diagnostics warnings;
  auto v = read_varset(core::as_bytes(std::string_view("VAR(DWORD, a, 1, 5)")), {}, &warnings);
  ASSERT_TRUE(v) << v.error().to_string();
  ASSERT_EQ(v->vars.size(), 1u);
  EXPECT_FALSE(v->vars[0].min);
  EXPECT_EQ(v->vars[0].extra_fields, std::vector<std::string>{"5"});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "varset.fields");
}

TEST(Varset, six_and_nine_fields_keep_every_extra_field) {
  core::Diagnostics warnings;
  auto v =
      read_varset(core::as_bytes(std::string_view("VAR(float, a, 1, 0, 2, 3);\nVAR(DWORD, b, 2, x, , y, 0x1, z, 9)\n")),
                  {}, &warnings);
  ASSERT_TRUE(v) << v.error().to_string();
  ASSERT_EQ(v->vars.size(), 2u);
  EXPECT_EQ(v->vars[0].extra_fields, (std::vector<std::string>{"0", "2", "3"}));
  EXPECT_FALSE(v->vars[0].min);
  EXPECT_EQ(v->vars[1].extra_fields, (std::vector<std::string>{"x", "", "y", "0x1", "z", "9"}));
  EXPECT_EQ(v->vars[1].default_value.bits, 2u);
  EXPECT_EQ(warnings.size(), 2u);
}

TEST(Varset, five_fields_with_an_invalid_bound_are_not_a_range) {
  auto v = parse("VAR(DWORD, a, 1, 0, -3)");
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_FALSE(v->vars[0].min);
  EXPECT_EQ(v->vars[0].extra_fields, (std::vector<std::string>{"0", "-3"}));
}

TEST(Varset, rejects_empty_first_fields) {
  for (const char* bad : {"VAR(, a, 1)", "VAR(DWORD, , 1)", "VAR(DWORD, a, )", "VAR(DWORD, a, , 1, 2)"}) {
    auto r = parse(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, "varset.syntax") << bad;
  }
}

TEST(Varset, keeps_control_bytes_in_names) {
  // \v is not whitespace here: it stays at the name's start; \x01 and \x7F inside are kept;
  // space, tab and \f around the name are trimmed.
  const std::string text = std::string("VAR(DWORD, \v\x01na\x7Fme\f , 3)\nVAR(float,\tx\x1By ,1)");
  auto v = parse(text);
  ASSERT_TRUE(v) << v.error().to_string();
  ASSERT_EQ(v->vars.size(), 2u);
  EXPECT_EQ(v->vars[0].name, std::string("\v\x01na\x7Fme"));
  EXPECT_EQ(v->vars[1].name, std::string("x\x1By"));
  EXPECT_EQ(v->find(std::string("x\x1By")), 1u);
  EXPECT_EQ(write_varset(*v), core::Bytes(text.begin(), text.end()));
}

TEST(Varset, vertical_tab_before_var_is_not_whitespace) {
  auto v = parse("\vVAR(DWORD, a, 1)\nVAR(DWORD, b, 1\v)");
  ASSERT_FALSE(v);  // the first line is ignored (it does not start with VAR(); the second has "1\v"
  EXPECT_EQ(v.error().code, "varset.value");
  EXPECT_EQ(v.error().field, "vars[0].default");
}
