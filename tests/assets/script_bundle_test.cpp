// prepare_mission and the native script bundles (script_bundle.hpp): the sample's bundles load
// for every clan; the personal .var wins over the shared one; a missing or broken file, a version
// mismatch, an out-of-range reference and an unknown TRF name each fail their own edge with their
// own code (the compatible profile keeps going with warnings where the check allows).
#include "sortie/assets/script_bundle.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/sample_game.hpp"
#include "sortie/iron3d/trf.hpp"

using namespace sortie;
using namespace sortie::assets;

namespace {

using Overrides = std::map<std::string, std::optional<core::Bytes>>;  // nullopt: the file is left out

MemoryVfs bundle_vfs(const Overrides& overrides = {}) {
  MemoryVfs vfs;
  auto files = generate_sample_files({SampleScale::demo, 1, ArchiveFormat::rsli});
  EXPECT_TRUE(files.has_value());
  if (files)
    for (auto& [path, bytes] : files->first)
      if (!overrides.contains(path)) {
        EXPECT_TRUE(vfs.add(path, bytes).has_value());
      }
  for (const auto& [path, bytes] : overrides)
    if (bytes) {
      EXPECT_TRUE(vfs.add(path, *bytes).has_value());
    }
  return vfs;
}

core::Result<MissionData> prepare_m01(const MemoryVfs& vfs, core::Profile profile = core::Profile::strict) {
  ArchiveRepository repo(vfs);
  PrototypeResolver resolver(repo);
  MissionPrepareOptions o;
  o.profile = profile;
  return prepare_mission(repo, resolver, "m01", o);
}

std::size_t count_script_edges(const MissionData& md, EdgeKind kind, bool failed = false) {
  std::size_t n = 0;
  for (const auto& e : md.graph.edges()) n += e.kind == kind && e.failure.has_value() == failed ? 1 : 0;
  return n;
}

core::Bytes text_bytes(std::string_view s) {
  const auto b = core::as_bytes(s);
  return {b.begin(), b.end()};
}

const ScriptBundle* find_bundle(const MissionData& md, std::string_view clan) {
  for (const auto& b : md.scripts)
    if (b.clan_name == clan) return &b;
  return nullptr;
}

bool has_warning_code(const MissionData& md, std::string_view code) {
  for (const auto& w : md.graph.warnings)
    if (w.code == code) return true;
  return false;
}

// The sample's enemy package with one change.
core::Bytes enemy_with(const std::function<void(iron3d::ScrPackage&)>& change) {
  const MemoryVfs vfs = bundle_vfs();
  auto bytes = vfs.read(*normalize_path("MISSIONS/SCRIPTS/enemy.scr"));
  EXPECT_TRUE(bytes);
  auto pkg = iron3d::read_scr(*bytes);
  EXPECT_TRUE(pkg);
  change(pkg->package);
  return iron3d::write_scr(pkg->package);
}

}  // namespace

TEST(ScriptBundle, package_and_stem_names) {
  EXPECT_EQ(script_package_name("MISSIONS\\SCRIPTS\\enemy"), "MISSIONS\\SCRIPTS\\enemy.scr");
  EXPECT_EQ(script_package_name("x.SCR"), "x.SCR");
  EXPECT_EQ(script_package_name("x.Scr"), "x.Scr");
  EXPECT_EQ(script_stem("a\\x.scr"), "a\\x");
  EXPECT_EQ(script_stem("x.SCR"), "x");
  EXPECT_EQ(script_stem("x.Scr"), "x.Scr");  // only ".scr" / ".SCR" are removed: x.Scr.var
  EXPECT_EQ(script_stem("x"), "x");
}

TEST(ScriptBundle, sample_bundles_load_for_every_clan) {
  const MemoryVfs vfs = bundle_vfs();
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md) << md.error().to_string();
  ASSERT_TRUE(md->ok()) << md->graph.failures().front().to_string();
  ASSERT_EQ(md->scripts.size(), 3u);  // Spatial, Player, Enemy
  for (std::size_t i = 0; i < md->scripts.size(); ++i) {
    const ScriptBundle& b = md->scripts[i];
    EXPECT_EQ(b.clan_index, i);
    EXPECT_TRUE(b.shared_varset);
    EXPECT_EQ(b.varset_path, "MISSIONS/SCRIPTS/varset.var");
    ASSERT_TRUE(b.varset);
    EXPECT_EQ(b.varset->vars.size(), 12u);
    EXPECT_EQ(b.package.handler_count, 73u);
    EXPECT_TRUE(b.formulas.has_value());
    EXPECT_EQ(b.package.events.at(0).name, "Init");
  }
  EXPECT_EQ(md->scripts[0].varset.get(), md->scripts[2].varset.get());  // one table, shared
  const ScriptBundle* enemy = find_bundle(*md, "Enemy");
  ASSERT_NE(enemy, nullptr);
  EXPECT_EQ(enemy->scr_path, "MISSIONS/SCRIPTS/enemy.scr");
  EXPECT_EQ(enemy->fml_path, "MISSIONS/SCRIPTS/enemy.fml");
  EXPECT_EQ(enemy->trf_path, "MISSIONS/SCRIPTS/enemy.trf");
  ASSERT_EQ(enemy->trf_prototypes.size(), 4u);
  for (const auto& p : enemy->trf_prototypes) EXPECT_TRUE(p.resolved) << p.name;
  EXPECT_TRUE(enemy->trf_prototypes[0].geometric);
  EXPECT_FALSE(enemy->trf_prototypes[3].geometric);  // the non-geometric prototype
  EXPECT_EQ(count_script_edges(*md, EdgeKind::mission_to_script), 3u);
  EXPECT_EQ(count_script_edges(*md, EdgeKind::script_to_varset), 3u);
  EXPECT_EQ(count_script_edges(*md, EdgeKind::script_to_formula), 3u);
  EXPECT_EQ(count_script_edges(*md, EdgeKind::mission_to_trf), 1u);
  EXPECT_EQ(count_script_edges(*md, EdgeKind::trf_to_prototype), 4u);
  EXPECT_EQ(std::string(to_string(EdgeKind::trf_to_prototype)), "trf_to_prototype");
  EXPECT_EQ(edge_kind_from_string("mission_to_script"), EdgeKind::mission_to_script);
}

TEST(ScriptBundle, personal_var_is_preferred_over_the_shared_one) {
  std::string personal;
  for (int i = 0; i < 12; ++i) personal += "VAR(DWORD, p" + std::to_string(i) + ", " + std::to_string(i) + ")\n";
  const MemoryVfs vfs = bundle_vfs({{"MISSIONS/SCRIPTS/enemy.var", text_bytes(personal)}});
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md && md->ok());
  const ScriptBundle* enemy = find_bundle(*md, "Enemy");
  ASSERT_NE(enemy, nullptr);
  EXPECT_FALSE(enemy->shared_varset);
  EXPECT_EQ(enemy->varset_path, "MISSIONS/SCRIPTS/enemy.var");
  EXPECT_EQ(enemy->varset->vars.at(3).name, "p3");
  const ScriptBundle* player = find_bundle(*md, "Player");
  ASSERT_NE(player, nullptr);
  EXPECT_TRUE(player->shared_varset);
}

TEST(ScriptBundle, rejects_a_malformed_personal_var_without_fallback) {
  const MemoryVfs vfs = bundle_vfs({{"MISSIONS/SCRIPTS/enemy.var", text_bytes("VAR(BYTE, b, 1)\n")}});
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md);
  ASSERT_FALSE(md->ok());
  ASSERT_EQ(md->graph.failures().size(), 1u);
  EXPECT_EQ(md->graph.failures()[0].code, "load.varset_invalid");
  EXPECT_NE(md->graph.failures()[0].message.find("varset.type"), std::string::npos);
  EXPECT_EQ(count_script_edges(*md, EdgeKind::script_to_varset, true), 1u);
}

TEST(ScriptBundle, rejects_a_missing_package) {
  const MemoryVfs vfs = bundle_vfs({{"MISSIONS/SCRIPTS/player.scr", std::nullopt}});
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md);
  ASSERT_FALSE(md->ok());
  EXPECT_EQ(md->graph.failures().at(0).code, "load.script_missing");
  EXPECT_NE(md->graph.failures()[0].message.find("clans[1] 'Player'"), std::string::npos);
  EXPECT_EQ(md->scripts.size(), 2u);
  // The compatible profile does not invent a package either.
  auto compat = prepare_m01(vfs, core::Profile::compatible);
  ASSERT_TRUE(compat);
  EXPECT_FALSE(compat->ok());
}

TEST(ScriptBundle, rejects_a_missing_shared_varset) {
  const MemoryVfs vfs = bundle_vfs({{"MISSIONS/SCRIPTS/varset.var", std::nullopt}});
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md);
  ASSERT_EQ(md->graph.failures().size(), 3u);  // one per bundle
  EXPECT_EQ(md->graph.failures()[0].code, "load.varset_missing");
}

TEST(ScriptBundle, rejects_a_truncated_package) {
  core::Bytes cut = enemy_with([](iron3d::ScrPackage&) {});
  cut.resize(cut.size() - 3);
  const MemoryVfs vfs = bundle_vfs({{"MISSIONS/SCRIPTS/enemy.scr", cut}});
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md);
  ASSERT_EQ(md->graph.failures().size(), 1u);
  EXPECT_EQ(md->graph.failures()[0].code, "load.script_invalid");
  EXPECT_NE(md->graph.failures()[0].message.find("(scr.count)"), std::string::npos);
}

TEST(ScriptBundle, version_mismatch_is_its_own_diagnostic) {
  const MemoryVfs vfs =
      bundle_vfs({{"MISSIONS/SCRIPTS/enemy.scr", enemy_with([](iron3d::ScrPackage& p) { p.handler_count = 72; })}});
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md);
  ASSERT_EQ(md->graph.failures().size(), 1u);
  EXPECT_EQ(md->graph.failures()[0].code, "load.script_version");
  EXPECT_EQ(md->graph.failures()[0].found, "72");
  EXPECT_FALSE(has_warning_code(*md, "load.script_selector"));
  auto compat = prepare_m01(vfs, core::Profile::compatible);
  ASSERT_TRUE(compat);
  EXPECT_TRUE(compat->ok());
  EXPECT_TRUE(has_warning_code(*compat, "load.script_version"));
  EXPECT_EQ(compat->scripts.size(), 3u);
}

TEST(ScriptBundle, unknown_selector_is_kept_with_a_warning_not_a_version_error) {
  const MemoryVfs vfs =
      bundle_vfs({{"MISSIONS/SCRIPTS/enemy.scr",
                   enemy_with([](iron3d::ScrPackage& p) { p.events[1].instructions[0].words[0] = 100; })}});
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md);
  EXPECT_TRUE(md->ok());
  EXPECT_TRUE(has_warning_code(*md, "load.script_selector"));
  EXPECT_FALSE(has_warning_code(*md, "load.script_version"));
  const ScriptBundle* enemy = find_bundle(*md, "Enemy");
  ASSERT_NE(enemy, nullptr);
  ASSERT_GE(enemy->package.events.size(), 2u);
  ASSERT_FALSE(enemy->package.events[1].instructions.empty());
  EXPECT_EQ(enemy->package.events[1].instructions[0].words[0], 100u);
}

TEST(ScriptBundle, rejects_a_reference_outside_the_varset) {
  const MemoryVfs vfs =
      bundle_vfs({{"MISSIONS/SCRIPTS/enemy.scr",
                   enemy_with([](iron3d::ScrPackage& p) { p.events[0].instructions[0].references[2] = 12; })}});
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md);
  ASSERT_EQ(md->graph.failures().size(), 1u);
  const auto& d = md->graph.failures()[0];
  EXPECT_EQ(d.code, "load.script_reference");
  EXPECT_EQ(d.field, "events[0].instructions[0].references[2]");
  EXPECT_EQ(d.found, "12");
  auto compat = prepare_m01(vfs, core::Profile::compatible);
  ASSERT_TRUE(compat && compat->ok());
  EXPECT_TRUE(has_warning_code(*compat, "load.script_reference"));
}

TEST(ScriptBundle, trf_names_resolve_through_the_prototype_registry) {
  auto trf = iron3d::build_trf({"no_such_proto"});
  ASSERT_TRUE(trf);
  const MemoryVfs vfs = bundle_vfs({{"MISSIONS/SCRIPTS/enemy.trf", *trf}});
  auto md = prepare_m01(vfs);
  ASSERT_TRUE(md);
  ASSERT_EQ(md->graph.failures().size(), 1u);
  EXPECT_EQ(md->graph.failures()[0].code, "load.trf_prototype");
  EXPECT_NE(md->graph.failures()[0].message.find("load.prototype_missing"), std::string::npos);
  EXPECT_EQ(count_script_edges(*md, EdgeKind::trf_to_prototype, true), 1u);
  auto compat = prepare_m01(vfs, core::Profile::compatible);
  ASSERT_TRUE(compat && compat->ok());
  EXPECT_TRUE(has_warning_code(*compat, "load.trf_prototype"));
  const ScriptBundle* enemy = find_bundle(*compat, "Enemy");
  ASSERT_NE(enemy, nullptr);
  ASSERT_EQ(enemy->trf_prototypes.size(), 1u);
  EXPECT_FALSE(enemy->trf_prototypes[0].resolved);
}

TEST(ScriptBundle, rejects_a_missing_or_broken_trf) {
  auto missing = prepare_m01(bundle_vfs({{"MISSIONS/SCRIPTS/enemy.trf", std::nullopt}}));
  ASSERT_TRUE(missing);
  ASSERT_EQ(missing->graph.failures().size(), 1u);
  EXPECT_EQ(missing->graph.failures()[0].code, "load.trf_missing");
  auto broken = prepare_m01(bundle_vfs({{"MISSIONS/SCRIPTS/enemy.trf", text_bytes("NRes but not really")}}));
  ASSERT_TRUE(broken);
  ASSERT_EQ(broken->graph.failures().size(), 1u);
  EXPECT_EQ(broken->graph.failures()[0].code, "load.trf_invalid");
}

TEST(ScriptBundle, formula_export_is_optional) {
  auto md = prepare_m01(bundle_vfs({{"MISSIONS/SCRIPTS/spatial.fml", std::nullopt}}));
  ASSERT_TRUE(md && md->ok());
  EXPECT_FALSE(md->scripts[0].formulas.has_value());
  EXPECT_TRUE(md->scripts[0].fml_path.empty());
  EXPECT_EQ(count_script_edges(*md, EdgeKind::script_to_formula), 2u);
}
