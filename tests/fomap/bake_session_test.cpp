// BakeSession: caches shared across maps never change what a map bakes to.
#include <gtest/gtest.h>

#include <algorithm>

#include "sortie/fomap/bake.hpp"
#include "sortie/fomap/values.hpp"

namespace sortie::fomap {
namespace {

constexpr std::string_view kProtos =
    "[ProtoCritter]\n$Name = Guard\nModelName = art/critters/guard.fo3d\n\n"
    "[ProtoItem]\n$Name = Wall\nStatic = True\nPicMap = art/walls/wall.frm\nMultihexMesh = \"1 2\" \"3 4\"\n\n"
    "[ProtoItem]\n$Name = Crate\nPicMap = art/items/crate.frm\n\n"
    "[ProtoItem]\n$Name = Broken\nNoSuchProperty = 1\n";

Project make_project() {
  Project p;
  EXPECT_TRUE(p.protos.add_text(std::string(kProtos), "Test.fopro").empty());
  EXPECT_TRUE(p.protos.resolve(p.properties).empty());
  p.has_protos = true;
  return p;
}

const std::string kMapA =
    "[ProtoMap]\n$Name = A\nSize = 40 40\n\n"
    "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\n\n"
    "[$Name/Item]\n$Id = 2\n$Proto = Wall\nHex = 2 2\nMultihexMesh = \"5 6\" \"-7 8\"\n\n"
    "[$Name/Item]\n$Id = 3\n$Proto = Wall\nHex = 3 3\nMultihexMesh = \"5\t6\"\n\n"
    "[$Name/Item]\n$Id = 4\n$Proto = Crate\nHex = 4 4\n";
const std::string kMapB =
    "[ProtoMap]\n$Name = B\nSize = 40 40\n\n"
    "[$Name/Item]\n$Id = 1\n$Proto = Wall\nHex = 5 5\n\n"
    "[$Name/Item]\n$Id = 2\n$Proto = Crate\nHex = 6 6\nPicMap = art/items/other.frm\n";
const std::string kMapBroken =
    "[ProtoMap]\n$Name = C\nSize = 40 40\n\n[$Name/Item]\n$Id = 1\n$Proto = Broken\nHex = 1 1\n";

TEST(FomapBakeSession, bakes_every_map_as_a_one_shot_bake_does) {
  const Project project = make_project();
  const BakeRegistrars regs(project.properties);
  const MapContainer a = MapContainer::from_text(kMapA, "A.fomap");
  const MapContainer b = MapContainer::from_text(kMapB, "B.fomap");
  BakeSession session(project, regs);
  for (int round = 0; round < 2; ++round) {  // the second round runs on warm caches
    for (const MapContainer* c : {&a, &b}) {
      const BakeOutcome shared = session.bake_map(*c, c->maps().front());
      const BakeOutcome alone = bake_map(*c, c->maps().front(), project, regs);
      ASSERT_TRUE(shared.baked && alone.baked);
      EXPECT_EQ(shared.baked->server_bytes(), alone.baked->server_bytes()) << c->path();
      EXPECT_EQ(shared.baked->client_bytes(), alone.baked->client_bytes()) << c->path();
    }
  }
  // Map B uses Wall after map A did: the proto's strings are still in B's dictionaries.
  const BakeOutcome out = session.bake_map(b, b.maps().front());
  ASSERT_TRUE(out.baked);
  auto client = read_client_blob(out.baked->client_bytes());
  ASSERT_TRUE(client);
  const auto& dict = client->dictionary;
  EXPECT_NE(std::find(dict.begin(), dict.end(), "art/walls/wall.frm"), dict.end());
  EXPECT_EQ(std::find(dict.begin(), dict.end(), "art/items/crate.frm"), dict.end());  // overridden, never used
}

TEST(FomapBakeSession, broken_proto_fails_every_map_that_uses_it) {
  const Project project = make_project();
  const BakeRegistrars regs(project.properties);
  const MapContainer c = MapContainer::from_text(kMapBroken, "C.fomap");
  BakeSession session(project, regs);
  const BakeOutcome first = session.bake_map(c, c.maps().front());
  const BakeOutcome second = session.bake_map(c, c.maps().front());
  EXPECT_FALSE(first.baked);
  EXPECT_FALSE(second.baked);
  ASSERT_EQ(second.errors.size(), 1u);
  EXPECT_EQ(second.errors[0].code, "fomap.bake.property_unknown");
  EXPECT_EQ(second.errors[0].to_string(), first.errors[0].to_string());
}

TEST(FomapBakeSession, mesh_fast_path_and_parser_encode_the_same_bytes) {
  const Project project = make_project();
  const BakeRegistrars regs(project.properties);
  auto mesh_of = [&](const std::string& value) {
    const MapContainer c = MapContainer::from_text(
        "[ProtoMap]\n$Name = M\nSize = 9 9\n\n[$Name/Item]\n$Id = 1\n$Proto = Crate\nHex = 1 1\nMultihexMesh = " +
            value + "\n",
        "M.fomap");
    const BakeOutcome out = bake_map(c, c.maps().front(), project, regs);
    EXPECT_TRUE(out.baked);
    auto server = read_server_blob(out.baked->server_bytes());
    EXPECT_TRUE(server);
    auto data = read_property_blob(server->items.at(0).props, regs.item_server.layout().pod_size(),
                                   static_cast<std::uint32_t>(regs.item_server.layout().complex_count()));
    EXPECT_TRUE(data);
    return core::Bytes(regs.item_server.complex(*data, "MultihexMesh").value().begin(),
                       regs.item_server.complex(*data, "MultihexMesh").value().end());
  };
  const core::Bytes fast = mesh_of("\"5 6\" \"-7 32767\"");
  EXPECT_EQ(fast, (core::Bytes{5, 0, 6, 0, 0xf9, 0xff, 0xff, 0x7f}));
  EXPECT_EQ(mesh_of("\"5\t6\"\t\"-7 32767\""), fast);  // tabs: the full parser's path
}

TEST(FomapValues, read_int16_pairs_agrees_with_parse_value) {
  const PropertyCatalog catalog = PropertyCatalog::engine();
  const PropertyInfo* info = catalog.find("Item", "MultihexMesh");
  ASSERT_NE(info, nullptr);
  std::vector<std::int16_t> pairs;
  for (std::string_view text : {"", "  \"1 2\"", "\"-32768 32767\" \"007 -0\"  ", "\"0 0\"\t\"9 9\""}) {
    ASSERT_TRUE(read_int16_pairs(text, pairs)) << text;
    auto v = parse_value(info->type, text, catalog);
    ASSERT_TRUE(v) << text;
    ASSERT_EQ(pairs.size(), 2 * v->elements.size()) << text;
    for (std::size_t i = 0; i < v->elements.size(); ++i) {
      EXPECT_EQ(pairs[2 * i], v->elements[i].ints[0]) << text;
      EXPECT_EQ(pairs[2 * i + 1], v->elements[i].ints[1]) << text;
    }
  }
}

TEST(FomapValues, read_int16_pairs_leaves_unusual_shapes_to_the_parser) {
  std::vector<std::int16_t> pairs;
  for (std::string_view text : {"1 2", "\"1 2", "\"1  2\"", "\"1\t2\"", "\"1 2\"x", "\"1 \\2\"", "\"32768 0\"",
                                "\"+1 2\"", "\"1 2 3\"", "\"- 2\"", "\"0x1 2\""})
    EXPECT_FALSE(read_int16_pairs(text, pairs)) << text;
}

}  // namespace
}  // namespace sortie::fomap
