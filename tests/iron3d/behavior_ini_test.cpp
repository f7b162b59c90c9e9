// Behavior.ini (spec §21.1): // comments, spaces around '=', CRLF, unknown keys kept and
// reported, typed PathFind_* / Network_* values, exact write-back, hostile files.
#include "sortie/iron3d/behavior_ini.hpp"

#include <gtest/gtest.h>

#include <string>

#include "sortie/formats/formats.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

core::ByteView bytes(std::string_view s) {
  return core::as_bytes(s);
}

core::Result<BehaviorIni> read(std::string_view s, core::Profile profile = core::Profile::strict,
                               core::Diagnostics* warnings = nullptr) {
  ReadOptions o;
  o.profile = profile;
  o.file_name = "Behavior.ini";
  return read_behavior_ini(bytes(s), o, warnings);
}

// The demo file's shape (spec §21.1) with CRLF, comments, spacing variants and PathFind keys.
constexpr std::string_view kDemo =
    "// Behavior settings\r\n"
    "LogFile=Behavior.log\r\n"
    "SaveLog = 0\r\n"
    "MaxErrorLevel=1 // errors up to level 1\r\n"
    "DefErrorLevel =2\r\n"
    "UseWizard= 1\r\n"
    "\r\n"
    "PathFind_MaxAccel = 12.5\r\n"
    "PathFind_MaxRotation=\t3.0\r\n"
    "PathFind_CorridorRadius = \"4\"\r\n"
    "PathFind_MinPointInTrajectory = 3\r\n"
    "Network_ResourceTransferMaxDelay = 30000\r\n"
    "ExtraDebugSwitch = yes // not a key Behavior.dll reads\r\n";

}  // namespace

TEST(BehaviorIni, reads_the_demo_shape_with_crlf_comments_and_spacing) {
  core::Diagnostics warnings;
  auto ini = read(kDemo, core::Profile::strict, &warnings);
  ASSERT_TRUE(ini) << ini.error().to_string();
  ASSERT_EQ(ini->entries.size(), 11u);
  ASSERT_EQ(ini->lines.size(), 14u);  // 13 CRLF lines and the empty text after the last newline
  EXPECT_EQ(ini->kinds[0], BehaviorLineKind::comment);
  EXPECT_EQ(ini->kinds[6], BehaviorLineKind::blank);
  EXPECT_EQ(ini->kinds[7], BehaviorLineKind::entry);
  EXPECT_EQ(ini->find("LogFile")->value, "Behavior.log");
  EXPECT_EQ(ini->number("SaveLog"), 0.0);
  EXPECT_EQ(ini->number("MaxErrorLevel"), 1.0);  // the comment after the value is not part of it
  EXPECT_EQ(ini->find("MaxErrorLevel")->raw_value, "1");
  EXPECT_EQ(ini->number("DefErrorLevel"), 2.0);
  EXPECT_EQ(ini->number("UseWizard"), 1.0);
  EXPECT_EQ(ini->number("PathFind_MaxAccel"), 12.5);
  EXPECT_EQ(ini->number("PathFind_MaxRotation"), 3.0);
  EXPECT_EQ(ini->find("PathFind_CorridorRadius")->raw_value, "\"4\"");
  EXPECT_EQ(ini->number("PathFind_CorridorRadius"), 4.0);
  EXPECT_EQ(ini->number("PathFind_MinPointInTrajectory"), 3.0);
  EXPECT_EQ(ini->number("Network_ResourceTransferMaxDelay"), 30000.0);
  // Absent stays absent (never a silent 0).
  EXPECT_EQ(ini->find("PathFind_fStepDist"), nullptr);
  EXPECT_FALSE(ini->number("PathFind_fStepDist"));
  // Keys are case-insensitive.
  EXPECT_EQ(ini->number("pathfind_maxaccel"), 12.5);
  // The unknown key is kept and reported.
  const BehaviorIniEntry* extra = ini->find("ExtraDebugSwitch");
  ASSERT_NE(extra, nullptr);
  EXPECT_FALSE(extra->known);
  EXPECT_EQ(extra->value, "yes");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "behavior_ini.key_unknown");
  EXPECT_EQ(warnings[0].field, "entries[10].key");
  EXPECT_EQ(warnings[0].offset, std::optional<std::uint64_t>(kDemo.find("ExtraDebugSwitch")));
}

TEST(BehaviorIni, writes_back_every_byte) {
  for (std::string_view text : {kDemo, std::string_view("A=1"), std::string_view(""), std::string_view("\n\n"),
                                std::string_view("[Main]\r\nUseWizard=0\r\n// tail without newline")}) {
    auto ini = read(text);
    ASSERT_TRUE(ini) << text;
    const core::Bytes out = write_behavior_ini(*ini);
    EXPECT_EQ(std::string(out.begin(), out.end()), std::string(text));
  }
}

TEST(BehaviorIni, comment_marker_inside_quotes_is_text) {
  auto ini = read("LogFile = \"logs//behavior.log\" // the real comment\n");
  ASSERT_TRUE(ini) << ini.error().to_string();
  EXPECT_EQ(ini->find("LogFile")->value, "logs//behavior.log");
}

TEST(BehaviorIni, sections_are_kept_with_their_entries) {
  auto ini = read("[Debug]\nShowVectors=1\n[ PathFind ]\nPathFind_fStepDist=2.5\n");
  ASSERT_TRUE(ini) << ini.error().to_string();
  EXPECT_EQ(ini->kinds[0], BehaviorLineKind::section);
  EXPECT_EQ(ini->entries[0].section, "Debug");
  EXPECT_EQ(ini->entries[1].section, "PathFind");
  EXPECT_EQ(ini->number("PathFind_fStepDist"), 2.5);
}

TEST(BehaviorIni, first_of_a_repeated_key_counts_and_the_repeat_is_reported) {
  core::Diagnostics warnings;
  auto ini = read("PathFind_MaxAccel=5\npathfind_maxaccel=9\n", core::Profile::strict, &warnings);
  ASSERT_TRUE(ini);
  EXPECT_EQ(ini->number("PathFind_MaxAccel"), 5.0);
  EXPECT_FALSE(ini->entries[1].effective);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "behavior_ini.key_duplicate");
}

TEST(BehaviorIni, rejects_line_without_equals) {
  auto ini = read("UseWizard 1\n");
  ASSERT_FALSE(ini);
  EXPECT_EQ(ini.error().code, "behavior_ini.syntax");
  EXPECT_EQ(ini.error().field, "lines[0]");
  // Compatible keeps the line (exact write-back) and warns.
  core::Diagnostics warnings;
  auto kept = read("UseWizard 1\nSaveLog=1", core::Profile::compatible, &warnings);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->kinds[0], BehaviorLineKind::invalid);
  EXPECT_EQ(kept->number("SaveLog"), 1.0);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].severity, core::Severity::warning);
  const core::Bytes out = write_behavior_ini(*kept);
  EXPECT_EQ(std::string(out.begin(), out.end()), "UseWizard 1\nSaveLog=1");
}

TEST(BehaviorIni, rejects_empty_key_and_bad_section) {
  EXPECT_EQ(read(" = 3\n").error().code, "behavior_ini.syntax");
  EXPECT_EQ(read("[]\n").error().code, "behavior_ini.syntax");
  EXPECT_EQ(read("[Open\n").error().code, "behavior_ini.syntax");
}

TEST(BehaviorIni, rejects_unterminated_quote) {
  auto ini = read("LogFile = \"Behavior.log\n");
  ASSERT_FALSE(ini);
  EXPECT_EQ(ini.error().code, "behavior_ini.quote");
  EXPECT_EQ(read("LogFile = \"a\"b\"\n").error().code, "behavior_ini.quote");
}

TEST(BehaviorIni, rejects_nul_and_control_bytes_in_key_and_value) {
  using namespace std::string_literals;
  EXPECT_EQ(read("Use\0Wizard=1\n"s).error().code, "behavior_ini.character");
  EXPECT_EQ(read("UseWizard=1\x01\n"s).error().code, "behavior_ini.character");
  EXPECT_EQ(read("LogFile=a\0b\n"s).error().code, "behavior_ini.character");
  // A tab inside a value is text.
  EXPECT_TRUE(read("LogFile=a\tb\n"));
}

TEST(BehaviorIni, rejects_integer_overflow_and_fractions_in_integer_keys) {
  for (const char* v : {"99999999999999999999", "2147483648", "1.5", "0x10", "", "1e3"}) {
    auto ini = read(std::string("PathFind_MinPointInTrajectory=") + v + "\n");
    ASSERT_FALSE(ini) << v;
    EXPECT_EQ(ini.error().code, "behavior_ini.value") << v;
    EXPECT_EQ(ini.error().field, "entries[0].value");
  }
  EXPECT_EQ(read("Network_ResourceTransferMaxDelay=-2147483648\n")->number("Network_ResourceTransferMaxDelay"),
            -2147483648.0);
}

TEST(BehaviorIni, rejects_non_finite_numbers) {
  for (const char* v : {"nan", "inf", "-inf", "1e400", "12,5", "abc"}) {
    auto ini = read(std::string("PathFind_MaxAccel=") + v + "\n");
    ASSERT_FALSE(ini) << v;
    EXPECT_EQ(ini.error().code, "behavior_ini.value") << v;
  }
  // Compatible keeps the raw text with no number.
  auto kept = read("PathFind_MaxAccel=nan\n", core::Profile::compatible);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->find("PathFind_MaxAccel")->raw_value, "nan");
  EXPECT_FALSE(kept->number("PathFind_MaxAccel"));
}

TEST(BehaviorIni, rejects_entry_count_past_the_limit) {
  std::string text;
  for (std::size_t i = 0; i <= kBehaviorIniMaxEntries; ++i) text += "K" + std::to_string(i) + "=1\n";
  auto ini = read(text, core::Profile::compatible);
  ASSERT_FALSE(ini);
  EXPECT_EQ(ini.error().code, "behavior_ini.limit");
}

TEST(BehaviorIni, format_table_row_detects_and_inspects) {
  const FormatInfo* f = sortie::formats::find_format("behavior_ini");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(sortie::formats::detect_format(bytes(kDemo), "GAME/behavior.INI"), f);
  ReadOptions o;
  o.file_name = "Behavior.ini";
  auto j = f->inspect(bytes(kDemo), o);
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["format"], "behavior_ini");
  EXPECT_EQ((*j)["parameters"]["PathFind_MaxAccel"], 12.5);
  EXPECT_TRUE((*j)["parameters"]["PathFind_fStepDist"].is_null());
  EXPECT_EQ((*j)["warnings"].size(), 1u);
  auto rt = f->roundtrip(bytes(kDemo), o);
  ASSERT_TRUE(rt);
  EXPECT_EQ(std::string(rt->begin(), rt->end()), std::string(kDemo));
}

TEST(BehaviorIni, builder_writes_what_the_reader_reads) {
  auto ini = build_behavior_ini({{"PathFind_fStepDist", "2"}, {"UseWizard", "0"}});
  ASSERT_TRUE(ini) << ini.error().to_string();
  EXPECT_EQ(ini->number("PathFind_fStepDist"), 2.0);
  EXPECT_EQ(ini->number("UseWizard"), 0.0);
  EXPECT_EQ(behavior_ini_keys().size(), 25u);
  EXPECT_EQ(find_behavior_key("network_resourcetransfermaxdelay")->name, "Network_ResourceTransferMaxDelay");
}
