// mission.cfg (spec §21.5): object/end blocks, fields kept in order, comments and line endings
// kept in place, typed desc/library/libtype/type, exact write-back, canonical edits, hostile files.
#include "sortie/iron3d/mission_cfg.hpp"

#include <gtest/gtest.h>

#include <string>

#include "sortie/formats/formats.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

core::Result<MissionConfig> read(std::string_view s, core::Profile profile = core::Profile::strict,
                                 core::Diagnostics* warnings = nullptr) {
  ReadOptions o;
  o.profile = profile;
  o.file_name = "MISSIONS/m01/mission.cfg";
  return read_mission_cfg(core::as_bytes(s), o, warnings);
}

std::string write(const MissionConfig& c) {
  const core::Bytes b = write_mission_cfg(c);
  return std::string(core::as_chars(b));
}

// CRLF, comments of all three kinds, indentation by tab and by spaces, a quoted value, cp1251
// bytes ("\xed\xee\xf7\xfc" = "ночь") and no newline after the last `end`.
constexpr std::string_view kCrlf =
    "// mission.cfg of m01\r\n"
    "\r\n"
    "object ambient_music_loop\r\n"
    "\tdesc ambient_music_loop\r\n"
    "\tlibrary \"music.lib\"\r\n"
    "\tlibtype 1\r\n"
    "\ttype -7\r\n"
    "\tTHEME theme01.wav\r\n"
    "end\r\n"
    "; variations\r\n"
    "OBJECT ambient_music_variation\r\n"
    "  desc ambient_music_variation\r\n"
    "  DAY_VARIATION1   day1.wav  \r\n"
    "  # night\r\n"
    "  NIGHT_VARIATION1 \"\xed\xee\xf7\xfc 1.wav\"\r\n"
    "End";

}  // namespace

TEST(MissionCfg, reads_blocks_fields_comments_and_typed_named_fields) {
  core::Diagnostics warnings;
  auto c = read(kCrlf, core::Profile::strict, &warnings);
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_TRUE(warnings.empty());
  ASSERT_EQ(c->objects.size(), 2u);
  EXPECT_TRUE(c->after.empty());
  EXPECT_EQ(c->line_count(), 16u);

  const MissionCfgObject& loop = c->objects[0];
  ASSERT_EQ(loop.before.size(), 2u);
  EXPECT_EQ(loop.before[0].kind, MissionCfgLineKind::comment);
  EXPECT_EQ(loop.before[1].kind, MissionCfgLineKind::blank);
  EXPECT_EQ(loop.before[1].ending, "\r\n");
  EXPECT_EQ(loop.name(), "ambient_music_loop");
  EXPECT_EQ(loop.open.number, 3u);
  EXPECT_EQ(loop.open.offset, 25u);  // after "// mission.cfg of m01\r\n\r\n"
  ASSERT_EQ(loop.fields().size(), 5u);
  EXPECT_EQ(loop.desc(), std::optional<std::string_view>("ambient_music_loop"));
  EXPECT_EQ(loop.library(), std::optional<std::string_view>("music.lib"));  // quotes taken off
  EXPECT_EQ(loop.find("library")->value, "\"music.lib\"");                  // raw text kept
  EXPECT_EQ(loop.libtype(), std::optional<std::int32_t>(1));
  EXPECT_EQ(loop.type(), std::optional<std::int32_t>(-7));
  EXPECT_EQ(loop.find("THEME")->value, "theme01.wav");
  EXPECT_EQ(loop.find("THEME")->number, 8u);
  ASSERT_TRUE(loop.close.has_value());
  EXPECT_EQ(loop.close->number, 9u);

  const MissionCfgObject& var = c->objects[1];
  ASSERT_EQ(var.before.size(), 1u);
  EXPECT_EQ(var.before[0].raw, "; variations");
  EXPECT_EQ(var.open.key, "OBJECT");  // the keyword as written
  EXPECT_EQ(var.name(), "ambient_music_variation");
  ASSERT_EQ(var.lines.size(), 4u);
  EXPECT_EQ(var.lines[2].kind, MissionCfgLineKind::comment);
  EXPECT_EQ(var.find("DAY_VARIATION1")->value, "day1.wav");  // the blanks around it are not part of it
  EXPECT_EQ(var.find("NIGHT_VARIATION1")->text(), "\xed\xee\xf7\xfc 1.wav");
  EXPECT_FALSE(var.library());
  EXPECT_FALSE(var.type());
  ASSERT_TRUE(var.close.has_value());
  EXPECT_EQ(var.close->ending, "");  // no newline at the end of the file
  EXPECT_EQ(var.close->key, "End");
}

TEST(MissionCfg, keys_and_object_names_compare_case_insensitively) {
  auto c = read(kCrlf);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->find("AMBIENT_MUSIC_LOOP"), &c->objects[0]);
  EXPECT_EQ(c->find("ambient_music_variation"), &c->objects[1]);
  EXPECT_EQ(c->find("ambient_music"), nullptr);
  EXPECT_EQ(c->objects[0].find("theme")->value, "theme01.wav");
  EXPECT_EQ(c->objects[0].find("LiBrArY")->text(), "music.lib");
  EXPECT_EQ(c->objects[0].find("missing"), nullptr);
}

TEST(MissionCfg, writes_back_byte_for_byte) {
  const std::string cases[] = {
      std::string(kCrlf),
      "object a\nx 1\nend\n",        // LF with a final newline
      "object a\r\nx 1\nend\r\n\n",  // mixed endings, a blank last line
      "",                            // empty file
      "\n\n",                        // blank lines only
      "# only a comment",            // no block, no newline
      "object \xcc\xf3\xe7\xfb\xea\xe0\n  \xea\xeb\xfe\xf7 \xe7\xed\xe0\xf7\xe5\xed\xe8\xe5\nend",  // cp1251
      "\t object  a b  \n\t\tkey\t\"v  1\"   \n  ; c\nend\n// tail\n\n",  // tabs, blanks, trailing lines
      "object a\nflag\nend\n",                                            // a field without a value
  };
  for (const auto& text : cases) {
    SCOPED_TRACE(text);
    auto c = read(text);
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(write(*c), text);
  }
}

TEST(MissionCfg, keeps_lines_after_the_last_block_and_lines_outside_blocks) {
  auto c = read("object a\nend\n\n// after\n");
  ASSERT_TRUE(c);
  ASSERT_EQ(c->after.size(), 2u);
  EXPECT_EQ(c->after[0].kind, MissionCfgLineKind::blank);
  EXPECT_EQ(c->after[1].raw, "// after");
  auto none = read("// nothing but this\n");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->objects.empty());
  EXPECT_EQ(none->after.size(), 1u);
}

TEST(MissionCfg, repeated_keys_are_kept_in_order_and_the_first_counts) {
  core::Diagnostics warnings;
  auto c = read("object a\nTHEME one.wav\ntype 1\ntheme two.wav\nTYPE 2\nend\n", core::Profile::strict, &warnings);
  ASSERT_TRUE(c) << c.error().to_string();
  const MissionCfgObject& o = c->objects[0];
  EXPECT_EQ(o.find("theme")->value, "one.wav");
  const auto all = o.find_all("Theme");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1]->value, "two.wav");
  EXPECT_EQ(o.type(), std::optional<std::int32_t>(1));
  // A repeated named field is a warning; a repeated free field (THEME) is not.
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "mission_cfg.duplicate");
  EXPECT_EQ(warnings[0].severity, core::Severity::warning);
  EXPECT_NE(warnings[0].message.find("line 5"), std::string::npos) << warnings[0].message;
  EXPECT_NE(warnings[0].message.find("line 3"), std::string::npos) << warnings[0].message;
  EXPECT_EQ(warnings[0].offset, std::optional<std::uint64_t>(44));
  EXPECT_EQ(warnings[0].field, "objects[0].lines[3].key");
}

TEST(MissionCfg, an_edited_field_is_rendered_canonically_and_the_rest_stays_exact) {
  auto c = read(kCrlf);
  ASSERT_TRUE(c);
  MissionCfgObject& loop = c->objects[0];
  ASSERT_TRUE(loop.set("theme", "theme02.wav"));
  ASSERT_TRUE(loop.set("type", "3"));
  EXPECT_EQ(loop.type(), std::optional<std::int32_t>(3));
  // The key keeps its spelling; indentation and CRLF stay.
  std::string expected(kCrlf);
  expected.replace(expected.find("\ttype -7"), 8, "\ttype 3");
  expected.replace(expected.find("\tTHEME theme01.wav"), 18, "\tTHEME theme02.wav");
  EXPECT_EQ(write(*c), expected);

  // A new field goes after the last field with that field's indentation and ending.
  MissionCfgObject& var = c->objects[1];
  ASSERT_TRUE(var.set("LIBRARY", "sounds.lib"));
  expected.replace(expected.find("\"\r\nEnd"), 3, "\"\r\n  LIBRARY sounds.lib\r\n");
  EXPECT_EQ(write(*c), expected);

  // An edited value with blanks inside the line is re-rendered with one space after the key.
  auto d = read("object a\n  DAY_VARIATION1   day1.wav  \nend");
  ASSERT_TRUE(d);
  ASSERT_TRUE(d->objects[0].set("day_variation1", "day9.wav"));
  EXPECT_EQ(write(*d), "object a\n  DAY_VARIATION1 day9.wav\nend");
  // A renamed object.
  d->objects[0].open.value = "b";
  EXPECT_EQ(write(*d), "object b\n  DAY_VARIATION1 day9.wav\nend");
}

TEST(MissionCfg, a_field_added_to_an_empty_block_goes_before_end) {
  auto c = read("object a\r\nend\r\n");
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->objects[0].set("desc", "\"x y\""));
  EXPECT_EQ(c->objects[0].desc(), std::optional<std::string_view>("x y"));
  EXPECT_EQ(write(*c), "object a\r\ndesc \"x y\"\r\nend\r\n");
  auto again = read(write(*c));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->objects[0].desc(), std::optional<std::string_view>("x y"));
}

TEST(MissionCfg, rejects_edits_that_would_not_read_back) {
  auto c = read("object a\nend\n");
  ASSERT_TRUE(c);
  MissionCfgObject& o = c->objects[0];
  for (auto [key, value] : {std::pair<std::string_view, std::string_view>{"type", "seven"},
                            {"libtype", "99999999999"},
                            {"two words", "x"},
                            {"", "x"},
                            {"end", "x"},
                            {"object", "x"},
                            {"//c", "x"},
                            {"k", "a\nb"},
                            {"k", " padded"},
                            {"k", "\"open"}}) {
    SCOPED_TRACE(std::string(key) + " = " + std::string(value));
    auto st = o.set(key, value);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, "mission_cfg.edit");
  }
  EXPECT_EQ(write(*c), "object a\nend\n");
}

TEST(MissionCfg, rejects_field_outside_a_block) {
  auto c = read("// c\nTHEME a.wav\nobject a\nend\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.syntax");
  EXPECT_EQ(c.error().file, "MISSIONS/m01/mission.cfg");
  EXPECT_EQ(c.error().offset, std::optional<std::uint64_t>(5));
  EXPECT_EQ(c.error().field, "lines[1]");
  EXPECT_EQ(c.error().found, "THEME a.wav");
  EXPECT_EQ(c.error().message.rfind("line 2: ", 0), 0u) << c.error().message;
}

TEST(MissionCfg, rejects_nested_object) {
  auto c = read("object a\nx 1\nobject b\nend\nend\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.syntax");
  EXPECT_EQ(c.error().offset, std::optional<std::uint64_t>(13));
  EXPECT_EQ(c.error().field, "objects[0].lines[1]");
  EXPECT_NE(c.error().message.find("line 3: "), std::string::npos);
  EXPECT_NE(c.error().message.find("line 1"), std::string::npos);  // where the open block began
}

TEST(MissionCfg, rejects_object_without_a_name) {
  auto c = read("object a\nend\nobject   \t\nend\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.syntax");
  EXPECT_EQ(c.error().offset, std::optional<std::uint64_t>(13));
  EXPECT_EQ(c.error().message.rfind("line 3: ", 0), 0u);
}

TEST(MissionCfg, rejects_end_outside_a_block) {
  auto c = read("object a\nend\nend\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.syntax");
  EXPECT_EQ(c.error().offset, std::optional<std::uint64_t>(13));
  EXPECT_EQ(c.error().field, "lines[2]");
}

TEST(MissionCfg, rejects_end_followed_by_text) {
  auto c = read("object a\nend a\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.syntax");
  EXPECT_EQ(c.error().found, "end a");
}

TEST(MissionCfg, rejects_eof_inside_a_block) {
  const std::string_view text = "object a\nobject_count 1\n// c\n";
  auto c = read(text);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.unterminated");
  EXPECT_EQ(c.error().offset, std::optional<std::uint64_t>(text.size()));
  EXPECT_EQ(c.error().field, "objects[0]");
  EXPECT_NE(c.error().message.find("opened at line 1"), std::string::npos) << c.error().message;
}

TEST(MissionCfg, rejects_type_that_is_not_an_integer) {
  for (std::string_view value : {"seven", "7.5", "", "0x10", "2147483648", "-2147483649", "1 2"}) {
    SCOPED_TRACE(value);
    auto c = read(std::string("object a\ntype ") + std::string(value) + "\nend\n");
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, "mission_cfg.value");
    EXPECT_EQ(c.error().field, "objects[0].lines[0].value");
    EXPECT_EQ(c.error().offset, std::optional<std::uint64_t>(9));
  }
  // The bounds of i32 and a quoted number are integers.
  auto ok = read("object a\ntype 2147483647\nlibtype \"-2147483648\"\nend\n");
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_EQ(ok->objects[0].type(), std::optional<std::int32_t>(2147483647));
  EXPECT_EQ(ok->objects[0].libtype(), std::optional<std::int32_t>(-2147483647 - 1));
}

TEST(MissionCfg, rejects_libtype_that_is_not_an_integer) {
  auto c = read("object a\nLIBTYPE sounds\nend\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.value");
}

TEST(MissionCfg, rejects_unbalanced_quote) {
  auto c = read("object a\nlibrary \"music.lib\nend\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.quote");
  auto name = read("object \"a\nend\n");
  ASSERT_FALSE(name);
  EXPECT_EQ(name.error().code, "mission_cfg.quote");
}

TEST(MissionCfg, rejects_nul_byte_and_bare_cr) {
  using namespace std::string_literals;
  for (const std::string& text : {"object a\nx a\0b\nend\n"s, "object a\nx a\rb\nend\n"s, "object a\nend\r"s}) {
    auto c = read(text);
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, "mission_cfg.character");
  }
}

TEST(MissionCfg, rejects_file_over_the_size_limit) {
  // 256 comment lines of 4,096 bytes each (4,095 + '\n') are exactly the limit.
  std::string text;
  for (int i = 0; i < 256; ++i) text += "#" + std::string(kMissionCfgMaxLineBytes - 2, 'c') + "\n";
  ASSERT_EQ(text.size(), kMissionCfgMaxBytes);
  auto at_limit = read(text);
  ASSERT_TRUE(at_limit) << at_limit.error().to_string();
  EXPECT_EQ(at_limit->after.size(), 256u);
  text += "\n";
  auto c = read(text);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.limit");
  EXPECT_EQ(c.error().offset, std::optional<std::uint64_t>(0));
}

TEST(MissionCfg, rejects_line_count_over_the_limit) {
  std::string text(kMissionCfgMaxLines, '\n');
  EXPECT_TRUE(read(text));
  text += "\n";
  auto c = read(text);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.limit");
  EXPECT_EQ(c.error().offset, std::optional<std::uint64_t>(kMissionCfgMaxLines));
}

TEST(MissionCfg, rejects_line_over_the_length_limit) {
  std::string ok = "object a\nx " + std::string(kMissionCfgMaxLineBytes - 2, 'v') + "\r\nend\n";
  EXPECT_TRUE(read(ok));  // the ending does not count
  std::string bad = "object a\nx " + std::string(kMissionCfgMaxLineBytes - 1, 'v') + "\nend\n";
  auto c = read(bad);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, "mission_cfg.limit");
  EXPECT_EQ(c.error().offset, std::optional<std::uint64_t>(9));
  // The limit holds in the compatible profile too.
  EXPECT_FALSE(read(bad, core::Profile::compatible));
}

TEST(MissionCfg, compatible_profile_keeps_malformed_lines_and_writes_them_back) {
  const std::string_view text =
      "THEME stray.wav\n"
      "end\n"
      "object\n"
      "object a\n"
      "type seven\n"
      "library \"open\n"
      "object b\n"
      "end trailing\n"
      "object c\n"
      "desc c\n";
  core::Diagnostics warnings;
  auto c = read(text, core::Profile::compatible, &warnings);
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(write(*c), text);
  std::vector<std::string> codes;
  for (const auto& w : warnings) {
    EXPECT_EQ(w.severity, core::Severity::warning);
    codes.push_back(w.code);
  }
  const std::vector<std::string> expected{"mission_cfg.syntax", "mission_cfg.syntax",      "mission_cfg.syntax",
                                          "mission_cfg.value",  "mission_cfg.quote",       "mission_cfg.syntax",
                                          "mission_cfg.syntax", "mission_cfg.unterminated"};
  EXPECT_EQ(codes, expected);
  ASSERT_EQ(c->objects.size(), 2u);
  ASSERT_EQ(c->objects[0].before.size(), 3u);
  EXPECT_EQ(c->objects[0].before[0].kind, MissionCfgLineKind::invalid);
  EXPECT_FALSE(c->objects[0].type());  // kept untyped
  EXPECT_EQ(c->objects[0].find("type")->value, "seven");
  EXPECT_EQ(c->objects[0].lines[2].kind, MissionCfgLineKind::invalid);  // the nested `object b`
  EXPECT_EQ(c->objects[0].close->value, "trailing");
  EXPECT_EQ(c->objects[1].name(), "c");
  EXPECT_FALSE(c->objects[1].close.has_value());
  EXPECT_EQ(c->objects[1].desc(), std::optional<std::string_view>("c"));
}

TEST(MissionCfg, a_line_without_ending_before_another_line_gets_a_newline_on_writing) {
  auto c = read("object a\nend");
  ASSERT_TRUE(c);
  MissionCfgLine comment;
  comment.kind = MissionCfgLineKind::comment;
  comment.raw = "// added";
  c->after.push_back(comment);
  EXPECT_EQ(write(*c), "object a\nend\n// added");
}

TEST(MissionCfg, detected_by_name_and_inspected) {
  const auto bytes = core::as_bytes(kCrlf);
  const FormatInfo* f = sortie::formats::detect_format(bytes, "game/MISSIONS/m01/Mission.CFG");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "mission_cfg");
  EXPECT_EQ(sortie::formats::detect_format(bytes, "game/MISSIONS/m01/briefing.cfg"), nullptr);
  ReadOptions o;
  o.file_name = "mission.cfg";
  auto j = f->inspect(bytes, o);
  ASSERT_TRUE(j) << j.error().to_string();
  EXPECT_EQ((*j)["format"], "mission_cfg");
  EXPECT_EQ((*j)["lines"], 16);
  EXPECT_EQ((*j)["comments"], 3);
  ASSERT_EQ((*j)["objects"].size(), 2u);
  const auto& loop = (*j)["objects"][0];
  EXPECT_EQ(loop["name"]["text"], "ambient_music_loop");
  EXPECT_EQ(loop["library"]["text"], "music.lib");
  EXPECT_EQ(loop["libtype"], 1);
  EXPECT_EQ(loop["type"], -7);
  EXPECT_EQ(loop["fields"].size(), 5u);
  EXPECT_EQ(loop["terminated"], true);
  // cp1251 bytes come out as UTF-8 text.
  EXPECT_EQ((*j)["objects"][1]["fields"][2]["value"]["text"], "\"\xd0\xbd\xd0\xbe\xd1\x87\xd1\x8c 1.wav\"");
  auto rt = f->roundtrip(bytes, o);
  ASSERT_TRUE(rt);
  EXPECT_EQ(*rt, core::Bytes(bytes.begin(), bytes.end()));
}
