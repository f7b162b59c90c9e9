#include "sortie/fomap/migrate.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sortie/fomap/lint.hpp"
#include "sortie/fomap/map_model.hpp"
#include "sortie/fomap/project.hpp"
#include "sortie_test/corpus.hpp"

namespace sortie::fomap {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = test::fomap_corpus();

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const MigrationLoss* find_loss(const MigrationResult& r, std::string_view code, std::string_view what = {}) {
  for (const auto& l : r.losses)
    if (l.code == code && (what.empty() || l.what == what)) return &l;
  return nullptr;
}

TEST(FomapMigrateDetect, tells_the_generations_apart) {
  EXPECT_EQ(detect_legacy_format("[ProtoMap]\nSize = 1 1\n[$Name/Item]\n$Id = 1\n"), LegacyFormat::current);
  EXPECT_EQ(detect_legacy_format("[ProtoMap]\n[Critter]\n$Id = 1\nHex = 1 1\n"), LegacyFormat::bare_v2);
  EXPECT_EQ(detect_legacy_format("[ProtoMap]\n[Critter]\n$Id = 1\nHexX = 1\n"), LegacyFormat::bare_v1);
  EXPECT_EQ(detect_legacy_format("[ProtoMap]\nWidth = 5\n[Tile]\nHexX = 1\n"), LegacyFormat::bare_v1);
  EXPECT_EQ(detect_legacy_format("[Header]\nVersion 4\n[Tiles]\n[Objects]\n"), LegacyFormat::classic);
  EXPECT_EQ(detect_legacy_format("[Something]\nx = 1\n"), LegacyFormat::unknown);
  EXPECT_EQ(detect_legacy_format(""), LegacyFormat::unknown);
}

TEST(FomapMigrateBare, renames_headers_and_keeps_every_other_byte) {
  const std::string in =
      "# head comment\r\n[ProtoMap]\r\nSize = 10 10\r\n\r\n[Critter] # guard\r\n$Id = 1\r\n$Proto = Guard\r\n\r\n"
      "  [ Item ]\n$Id = 2\n$Proto = Rifle\n";
  auto r = migrate_map(in, "x.fomap");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->from, LegacyFormat::bare_v2);
  EXPECT_EQ(
      r->text,
      "# head comment\r\n[ProtoMap]\r\nSize = 10 10\r\n\r\n[$Name/Critter] # guard\r\n$Id = 1\r\n$Proto = Guard\r\n\r\n"
      "  [$Name/Item]\n$Id = 2\n$Proto = Rifle\n");
  EXPECT_EQ(r->critters, 1u);
  EXPECT_EQ(r->items, 1u);
  EXPECT_TRUE(r->lossless());
}

TEST(FomapMigrateBare, reports_placement_before_anchor) {
  auto r = migrate_map("[Item]\n$Id = 1\n[ProtoMap]\n", "x.fomap");
  ASSERT_TRUE(r);
  const auto* loss = find_loss(*r, "fomap.migrate.before_anchor", "Item");
  ASSERT_NE(loss, nullptr);
  EXPECT_EQ(loss->first_line, 1u);
}

TEST(FomapMigrateBare, current_input_is_returned_unchanged) {
  const std::string in = "[ProtoMap]\n$Name = A\n\n[A/Item]\n$Id = 1\n";
  auto r = migrate_map(in, "a.fomap");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->from, LegacyFormat::current);
  EXPECT_EQ(r->text, in);
}

TEST(FomapMigrateBare, rejects_unknown_format) {
  auto r = migrate_map("hello\n", "x.txt");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "fomap.migrate.format");
}

TEST(FomapMigrateV1, joins_coordinate_pairs_and_reports_tiles) {
  const std::string in =
      "[ProtoMap]\nWidth = 100\nHeight = 80\nWorkHexX = 5\nWorkHexY = 6\n\n"
      "[Critter]\n$Id = 3\n$Proto = Guard\nHexX = 7\nHexY = 8\n\n"
      "[Tile]\nHexX = 2\nHexY = 4\nPicMap = art/tiles/a.frm\n\n"
      "[Tile]\nHexX = 2\nHexY = 6\nPicMap = art/tiles/r.frm\nIsRoof = 1\n";
  auto r = migrate_map(in, "x.fomap");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->from, LegacyFormat::bare_v1);
  EXPECT_EQ(r->text,
            "[ProtoMap]\nSize = 100 80\nWorkHex = 5 6\n\n[$Name/Critter]\n$Id = 3\n$Proto = Guard\nHex = 7 8\n\n");
  ASSERT_NE(find_loss(*r, "fomap.migrate.tile", "tile"), nullptr);
  ASSERT_NE(find_loss(*r, "fomap.migrate.tile", "roof"), nullptr);

  MigrateOptions o;
  o.tile_proto = "Tile";
  o.roof_proto = "Roof";
  auto t = migrate_map(in, "x.fomap", o);
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->lossless());
  EXPECT_NE(t->text.find("[$Name/Item]\n$Id = 4\n$Proto = Tile\nHex = 2 4\nPicMap = art/tiles/a.frm\n"),
            std::string::npos);
  EXPECT_NE(t->text.find("$Id = 5\n$Proto = Roof\nHex = 2 6\n"), std::string::npos);
}

TEST(FomapMigrateV1, tiles_after_the_largest_possible_id_are_reported_not_wrapped) {
  // Found by fuzz_fomap_legacy: max authored id + 1 overflowed.
  const std::string in =
      "[ProtoMap]\nWidth = 10\nHeight = 10\n\n"
      "[Critter]\n$Id = 9223372036854775806\n$Proto = Guard\nHexX = 1\nHexY = 1\n\n"
      "[Tile]\nHexX = 2\nHexY = 4\n\n[Tile]\nHexX = 3\nHexY = 4\n";
  MigrateOptions o;
  o.tile_proto = "Tile";
  auto r = migrate_map(in, "x.fomap", o);
  ASSERT_TRUE(r);
  EXPECT_NE(r->text.find("$Id = 9223372036854775807\n$Proto = Tile\nHex = 2 4\n"), std::string::npos);
  EXPECT_EQ(r->text.find("Hex = 3 4"), std::string::npos);
  ASSERT_NE(find_loss(*r, "fomap.migrate.tile_id", "tile"), nullptr);
}

TEST(FomapMigrateV1, merges_offset_pairs_and_reports_what_has_no_property) {
  EXPECT_EQ(detect_legacy_format("[ProtoMap]\n[Item]\n$Id = 1\nOffsetY = 2\n"), LegacyFormat::bare_v1);
  const std::string in =
      "[ProtoMap]\nWidth = 10\nHeight = 10\n\n"
      "[Critter]\n$Id = 1\n$Proto = Guard\nHexX = 1\nHexY = 1\nOffsetX = 5\n\n"
      "[Item]\n$Id = 2\n$Proto = Rifle\nHexX = 2\nHexY = 3\nOffsetX = 3\nOffsetY = -4\nBogus = 1\n";
  auto r = migrate_map(in, "x.fomap");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->text,
            "[ProtoMap]\nSize = 10 10\n\n"
            "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 1 1\n\n"
            "[$Name/Item]\n$Id = 2\n$Proto = Rifle\nHex = 2 3\nOffset = 3 -4\n\n");
  // Critters have no Offset: reported, as is the key no catalog knows.
  const auto* offset = find_loss(*r, "fomap.migrate.offset", "Critter.OffsetX/OffsetY");
  ASSERT_NE(offset, nullptr);
  EXPECT_EQ(offset->first_line, 5u);
  ASSERT_NE(find_loss(*r, "fomap.migrate.unknown_property", "Item.Bogus"), nullptr);
  EXPECT_EQ(r->losses.size(), 2u);
}

TEST(FomapMigrateTable, proto_name_table_reads_pids_and_names_line_by_line) {
  auto t = parse_proto_name_table("# pid\tname\r\n485\tGuard\r\n\n9\tLocker\n-3\tOdd Name\n", "pids.tsv");
  ASSERT_TRUE(t) << t.error().to_string();
  EXPECT_EQ(*t, (std::map<std::int64_t, std::string>{{-3, "Odd Name"}, {9, "Locker"}, {485, "Guard"}}));
  auto bad = parse_proto_name_table("1\tA\nx2\tB\n", "pids.tsv");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "usage.proto_names");
  EXPECT_EQ(bad.error().field, "line 2");
  EXPECT_EQ(bad.error().found, "x2\tB");
  for (const char* text : {"7\n", "7\t\n", "7 A\n"}) EXPECT_FALSE(parse_proto_name_table(text, "pids.tsv")) << text;
  auto twice = parse_proto_name_table("7\tA\n7\tB\n", "pids.tsv");
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().field, "line 2");
}

constexpr std::string_view kClassic =
    "[Header]\n"
    "Version              4\n"
    "MaxHexX              130\n"
    "MaxHexY              120\n"
    "WorkHexX             59\n"
    "WorkHexY             60\n"
    "ScriptModule         map_glow\n"
    "ScriptFunc           map_init\n"
    "NoLogOut             1\n"
    "Time                 -1\n"
    "DayTime              300  600  1140 1380\n"
    "DayColor0            18  18  53\n"
    "DayColor1            128 128 128\n"
    "DayColor2            103 95  86\n"
    "DayColor3            51  40  29\n"
    "\n"
    "[Tiles]\n"
    "tile       44   0              art\\tiles\\cav4009.frm\n"
    "roof       46   2              art\\tiles\\r.frm\n"
    "\n"
    "[Objects]\n"
    "MapObjType           2\n"
    "ProtoId              4012\n"
    "MapX                 76\n"
    "MapY                 3\n"
    "Scenery_ToMapPid     5\n"
    "\n"
    "MapObjType           1\n"
    "ProtoId              128\n"
    "MapX                 10\n"
    "MapY                 11\n"
    "Item_Count           20\n"
    "ContainerUID         7\n"
    "\n"
    "MapObjType           0\n"
    "ProtoId              485\n"
    "MapX                 66\n"
    "MapY                 41\n"
    "Dir                  3\n"
    "UID                  7\n"
    "Critter_Cond         3\n"
    "Critter_Anim1        0\n"
    "Critter_ParamIndex0  ST_DIALOG_ID\n"
    "Critter_ParamValue0  1437\n"
    "\n"
    "MapObjType           1\n"
    "ProtoId              9\n"
    "MapX                 1\n"
    "MapY                 2\n"
    "UID                  8\n"
    "\n"
    "MapObjType           1\n"
    "ProtoId              10\n"
    "MapX                 1\n"
    "MapY                 2\n"
    "ContainerUID         8\n";

TEST(FomapMigrateClassic, converts_header_objects_and_ownership) {
  PropertyCatalog catalog = PropertyCatalog::engine();
  ASSERT_TRUE(catalog
                  .add_project_declarations("entity\tside\ttype\tname\tflags\nMap\tServer\tbool\tNoLogOut\tPersistent\n"
                                            "Critter\tServer\thstring\tDialogId\tPersistent\n",
                                            "decl.tsv")
                  .empty());
  MigrateOptions o;
  o.catalog = &catalog;
  o.proto_names = {{485, "Guard"}, {128, "Ammo"}, {9, "Locker"}, {10, "Knife"}, {4012, "Rock"}};
  auto r = migrate_map(kClassic, "glow.fomap", o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->from, LegacyFormat::classic);
  EXPECT_EQ(r->critters, 1u);
  EXPECT_EQ(r->items, 4u);
  EXPECT_EQ(r->text,
            "[ProtoMap]\n"
            "DayColor = 18 128 103 51 18 128 95 40 53 128 86 29\n"
            "DayColorTime = 300 600 1140 1380\n"
            "FixedDayTime = -1\n"
            "InitScript = map_glow::map_init\n"
            "NoLogOut = True\n"
            "Size = 130 120\n"
            "WorkHex = 59 60\n"
            "\n"
            "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nCondition = Dead\nDialogId = 1437\nDir = 210\nHex = 66 41\n\n"
            "[$Name/Item]\n$Id = 2\n$Proto = Ammo\nCount = 20\nCritterId = 1\nOwnership = CritterInventory\n\n"
            "[$Name/Item]\n$Id = 3\n$Proto = Rock\nHex = 76 3\n\n"
            "[$Name/Item]\n$Id = 4\n$Proto = Locker\nHex = 1 2\n\n"
            "[$Name/Item]\n$Id = 5\n$Proto = Knife\nContainerId = 4\nOwnership = ItemContainer\n\n");
  ASSERT_NE(find_loss(*r, "fomap.migrate.tile", "tile"), nullptr);
  ASSERT_NE(find_loss(*r, "fomap.migrate.tile", "roof"), nullptr);
  ASSERT_NE(find_loss(*r, "fomap.migrate.object_key", "Scenery_ToMapPid"), nullptr);
  const auto* anim = find_loss(*r, "fomap.migrate.object_key", "Critter_Anim1");
  ASSERT_NE(anim, nullptr);
  EXPECT_EQ(anim->first_line, 42u);
  EXPECT_EQ(find_loss(*r, "fomap.migrate.proto_pid"), nullptr);
}

TEST(FomapMigrateClassic, drops_and_reports_properties_the_catalog_lacks) {
  auto r = migrate_map(kClassic, "glow.fomap");  // engine catalog only
  ASSERT_TRUE(r);
  EXPECT_EQ(r->text.find("DialogId"), std::string::npos);
  EXPECT_EQ(r->text.find("NoLogOut"), std::string::npos);
  const auto* d = find_loss(*r, "fomap.migrate.unknown_property", "Critter.DialogId");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->count, 1u);
  ASSERT_NE(find_loss(*r, "fomap.migrate.unknown_property", "Map.NoLogOut"), nullptr);
  EXPECT_NE(r->text.find("Condition = Dead"), std::string::npos);
}

TEST(FomapMigrateClassic, reports_unmapped_pids_and_writes_tiles_with_a_proto) {
  MigrateOptions o;
  o.tile_proto = "FloorTile";
  o.roof_proto = "RoofTile";
  auto r = migrate_map(kClassic, "glow.fomap", o);
  ASSERT_TRUE(r);
  const auto* pid = find_loss(*r, "fomap.migrate.proto_pid", "item");
  ASSERT_NE(pid, nullptr);
  EXPECT_EQ(pid->count, 4u);
  EXPECT_NE(r->text.find("$Id = 6\n$Proto = FloorTile\nHex = 44 0\nPicMap = art/tiles/cav4009.frm\n"),
            std::string::npos);
  EXPECT_NE(r->text.find("$Id = 7\n$Proto = RoofTile\nHex = 46 2\n"), std::string::npos);
  EXPECT_EQ(find_loss(*r, "fomap.migrate.tile"), nullptr);
}

TEST(FomapMigrateClassic, reports_unresolved_container_uid) {
  const std::string in =
      "[Header]\nVersion 4\n[Tiles]\n[Objects]\nMapObjType 1\nProtoId 3\nMapX 1\nMapY 1\nContainerUID 99\n";
  auto r = migrate_map(in, "x.fomap");
  ASSERT_TRUE(r);
  ASSERT_NE(find_loss(*r, "fomap.migrate.container_uid", "99"), nullptr);
  EXPECT_NE(r->text.find("Hex = 1 1"), std::string::npos);
}

constexpr std::string_view kClassicByName =
    "[Header]\nVersion 4\nMaxHexX 50\nMaxHexY 50\n\n[Tiles]\n\n[Objects]\n"
    "MapObjType           0\n"
    "ProtoName            Guard\n"
    "MapX                 3\n"
    "MapY                 4\n"
    "\n"
    "MapObjType           1\n"
    "ProtoName            OldKnife\n"
    "MapX                 5\n"
    "MapY                 6\n";

ProtoCatalog classic_protos() {
  ProtoCatalog protos;
  protos.add_text("[ProtoCritter]\n$Name = Guard\n\n[ProtoItem]\n$Name = Knife\n", "protos.fopro");
  return protos;
}

TEST(FomapMigrateClassic, proto_names_resolve_through_the_project_protos) {
  PropertyCatalog catalog = PropertyCatalog::engine();
  ASSERT_TRUE(catalog.add_migration_rules("rule_args\nProto Item OldKnife Knife\n", "rules.tsv").empty());
  const ProtoCatalog protos = classic_protos();
  MigrateOptions o;
  o.catalog = &catalog;
  o.protos = &protos;
  auto r = migrate_map(kClassicByName, "glow.fomap", o);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->text,
            "[ProtoMap]\nSize = 50 50\n\n"
            "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 3 4\n\n"
            "[$Name/Item]\n$Id = 2\n$Proto = Knife\nHex = 5 6\n\n");
  EXPECT_TRUE(r->lossless()) << r->losses.front().code;
}

TEST(FomapMigrateClassic, refuses_a_proto_name_it_cannot_map) {
  // Without the project's protos.
  auto none = migrate_map(kClassicByName, "maps/glow.fomap");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, "fomap.migrate.proto_name");
  EXPECT_EQ(none.error().file, "maps/glow.fomap");
  EXPECT_EQ(none.error().field, "map glow, line 10");
  EXPECT_EQ(none.error().found, "Guard");
  // With protos that lack the name (no migration rule for OldKnife here).
  const ProtoCatalog protos = classic_protos();
  MigrateOptions o;
  o.protos = &protos;
  o.map_name = "Glow";
  auto missing = migrate_map(kClassicByName, "maps/glow.fomap", o);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().field, "map Glow, line 15");
  EXPECT_EQ(missing.error().found, "OldKnife");
  EXPECT_NE(missing.error().message.find("Item prototype"), std::string::npos);
  // An object with neither ProtoId nor ProtoName.
  auto bare = migrate_map("[Header]\nVersion 4\n[Tiles]\n[Objects]\nMapObjType 1\nMapX 1\nMapY 1\n", "x.fomap");
  ASSERT_FALSE(bare);
  EXPECT_EQ(bare.error().code, "fomap.migrate.proto_name");
  EXPECT_EQ(bare.error().field, "map x, line 5");
}

// Corpus: every bare-section v2 map in old/ that has a current-format twin in new/ migrates to
// exactly that twin (spec §14: a pure section rename).
TEST(FomapMigrateCorpus, bare_v2_maps_migrate_to_their_current_twins) {
  const fs::path old_dir = kCorpus / "old/cvet__fonline-tla@592a721fa1/Maps";
  const fs::path new_dir = kCorpus / "new/cvet__fonline-tla/Maps";
  if (!fs::exists(old_dir) || !fs::exists(new_dir)) GTEST_SKIP() << "corpus absent";
  std::size_t pairs = 0, identical = 0;
  for (const auto& e : fs::directory_iterator(old_dir)) {
    const fs::path twin = new_dir / e.path().filename();
    if (!fs::exists(twin)) continue;
    ++pairs;
    auto r = migrate_map(slurp(e.path()), e.path().string());
    ASSERT_TRUE(r) << e.path();
    EXPECT_EQ(r->from, LegacyFormat::bare_v2) << e.path();
    EXPECT_TRUE(r->lossless()) << e.path();
    if (r->text == slurp(twin))
      ++identical;
    else
      ADD_FAILURE() << e.path() << " differs from " << twin;
  }
  EXPECT_GT(pairs, 0u);
  EXPECT_EQ(identical, pairs);
}

TEST(FomapMigrateCorpus, classic_maps_convert_every_object) {
  const fs::path old_dir = kCorpus / "old";
  if (!fs::exists(old_dir)) GTEST_SKIP() << "corpus absent";
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(old_dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".fomap") continue;
    const std::string text = slurp(e.path());
    if (detect_legacy_format(text) != LegacyFormat::classic) continue;
    ++files;
    auto r = migrate_map(text, e.path().string());
    ASSERT_TRUE(r) << e.path();
    std::size_t objects = 0;
    for (std::size_t pos = 0; (pos = text.find("MapObjType", pos)) != std::string::npos; ++pos) ++objects;
    EXPECT_EQ(r->critters + r->items, objects) << e.path();
    EXPECT_EQ(detect_legacy_format(r->text), LegacyFormat::current) << e.path();
    if (objects > 0) {
      EXPECT_NE(find_loss(*r, "fomap.migrate.proto_pid"), nullptr) << e.path();
    }
    // The result passes the strict gate (proto-independent part: pids are reported above).
    const MapContainer c = MapContainer::from_text(r->text, e.path().string());
    EXPECT_TRUE(c.loadable()) << e.path();
    LintOptions strict;
    strict.strict = true;
    const LintReport report = lint_container(c, Project{}, strict);
    EXPECT_EQ(report.errors(), 0u) << e.path() << ": "
                                   << (report.findings.empty() ? "" : report.findings.front().to_string());
  }
  EXPECT_GT(files, 0u);
}

}  // namespace
}  // namespace sortie::fomap
