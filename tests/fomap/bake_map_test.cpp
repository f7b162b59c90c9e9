#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "sortie/core/file_io.hpp"
#include "sortie/fomap/bake.hpp"
#include "sortie/fomap/hash.hpp"
#include "sortie/fomap/materialize.hpp"

namespace sortie::fomap {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kProtos =
    "[ProtoCritter]\n$Name = Guard\nModelName = art/critters/guard.fo3d\n\n"
    "[ProtoItem]\n$Name = Wall\nIsStatic = True\nPicMap = art/walls/wall.frm\n\n"
    "[ProtoItem]\n$Name = Blocker\nStatic = True\nHidden = True\nPicMap = art/misc/blocker.frm\n\n"
    "[ProtoItem]\n$Name = Crate\nPicMap = art/items/crate.frm\n\n"
    "[ProtoItem]\n$Name = Ammo\nPicMap = art/items/ammo.frm\n";

Project make_project() {
  Project p;
  auto notes = p.protos.add_text(std::string(kProtos), "Test.fopro");
  EXPECT_TRUE(notes.empty()) << (notes.empty() ? "" : notes.front().to_string());
  auto rn = p.protos.resolve(p.properties);
  EXPECT_TRUE(rn.empty()) << (rn.empty() ? "" : rn.front().to_string());
  p.has_protos = true;
  return p;
}

std::vector<BakeOutcome> bake_text(std::string text, const Project& project, std::string path = "Maps/StaticMap.fomap",
                                   const BakeOptions& options = {}) {
  const MapContainer c = MapContainer::from_text(std::move(text), std::move(path));
  const BakeRegistrars regs(project.properties);
  return bake_container(c, project, regs, options);
}

constexpr std::string_view kStaticMap =
    "[ProtoMap]\n$Name = StaticMap\nSize = 40 40\n\n"
    "[$Name/Critter]\n$Id = 11\n$Proto = Guard\nHex = 10 11\n\n"
    "[$Name/Item]\n$Id = 21\n$Proto = Wall\nHex = 12 13\n\n"
    "[$Name/Item]\n$Id = 22\n$Proto = Blocker\nHex = 14 15\n";

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::vector<std::string> client_dictionary(const BakedMap& b) {
  auto client = read_client_blob(b.client_bytes());
  return client ? client->dictionary : std::vector<std::string>{};
}

// Test_MapBaker BakesCrittersAndStaticItems: 1 critter + visible static + hidden static.
TEST(FomapBake, bakes_critters_and_static_items) {
  const Project project = make_project();
  auto out = bake_text(std::string(kStaticMap), project);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].errors.empty()) << out[0].errors.front().to_string();
  const BakedMap& b = *out[0].baked;
  EXPECT_EQ(b.name, "StaticMap");
  auto server = read_server_blob(b.server_bytes());
  ASSERT_TRUE(server) << server.error().to_string();
  auto client = read_client_blob(b.client_bytes());
  ASSERT_TRUE(client) << client.error().to_string();
  EXPECT_GE(server->dictionary.size(), 3u);
  EXPECT_EQ(b.server.dictionary, server->dictionary.size());
  ASSERT_EQ(server->critters.size(), 1u);
  ASSERT_EQ(server->items.size(), 2u);
  EXPECT_EQ(b.server.critters, 1u);
  EXPECT_EQ(b.server.items, 2u);
  EXPECT_EQ(server->critters[0].id, 11);
  EXPECT_EQ(server->critters[0].proto_hash, string_hash("Guard"));
  EXPECT_EQ(server->items[0].id, 21);
  EXPECT_EQ(server->items[1].id, 22);
  EXPECT_EQ(server->items[1].proto_hash, string_hash("Blocker"));
  // Client: the visible static item only, but the hidden one's strings are in the dictionary.
  EXPECT_GE(client->dictionary.size(), 2u);
  EXPECT_EQ(b.client.dictionary, client->dictionary.size());
  ASSERT_EQ(client->items.size(), 1u);
  EXPECT_EQ(b.client.items, 1u);
  EXPECT_EQ(client->items[0].id, 21);
  EXPECT_EQ(b.hidden_static_items, 1u);
  EXPECT_TRUE(contains(client->dictionary, "art/misc/blocker.frm"));
  EXPECT_TRUE(contains(client->dictionary, "art/walls/wall.frm"));
  EXPECT_TRUE(contains(server->dictionary, "art/critters/guard.fo3d"));
}

TEST(FomapBake, old_and_new_name_of_one_property_bake_the_key_that_sorts_last) {
  // Keys apply in byte order: `InitScript` < `ScriptId`, so the old name's value is the one kept
  // and only its string is in the dictionary.
  const Project project = make_project();
  auto out = bake_text(
      "[ProtoMap]\n$Name = M\nSize = 40 40\n\n[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\n"
      "ScriptId = Mod::Kept\nInitScript = Mod::Dropped\n",
      project, "Maps/M.fomap");
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].errors.empty()) << out[0].errors.front().to_string();
  auto server = read_server_blob(out[0].baked->server_bytes());
  ASSERT_TRUE(server) << server.error().to_string();
  EXPECT_TRUE(contains(server->dictionary, "Mod::Kept"));
  EXPECT_FALSE(contains(server->dictionary, "Mod::Dropped"));
}

TEST(FomapBake, dictionaries_are_sorted_by_hash) {
  const Project project = make_project();
  auto out = bake_text(std::string(kStaticMap), project);
  ASSERT_TRUE(out[0].baked);
  auto server = read_server_blob(out[0].baked->server_bytes());
  auto client = read_client_blob(out[0].baked->client_bytes());
  ASSERT_TRUE(server && client);
  for (const auto* dict : {&server->dictionary, &client->dictionary})
    for (std::size_t i = 1; i < dict->size(); ++i) EXPECT_LT(string_hash((*dict)[i - 1]), string_hash((*dict)[i]));
}

TEST(FomapBake, client_dictionary_follows_the_contract_or_the_fact_sheet) {
  const Project project = make_project();
  auto contract = bake_text(std::string(kStaticMap), project);
  ASSERT_TRUE(contract[0].baked);
  EXPECT_TRUE(contains(client_dictionary(*contract[0].baked), "art/critters/guard.fo3d"));
  BakeOptions narrow;
  narrow.client_dictionary_includes_server_strings = false;
  auto sheet = bake_text(std::string(kStaticMap), project, "Maps/StaticMap.fomap", narrow);
  ASSERT_TRUE(sheet[0].baked);
  EXPECT_FALSE(contains(client_dictionary(*sheet[0].baked), "art/critters/guard.fo3d"));
  EXPECT_EQ(client_dictionary(*sheet[0].baked), (sort_dictionary({"art/walls/wall.frm", "art/misc/blocker.frm"})));
}

TEST(FomapBake, record_blob_carries_placement_overrides) {
  const Project project = make_project();
  auto out = bake_text(std::string(kStaticMap), project);
  const BakeRegistrars regs(project.properties);
  auto server = read_server_blob(out[0].baked->server_bytes());
  ASSERT_TRUE(server && !server->items.empty());
  auto data = read_property_blob(server->items[0].props, regs.item_server.layout().pod_size(),
                                 static_cast<std::uint32_t>(regs.item_server.layout().complex_count()));
  ASSERT_TRUE(data);
  EXPECT_EQ(regs.item_server.plain_int(*data, "Hex", 0), 12);
  EXPECT_EQ(regs.item_server.plain_int(*data, "Hex", 1), 13);
  EXPECT_EQ(regs.item_server.plain_int(*data, "Static"), 1);
  EXPECT_EQ(regs.item_server.plain_int(*data, "PicMap"), static_cast<std::int64_t>(string_hash("art/walls/wall.frm")));
}

TEST(FomapBake, server_only_properties_have_no_client_storage) {
  const Project project = make_project();
  const BakeRegistrars regs(project.properties);
  EXPECT_NE(regs.item_server.find("Hidden"), nullptr);
  EXPECT_EQ(regs.item_client.find("Hidden"), nullptr);
  EXPECT_TRUE(regs.item_client.other_side_only("Hidden"));
  EXPECT_NE(regs.item_client.find("Hex"), nullptr);
}

// Test_MapBaker BakesEveryMapFromMultiMapFile / AnonymousAnchorBakesUnderFileStemAlongsideNamedOnes.
TEST(FomapBake, bakes_every_map_of_a_multi_map_file_under_its_name) {
  const Project project = make_project();
  auto out = bake_text(
      "[ProtoMap]\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = Wall\nHex = 1 1\n\n"
      "[ProtoMap]\n$Name = MixedMapTwo\nSize = 10 10\n\n[$Name/Item]\n$Id = 1\n$Proto = Crate\nHex = 2 2\n\n"
      "[MixedMapTwo/Item]\n$Id = 2\n$Proto = Crate\nHex = 3 3\n",
      project, "Nested/MixedMaps.fomap");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].name, "MixedMaps");
  EXPECT_EQ(out[1].name, "MixedMapTwo");
  ASSERT_TRUE(out[0].baked && out[1].baked);
  EXPECT_EQ(out[0].baked->server.items, 1u);
  EXPECT_EQ(out[0].baked->client.items, 1u);
  EXPECT_EQ(out[1].baked->server.items, 2u);
  EXPECT_EQ(out[1].baked->client.items, 0u);
  EXPECT_EQ(server_blob_name(out[1].name), "MixedMapTwo.fomap-bin-server");
}

TEST(FomapBake, repaired_ids_are_baked) {
  const Project project = make_project();
  auto out = bake_text(
      "[ProtoMap]\nSize = 10 10\n\n[$Name/Critter]\n$Proto = Guard\n\n[$Name/Critter]\n$Id = 0\n$Proto = Guard\n\n"
      "[$Name/Item]\n$Id = 2\n$Proto = Crate\n\n[$Name/Item]\n$Id = 2\n$Proto = Crate\n",
      project, "TestMap.fomap");
  ASSERT_TRUE(out[0].baked);
  auto server = read_server_blob(out[0].baked->server_bytes());
  ASSERT_TRUE(server);
  ASSERT_EQ(server->critters.size(), 2u);
  ASSERT_EQ(server->items.size(), 2u);
  EXPECT_EQ(server->critters[0].id, 1);
  EXPECT_EQ(server->critters[1].id, 2);
  EXPECT_EQ(server->items[0].id, 3);
  EXPECT_EQ(server->items[1].id, 4);
}

TEST(FomapBake, aggregates_errors_and_writes_nothing) {
  const Project project = make_project();
  auto out = bake_text(
      "[ProtoMap]\nSize = 10 10\n\n[$Name/Critter]\n$Id = 1\n$Proto = Nobody\n\n"
      "[$Name/Item]\n$Id = 2\n$Proto = Crate\nNoSuchProperty = 1\n\n[$Name/Item]\n$Id = 3\n\n"
      "[$Name/Item]\n$Id = 4\n$Proto = Crate\nHex = 1\n",
      project, "Bad.fomap");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].baked);
  std::vector<std::string> codes;
  for (const auto& e : out[0].errors) codes.push_back(e.code);
  EXPECT_TRUE(contains(codes, "fomap.bake.proto_unknown"));
  EXPECT_TRUE(contains(codes, "fomap.bake.property_unknown"));
  EXPECT_TRUE(contains(codes, "fomap.bake.proto_missing"));
  EXPECT_EQ(out[0].errors.size(), 4u);
}

TEST(FomapBake, rejects_temporary_property) {
  const Project project = make_project();
  auto out = bake_text("[ProtoMap]\nSize = 10 10\n\n[$Name/Critter]\n$Id = 1\n$Proto = Guard\nMovingSpeed = 5\n",
                       project, "T.fomap");
  ASSERT_FALSE(out[0].baked);
  EXPECT_EQ(out[0].errors.at(0).code, "fomap.bake.property_not_authorable");
}

TEST(FomapBake, structure_errors_fail_every_map) {
  const Project project = make_project();
  auto out = bake_text("[ProtoMap]\n\n[Critter]\n$Id = 1\n$Proto = Guard\n", project, "T.fomap");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].baked);
  EXPECT_FALSE(out[0].errors.empty());
}

TEST(FomapBake, empty_map_bakes_to_the_empty_blobs) {
  const Project project = make_project();
  auto out = bake_text("[ProtoMap]\nSize = 10 10\n", project, "Empty.fomap");
  ASSERT_TRUE(out[0].baked);
  EXPECT_EQ(out[0].baked->server_bytes(), core::Bytes(12, 0));
  EXPECT_EQ(out[0].baked->client_bytes(), core::Bytes(8, 0));
}

TEST(FomapBake, writes_both_outputs_flat_by_map_name) {
  const Project project = make_project();
  auto out = bake_text(std::string(kStaticMap), project, "Nested/Deep/Source.fomap");
  const fs::path dir = fs::temp_directory_path() / "sortie_fomap_bake_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(write_baked_map(*out[0].baked, dir));
  auto server = core::read_file(dir / "StaticMap.fomap-bin-server");
  auto client = core::read_file(dir / "StaticMap.fomap-bin-client");
  ASSERT_TRUE(server && client);
  EXPECT_EQ(*server, out[0].baked->server_bytes());
  EXPECT_EQ(*client, out[0].baked->client_bytes());
  auto back = read_client_blob(*client);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->items.size(), out[0].baked->client.items);
  fs::remove_all(dir);
}

TEST(FomapBake, a_baked_pair_is_written_both_or_neither) {
  BakedMap baked;
  baked.name = "arroyo";
  baked.server_blob = {1, 2, 3};
  baked.client_blob = {4, 5};
  const fs::path dir = fs::temp_directory_path() / "sortie_fomap_bake_pair_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_TRUE(core::write_file_atomic(dir / server_blob_name("arroyo"), std::string_view("old server")));
  fs::create_directories(dir / client_blob_name("arroyo"));  // the client cannot be placed
  auto r = write_baked_map(baked, dir);
  ASSERT_FALSE(r);
  EXPECT_EQ(core::read_text_file(dir / server_blob_name("arroyo")).value_or("<missing>"), "old server");
  fs::remove(dir / client_blob_name("arroyo"));
  ASSERT_TRUE(write_baked_map(baked, dir));
  EXPECT_EQ(core::read_file(dir / server_blob_name("arroyo")).value_or(core::Bytes{}), (core::Bytes{1, 2, 3}));
  EXPECT_EQ(core::read_file(dir / client_blob_name("arroyo")).value_or(core::Bytes{}), (core::Bytes{4, 5}));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 2);  // no temporary left
  fs::remove_all(dir);
}

// ---- materialization ------------------------------------------------------------------

struct Runtime {
  Project project = make_project();
  BakeRegistrars regs{project.properties};
  ProtoNames names = proto_names_of(project);
};

core::Result<MapStatics> statics_of(const Runtime& rt, std::string text, MapSize size) {
  const MapContainer c = MapContainer::from_text(std::move(text), "M.fomap");
  auto out = bake_map(c, c.maps().front(), rt.project, rt.regs);
  EXPECT_TRUE(out.baked);
  auto server = read_server_blob(out.baked->server_bytes());
  EXPECT_TRUE(server);
  return load_server_statics(*server, out.name, size, rt.regs, rt.names);
}

// Test_ServerMapOperations MapManagerLoadsStaticMapEntities.
TEST(FomapMaterialize, server_loads_static_map_entities) {
  const Runtime rt;
  auto s = statics_of(rt, std::string(kStaticMap), MapSize{40, 40});
  ASSERT_TRUE(s) << s.error().to_string();
  ASSERT_EQ(s->critters.size(), 1u);
  EXPECT_EQ(s->critters[0].authored_id, 11);
  EXPECT_EQ(s->critters[0].proto, "Guard");
  EXPECT_EQ(s->critters[0].hex, (Hex{10, 11}));
  ASSERT_EQ(s->static_items.size(), 2u);
  EXPECT_EQ(s->static_by_id.count(21), 1u);
  EXPECT_EQ(s->static_by_id.count(22), 1u);
  EXPECT_EQ(s->static_items[s->static_by_id.at(21)].hex, (Hex{12, 13}));
  EXPECT_EQ(s->static_items[s->static_by_id.at(22)].hex, (Hex{14, 15}));
  EXPECT_EQ(s->cell({12, 13}), kCellMoveBlocked | kCellShootBlocked);
  EXPECT_EQ(s->cell({14, 15}), kCellMoveBlocked | kCellShootBlocked);
  EXPECT_EQ(s->cell({13, 13}), 0);
  EXPECT_TRUE(s->hex_items.empty());
}

TEST(FomapMaterialize, static_item_flags_and_mesh_mark_cells) {
  const Runtime rt;
  auto s = statics_of(
      rt,
      "[ProtoMap]\nSize = 20 20\n\n[$Name/Item]\n$Id = 1\n$Proto = Wall\nHex = 5 5\nNoBlock = True\n"
      "MultihexMesh = \"6 5\" \"7 5\"\n\n[$Name/Item]\n$Id = 2\n$Proto = Wall\nHex = 1 1\nShootThru = True\n",
      MapSize{20, 20});
  ASSERT_TRUE(s) << s.error().to_string();
  // NoBlock alone still blocks shooting (and so moving): the engine's rule.
  EXPECT_EQ(s->cell({5, 5}), kCellMoveBlocked | kCellShootBlocked);
  EXPECT_EQ(s->cell({7, 5}), kCellMoveBlocked | kCellShootBlocked);
  EXPECT_EQ(s->static_items[0].footprint.size(), 3u);
  EXPECT_EQ(s->cell({1, 1}), kCellMoveBlocked);
}

TEST(FomapMaterialize, creates_entities_maps_ids_and_attaches_children_one_level) {
  const Runtime rt;
  auto s = statics_of(rt,
                      "[ProtoMap]\nSize = 20 20\n\n"
                      "[$Name/Critter]\n$Id = 100\n$Proto = Guard\nHex = 3 3\nDir = 210\n\n"
                      "[$Name/Item]\n$Id = 101\n$Proto = Ammo\nCritterId = 100\nCritterSlot = Main\nCount = "
                      "20\nOwnership = CritterInventory\n\n"
                      "[$Name/Item]\n$Id = 200\n$Proto = Crate\nHex = 5 5\n\n"
                      "[$Name/Item]\n$Id = 201\n$Proto = Ammo\nContainerId = 200\nOwnership = ItemContainer\n\n"
                      "[$Name/Item]\n$Id = 202\n$Proto = Ammo\nContainerId = 201\nOwnership = ItemContainer\n\n"
                      "[$Name/Item]\n$Id = 300\n$Proto = Wall\nHex = 7 7\n\n"
                      "[$Name/Item]\n$Id = 301\n$Proto = Ammo\nContainerId = 300\nOwnership = ItemContainer\n\n"
                      "[$Name/Item]\n$Id = 302\n$Proto = Ammo\nContainerId = 999\nOwnership = ItemContainer\n",
                      MapSize{20, 20});
  ASSERT_TRUE(s) << s.error().to_string();
  std::uint64_t next = 1000;
  auto m = materialize(*s, next);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(next, 1004u);
  ASSERT_EQ(m->entities.size(), 4u);
  EXPECT_EQ(m->id_map.at(100), 1000u);
  EXPECT_EQ(m->id_map.at(200), 1001u);
  EXPECT_EQ(m->id_map.count(101), 0u);  // children never enter the id map
  EXPECT_EQ(m->entities[0].kind, EntityKind::critter);
  EXPECT_EQ(m->entities[0].dir, 210);
  EXPECT_EQ(m->entities[2].authored_id, 101);
  EXPECT_EQ(m->entities[2].owner_runtime_id, 1000u);
  EXPECT_EQ(m->entities[2].count, 1);  // authored Count is reset at engine level
  EXPECT_EQ(m->entities[3].authored_id, 201);
  EXPECT_EQ(m->entities[3].owner_runtime_id, 1001u);
  ASSERT_EQ(m->skipped.size(), 3u);
  EXPECT_EQ(m->skipped[0].authored_id, 202);
  EXPECT_EQ(m->skipped[0].reason_code, "owner-is-child");
  EXPECT_EQ(m->skipped[1].authored_id, 301);
  EXPECT_EQ(m->skipped[1].reason_code, "owner-static");
  EXPECT_EQ(m->skipped[2].authored_id, 302);
  EXPECT_EQ(m->skipped[2].reason_code, "owner-missing");
  // A second instance gets fresh runtime ids.
  auto m2 = materialize(*s, next);
  ASSERT_TRUE(m2);
  EXPECT_EQ(m2->id_map.at(100), 1004u);
}

TEST(FomapMaterialize, rejects_inventory_child_of_an_item) {
  const Runtime rt;
  auto s = statics_of(rt,
                      "[ProtoMap]\nSize = 20 20\n\n[$Name/Item]\n$Id = 1\n$Proto = Crate\nHex = 1 1\n\n"
                      "[$Name/Item]\n$Id = 2\n$Proto = Ammo\nCritterId = 1\nOwnership = CritterInventory\n",
                      MapSize{20, 20});
  ASSERT_TRUE(s);
  std::uint64_t next = 1;
  auto m = materialize(*s, next);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, "fomap.runtime.owner_kind");
}

TEST(FomapMaterialize, rejects_critter_outside_the_map) {
  const Runtime rt;
  auto s =
      statics_of(rt, "[ProtoMap]\nSize = 5 5\n\n[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 5 1\n", MapSize{5, 5});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "fomap.runtime.hex_out_of_bounds");
}

TEST(FomapMaterialize, rejects_static_item_not_on_map_hex) {
  const Runtime rt;
  auto s = statics_of(rt,
                      "[ProtoMap]\nSize = 5 5\n\n[$Name/Critter]\n$Id = 1\n$Proto = Guard\n\n"
                      "[$Name/Item]\n$Id = 2\n$Proto = Wall\nCritterId = 1\nOwnership = CritterInventory\n",
                      MapSize{5, 5});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, "fomap.runtime.static_not_map_hex");
}

TEST(FomapMaterialize, client_loads_visible_static_items_with_authored_ids) {
  const Runtime rt;
  const MapContainer c = MapContainer::from_text(std::string(kStaticMap), "StaticMap.fomap");
  auto out = bake_map(c, c.maps().front(), rt.project, rt.regs);
  ASSERT_TRUE(out.baked);
  auto client = read_client_blob(out.baked->client_bytes());
  ASSERT_TRUE(client);
  auto items = load_client_statics(*client, MapSize{40, 40}, rt.regs, rt.names);
  ASSERT_TRUE(items) << items.error().to_string();
  ASSERT_EQ(items->size(), 1u);
  EXPECT_EQ((*items)[0].authored_id, 21);
  EXPECT_EQ((*items)[0].proto, "Wall");
  EXPECT_EQ((*items)[0].hex, (Hex{12, 13}));
  auto small = load_client_statics(*client, MapSize{10, 10}, rt.regs, rt.names);
  ASSERT_FALSE(small);
  EXPECT_EQ(small.error().code, "fomap.runtime.hex_out_of_bounds");
}

TEST(FomapMaterialize, map_size_comes_from_the_anchor) {
  const Runtime rt;
  const MapContainer c = MapContainer::from_text(std::string(kStaticMap), "StaticMap.fomap");
  auto size = map_size_of(c, c.maps().front(), rt.project);
  ASSERT_TRUE(size);
  EXPECT_EQ(size->width, 40);
  EXPECT_EQ(size->height, 40);
}

}  // namespace
}  // namespace sortie::fomap
