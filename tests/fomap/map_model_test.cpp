// Map containers: the engine's Test_MapLoader expectations (spec/fomap.md §3, §15).
#include "sortie/fomap/map_model.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace sortie::fomap {
namespace {

bool has_error(const MapContainer& c, std::string_view code) {
  for (const auto& e : c.structure_errors())
    if (e.code == code) return true;
  return false;
}

TEST(FomapMapModel, rejects_classic_header_tiles_objects) {
  auto c = MapContainer::from_text("[Header]\nVersion 4\n[Tiles]\n[Objects]\n", "Maps/Old.fomap");
  EXPECT_FALSE(c.loadable());
  EXPECT_TRUE(has_error(c, "fomap.structure.top_level"));
  EXPECT_TRUE(c.maps().empty());
}

TEST(FomapMapModel, rejects_nested_section_without_anchor) {
  auto c = MapContainer::from_text("[$Name/Critter]\n$Id = 1\n$Proto = A\n", "Maps/X.fomap");
  EXPECT_TRUE(has_error(c, "fomap.structure.no_anchor_before"));
  EXPECT_TRUE(has_error(c, "fomap.structure.no_anchor"));
}

TEST(FomapMapModel, rejects_bare_critter_section_and_empty_owner) {
  auto a = MapContainer::from_text("[ProtoMap]\n[Critter]\n$Proto = A\n", "Maps/TestMap.fomap");
  EXPECT_TRUE(has_error(a, "fomap.structure.top_level"));
  auto b = MapContainer::from_text("[ProtoMap]\n[/Item]\n$Proto = A\n", "Maps/TestMap.fomap");
  EXPECT_TRUE(has_error(b, "fomap.structure.undeclared_owner"));
}

TEST(FomapMapModel, rejects_section_addressed_to_undeclared_map) {
  auto c = MapContainer::from_text("[ProtoMap]\n$Name = TestMap\n[OtherMap/Item]\n$Proto = A\n", "Maps/TestMap.fomap");
  EXPECT_TRUE(has_error(c, "fomap.structure.undeclared_owner"));
  EXPECT_EQ(c.structure_errors()[0].line, 3u);
}

TEST(FomapMapModel, rejects_unknown_nested_type) {
  for (const char* name : {"[$Name/Tile]", "[$Name/Item/X]", "[A/B/Item]"}) {
    auto c = MapContainer::from_text(std::string("[ProtoMap]\n$Name = A\n") + name + "\n", "m.fomap");
    EXPECT_TRUE(has_error(c, "fomap.structure.nested_type")) << name;
  }
}

TEST(FomapMapModel, lowercase_protomap_is_not_an_anchor) {
  auto c = MapContainer::from_text("[protomap]\nSize = 1 1\n", "m.fomap");
  EXPECT_TRUE(has_error(c, "fomap.structure.top_level"));
  EXPECT_TRUE(c.anchors().empty());
}

TEST(FomapMapModel, anonymous_anchor_takes_file_stem_and_named_one_its_name) {
  auto c = MapContainer::from_text(
      "[ProtoMap]\n[$Name/Item]\n$Id = 1\n$Proto = A\n[ProtoMap]\n$Name = ZoneB\n[$Name/Item]\n$Id = 1\n$Proto = B\n",
      "Maps/Zones.fomap");
  ASSERT_EQ(c.maps().size(), 2u);
  EXPECT_EQ(c.maps()[0].name, "Zones");
  EXPECT_EQ(c.maps()[1].name, "ZoneB");
  ASSERT_EQ(c.maps()[0].items.size(), 1u);
  EXPECT_EQ(c.maps()[0].items[0].proto, "A");
  ASSERT_EQ(c.maps()[1].items.size(), 1u);
  EXPECT_EQ(c.maps()[1].items[0].proto, "B");
}

TEST(FomapMapModel, explicit_owner_before_anchor_is_accepted) {
  auto c = MapContainer::from_text("[MapOne/Item]\n$Id = 5\n$Proto = A\n[ProtoMap]\n$Name = MapOne\n", "f.fomap");
  EXPECT_TRUE(c.loadable());
  ASSERT_EQ(c.maps().size(), 1u);
  EXPECT_EQ(c.maps()[0].items.size(), 1u);
}

TEST(FomapMapModel, duplicate_ids_are_repaired_across_critters_then_items) {
  auto c = MapContainer::from_text(
      "[ProtoMap]\n$Name = TestMap\n"
      "[$Name/Item]\n$Id = 2\n$Proto = I\n"
      "[$Name/Critter]\n$Id = 0\n$Proto = C\n"
      "[$Name/Critter]\n$Id = 0\n$Proto = C\n"
      "[TestMap/Item]\n$Id = 2\n$Proto = I\n",
      "m.fomap");
  ASSERT_TRUE(c.loadable());
  const auto& m = c.maps()[0];
  ASSERT_EQ(m.critters.size(), 2u);
  ASSERT_EQ(m.items.size(), 2u);
  EXPECT_EQ(m.critters[0].id, 1);
  EXPECT_EQ(m.critters[1].id, 2);
  EXPECT_EQ(m.items[0].id, 3);
  EXPECT_EQ(m.items[1].id, 4);
  EXPECT_TRUE(m.items[0].id_repaired);
  EXPECT_FALSE(m.items[1].contextual);
}

TEST(FomapMapModel, repair_is_greedy_from_highest_seen) {
  // critter missing, items 1, 7, missing -> 1, 2, 7, 8
  auto c = MapContainer::from_text(
      "[ProtoMap]\n[$Name/Critter]\n$Proto = C\n[$Name/Item]\n$Id = 1\n$Proto = I\n[$Name/Item]\n$Id = 7\n$Proto = "
      "I\n[$Name/Item]\n$Proto = I\n",
      "m.fomap");
  const auto& m = c.maps()[0];
  EXPECT_EQ(m.critters[0].id, 1);
  EXPECT_EQ(m.items[0].id, 2);
  EXPECT_EQ(m.items[1].id, 7);
  EXPECT_EQ(m.items[2].id, 8);
  IdRepair r;
  EXPECT_EQ(r.fix(500), 500);
  EXPECT_EQ(r.fix(0), 501);
}

TEST(FomapMapModel, id_repair_after_int64_max_wraps_like_the_engine) {
  // Found by fuzz_fomap_grammar (UBSan: signed overflow in the repair walk).
  IdRepair r;
  EXPECT_EQ(r.fix(INT64_MAX), INT64_MAX);
  EXPECT_EQ(r.fix(INT64_MAX), INT64_MIN);
  EXPECT_EQ(r.fix(0), INT64_MIN + 1);
}

TEST(FomapMapModel, placement_without_proto_consumes_no_id) {
  auto c = MapContainer::from_text("[ProtoMap]\n[$Name/Item]\n$Id = 0\n[$Name/Item]\n$Id = 0\n$Proto = I\n", "m.fomap");
  const auto& m = c.maps()[0];
  EXPECT_FALSE(m.items[0].has_proto);
  EXPECT_EQ(m.items[1].id, 1);
}

TEST(FomapMapModel, ids_above_2_pow_32_are_kept) {
  auto c = MapContainer::from_text("[ProtoMap]\n[$Name/Item]\n$Id = 4294975901\n$Proto = I\n", "m.fomap");
  EXPECT_EQ(c.maps()[0].items[0].id, 4294975901LL);
  EXPECT_FALSE(c.maps()[0].items[0].id_repaired);
}

TEST(FomapMapModel, multi_map_file_loads_each_map_separately) {
  auto c = MapContainer::from_text(
      "[ProtoMap]\n$Name = MapOne\n[$Name/Item]\n$Id = 1\n$Proto = I\n"
      "[ProtoMap]\n$Name = MapTwo\n[$Name/Item]\n$Id = 1\n$Proto = I\n[$Name/Item]\n$Id = 2\n$Proto = I\n",
      "multi.fomap");
  ASSERT_EQ(c.maps().size(), 2u);
  EXPECT_EQ(c.find_map("MapOne")->items.size(), 1u);
  EXPECT_EQ(c.find_map("MapTwo")->items.size(), 2u);
  EXPECT_EQ(c.find_map("AnotherMap"), nullptr);
}

TEST(FomapMapModel, colliding_unnamed_anchors_enumerate_once) {
  auto c = MapContainer::from_text("[ProtoMap]\n[ProtoMap]\n", "Maps/Collide.fomap");
  ASSERT_EQ(c.maps().size(), 1u);
  EXPECT_EQ(c.maps()[0].name, "Collide");
  EXPECT_EQ(c.maps()[0].anchors.size(), 2u);
}

TEST(FomapMapModel, empty_file_declares_nothing_without_error) {
  auto c = MapContainer::from_text("", "Maps/Empty.fomap");
  EXPECT_TRUE(c.maps().empty());
  EXPECT_TRUE(c.structure_errors().empty());
  EXPECT_FALSE(c.loadable());
}

TEST(FomapMapModel, file_stem_strips_directory_and_last_extension) {
  EXPECT_EQ(file_stem("Maps/Sub/X.fomap"), "X");
  EXPECT_EQ(file_stem("a.b.fomap"), "a.b");
  EXPECT_EQ(file_stem("C:\\m\\Y.fomap"), "Y");
}

TEST(FomapMapModel, placement_properties_skip_directives_and_underscore_keys) {
  auto c = MapContainer::from_text("[ProtoMap]\n[$Name/Item]\n$Id = 1\n$Proto = I\n_note = x\nHex = 1 2\n$Extra = 3\n",
                                   "m.fomap");
  const auto props = c.maps()[0].items[0].properties(c);
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props[0]->key, "Hex");
  EXPECT_EQ(props[0]->line, 6u);
}

}  // namespace
}  // namespace sortie::fomap
