// BuildDat.lst: categories, masks, structure diagnostics, exact write-back.
#include "sortie/iron3d/build_dat.hpp"

#include <gtest/gtest.h>

namespace sortie::iron3d {
namespace {

core::Result<BuildDat> read(std::string_view text, core::Profile p = core::Profile::strict,
                            core::Diagnostics* w = nullptr) {
  return read_build_dat(core::as_bytes(text), {p, "BuildDat.lst"}, w);
}

constexpr std::string_view kSample =
    "// buildings\r\n"
    "Bunker_Small 2\r\n"
    "  \"UNITS\\BUILDS\\bunk_s1.dat\"  \r\n"
    "\"UNITS\\BUILDS\\bunk_s2.dat\"\r\n"
    "\r\n"
    "Generator\t1\n"
    "\"UNITS/BUILDS/AI/gen-1.dat\"";

TEST(BuildDat, reads_sections_with_masks_and_lines) {
  auto d = read(kSample);
  ASSERT_TRUE(d) << d.error().to_string();
  ASSERT_EQ(d->categories.size(), 2u);
  EXPECT_EQ(d->categories[0].name, "Bunker_Small");
  EXPECT_EQ(d->categories[0].mask, 0x80010000u);
  EXPECT_EQ(d->categories[0].line, 2u);
  ASSERT_EQ(d->categories[0].units.size(), 2u);
  EXPECT_EQ(d->categories[0].units[0].path, "UNITS\\BUILDS\\bunk_s1.dat");
  EXPECT_EQ(d->categories[0].units[1].line, 4u);
  EXPECT_EQ(d->categories[1].name, "Generator");
  EXPECT_EQ(d->categories[1].mask, 0x80000002u);
  EXPECT_EQ(d->categories[1].units[0].path, "UNITS/BUILDS/AI/gen-1.dat");
  EXPECT_EQ(d->mask_of("Generator"), 0x80000002u);
  EXPECT_EQ(d->mask_of("Mine"), std::nullopt);  // absent: no mask, never 0
}

TEST(BuildDat, writes_back_exact_bytes) {
  auto d = read(kSample);
  ASSERT_TRUE(d);
  const auto out = write_build_dat(*d);
  EXPECT_EQ(core::as_chars(out), kSample);
}

TEST(BuildDat, table_has_twelve_categories_in_order) {
  const auto cats = build_categories();
  ASSERT_EQ(cats.size(), 12u);
  EXPECT_EQ(cats[0].name, "Bunker_Small");
  EXPECT_EQ(cats[11].name, "Tower_Large");
  EXPECT_EQ(cats[11].mask, 0x80200000u);
  EXPECT_EQ(build_category_mask("MainTeleport"), 0x80000200u);
  EXPECT_EQ(build_category_mask("Institute"), 0x80000400u);
  EXPECT_EQ(build_category_mask("Tower_Medium"), 0x80100000u);
  EXPECT_EQ(build_category_mask("Hangar"), 0x80000040u);
  EXPECT_EQ(build_category_mask("bunker_small"), std::nullopt);  // case-sensitive
}

TEST(BuildDat, rejects_unknown_category_at_its_line) {
  auto d = read("// x\nUnknown 0\n");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "build_dat.category_unknown");
  EXPECT_EQ(d.error().offset, 5u);
  EXPECT_NE(d.error().message.find("line 2"), std::string::npos);
  EXPECT_EQ(d.error().field, "categories[0].name");
}

TEST(BuildDat, rejects_section_running_out_of_lines_at_header) {
  auto d = read("Bunker_Small 2\n\"a.dat\"\n");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "build_dat.structure");
  EXPECT_EQ(d.error().offset, 0u);
  EXPECT_NE(d.error().message.find("line 1"), std::string::npos);
}

TEST(BuildDat, rejects_header_shapes) {
  for (std::string_view text :
       {"Bunker_Small\n", "Bunker_Small 1 2\n", "Bunker_Small -1\n", "Bunker_Small x\n", "Unknown 1 2\n"}) {
    auto d = read(text);
    ASSERT_FALSE(d) << text;
    EXPECT_EQ(d.error().code, "build_dat.structure") << text;  // shape checked before the name
  }
}

TEST(BuildDat, rejects_bad_unit_lines) {
  for (std::string_view text : {"Mine 1\n\n", "Mine 1\n// c\n", "Mine 1\nUNITS\\a.dat\n", "Mine 1\n\"\"\n",
                                "Mine 1\n\"a b.dat\"\n", "Mine 1\n\"a\n"}) {
    auto d = read(text);
    ASSERT_FALSE(d) << text;
    EXPECT_EQ(d.error().code, "build_dat.path") << text;
    EXPECT_EQ(d.error().offset, 7u) << text;
    EXPECT_EQ(d.error().field, "categories[0].units[0]");
  }
}

TEST(BuildDat, duplicate_category_strict_rejects_compatible_warns) {
  const std::string_view text = "Mine 1\n\"a.dat\"\nMine 1\n\"b.dat\"\n";
  auto strict = read(text);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, "build_dat.category_duplicate");
  EXPECT_NE(strict.error().message.find("line 1"), std::string::npos);
  core::Diagnostics w;
  auto compat = read(text, core::Profile::compatible, &w);
  ASSERT_TRUE(compat);
  EXPECT_EQ(compat->categories.size(), 2u);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].code, "build_dat.category_duplicate");
  EXPECT_EQ(w[0].severity, core::Severity::warning);
}

TEST(BuildDat, rejects_invalid_utf8) {
  auto d = read("Mine 1\n\"a\xff.dat\"\n");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, "build_dat.utf8");
  EXPECT_EQ(d.error().offset, 9u);
}

TEST(BuildDat, check_reports_missing_and_empty_categories) {
  auto d = read("Mine 0\nStorage 1\n\"s.dat\"\n");
  ASSERT_TRUE(d);
  const auto findings = check_build_dat(*d);
  std::size_t missing = 0, empty = 0;
  for (const auto& f : findings) {
    missing += f.code == "build_dat.category_missing";
    empty += f.code == "build_dat.category_empty";
  }
  EXPECT_EQ(missing, 10u);
  EXPECT_EQ(empty, 1u);
}

TEST(BuildDat, make_build_dat_writes_canonical_text) {
  std::vector<BuildDatCategory> cats;
  for (const auto& c : build_categories()) cats.push_back({std::string(c.name), 0, 0, {{"UNITS\\BUILDS\\x.dat", 0}}});
  auto d = make_build_dat(cats);
  ASSERT_TRUE(d) << d.error().to_string();
  EXPECT_EQ(d->categories.size(), 12u);
  EXPECT_EQ(d->categories[3].mask, 0x80000002u);
  EXPECT_TRUE(check_build_dat(*d).empty());
  EXPECT_EQ(d->text.substr(0, 15), "Bunker_Small 1\n");
  cats[0].name = "Bunker_Tiny";
  auto bad = make_build_dat(cats);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "build_dat.category_unknown");
  EXPECT_EQ(bad.error().offset, 0u);
  EXPECT_EQ(bad.error().field, "categories[0].name");
}

TEST(BuildDat, format_info_detects_by_name) {
  const auto info = build_dat_format_info();
  EXPECT_EQ(info.detect({}, "game/BUILDDAT.LST"), 2);
  EXPECT_EQ(info.detect({}, "game/other.lst"), 0);
  auto j = info.inspect(core::as_bytes(kSample), {});
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["categories"][1]["mask_hex"], "0x80000002");
  EXPECT_EQ((*j)["warnings"].size(), 10u);
}

}  // namespace
}  // namespace sortie::iron3d
