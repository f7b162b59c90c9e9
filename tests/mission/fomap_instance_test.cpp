// Publishing a materialized FOnline map instance into the world: ids, transforms, properties,
// children, skipped children, the static grid summary, transactional failure and the state hash.
#include "sortie/mission/fomap_instance.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <variant>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/fomap/bake.hpp"
#include "sortie/fomap/materialize.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/mission/fomap_materialize_run.hpp"
#include "sortie_test/corpus.hpp"

namespace sortie::mission {
namespace {

namespace fs = std::filesystem;
using fomap::Billet;
using fomap::Hex;
using fomap::MapStatics;
using fomap::Ownership;
using world::ObjectId;
using world::World;

Billet billet(std::int64_t id, std::string proto, Hex hex, Ownership own = Ownership::map_hex) {
  Billet b;
  b.authored_id = id;
  b.proto = std::move(proto);
  b.hex = hex;
  b.ownership = own;
  return b;
}

Billet child(std::int64_t id, Ownership own, std::int64_t owner) {
  Billet b = billet(id, "Ammo", {}, own);
  (own == Ownership::critter_inventory ? b.critter_id : b.container_id) = owner;
  return b;
}

// Critter 100 at 3,3 (Dir 210) with an inventory child 101; crate 200 at 5,5 holding 201, which
// holds 202 (second level: skipped); wall 300 static at 7,7 holding 301 (skipped); 302 names no
// placement (skipped).
MapStatics small_statics() {
  MapStatics s;
  s.map = "tiny";
  s.size = {10, 10};
  s.cells.assign(100, 0);
  Billet guard = billet(100, "Guard", {3, 3});
  guard.dir = 210;
  s.critters.push_back(guard);
  s.hex_items.push_back(billet(200, "Crate", {5, 5}));
  s.static_items.push_back(billet(300, "Wall", {7, 7}));
  s.static_items.back().is_static = true;
  s.static_by_id[300] = 0;
  s.cells[7 * 10 + 7] = fomap::kCellMoveBlocked | fomap::kCellShootBlocked;
  s.cells[3 * 10 + 3] = fomap::kCellMoveBlocked;  // the guard stands on a blocked hex
  s.cells[8 * 10 + 1] = fomap::kCellTrigger;
  s.child_items.push_back(child(101, Ownership::critter_inventory, 100));
  s.child_items.push_back(child(201, Ownership::item_container, 200));
  s.child_items.push_back(child(202, Ownership::item_container, 201));
  s.child_items.push_back(child(301, Ownership::item_container, 300));
  s.child_items.push_back(child(302, Ownership::item_container, 999));
  return s;
}

fomap::MaterializedMap materialized(const MapStatics& s, std::uint64_t first_id = 1000) {
  auto m = fomap::materialize(s, first_id);
  EXPECT_TRUE(m) << m.error().to_string();
  return *m;
}

std::int64_t int_prop(const world::WorldObject& o, std::string_view key) {
  auto v = o.properties.get_int(key);
  EXPECT_TRUE(v) << key;
  return v.value_or(-1);
}

std::string text_prop(const world::WorldObject& o, std::string_view key) {
  const auto* v = o.properties.find(key);
  return v != nullptr && std::holds_alternative<std::string>(*v) ? std::get<std::string>(*v) : "<missing>";
}

TEST(FomapInstance, publishes_critters_items_and_children_as_registered_objects) {
  const MapStatics s = small_statics();
  const auto m = materialized(s);
  World w;
  FomapPublishOptions opt;
  opt.statics = &s;
  auto r = publish_fomap_instance(m, w, opt);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->map, "tiny");
  ASSERT_EQ(r->objects.size(), 4u);
  EXPECT_EQ(r->created, 4u);
  EXPECT_EQ(r->registered, 4u);
  EXPECT_EQ(r->children, 2u);
  EXPECT_EQ(w.queue().size(), 4u);
  EXPECT_EQ(w.live_count(), 4u);
  EXPECT_EQ(r->state_hash, w.compute_state_hash());

  // Authored -> runtime -> ObjectId.
  EXPECT_EQ(r->objects[0].authored_id, 100);
  EXPECT_EQ(r->objects[0].runtime_id, 1000u);
  EXPECT_EQ(r->objects[0].id, (ObjectId{1, mission::class_ids::kFomapCritter, 1000}));
  EXPECT_EQ(r->objects[1].id, (ObjectId{1, mission::class_ids::kFomapItem, 1001}));
  EXPECT_EQ(r->objects[2].authored_id, 101);
  EXPECT_EQ(r->objects[2].id, (ObjectId{1, mission::class_ids::kFomapItem, 1002}));
  EXPECT_EQ(r->objects[3].authored_id, 201);
  EXPECT_EQ(r->objects[3].owner_runtime_id, 1001u);
  ASSERT_EQ(r->by_authored.size(), 2u);  // the id map: critters and dynamic map items only
  EXPECT_EQ(r->by_authored.at(100), (ObjectId{1, mission::class_ids::kFomapCritter, 1000}));
  EXPECT_EQ(r->by_authored.at(200), (ObjectId{1, mission::class_ids::kFomapItem, 1001}));
  ASSERT_NE(r->by_runtime_id(1003), nullptr);
  EXPECT_EQ(r->by_runtime_id(1003)->authored_id, 201);

  // Registration order = creation order.
  for (std::size_t i = 0; i < r->objects.size(); ++i) {
    EXPECT_EQ(w.queue()[i], r->objects[i].handle);
    EXPECT_EQ(w.lookup(r->objects[i].id), r->objects[i].handle);
  }

  const world::WorldObject& guard = *w.find(r->objects[0].handle);
  EXPECT_EQ(guard.prototype_key, "Guard");
  EXPECT_EQ(guard.transform.position, (core::Vec3{3.0f, 3.0f, 0.0f}));
  EXPECT_TRUE(guard.visible);
  const std::vector<std::string> guard_keys{"fomap.kind",      "fomap.authored_id", "fomap.runtime_id",
                                            "fomap.ownership", "fomap.hex_x",       "fomap.hex_y",
                                            "fomap.dir",       "fomap.hex_blocked"};
  ASSERT_EQ(guard.properties.size(), guard_keys.size());
  for (std::size_t i = 0; i < guard_keys.size(); ++i) EXPECT_EQ(guard.properties.items()[i].first, guard_keys[i]);
  EXPECT_EQ(text_prop(guard, "fomap.kind"), "Critter");
  EXPECT_EQ(int_prop(guard, "fomap.authored_id"), 100);
  EXPECT_EQ(int_prop(guard, "fomap.runtime_id"), 1000);
  EXPECT_EQ(text_prop(guard, "fomap.ownership"), "MapHex");
  EXPECT_EQ(int_prop(guard, "fomap.dir"), 210);
  EXPECT_EQ(int_prop(guard, "fomap.hex_blocked"), 1);

  const world::WorldObject& crate = *w.find(r->objects[1].handle);
  EXPECT_EQ(crate.transform.position, (core::Vec3{5.0f, 5.0f, 0.0f}));
  EXPECT_EQ(text_prop(crate, "fomap.kind"), "Item");
  EXPECT_EQ(int_prop(crate, "fomap.hex_x"), 5);
  EXPECT_EQ(int_prop(crate, "fomap.count"), 1);

  const world::WorldObject& ammo = *w.find(r->objects[2].handle);
  EXPECT_EQ(text_prop(ammo, "fomap.ownership"), "CritterInventory");
  EXPECT_EQ(int_prop(ammo, "fomap.owner_runtime_id"), 1000);
  EXPECT_EQ(text_prop(ammo, "fomap.owner"), (ObjectId{1, mission::class_ids::kFomapCritter, 1000}).to_string());
  EXPECT_EQ(ammo.properties.find("fomap.hex_x"), nullptr);
  EXPECT_EQ(ammo.transform.position, (core::Vec3{3.0f, 3.0f, 0.0f}));  // carried by its owner
  EXPECT_FALSE(ammo.visible);
  const world::WorldObject& in_crate = *w.find(r->objects[3].handle);
  EXPECT_EQ(text_prop(in_crate, "fomap.ownership"), "ItemContainer");
  EXPECT_EQ(text_prop(in_crate, "fomap.owner"), (ObjectId{1, mission::class_ids::kFomapItem, 1001}).to_string());

  // Skipped children come through with their reasons.
  ASSERT_EQ(r->skipped.size(), 3u);
  EXPECT_EQ(r->skipped[0].authored_id, 202);
  EXPECT_EQ(r->skipped[0].reason_code, "owner-is-child");
  EXPECT_EQ(r->skipped[1].authored_id, 301);
  EXPECT_EQ(r->skipped[1].reason_code, "owner-static");
  EXPECT_EQ(r->skipped[2].authored_id, 302);
  EXPECT_EQ(r->skipped[2].reason_code, "owner-missing");

  // The static grid stays prepared data: no world object for the wall, only the summary.
  EXPECT_FALSE(w.lookup(ObjectId{1, mission::class_ids::kFomapStatic, 0}));
  EXPECT_EQ(r->statics.static_items, 1u);
  EXPECT_TRUE(r->statics.grid_known);
  EXPECT_EQ(r->statics.width, 10);
  EXPECT_EQ(r->statics.move_blocked_hexes, 2u);
  EXPECT_EQ(r->statics.shoot_blocked_hexes, 1u);
  EXPECT_EQ(r->statics.trigger_hexes, 1u);

  const core::Json j = r->to_json();
  EXPECT_EQ(j.at("objects"), 4);
  EXPECT_EQ(j.at("registered"), 4);
  EXPECT_EQ(j.at("state_hash"), core::hash_hex(r->state_hash));
  EXPECT_EQ(j.at("mapping").size(), 4u);
  EXPECT_EQ(j.at("skipped")[1].at("reason_code"), "owner-static");
  EXPECT_EQ(j.at("static_grid").at("move_blocked_hexes"), 2);
}

TEST(FomapInstance, static_summary_without_grid_keeps_the_count) {
  const MapStatics s = small_statics();
  World w;
  auto r = publish_fomap_instance(materialized(s), w);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->statics.static_items, 1u);
  EXPECT_FALSE(r->statics.grid_known);
  EXPECT_EQ(r->statics.move_blocked_hexes, 0u);
}

TEST(FomapInstance, same_map_gives_the_same_state_hash_and_one_property_changes_it) {
  const MapStatics s = small_statics();
  World a, b, c, d;
  auto ra = publish_fomap_instance(materialized(s), a);
  auto rb = publish_fomap_instance(materialized(s), b);
  ASSERT_TRUE(ra && rb);
  EXPECT_EQ(ra->state_hash, rb->state_hash);
  EXPECT_EQ(a.canonical_state(), b.canonical_state());

  MapStatics turned = s;
  turned.critters[0].dir = 211;  // one property of one critter
  auto rc = publish_fomap_instance(materialized(turned), c);
  ASSERT_TRUE(rc);
  EXPECT_NE(rc->state_hash, ra->state_hash);

  MapStatics moved = s;
  moved.hex_items[0].hex = {5, 6};  // one transform
  auto rd = publish_fomap_instance(materialized(moved), d);
  ASSERT_TRUE(rd);
  EXPECT_NE(rd->state_hash, ra->state_hash);
  EXPECT_NE(rd->state_hash, rc->state_hash);
}

TEST(FomapInstance, owner_option_sets_the_object_owner) {
  World w;
  FomapPublishOptions opt;
  opt.owner = 3;
  auto r = publish_fomap_instance(materialized(small_statics()), w, opt);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->objects[0].id, (ObjectId{3, mission::class_ids::kFomapCritter, 1000}));
  EXPECT_TRUE(w.find(r->objects[0].handle)->is_mirror());
  EXPECT_EQ(r->registered, 4u);
}

TEST(FomapInstance, rejects_taken_object_id_and_leaves_the_world_untouched) {
  World w;
  ASSERT_TRUE(w.create_object(ObjectId{1, mission::class_ids::kFomapItem, 1003}, "Other"));
  const std::uint64_t before = w.compute_state_hash();
  auto r = publish_fomap_instance(materialized(small_statics()), w);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "mission.fomap.id_taken");
  EXPECT_EQ(w.compute_state_hash(), before);
  EXPECT_EQ(w.live_count(), 1u);
  EXPECT_TRUE(w.queue().empty());
}

TEST(FomapInstance, rejects_runtime_id_beyond_object_index) {
  World w;
  const std::uint64_t before = w.compute_state_hash();
  auto r = publish_fomap_instance(materialized(small_statics(), 0xffffffffu), w);  // 2nd id is 2^32
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "mission.fomap.id_range");
  EXPECT_EQ(w.compute_state_hash(), before);
  EXPECT_EQ(w.live_count(), 0u);
}

TEST(FomapInstance, rejects_child_whose_owner_is_not_in_the_instance) {
  auto m = materialized(small_statics());
  m.entities[2].owner_runtime_id = 999;
  World w;
  const std::uint64_t before = w.compute_state_hash();
  auto r = publish_fomap_instance(m, w);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "mission.fomap.owner_unknown");
  EXPECT_EQ(w.compute_state_hash(), before);
  EXPECT_EQ(w.slot_count(), 0u);
}

TEST(FomapInstance, rejects_child_of_a_child) {
  auto m = materialized(small_statics());
  m.entities[3].owner_runtime_id = m.entities[2].runtime_id;  // 201 into 101 (itself in the guard's inventory)
  World w;
  auto r = publish_fomap_instance(m, w);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "mission.fomap.owner_level");
  EXPECT_EQ(w.slot_count(), 0u);
}

TEST(FomapInstance, rejects_container_child_of_a_critter) {
  auto m = materialized(small_statics());
  m.entities[3].owner_runtime_id = m.entities[0].runtime_id;  // ItemContainer of the guard
  World w;
  auto r = publish_fomap_instance(m, w);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "mission.fomap.owner_kind");
  EXPECT_EQ(w.slot_count(), 0u);
}

TEST(FomapInstance, rejects_duplicate_runtime_id) {
  auto m = materialized(small_statics());
  m.entities[3].runtime_id = m.entities[2].runtime_id;
  World w;
  auto r = publish_fomap_instance(m, w);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "mission.fomap.duplicate_runtime_id");
  EXPECT_EQ(w.live_count(), 0u);
}

TEST(FomapInstance, rejects_publishing_into_a_shut_down_world) {
  World w;
  w.shutdown();
  auto r = publish_fomap_instance(materialized(small_statics()), w);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "mission.fomap.shut_down");
}

TEST(FomapInstance, two_instances_share_one_world_with_fresh_runtime_ids) {
  const MapStatics s = small_statics();
  std::uint64_t next = 1;
  auto m1 = fomap::materialize(s, next);
  auto m2 = fomap::materialize(s, next);
  ASSERT_TRUE(m1 && m2);
  World w;
  ASSERT_TRUE(publish_fomap_instance(*m1, w));
  auto r2 = publish_fomap_instance(*m2, w);
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->objects[0].id.index, 5u);
  EXPECT_EQ(w.queue().size(), 8u);
  // Publishing the same instance again collides and changes nothing.
  const std::uint64_t before = w.compute_state_hash();
  auto again = publish_fomap_instance(*m1, w);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, "mission.fomap.id_taken");
  EXPECT_EQ(w.compute_state_hash(), before);
}

// ---- corpus ---------------------------------------------------------------------------------

fs::path corpus_dir() {
  return test::fomap_corpus();
}

TEST(FomapInstanceCorpus, every_new_map_publishes_every_entity_with_a_stable_hash) {
  const fs::path c = corpus_dir();
  if (!fs::exists(c / "new") || !fs::exists(c / "protos/cvet__fonline-tla")) GTEST_SKIP() << "corpus absent";
  const fomap::Project project =
      fomap::Project::load({c / "protos/cvet__fonline-tla", c / "protos/cvet__fonline@84990df655"});
  const fomap::BakeRegistrars regs(project.properties);
  const fomap::ProtoNames names = fomap::proto_names_of(project);
  const auto files = fomap::find_map_containers({c / "new"});
  ASSERT_GT(files.size(), 100u);
  std::size_t maps = 0, objects = 0, children = 0, blocked = 0;
  for (const auto& f : files) {
    auto text = core::read_text_file(f);
    ASSERT_TRUE(text);
    const fomap::MapContainer container = fomap::MapContainer::from_text(std::move(*text), f.string());
    for (const fomap::MapDefinition& map : container.maps()) {
      ++maps;
      auto out = fomap::bake_map(container, map, project, regs);
      ASSERT_TRUE(out.baked) << f;
      const auto size = fomap::map_size_of(container, map, project);
      ASSERT_TRUE(size) << f;
      auto server = fomap::read_server_blob(out.baked->server_bytes());
      ASSERT_TRUE(server) << f;
      auto statics = fomap::load_server_statics(*server, map.name, *size, regs, names);
      ASSERT_TRUE(statics) << f << ": " << statics.error().to_string();
      std::uint64_t next = 1;
      auto m = fomap::materialize(*statics, next);
      ASSERT_TRUE(m) << f << ": " << m.error().to_string();

      World w1;
      FomapPublishOptions opt;
      opt.statics = &*statics;
      auto r = publish_fomap_instance(*m, w1, opt);
      ASSERT_TRUE(r) << f << ": " << r.error().to_string();
      // Every critter and dynamic item is a registered world object, in materialization order.
      ASSERT_EQ(r->objects.size(), m->entities.size()) << f;
      EXPECT_EQ(r->registered, m->entities.size()) << f;
      EXPECT_EQ(w1.queue().size(), m->entities.size()) << f;
      std::size_t critters = 0, hex_items = 0, kids = 0;
      for (std::size_t i = 0; i < m->entities.size(); ++i) {
        const auto& e = m->entities[i];
        const world::WorldObject* o = w1.find(r->objects[i].handle);
        ASSERT_NE(o, nullptr) << f;
        EXPECT_TRUE(o->registered()) << f;
        EXPECT_EQ(o->id().index, e.runtime_id) << f;
        EXPECT_EQ(o->prototype_key, e.proto) << f;
        EXPECT_EQ(o->properties.get_int("fomap.authored_id"), e.authored_id) << f;
        if (e.kind == fomap::EntityKind::critter)
          ++critters;
        else if (e.ownership == Ownership::map_hex)
          ++hex_items;
        else
          ++kids;
      }
      EXPECT_EQ(critters, statics->critters.size()) << f;
      EXPECT_EQ(hex_items, statics->hex_items.size()) << f;
      EXPECT_EQ(r->children, kids) << f;
      EXPECT_EQ(kids + r->skipped.size(), statics->child_items.size()) << f;
      EXPECT_EQ(r->skipped.size(), m->skipped.size()) << f;
      EXPECT_EQ(r->by_authored.size(), m->id_map.size()) << f;
      EXPECT_EQ(r->statics.static_items, statics->static_items.size()) << f;
      EXPECT_EQ(static_cast<std::int64_t>(r->statics.width) * r->statics.height,
                static_cast<std::int64_t>(statics->cells.size()))
          << f;

      // Stable: a second materialization from the same start id gives the same world.
      std::uint64_t next2 = 1;
      auto m2 = fomap::materialize(*statics, next2);
      ASSERT_TRUE(m2);
      World w2;
      auto r2 = publish_fomap_instance(*m2, w2, opt);
      ASSERT_TRUE(r2);
      EXPECT_EQ(r2->state_hash, r->state_hash) << f;

      objects += r->objects.size();
      children += kids;
      blocked += r->statics.move_blocked_hexes;
    }
  }
  EXPECT_EQ(maps, files.size());
  EXPECT_GT(objects, 0u);
  EXPECT_GT(children, 0u);
  EXPECT_GT(blocked, 0u);
}

// `sortie fomap materialize --world` as one call: a published map, a map that fails, JSON and text.
TEST(FomapMaterializeRun, publishes_each_map_into_its_own_world_and_keeps_failed_maps) {
  fomap::Project project;
  project.protos.add_text("[ProtoCritter]\n$Name = Guard\n\n[ProtoItem]\n$Name = Crate\n", "Test.fopro");
  project.protos.resolve(project.properties);
  project.has_protos = true;
  const auto container = fomap::MapContainer::from_text(
      "[ProtoMap]\n$Name = Alpha\nSize = 20 20\n\n[$Name/Critter]\n$Id = 11\n$Proto = Guard\nHex = 3 4\n\n"
      "[$Name/Item]\n$Id = 31\n$Proto = Crate\nHex = 5 5\n\n"
      "[ProtoMap]\n$Name = Gamma\nSize = 10 10\n\n[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 50 50\n",
      "Maps/two.fomap");
  auto run = materialize_fomap(container, project, "Maps/two.fomap", {}, true);
  ASSERT_TRUE(run) << run.error().to_string();
  ASSERT_EQ(run->maps.size(), 2u);
  ASSERT_TRUE(run->maps[0].published.has_value());
  EXPECT_EQ(run->maps[0].published->created, 2u);
  EXPECT_FALSE(run->maps[1].outcome.instance.has_value());
  EXPECT_EQ(run->exit_code(), 1);
  const auto j = run->to_json();
  EXPECT_EQ(j.at("file"), "Maps/two.fomap");
  EXPECT_EQ(j.at("maps").at(0).at("world").at("objects"), 2);
  EXPECT_FALSE(j.at("maps").at(0).at("world").contains("mapping"));
  EXPECT_EQ(j.at("maps").at(1).at("errors").at(0).at("code"), "fomap.runtime.hex_out_of_bounds");
  core::Diagnostics errors;
  const std::string text = run->to_text(errors);
  EXPECT_EQ(text.rfind("Alpha: 0 static grid items, 1 critters, 1 items created (0 children skipped)", 0), 0u) << text;
  EXPECT_NE(text.find("  world: 2 objects, 2 registered, state hash "), std::string::npos) << text;
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, "fomap.runtime.hex_out_of_bounds");

  auto only = materialize_fomap(container, project, "Maps/two.fomap", "Alpha", false);
  ASSERT_TRUE(only);
  EXPECT_EQ(only->exit_code(), 0);
  EXPECT_FALSE(only->maps.at(0).published.has_value());
  EXPECT_FALSE(materialize_fomap(container, project, "x", "Delta", false));
}

}  // namespace
}  // namespace sortie::mission
