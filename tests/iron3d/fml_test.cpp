#include "sortie/iron3d/fml.hpp"

#include <gtest/gtest.h>

#include "sortie/formats/formats.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

core::Result<Fml> parse_fml(std::string_view text, core::Diagnostics* warnings = nullptr) {
  return read_fml(core::as_bytes(text), {}, warnings);
}

}  // namespace

TEST(Fml, keeps_every_byte_and_views_code_and_comments) {
  const std::string text =
      "// \xF4\xEE\xF0\xEC\xF3\xEB\xFB\r\n"
      "  f0 = ClanBaseX * 2 // scaled\r\n"
      "\r\n"
      "\t\n"
      "f1=1";
  core::Diagnostics warnings;
  auto f = parse_fml(text, &warnings);
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_TRUE(warnings.empty());
  ASSERT_EQ(f->lines.size(), 5u);
  EXPECT_EQ(f->line(1).code, "f0 = ClanBaseX * 2");
  EXPECT_EQ(f->line(1).comment, "// scaled");
  EXPECT_TRUE(f->line(1).crlf);
  EXPECT_FALSE(f->line(4).crlf);
  EXPECT_EQ(f->line(4).code, "f1=1");
  const FmlSummary s = fml_summary(*f);
  EXPECT_EQ(s.lines, 5u);
  EXPECT_EQ(s.code, 2u);
  EXPECT_EQ(s.comment, 1u);
  EXPECT_EQ(s.blank, 2u);
  EXPECT_EQ(s.crlf, 3u);
  EXPECT_EQ(write_fml(*f), core::Bytes(text.begin(), text.end()));
}

TEST(Fml, empty_file_is_one_empty_line) {
  auto f = parse_fml("");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->lines.size(), 1u);
  EXPECT_TRUE(write_fml(*f).empty());
}

TEST(Fml, keeps_nul_and_control_bytes_with_a_warning) {
  const std::string text("a\0b\nc\x01\n", 7);
  core::Diagnostics warnings;
  auto f = parse_fml(text, &warnings);
  ASSERT_TRUE(f);
  ASSERT_EQ(warnings.size(), 1u);  // one warning per file
  EXPECT_EQ(warnings[0].code, "fml.control");
  EXPECT_EQ(warnings[0].offset, 1u);
  EXPECT_EQ(write_fml(*f), core::Bytes(text.begin(), text.end()));
}

TEST(Fml, rejects_a_file_above_the_size_limit) {
  const std::string text(kFmlMaxBytes + 1, 'x');
  auto f = parse_fml(text);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code, "fml.limit");
}

TEST(Fml, rejects_more_lines_than_the_limit) {
  const std::string text(kFmlMaxLines, '\n');  // kFmlMaxLines + 1 lines
  auto f = parse_fml(text);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code, "fml.limit");
}

TEST(Fml, is_a_row_of_the_format_table) {
  const std::string text = "x = 1\n";
  const auto* fmt = formats::detect_format(core::as_bytes(text), "enemy.FML");
  ASSERT_NE(fmt, nullptr);
  EXPECT_EQ(fmt->name, "fml");
  auto back = fmt->roundtrip(core::as_bytes(text), {});
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, core::Bytes(text.begin(), text.end()));
  auto j = fmt->inspect(core::as_bytes(text), {});
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["summary"]["code"], 1);
}
