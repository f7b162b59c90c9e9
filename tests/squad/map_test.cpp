// The map text format: every field, the canonical writer, and hostile inputs with file:line.
#include "sortie/squad/map.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace sortie::squad {
namespace {

constexpr std::string_view kGood =
    "# a comment line\n"
    "squad-map 1\n"
    "name Test room\n"
    "squad 3\n"
    "formation ring\n"
    "heading south\n"
    "tune weaponRange 9.5\n"
    "tune freeFireSecondary false\n"
    "grid 6 4\n"
    "######\n"
    "#@.h.#\n"
    "#...H#\n"
    "######\n"
    "# trailing comment\n";

core::Diagnostic error_of(std::string_view text) {
  auto m = parse_squad_map(text, "m.txt");
  EXPECT_FALSE(m) << "parsed";
  return m ? core::Diagnostic{} : m.error();
}

TEST(SquadMapFile, reads_every_field) {
  const auto m = parse_squad_map(kGood, "m.txt");
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->name, "Test room");
  EXPECT_EQ(m->squad_size, 3u);
  EXPECT_EQ(m->formation, Formation::ring);
  EXPECT_EQ(m->heading, Heading::south);
  EXPECT_EQ(m->width, 6);
  EXPECT_EQ(m->height, 4);
  EXPECT_EQ(std::count(m->solid.begin(), m->solid.end(), 1), 16);  // the border
  EXPECT_EQ(m->squads, (std::vector<CellPos>{{1, 1}}));
  EXPECT_EQ(m->hostiles, (std::vector<CellPos>{{3, 1}}));
  EXPECT_EQ(m->lairs, (std::vector<CellPos>{{4, 2}}));
  ASSERT_EQ(m->tune.size(), 2u);
  EXPECT_EQ(m->tune[0], (std::pair<std::string, std::string>{"weaponRange", "9.5"}));
  const auto t = map_tuning(*m);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->weapon_range, 9.5f);
  EXPECT_FALSE(t->free_fire_secondary);
  EXPECT_EQ(m->squads[0].centre(), (core::Vec2{1.5f, 1.5f}));
}

TEST(SquadMapFile, canonical_text_is_a_fixed_point) {
  const auto m = parse_squad_map(kGood, "m.txt");
  ASSERT_TRUE(m);
  const std::string canonical = write_squad_map(*m);
  EXPECT_EQ(canonical,
            "squad-map 1\nname Test room\nsquad 3\nformation ring\nheading south\ntune weaponRange 9.5\n"
            "tune freeFireSecondary false\ngrid 6 4\n######\n#@.h.#\n#...H#\n######\n");
  const auto again = parse_squad_map(canonical, "c.txt");
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *m);
  EXPECT_EQ(write_squad_map(*again), canonical);
  EXPECT_EQ(map_fingerprint(*again), map_fingerprint(*m));
}

TEST(SquadMapFile, defaults_without_optional_lines) {
  const auto m = parse_squad_map("squad-map 1\ngrid 3 1\n@.h\n");
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->squad_size, 5u);
  EXPECT_EQ(m->formation, Formation::wedge);
  EXPECT_EQ(m->heading, Heading::east);
  EXPECT_TRUE(m->name.empty());
}

TEST(SquadMapFile, accepts_crlf_and_trailing_blanks_in_rows) {
  const auto m = parse_squad_map("squad-map 1\r\ngrid 3 1\r\n@.h  \r\n");
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->width, 3);
}

TEST(SquadMapFile, reads_the_shipped_maps) {
  namespace fs = std::filesystem;
  int maps = 0;
  for (const char* name : {"rooms.txt", "yard.txt", "maze.txt"}) {
    const auto m = load_squad_map(fs::path(SORTIE_SOURCE_DIR) / "data" / "squad" / name);
    ASSERT_TRUE(m) << m.error().to_string();
    EXPECT_FALSE(m->name.empty());
    EXPECT_EQ(m->squads.size(), 1u);
    EXPECT_EQ(write_squad_map(*parse_squad_map(write_squad_map(*m))), write_squad_map(*m));
    ++maps;
  }
  EXPECT_EQ(maps, 3);
}

TEST(SquadMapFile, rejects_empty_input) {
  const auto d = error_of("");
  EXPECT_EQ(d.code, "squad.map.header");
}

TEST(SquadMapFile, rejects_missing_header) {
  const auto d = error_of("grid 1 1\n@\n");
  EXPECT_EQ(d.code, "squad.map.header");
  EXPECT_EQ(d.file, "m.txt:1");
}

TEST(SquadMapFile, rejects_unknown_version) {
  const auto d = error_of("# c\nsquad-map 2\ngrid 1 1\n@\n");
  EXPECT_EQ(d.code, "squad.map.version");
  EXPECT_EQ(d.file, "m.txt:2");
  EXPECT_EQ(d.found, "'2'");
}

TEST(SquadMapFile, rejects_unknown_directive) {
  const auto d = error_of("squad-map 1\nsize 3 3\n");
  EXPECT_EQ(d.code, "squad.map.directive");
  EXPECT_EQ(d.file, "m.txt:2");
}

TEST(SquadMapFile, rejects_duplicate_directive_and_tuning_field) {
  EXPECT_EQ(error_of("squad-map 1\nsquad 2\nsquad 3\n").code, "squad.map.duplicate");
  const auto d = error_of("squad-map 1\ntune holdDelay 0.2\ntune holdDelay 0.3\n");
  EXPECT_EQ(d.code, "squad.map.duplicate");
  EXPECT_EQ(d.file, "m.txt:3");
}

TEST(SquadMapFile, rejects_row_width_mismatch_with_its_line) {
  const auto d = error_of("squad-map 1\ngrid 4 3\n####\n#@h#\n###\n");
  EXPECT_EQ(d.code, "squad.map.row_width");
  EXPECT_EQ(d.file, "m.txt:5");
  EXPECT_EQ(d.field, "grid[2]");
  EXPECT_EQ(d.to_string(),
            "m.txt:5: grid[2]: grid row 2 has 3 cells (expected 4 cells, found 3 cells) [squad.map.row_width]");
}

TEST(SquadMapFile, rejects_unknown_cell) {
  const auto d = error_of("squad-map 1\ngrid 4 2\n#@h#\n#.x#\n");
  EXPECT_EQ(d.code, "squad.map.cell");
  EXPECT_EQ(d.file, "m.txt:4");
  EXPECT_EQ(d.field, "grid[1][2]");
  EXPECT_EQ(d.found, "'x'");
}

TEST(SquadMapFile, rejects_missing_rows) {
  const auto d = error_of("squad-map 1\ngrid 3 3\n@.h\n...\n");
  EXPECT_EQ(d.code, "squad.map.rows_missing");
}

TEST(SquadMapFile, rejects_text_after_the_grid) {
  const auto d = error_of("squad-map 1\ngrid 3 1\n@.h\nsquad 3\n");
  EXPECT_EQ(d.code, "squad.map.trailing");
  EXPECT_EQ(d.file, "m.txt:4");
}

TEST(SquadMapFile, rejects_grid_over_the_size_limit) {
  EXPECT_EQ(error_of("squad-map 1\ngrid 513 2\n").code, "squad.map.value");
  EXPECT_EQ(error_of("squad-map 1\ngrid 99999999999 2\n").code, "squad.map.value");
  EXPECT_EQ(error_of("squad-map 1\ngrid 0 2\n").code, "squad.map.value");
  EXPECT_EQ(error_of("squad-map 1\ngrid -3 2\n").code, "squad.map.value");
}

TEST(SquadMapFile, rejects_squad_of_six) {
  const auto d = error_of("squad-map 1\nsquad 6\ngrid 3 1\n@.h\n");
  EXPECT_EQ(d.code, "squad.map.value");
  EXPECT_EQ(d.expected, "1 .. 5");
}

TEST(SquadMapFile, rejects_map_without_squad_or_hostiles) {
  EXPECT_EQ(error_of("squad-map 1\ngrid 3 1\n..h\n").code, "squad.map.no_squad");
  EXPECT_EQ(error_of("squad-map 1\ngrid 3 1\n@..\n").code, "squad.map.no_hostiles");
  EXPECT_EQ(error_of("squad-map 1\nname x\n").code, "squad.map.no_grid");
}

TEST(SquadMapFile, rejects_seventeen_squad_starts) {
  const auto d = error_of("squad-map 1\ngrid 18 1\n@@@@@@@@@@@@@@@@@h\n");
  EXPECT_EQ(d.code, "squad.map.too_many_squads");
}

TEST(SquadMapFile, rejects_bad_tuning_lines) {
  EXPECT_EQ(error_of("squad-map 1\ntune nope 1\n").code, "squad.map.tune");
  EXPECT_EQ(error_of("squad-map 1\ntune weaponRange far\n").code, "squad.map.tune");
  const auto range = error_of("squad-map 1\ntune weaponRange 1000\n");
  EXPECT_EQ(range.code, "squad.map.tune");
  EXPECT_EQ(range.field, "tune.weaponRange");
  EXPECT_EQ(range.file, "m.txt:2");
  const auto relation = error_of("squad-map 1\ntune anchorLeash 5\ngrid 3 1\n@.h\n");
  EXPECT_EQ(relation.code, "squad.map.tune");
  EXPECT_EQ(relation.file, "m.txt:2");
}

TEST(SquadMapFile, rejects_control_bytes_and_non_ascii_outside_comments) {
  EXPECT_EQ(error_of(std::string("squad-map 1\nname a\x01z\n")).code, "squad.map.char");
  EXPECT_EQ(error_of("squad-map 1\nname caf\xc3\xa9\n").code, "squad.map.char");
  EXPECT_TRUE(parse_squad_map("# caf\xc3\xa9\nsquad-map 1\ngrid 2 1\n@h\n"));
}

TEST(SquadMapFile, rejects_bad_words) {
  EXPECT_EQ(error_of("squad-map 1\nformation square\n").code, "squad.map.value");
  EXPECT_EQ(error_of("squad-map 1\nheading up\n").code, "squad.map.value");
  EXPECT_EQ(error_of("squad-map 1\nsquad\n").code, "squad.map.value");
  EXPECT_EQ(error_of("squad-map 1\nname\n").code, "squad.map.value");
}

TEST(SquadMapFile, load_reports_missing_file_as_io) {
  const auto m = load_squad_map("/nonexistent/squad/map.txt");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code.rfind("io.", 0), 0u);
}

}  // namespace
}  // namespace sortie::squad
