// ConfigFile grammar: spec/fomap.md §2 and the engine's Test_ConfigFile expectations (§15).
#include "sortie/fomap/config.hpp"

#include <gtest/gtest.h>

namespace sortie::fomap {
namespace {

std::string value_of(const ConfigFile& f, std::string_view section, std::string_view key) {
  const ConfigEntry* e = f.find(section, key);
  return e ? std::string(e->value) : std::string("<missing>");
}
std::string default_value(const ConfigFile& f, std::string_view key) {
  const ConfigEntry* e = f.sections()[0].find(key);
  return e ? std::string(e->value) : std::string("<missing>");
}

TEST(FomapConfig, append_joins_with_one_space_and_survives_source_mutation) {
  std::string src = "[S]\nName = Base\nName += Extra\n";
  ConfigFile f = parse_config(src);
  src.assign(src.size(), 'x');
  EXPECT_EQ(value_of(f, "S", "Name"), "Base Extra");
}

TEST(FomapConfig, views_survive_move_of_short_input) {
  ConfigFile f = parse_config("[S]\na=b\n");
  ConfigFile g = std::move(f);
  ConfigFile h;
  h = std::move(g);
  EXPECT_EQ(value_of(h, "S", "a"), "b");
}

TEST(FomapConfig, tab_continuation_joins_with_one_space) {
  ConfigFile f = parse_config("K = line_1\t\\\n      line_2\n");
  EXPECT_EQ(default_value(f, "K"), "line_1 line_2");
}

TEST(FomapConfig, crlf_lines_and_continuation) {
  ConfigFile f = parse_config("[S]\r\nKey = Val \\\r\nue\r\nOther = x\r\n");
  EXPECT_EQ(value_of(f, "S", "Key"), "Val ue");
  EXPECT_EQ(value_of(f, "S", "Other"), "x");
  EXPECT_EQ(f.facts().crlf_lines, 4u);
}

TEST(FomapConfig, backslash_without_blank_is_not_a_continuation) {
  ConfigFile f = parse_config("A = a\\\nB = b\n");
  EXPECT_EQ(default_value(f, "A"), "a\\");
  EXPECT_EQ(default_value(f, "B"), "b");
}

TEST(FomapConfig, comment_ending_in_continuation_swallows_next_line) {
  ConfigFile f = parse_config("# note \\\nA = 1\nB = 2\n");
  EXPECT_EQ(default_value(f, "A"), "<missing>");
  EXPECT_EQ(default_value(f, "B"), "2");
}

TEST(FomapConfig, value_comment_with_continuation_continues) {
  ConfigFile f = parse_config("A = v # note \\\nB = 2\n");
  // joined: "A = v # note B = 2" -> comment strips the rest
  EXPECT_EQ(default_value(f, "A"), "v");
  EXPECT_EQ(default_value(f, "B"), "<missing>");
}

TEST(FomapConfig, blank_line_terminates_continuation) {
  ConfigFile f = parse_config("A = 1 \\\n\nB = 2\n");
  EXPECT_EQ(default_value(f, "A"), "1");
  EXPECT_EQ(default_value(f, "B"), "2");
}

TEST(FomapConfig, drops_dangling_continuation_at_eof_without_newline) {
  ConfigFile f = parse_config("B = 2\nA = 1 \\");
  EXPECT_EQ(default_value(f, "A"), "<missing>");
  EXPECT_EQ(f.facts().dropped_continuation_line, 2u);
  ConfigFile g = parse_config("B = 2\nA = 1 \\\n");
  EXPECT_EQ(default_value(g, "A"), "1");
}

TEST(FomapConfig, continuation_indentation_collapses_to_one_space) {
  ConfigFile f = parse_config("M = \\\n     \"1 2\" \\\n\t\t\"3 4\"\n");
  EXPECT_EQ(default_value(f, "M"), "\"1 2\" \"3 4\"");
  EXPECT_EQ(f.sections()[0].find("M")->line, 1u);
  EXPECT_EQ(f.sections()[0].find("M")->last_line, 3u);
}

TEST(FomapConfig, bool_int_text_kept_raw) {
  ConfigFile f = parse_config("[S]\nA = true\nB = FALSE\nC = 42\n");
  EXPECT_EQ(value_of(f, "S", "A"), "true");
  EXPECT_EQ(value_of(f, "S", "B"), "FALSE");
  EXPECT_EQ(value_of(f, "S", "C"), "42");
}

TEST(FomapConfig, form_feed_and_vertical_tab_are_key_value_whitespace) {
  ConfigFile f = parse_config("[S]\n\fCount\v=\f42\v\n");
  EXPECT_EQ(value_of(f, "S", "Count"), "42");
}

TEST(FomapConfig, keeps_escaped_comment_character) {
  ConfigFile f = parse_config("[S]\nText = keep\\#hash # strip\n");
  EXPECT_EQ(value_of(f, "S", "Text"), "keep\\#hash");
}

TEST(FomapConfig, keeps_hash_inside_double_quotes) {
  ConfigFile f = parse_config("[S]\nText = \"quoted # hash\" # strip\n");
  EXPECT_EQ(value_of(f, "S", "Text"), "\"quoted # hash\"");
}

TEST(FomapConfig, keeps_hash_inside_quotes_across_continuation) {
  ConfigFile f = parse_config("[S]\nText = \"quoted # hash\" \\\n  continued # tail\n");
  EXPECT_EQ(value_of(f, "S", "Text"), "\"quoted # hash\" continued");
}

TEST(FomapConfig, keeps_hash_inside_quoted_appended_value) {
  ConfigFile f = parse_config("[S]\nText = base\nText += \"quoted # hash\"\n");
  EXPECT_EQ(value_of(f, "S", "Text"), "base \"quoted # hash\"");
}

TEST(FomapConfig, escaped_quote_does_not_close_quotes) {
  ConfigFile f = parse_config("[S]\nText = \"quoted \\\" # hash\" # strip\n");
  EXPECT_EQ(value_of(f, "S", "Text"), "\"quoted \\\" # hash\"");
}

TEST(FomapConfig, skips_brace_format_lines) {
  ConfigFile f = parse_config("[S]\n{100}{20}{Payload}\nA = 1\n");
  ASSERT_EQ(f.sections().size(), 2u);
  EXPECT_EQ(f.sections()[1].entries.size(), 1u);
  ASSERT_EQ(f.sections()[1].ignored_lines.size(), 1u);
  EXPECT_EQ(f.sections()[1].ignored_lines[0], 2u);
}

TEST(FomapConfig, repeated_sections_are_kept_in_order) {
  ConfigFile f = parse_config("[ProtoItem]\n$Name = A\n[ProtoItem]\n$Name = B\n");
  auto all = f.sections_named("ProtoItem");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]->find("$Name")->value, "A");
  EXPECT_EQ(all[1]->find("$Name")->value, "B");
  EXPECT_EQ(f.section("ProtoItem"), all[0]);
}

TEST(FomapConfig, append_into_missing_key_has_no_leading_space) {
  ConfigFile f = parse_config("[S]\nName += Two\n");
  EXPECT_EQ(value_of(f, "S", "Name"), "Two");
}

TEST(FomapConfig, empty_append_keeps_existing_value) {
  ConfigFile f = parse_config("[S]\nName = One\nName +=    # ignored\n");
  EXPECT_EQ(value_of(f, "S", "Name"), "One");
}

TEST(FomapConfig, append_never_crosses_section_bodies) {
  ConfigFile f = parse_config("[S]\nName = One\n[S]\nName += Two\n");
  auto all = f.sections_named("S");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]->find("Name")->value, "One");
  EXPECT_EQ(all[1]->find("Name")->value, "Two");
}

TEST(FomapConfig, last_assignment_wins) {
  ConfigFile f = parse_config("[S]\nA = 1\nA = 2\n");
  const ConfigEntry* e = f.find("S", "A");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->value, "2");
  EXPECT_EQ(e->line, 3u);
  EXPECT_EQ(e->assignments, 2u);
}

TEST(FomapConfig, plus_not_touching_equals_is_part_of_key) {
  ConfigFile f = parse_config("[S]\nk + = v\n");
  EXPECT_EQ(value_of(f, "S", "k +"), "v");
}

TEST(FomapConfig, nested_section_names_are_verbatim) {
  ConfigFile f = parse_config("[ProtoMap]\n[$Name/Item]\n[MapOne/Item]\n[/Item]\n");
  ASSERT_EQ(f.sections().size(), 5u);
  EXPECT_EQ(f.sections()[2].name, "$Name/Item");
  EXPECT_EQ(f.sections()[3].name, "MapOne/Item");
  EXPECT_EQ(f.sections()[4].name, "/Item");
}

TEST(FomapConfig, sections_in_file_order_include_default) {
  ConfigFile f = parse_config("[ProtoMap]\n[$Name/Item]\n[ProtoMap]\n[A/Item]\n[A/Critter]\n");
  ASSERT_EQ(f.sections().size(), 6u);
  EXPECT_TRUE(f.sections()[0].is_default());
  EXPECT_EQ(f.sections()[5].name, "A/Critter");
}

TEST(FomapConfig, skip_nested_sections_drops_bodies) {
  ConfigFile f =
      parse_config("[ProtoMap]\nA = 1\n[$Name/Item]\nB = 2\n[ProtoMap]\nC = 3\n", {.skip_nested_sections = true});
  ASSERT_EQ(f.sections().size(), 3u);
  EXPECT_EQ(f.sections()[1].find("B"), nullptr);
  EXPECT_EQ(f.sections()[2].find("C")->value, "3");
}

TEST(FomapConfig, missing_lookups_give_null) {
  ConfigFile f = parse_config("[S]\nA = 1\n");
  EXPECT_EQ(f.find("S", "B"), nullptr);
  EXPECT_EQ(f.find("T", "A"), nullptr);
  EXPECT_EQ(f.section("T"), nullptr);
}

TEST(FomapConfig, ignores_malformed_sections_and_entries) {
  ConfigFile f = parse_config("[]\nNoSeparator\n[ValidSection\n[Good]\nK = V\n");
  ASSERT_EQ(f.sections().size(), 2u);
  EXPECT_EQ(f.sections()[1].name, "Good");
  EXPECT_EQ(value_of(f, "Good", "K"), "V");
  EXPECT_EQ(f.sections()[0].ignored_lines.size(), 3u);
}

TEST(FomapConfig, ignores_entries_with_empty_trimmed_keys) {
  ConfigFile f = parse_config("[S]\n   = Ignored\n\t+= IgnoredToo\nKey = Value\n");
  ASSERT_EQ(f.sections()[1].entries.size(), 1u);
  EXPECT_EQ(f.sections()[1].entries[0].key, "Key");
}

TEST(FomapConfig, first_equals_splits_even_inside_quotes) {
  ConfigFile f = parse_config("[S]\n\"a=b\" = c\n");
  EXPECT_EQ(value_of(f, "S", "\"a"), "b\" = c");
}

TEST(FomapConfig, equals_after_comment_rejects_line) {
  ConfigFile f = parse_config("[S]\nkey # = v\n");
  EXPECT_TRUE(f.sections()[1].entries.empty());
}

TEST(FomapConfig, header_ignores_text_after_bracket) {
  ConfigFile f = parse_config("[ ProtoMap ] # comment\nA = 1\n");
  EXPECT_EQ(f.sections()[1].name, "ProtoMap");
}

TEST(FomapConfig, entries_are_byte_sorted) {
  ConfigFile f = parse_config("[S]\nb = 1\n$Id = 2\nA = 3\n_x = 4\na = 5\n");
  const auto& e = f.sections()[1].entries;
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(e[0].key, "$Id");
  EXPECT_EQ(e[1].key, "A");
  EXPECT_EQ(e[2].key, "_x");
  EXPECT_EQ(e[3].key, "a");
  EXPECT_EQ(e[4].key, "b");
}

TEST(FomapConfig, semicolon_and_slashes_are_ordinary) {
  ConfigFile f = parse_config("[S]\nA = x ; y // z\n");
  EXPECT_EQ(value_of(f, "S", "A"), "x ; y // z");
}

}  // namespace
}  // namespace sortie::fomap
