#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "sortie/core/file_io.hpp"
#include "sortie/fomap/json_model.hpp"
#include "sortie_test/corpus.hpp"

namespace sortie::fomap {
namespace {

TEST(FomapJson, uses_the_canonical_vocabulary) {
  const MapContainer c = MapContainer::from_text(
      "[ProtoMap]\n$Name = SmallRoom\n$Text engl = \"Room\"\nSize = 80 80\nWorkHex = 40 40\n\n"
      "[$Name/Critter]\n$Id = 100\n$Proto = Guard\nHex = 30 30\nDir = 210\n\n"
      "[$Name/Item]\n$Id = 101\n$Proto = Rifle\nOwnership = CritterInventory\nCritterId = 100\n\n"
      "[SmallRoom/Item]\n$Id = 5\n$Proto = Wall\nHex = 40 30\nMultihexMesh = \"41 30\" \"42 30\"\nNoSuchThing = 1\n",
      "Maps/SmallRoom.fomap");
  const Project project;
  const core::Json j = container_json(c, project);
  EXPECT_EQ(j["schema"], std::string(kJsonModelSchema));
  EXPECT_EQ(j["loadable"], true);
  ASSERT_EQ(j["maps"].size(), 1u);
  const auto& m = j["maps"][0];
  EXPECT_EQ(m["id"], "SmallRoom");
  EXPECT_EQ(m["outputs"][0], "SmallRoom.fomap-bin-server");
  const auto& anchor = m["anchors"][0];
  EXPECT_EQ(anchor["section"], "map-format.section.proto-map");
  EXPECT_EQ(anchor["directives"]["map-format.directive.map-name"], "SmallRoom");
  EXPECT_EQ(anchor["directives"]["map-format.directive.map-text"]["$Text engl"], "\"Room\"");
  EXPECT_EQ(anchor["properties"][0]["id"], "map-format.property.Map.Size");
  EXPECT_EQ(anchor["properties"][0]["value"], core::Json::array({80, 80}));

  const auto& critter = m["critters"][0];
  EXPECT_EQ(critter["section"], "map-format.section.critter");
  EXPECT_EQ(critter["id"], 100);
  EXPECT_EQ(critter["directives"]["map-format.directive.entity-id"], "100");
  EXPECT_EQ(critter["directives"]["map-format.directive.entity-proto"], "Guard");
  EXPECT_EQ(critter["properties"][0]["id"], "map-format.property.Critter.Dir");
  EXPECT_EQ(critter["properties"][0]["value"], 210);

  ASSERT_EQ(m["items"].size(), 2u);
  const auto& rifle = m["items"][0];
  EXPECT_EQ(rifle["section"], "map-format.section.item");
  EXPECT_EQ(rifle["ownership"], "map-format.ownership.critter-inventory");
  const auto& wall = m["items"][1];
  EXPECT_EQ(wall["contextual"], false);
  EXPECT_EQ(wall["ownership"], "map-format.ownership.map-hex");
  bool saw_mesh = false, saw_unknown = false;
  for (const auto& p : wall["properties"]) {
    if (p["name"] == "MultihexMesh") {
      saw_mesh = true;
      EXPECT_EQ(p["id"], "map-format.property.Item.MultihexMesh");
      EXPECT_EQ(p["value"], core::Json::parse("[[41,30],[42,30]]"));
    }
    if (p["name"] == "NoSuchThing") {
      saw_unknown = true;
      EXPECT_TRUE(p["id"].is_null());
      EXPECT_EQ(p["unknown"], true);
    }
  }
  EXPECT_TRUE(saw_mesh);
  EXPECT_TRUE(saw_unknown);
}

TEST(FomapJson, reports_structure_errors_and_repaired_ids) {
  const MapContainer c =
      MapContainer::from_text("[ProtoMap]\n\n[$Name/Item]\n$Id = 0\n$Proto = A\n\n[Tiles]\n", "X.fomap");
  const core::Json j = container_json(c, Project{});
  EXPECT_EQ(j["loadable"], false);
  ASSERT_FALSE(j["structure_errors"].empty());
  EXPECT_EQ(j["structure_errors"][0]["rule"], "map-format.rule.closed-section-set");
  const auto& item = j["maps"][0]["items"][0];
  EXPECT_EQ(item["id"], 1);
  EXPECT_EQ(item["id_repaired"], true);
}

TEST(FomapJson, ownership_ids_cover_the_enum) {
  EXPECT_EQ(ownership_id(0), "map-format.ownership.map-hex");
  EXPECT_EQ(ownership_id(2), "map-format.ownership.item-container");
  EXPECT_EQ(ownership_id(3), "map-format.ownership.nowhere");
  EXPECT_EQ(ownership_id(7), "");
}

std::string streamed(const MapContainer& c, const Project& project) {
  std::ostringstream os;
  write_container_json(os, c, project);
  return os.str();
}

TEST(FomapJson, streamed_document_is_byte_identical_to_the_tree) {
  const Project project;
  for (const char* text : {
           // nothing at all, then a file without anchors (no maps, a structure error)
           "",
           "[Tiles]\nx = 1\n",
           // one map: empty critter list, escapes, a bad UTF-8 byte, a repaired id, a mesh
           "[ProtoMap]\n$Name = Q\"uote\nSize = 10 10\n\n[$Name/Item]\n$Id = 0\n$Proto = A\\B\nPicMap = "
           "\"a\\\\b\xff\"\n"
           "MultihexMesh = \"1 2\" \"3 4\"\n",
           // two maps, critters and children, an unknown property
           "[ProtoMap]\n$Name = One\n$Text engl = \"x\"\n\n[$Name/Critter]\n$Id = 1\n$Proto = G\nHex = 1 1\n\n"
           "[$Name/Item]\n$Id = 2\n$Proto = R\nOwnership = CritterInventory\nCritterId = 1\nBogus = 3\n\n"
           "[ProtoMap]\n$Name = Two\n\n[Two/Critter]\n$Id = 5\n$Proto = G\n",
       }) {
    const MapContainer c = MapContainer::from_text(text, "Maps/x.fomap");
    EXPECT_EQ(streamed(c, project), core::dump_json(container_json(c, project))) << text;
  }
}

TEST(FomapJson, streamed_corpus_maps_are_byte_identical_to_the_tree) {
  const std::filesystem::path corpus = test::fomap_corpus();
  if (corpus.empty()) GTEST_SKIP() << "fomap corpus absent";
  const Project project = Project::load({corpus / "protos/cvet__fonline-tla"});
  for (const char* name : {"arroyo_bridge.fomap", "den.fomap", "e_cave1_in.fomap"}) {
    const auto path = corpus / "new/cvet__fonline-tla/Maps" / name;
    auto text = core::read_text_file(path);
    ASSERT_TRUE(text.has_value()) << path;
    const MapContainer c = MapContainer::from_text(std::move(*text), path.generic_string());
    EXPECT_EQ(streamed(c, project), core::dump_json(container_json(c, project))) << path;
  }
}

}  // namespace
}  // namespace sortie::fomap
