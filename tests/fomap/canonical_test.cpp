// Canonical format and splice (spec/fomap.md §9, §17).
#include "sortie/fomap/canonical.hpp"

#include <gtest/gtest.h>

#include "protos_fixture.hpp"

namespace sortie::fomap {
namespace {

const Project& project() {
  static const Project p = test::project_with_protos(
      "[ProtoCritter]\n$Name = Guard\n"
      "[ProtoItem]\n$Name = Rifle\nCount = 1\n"
      "[ProtoItem]\n$Name = LootCrate\n"
      "[ProtoItem]\n$Name = Ammo\n"
      "[ProtoItem]\n$Name = Wall\nIsStatic = True\n",
      "protos.fopro");
  return p;
}

// §17, byte for byte (the Mapper's own layout: file ends with a blank line).
constexpr std::string_view kCanonical =
    "[ProtoMap]\n$Name = SmallRoom\nSize = 80 80\nWorkHex = 40 40\n\n"
    "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nDir = 210\nHex = 38 40\n\n"
    "[$Name/Item]\n$Id = 2\n$Proto = Rifle\nCritterId = 1\nCritterSlot = Main\nOwnership = CritterInventory\n\n"
    "[$Name/Item]\n$Id = 3\n$Proto = LootCrate\nHex = 35 30\n\n"
    "[$Name/Item]\n$Id = 4\n$Proto = Ammo\nContainerId = 3\nCount = 20\nOwnership = ItemContainer\n\n"
    "[$Name/Item]\n$Id = 5\n$Proto = Wall\nHex = 40 30\nMultihexMesh = \\\n \"41 30\" \\\n \"42 30\"\n\n";

std::string fmt_text(std::string text, std::string path = "Maps/SmallRoom.fomap") {
  auto c = MapContainer::from_text(std::move(text), std::move(path));
  auto r = format_container(c, project());
  return r ? *r : "ERR:" + r.error().code + ": " + r.error().message;
}

TEST(FomapCanonical, spec_example_is_a_fixed_point) {
  EXPECT_EQ(fmt_text(std::string(kCanonical)), kCanonical);
}

TEST(FomapCanonical, reorders_sections_keys_and_drops_proto_equal_values) {
  const std::string messy =
      "# a comment the Mapper loses\n"
      "[ProtoMap]\n$Name = SmallRoom\nSize = 80 80\nWorkHex = 40   40\n"
      "[$Name/Item]\n$Proto = LootCrate\n$Id = 3\nHex = 35 30\n"
      "[$Name/Item]\n$Id = 5\n$Proto = Wall\nMultihexMesh = \"42 30\" \"40 30\" \"41 30\"\nHex = 42 30\nStatic = True\n"
      "[$Name/Item]\nOwnership = ItemContainer\n$Id = 4\nCount = 20\n$Proto = Ammo\nContainerId = 3\n"
      "[$Name/Critter]\n$Id = 1\nHex = 38 40\nDir = 210\n$Proto = Guard\n"
      "[$Name/Item]\n$Id = 2\nOwnership = CritterInventory\nCount = 1\n$Proto = Rifle\nCritterSlot = Main\nCritterId = "
      "1\n\n";
  EXPECT_EQ(fmt_text(messy), kCanonical);
}

TEST(FomapCanonical, joined_continuations_and_extra_blank_lines_normalize) {
  std::string s(kCanonical);
  const std::string from = "MultihexMesh = \\\n \"41 30\" \\\n \"42 30\"\n";
  s.replace(s.find(from), from.size(), "MultihexMesh = \"41 30\"    \"42 30\"\n\n\n");
  s.insert(s.find("[$Name/Item]"), "\n\n");
  EXPECT_EQ(fmt_text(s), kCanonical);
}

TEST(FomapCanonical, file_without_final_blank_line_keeps_that_ending) {
  std::string s(kCanonical);
  s.pop_back();
  EXPECT_EQ(fmt_text(s), s);
}

TEST(FomapCanonical, clamps_hex_into_size_like_the_mapper) {
  const std::string in = "[ProtoMap]\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 15 -2\n";
  EXPECT_EQ(fmt_text(in, "m.fomap"),
            "[ProtoMap]\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 9 0\n");
}

TEST(FomapCanonical, refuses_mesh_hexes_outside_the_map_instead_of_moving_them) {
  // Found by fuzz_fomap_grammar: the origin swap would pick an off-map mesh hex, which the next
  // load clamps, so the output was not a fixed point.
  const std::string in =
      "[ProtoMap]\nSize = 0 220\n\n[$Name/Item]\n$Id = 5\n$Proto = LootCrate\nHex = 79 139\nMultihexMesh = \\\n \"85 "
      "139\" \\\n \"89 119\"\n";
  EXPECT_EQ(fmt_text(in, "m.fomap").substr(0, 34), "ERR:fomap.fmt.mesh_out_of_bounds: ");
  const std::string ok =
      "[ProtoMap]\nSize = 100 200\n\n[$Name/Item]\n$Id = 5\n$Proto = LootCrate\nHex = 89 119\nMultihexMesh = \\\n \"79 "
      "139\" \\\n \"85 139\"\n";
  EXPECT_EQ(fmt_text(ok, "m.fomap"), ok);
}

TEST(FomapCanonical, refuses_multi_map_files_whose_name_line_the_splice_reads_differently) {
  // Found by fuzz_fomap_grammar: the parser trims the form feed in `$Name\f = B`, the splice's
  // `$Name` reader does not, so the splice appended a second copy of map B.
  const std::string in = "[ProtoMap]\n$Name = A\nSize = 10 10\n\n[ProtoMap]\n$Name\f = B\nSize = 10 10\n";
  EXPECT_EQ(fmt_text(in, "m.fomap").substr(0, 29), "ERR:fomap.fmt.ambiguous_maps:");
  const std::string ok = "[ProtoMap]\n$Name = A\nSize = 10 10\n\n[ProtoMap]\n$Name = B\nSize = 10 10\n";
  EXPECT_EQ(fmt_text(ok, "m.fomap"), ok);
}

TEST(FomapCanonical, old_and_new_name_of_one_property_keep_the_key_that_sorts_last) {
  // Found by fuzz_fomap_grammar: both keys were written as two `CritterId` lines.
  const std::string in =
      "[ProtoMap]\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 1 1\nCritterId = 319\nCritId = 3\n";
  EXPECT_EQ(fmt_text(in, "m.fomap"),
            "[ProtoMap]\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = LootCrate\nCritterId = 319\nHex = 1 1\n");
}

TEST(FomapCanonical, refuses_text_that_would_not_read_back_the_same) {
  // Found by fuzz_fomap_grammar: a map name ending in `\\` was written as `$Name = \\`, which
  // the next read joins with the following line.
  const std::string in = "[ProtoMap]\n$Name =\\\n\\\n";
  EXPECT_EQ(fmt_text(in, "m.fomap").substr(0, 24), "ERR:fomap.fmt.unstable: ");
}

TEST(FomapCanonical, repairs_ids_and_keeps_unnamed_anchor_unnamed) {
  const std::string in = "[ProtoMap]\nSize = 10 10\n\n[$Name/Item]\n$Proto = LootCrate\nHex = 1 1\n";
  EXPECT_EQ(fmt_text(in, "m.fomap"),
            "[ProtoMap]\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 1 1\n");
  auto c = MapContainer::from_text(in, "Maps/m.fomap");
  auto named = format_container(c, project(), {.always_write_name = true});
  ASSERT_TRUE(named.has_value());
  EXPECT_EQ(named->substr(0, 22), "[ProtoMap]\n$Name = m\nS");
}

TEST(FomapCanonical, explicit_addressing_is_kept_when_used_throughout) {
  const std::string in = "[ProtoMap]\n$Name = A\nSize = 10 10\n\n[A/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 1 1\n";
  EXPECT_EQ(fmt_text(in, "x.fomap"), in);
}

TEST(FomapCanonical, refuses_maps_the_mapper_cannot_load) {
  EXPECT_EQ(fmt_text("[ProtoMap]\n[$Name/Item]\n$Id = 1\n$Proto = Nope\n", "m.fomap").substr(0, 27),
            "ERR:fomap.fmt.proto_unknown");
  EXPECT_EQ(fmt_text("[ProtoMap]\n[$Name/Item]\n$Id = 1\n$Proto = Rifle\nOwnership = ItemContainer\nContainerId = 9\n",
                     "m.fomap")
                .substr(0, 33),
            "ERR:fomap.fmt.container_not_found");
  EXPECT_EQ(fmt_text("[Header]\n", "m.fomap").substr(0, 23), "ERR:fomap.fmt.structure");
  EXPECT_EQ(fmt_text("[ProtoMap]\n[$Name/Item]\n$Id = 1\n$Proto = Rifle\nBogus = 1\n", "m.fomap").substr(0, 32),
            "ERR:fomap.fmt.unknown_property: ");
}

TEST(FomapCanonical, splice_rewrites_one_map_and_keeps_siblings_byte_exact) {
  const std::string original =
      "# preamble kept\n"
      "[ProtoMap]\n$Name = One\nSize = 10 10\n[$Name/Item]\n$Proto = LootCrate\n$Id = 1\nHex = 1 1\n"
      "[ProtoMap]   # sibling with odd spacing\n$Name = Two\nSize   =   10 "
      "10\n\n\n[$Name/Item]\n$Id=1\n$Proto=LootCrate\n";
  const std::string block = "[ProtoMap]\n$Name = One\n\n";
  const std::string out = splice_map(original, "multi", "One", block);
  EXPECT_EQ(out, "# preamble kept\n" + block +
                     "[ProtoMap]   # sibling with odd spacing\n$Name = Two\nSize   =   10 "
                     "10\n\n\n[$Name/Item]\n$Id=1\n$Proto=LootCrate\n");
  // a map without any range is appended
  EXPECT_EQ(splice_map("[ProtoMap]\n$Name = A\n", "f", "B", "[X]\n"), "[ProtoMap]\n$Name = A\n[X]\n");
}

TEST(FomapCanonical, multi_map_container_formats_each_map_by_splice) {
  const std::string in =
      "[ProtoMap]\n$Name = One\nSize = 10 10\n\n[$Name/Item]\n$Proto = LootCrate\n$Id = 1\nHex = 1 1\n\n"
      "[ProtoMap]\n$Name = Two\nSize = 10 10\n\n[Two/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 2 2\n";
  const std::string want =
      "[ProtoMap]\n$Name = One\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 1 1\n\n"
      "[ProtoMap]\n$Name = Two\nSize = 10 10\n\n[Two/Item]\n$Id = 1\n$Proto = LootCrate\nHex = 2 2\n";
  EXPECT_EQ(fmt_text(in, "multi.fomap"), want);
}

TEST(FomapCanonical, without_protos_nothing_is_dropped_as_redundant) {
  Project bare;
  auto c = MapContainer::from_text(
      "[ProtoMap]\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = X\nCount = 0\nHex = 1 1\n", "m.fomap");
  auto r = format_container(c, bare);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  EXPECT_EQ(*r, "[ProtoMap]\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = X\nCount = 0\nHex = 1 1\n");
}

const Project& merge_project() {
  static const Project p = test::project_with_protos(
      "[ProtoItem]\n$Name = Tile\nIsStatic = True\nMultihexGeneration = SameSibling\n"
      "[ProtoItem]\n$Name = Other\nIsStatic = True\nMultihexGeneration = SameSibling\n"
      "[ProtoItem]\n$Name = Block\nIsStatic = True\nMultihexGeneration = AnyUnique\n",
      "merge.fopro");
  return p;
}

std::string fmt_merge(const std::string& body) {
  auto c = MapContainer::from_text("[ProtoMap]\nSize = 50 50\n\n" + body, "m.fomap");
  auto r = format_container(c, merge_project());
  return r ? *r : "ERR:" + r.error().code;
}

TEST(FomapMultihexMerge, same_sibling_row_of_clean_tiles_becomes_one_item) {
  const std::string out = fmt_merge(
      "[$Name/Item]\n$Id = 4\n$Proto = Tile\nHex = 13 10\n\n[$Name/Item]\n$Id = 2\n$Proto = Tile\nHex = 11 10\n\n"
      "[$Name/Item]\n$Id = 1\n$Proto = Tile\nHex = 10 10\n\n[$Name/Item]\n$Id = 3\n$Proto = Tile\nHex = 12 10\n");
  EXPECT_EQ(out,
            "[ProtoMap]\nSize = 50 50\n\n[$Name/Item]\n$Id = 1\n$Proto = Tile\nHex = 10 10\nMultihexMesh = \\\n \"11 "
            "10\" \\\n"
            " \"12 10\" \\\n \"13 10\"\n");
  EXPECT_EQ(fmt_merge(out.substr(std::string("[ProtoMap]\nSize = 50 50\n\n").size())), out);  // idempotent
}

TEST(FomapMultihexMerge, different_protos_and_different_data_never_merge) {
  const std::string body =
      "[$Name/Item]\n$Id = 1\n$Proto = Tile\nHex = 10 10\n\n[$Name/Item]\n$Id = 2\n$Proto = Other\nHex = 11 10\n\n"
      "[$Name/Item]\n$Id = 3\n$Proto = Tile\nHex = 20 20\nLightDistance = 3\n\n[$Name/Item]\n$Id = 4\n$Proto = "
      "Tile\nHex = 21 20\nLightDistance = 4\n";
  EXPECT_EQ(fmt_merge(body), "[ProtoMap]\nSize = 50 50\n\n" + body);
}

TEST(FomapMultihexMerge, clean_tile_absorbs_modified_neighbour_and_drops_its_data) {
  const std::string out = fmt_merge(
      "[$Name/Item]\n$Id = 1\n$Proto = Tile\nHex = 10 10\n\n[$Name/Item]\n$Id = 2\n$Proto = Tile\nHex = 11 "
      "10\nLightDistance = 3\n");
  EXPECT_EQ(
      out,
      "[ProtoMap]\nSize = 50 50\n\n[$Name/Item]\n$Id = 1\n$Proto = Tile\nHex = 10 10\nMultihexMesh = \\\n \"11 10\"\n");
}

TEST(FomapMultihexMerge, any_unique_merges_scattered_items_into_lowest_id) {
  const std::string out = fmt_merge(
      "[$Name/Item]\n$Id = 9\n$Proto = Block\nHex = 30 30\n\n[$Name/Item]\n$Id = 5\n$Proto = Block\nHex = 40 2\n\n"
      "[$Name/Item]\n$Id = 7\n$Proto = Block\nHex = 1 1\nLightDistance = 2\n");
  EXPECT_EQ(
      out,
      "[ProtoMap]\nSize = 50 50\n\n[$Name/Item]\n$Id = 5\n$Proto = Block\nHex = 40 2\nMultihexMesh = \\\n \"30 30\"\n\n"
      "[$Name/Item]\n$Id = 7\n$Proto = Block\nHex = 1 1\nLightDistance = 2\n");
}

TEST(FomapCanonical, refuses_multi_map_files_the_splice_cannot_identify) {
  Project bare;
  for (const char* text : {"[ProtoMap]\n$Name = A # note\n[ProtoMap]\n$Name = B\n",  // comment on the $Name line
                           "[ProtoMap]\n[ProtoMap]\n$Name = B\n",                    // unnamed anchor
                           "[ProtoMap]\n$Name = A\n[ProtoMap]\n$Name = A\n[ProtoMap]\n$Name = B\n"}) {
    auto c = MapContainer::from_text(text, "multi.fomap");
    auto r = format_container(c, bare);
    ASSERT_FALSE(r.has_value()) << text;
    EXPECT_EQ(r.error().code, "fomap.fmt.ambiguous_maps");
  }
}

TEST(FomapCanonical, multi_map_file_in_one_pass_equals_splicing_each_map_in_turn) {
  // Three maps, their sections interleaved, explicit and contextual addressing, unsorted keys.
  const std::string in =
      "# kept preamble\n"
      "[ProtoMap]\n$Name = One\nSize = 10 10\n\n[$Name/Item]\n$Proto = LootCrate\n$Id = 4\nHex = 1 1\n\n"
      "[ProtoMap]\n$Name = Two\nSize = 20 20\n\n[$Name/Critter]\nHex = 3 3\n$Id = 2\n$Proto = Guard\n\n"
      "[One/Item]\n$Id = 1\n$Proto = Wall\nHex = 5 5\nMultihexMesh = \"7 5\" \"6 5\"\n\n"
      "[ProtoMap]\n$Name = Three\n\n[$Name/Item]\n$Id = 9\n$Proto = Ammo\nHex = 2 2\n\n"
      "[Two/Item]\n$Id = 3\n$Proto = Rifle\nOwnership = CritterInventory\nCritterId = 2\n";
  const MapContainer c = MapContainer::from_text(in, "multi.fomap");
  ASSERT_EQ(c.maps().size(), 3u);
  std::string want = in;
  for (const auto& m : c.maps()) {
    auto block = format_map(c, m.name, project());
    ASSERT_TRUE(block.has_value()) << block.error().to_string();
    want = splice_map(want, c.stem(), m.name, *block);
  }
  want.pop_back();  // the input ends right after its last line, and so does the output
  auto got = format_container(c, project());
  ASSERT_TRUE(got.has_value()) << got.error().to_string();
  EXPECT_EQ(*got, want);
  EXPECT_EQ(*got,
            "# kept preamble\n"
            "[ProtoMap]\n$Name = One\nSize = 10 10\n\n"
            "[$Name/Item]\n$Id = 4\n$Proto = LootCrate\nHex = 1 1\n\n"
            "[$Name/Item]\n$Id = 1\n$Proto = Wall\nHex = 5 5\nMultihexMesh = \\\n \"6 5\" \\\n \"7 5\"\n\n"
            "[ProtoMap]\n$Name = Two\nSize = 20 20\n\n"
            "[$Name/Critter]\n$Id = 2\n$Proto = Guard\nHex = 3 3\n\n"
            "[$Name/Item]\n$Id = 3\n$Proto = Rifle\nCritterId = 2\nOwnership = CritterInventory\n\n"
            "[ProtoMap]\n$Name = Three\n\n[$Name/Item]\n$Id = 9\n$Proto = Ammo\nHex = 2 2\n");
}

TEST(FomapCanonical, refuses_a_mesh_cut_inside_a_pair_instead_of_moving_the_item) {
  // Without the check `"39 3` reads as the hex 39 3, which sorts before the origin 40 30 and
  // becomes the item's new Hex.
  const std::string cut =
      std::string(kCanonical.substr(0, kCanonical.find("MultihexMesh"))) + "MultihexMesh = \\\n \"41 30\" \\\n \"39 3";
  EXPECT_EQ(fmt_text(cut).substr(0, 39), "ERR:fomap.fmt.mesh_unterminated_quote: ");
  // What the check prevents: the same pair, closed, is a hex that becomes the origin.
  EXPECT_NE(fmt_text(cut + "\"\n").find("Hex = 39 3\n"), std::string::npos);
}

TEST(FomapCanonical, format_text_tells_whether_the_text_changed) {
  auto same = format_text(std::string(kCanonical), "Maps/SmallRoom.fomap", project());
  ASSERT_TRUE(same.has_value()) << same.error().to_string();
  EXPECT_FALSE(same->changed);
  EXPECT_EQ(same->text, kCanonical);
  std::string messy(kCanonical);
  messy.insert(messy.find("[$Name/Critter]"), "\n\n");
  auto fixed = format_text(messy, "Maps/SmallRoom.fomap", project());
  ASSERT_TRUE(fixed.has_value()) << fixed.error().to_string();
  EXPECT_TRUE(fixed->changed);
  EXPECT_EQ(fixed->text, kCanonical);
  auto unstable = format_text("[ProtoMap]\n$Name =\\\n\\\n", "m.fomap", project());
  ASSERT_FALSE(unstable.has_value());
  EXPECT_EQ(unstable.error().code, "fomap.fmt.unstable");
}

}  // namespace
}  // namespace sortie::fomap
