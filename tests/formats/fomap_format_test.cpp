// `.fomap` in the format table: detection by content and name, inspect of the current, bare
// and classic generations (sections, counts, prototype references, header keys), check.
#include <gtest/gtest.h>

#include "sortie/core/json.hpp"
#include "sortie/formats/formats.hpp"

namespace sortie::formats {
namespace {

constexpr std::string_view kCurrent = R"([ProtoMap]
Size = 100 100
WorkHex = 10 10

[$Name/Critter]
$Id = 1
$Proto = Guard
Hex = 5 5

[$Name/Item]
$Id = 2
$Proto = Wall
Hex = 6 6

[$Name/Item]
$Id = 3
$Proto = Wall
Hex = 7 7
)";

constexpr std::string_view kBare = R"([ProtoMap]
Size = 10 10

[Critter]
$Id = 1
$Proto = Rat
Hex = 1 1

[Item]
$Id = 2
$Proto = Rock
Hex = 2 2
)";

constexpr std::string_view kClassic = R"([Header]
Version              4
MaxHexX              200
MaxHexY              200

[Tiles]
tile       10  10             art\tiles\a.frm
roof       12  10             art\tiles\b.frm
tile       14  10             art\tiles\a.frm

[Objects]
MapObjType           0
ProtoId              101
MapX                 5
MapY                 5

MapObjType           1
ProtoId              200
MapX                 6
MapY                 6

MapObjType           2
ProtoId              4012
MapX                 7
MapY                 7

MapObjType           2
ProtoId              4012
MapX                 8
MapY                 8
)";

core::ByteView bytes(std::string_view s) {
  return core::as_bytes(s);
}

core::Json inspect(std::string_view text, std::string name) {
  auto j = fomap_format_info().inspect(bytes(text), {core::Profile::strict, std::move(name)});
  EXPECT_TRUE(j.has_value());
  return j ? *j : core::Json();
}

TEST(FormatFomap, is_in_the_table_and_found_by_content_or_name) {
  ASSERT_NE(find_format("fomap"), nullptr);
  const auto table = all_formats();
  ASSERT_GE(table.size(), 4u);
  // after the Iron3D rows, before weather, the manifest and the mission scripts
  EXPECT_EQ(table[table.size() - 4].name, "fomap");
  for (std::string_view text : {kCurrent, kBare, kClassic}) {
    EXPECT_EQ(detect_format(bytes(text), "map.fomap")->name, "fomap");
    EXPECT_EQ(detect_format(bytes(text), "renamed.txt")->name, "fomap");
    EXPECT_EQ(fomap_format_info().detect(bytes(text), "renamed.txt"), kDetectContent);
  }
  const std::string_view ini = "[Options]\nVolume = 3\n";
  EXPECT_EQ(detect_format(bytes(ini), "settings.ini"), nullptr);
  EXPECT_EQ(fomap_format_info().detect(bytes(ini), "odd.fomap"), kDetectName);
  EXPECT_EQ(fomap_format_info().detect(bytes(std::string_view("NRes\0\0", 6)), "x.lib"), kDetectNone);
  EXPECT_EQ(fomap_format_info().roundtrip, nullptr);  // the text is its own model
}

TEST(FormatFomap, inspects_a_current_map_through_the_loader) {
  const auto j = inspect(kCurrent, "maps/town.fomap");
  EXPECT_EQ(j.at("format"), "fomap");
  EXPECT_EQ(j.at("generation"), "current");
  EXPECT_EQ(j.at("lines"), 19);
  ASSERT_EQ(j.at("sections").size(), 3u);
  EXPECT_EQ(j.at("sections")[0], (core::Json{{"name", "ProtoMap"}, {"first_line", 1}, {"count", 1}}));
  EXPECT_EQ(j.at("sections")[1], (core::Json{{"name", "$Name/Critter"}, {"first_line", 5}, {"count", 1}}));
  EXPECT_EQ(j.at("sections")[2], (core::Json{{"name", "$Name/Item"}, {"first_line", 10}, {"count", 2}}));
  EXPECT_EQ(j.at("counts"), (core::Json{{"critters", 1}, {"items", 2}}));
  EXPECT_EQ(j.at("header_keys"), (core::Json{"Size", "WorkHex"}));
  EXPECT_EQ(j.at("distinct_protos"), 2);
  EXPECT_EQ(j.at("protos")[0], (core::Json{{"proto", "Guard"}, {"references", 1}}));
  EXPECT_EQ(j.at("protos")[1], (core::Json{{"proto", "Wall"}, {"references", 2}}));
  ASSERT_EQ(j.at("maps").size(), 1u);
  EXPECT_EQ(j.at("maps")[0], (core::Json{{"name", "town"}, {"critters", 1}, {"items", 2}}));
  EXPECT_EQ(j.at("loadable"), true);
  EXPECT_FALSE(j.contains("structure_errors"));
}

TEST(FormatFomap, inspects_a_bare_sections_map) {
  const auto j = inspect(kBare, "old.fomap");
  EXPECT_EQ(j.at("generation"), "bare-sections-v2");
  EXPECT_EQ(j.at("counts"), (core::Json{{"critters", 1}, {"items", 1}}));
  EXPECT_EQ(j.at("distinct_protos"), 2);
  EXPECT_EQ(j.at("header_keys"), (core::Json{"Size"}));
  EXPECT_EQ(j.at("loadable"), false);  // the current engine refuses bare sections
  EXPECT_FALSE(j.at("structure_errors").empty());
}

TEST(FormatFomap, inspects_a_classic_map) {
  const auto j = inspect(kClassic, "classic.fomap");
  EXPECT_EQ(j.at("generation"), "classic");
  EXPECT_EQ(j.at("counts"), (core::Json{{"critters", 1}, {"items", 1}, {"scenery", 2}, {"tiles", 3}}));
  EXPECT_EQ(j.at("tile_kinds"), (core::Json{{"roof", 1}, {"tile", 2}}));
  EXPECT_EQ(j.at("header_keys"), (core::Json{"Version", "MaxHexX", "MaxHexY"}));
  EXPECT_EQ(j.at("distinct_protos"), 3);
  EXPECT_EQ(j.at("protos")[2], (core::Json{{"proto", "4012"}, {"references", 2}}));
  ASSERT_EQ(j.at("sections").size(), 3u);
  EXPECT_EQ(j.at("sections")[2].at("name"), "Objects");
  EXPECT_EQ(j.at("loadable"), false);
}

TEST(FormatFomap, check_is_the_lint_gate) {
  const auto good = fomap_format_info().check(bytes(kCurrent), {core::Profile::compatible, "town.fomap"});
  ASSERT_TRUE(good) << good.error().to_string();
  ASSERT_FALSE(good->findings.empty());
  EXPECT_EQ(good->findings.front().code, "fomap.check.protos");  // what was not checked is said
  EXPECT_EQ(good->findings.front().severity, core::Severity::note);
  // Two placements with the same $Id: the engine repairs it (warning), the strict gate rejects it.
  std::string dup(kCurrent);
  dup.replace(dup.find("$Id = 3"), 7, "$Id = 2");
  const auto compat = fomap_format_info().check(bytes(dup), {core::Profile::compatible, "town.fomap"});
  ASSERT_TRUE(compat) << compat.error().to_string();
  const auto strict = fomap_format_info().check(bytes(dup), {core::Profile::strict, "town.fomap"});
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code.rfind("map-format.rule.shared-placement-ids.", 0), 0u) << strict.error().code;
  EXPECT_EQ(strict.error().file, "town.fomap");
  const auto classic = fomap_format_info().check(bytes(kClassic), {core::Profile::compatible, "c.fomap"});
  EXPECT_FALSE(classic);  // the current engine does not load classic maps
}

}  // namespace
}  // namespace sortie::formats
