#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "small_game.hpp"
#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/dependency_graph.hpp"
#include "sortie/assets/game_builder.hpp"
#include "sortie/assets/prototype_resolver.hpp"
#include "sortie/iron3d/wear.hpp"

using namespace sortie::assets;
using sortie::core::Bytes;

namespace {

using test::small_game;

std::vector<PlacedObjectRequest> placed(std::vector<std::string> names) {
  std::vector<PlacedObjectRequest> out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out.push_back({static_cast<std::int32_t>(i), names[i], fmt::format("inst{}", i)});
  return out;
}

struct Run {
  DependencyGraph graph;
  std::vector<ResolvedObject> objects;
};

Run resolve(const GameBuilder& g, std::vector<std::string> names) {
  MemoryVfs vfs;
  EXPECT_TRUE(g.fill(vfs).has_value());
  ArchiveRepository repo(vfs);
  PrototypeResolver resolver(repo);
  Run r;
  const auto mission = r.graph.node(NodeKind::mission, "MISSIONS/m1/data.tma");
  const auto requests = placed(std::move(names));
  r.objects = resolver.resolve("MISSIONS/m1/data.tma", mission, requests, r.graph);
  return r;
}

std::size_t count_edges(const DependencyGraph& g, EdgeKind kind) {
  return static_cast<std::size_t>(
      std::count_if(g.edges().begin(), g.edges().end(), [&](const Edge& e) { return e.kind == kind; }));
}

}  // namespace

TEST(PrototypeResolver, counts_the_whole_chain_in_the_seed_table_shape) {
  for (auto fmt : {ArchiveFormat::rsli, ArchiveFormat::nres}) {
    auto r = resolve(small_game(fmt), {"s_tree", "UNITS\\u1.dat", "sun", "b_child"});
    ASSERT_TRUE(r.graph.ok()) << r.graph.failures().front().to_string();
    const auto& s = r.graph.stats;
    EXPECT_EQ(s.placed_objects, 4u);
    EXPECT_EQ(s.unit_references, 1u);
    EXPECT_EQ(s.unit_components, 2u);
    EXPECT_EQ(s.direct_references, 3u);
    EXPECT_EQ(s.prototype_requests, 5u);
    EXPECT_EQ(s.non_geometric, 1u);
    EXPECT_EQ(s.mesh_requests, 4u);
    EXPECT_EQ(s.wear_requests, 4u);
    EXPECT_EQ(s.material_slots, 8u);     // 2 rows per model, 4 model references
    EXPECT_EQ(s.texture_requests, 12u);  // M_ONE 1 + M_TWO 2 per model reference
    EXPECT_EQ(s.lightmap_requests, 2u);  // bunker twice
    EXPECT_EQ(s.failures, 0u);
    EXPECT_EQ(count_edges(r.graph, EdgeKind::prototype_to_parent), 2u);
    EXPECT_EQ(count_edges(r.graph, EdgeKind::unit_dat_to_component), 2u);
    EXPECT_EQ(count_edges(r.graph, EdgeKind::wear_to_lightmap), 2u);
    ASSERT_EQ(r.objects.size(), 4u);
    ASSERT_EQ(r.objects[1].components.size(), 2u);
    EXPECT_EQ(r.objects[1].components[1].mesh_archive, "bases.rlb");
    EXPECT_EQ(r.objects[1].components[1].mesh_entry, "bunker.msh");
    EXPECT_EQ(r.objects[1].components[1].unit_component_index, 1);
    EXPECT_FALSE(r.objects[2].components[0].geometric);
  }
}

TEST(PrototypeResolver, missing_texture_fails_its_edge_with_provenance) {
  auto g = small_game();
  // Rebuild textures.lib without T_B.
  GameBuilder g2 = g;
  MemoryVfs vfs;
  ASSERT_TRUE(g.fill(vfs).has_value());
  GameBuilder only_a;
  ASSERT_TRUE(only_a.add_texture("T_A", 16, 16, 565, 2, 1).has_value());
  auto files = only_a.build();
  ASSERT_TRUE(files.has_value());
  ASSERT_TRUE(vfs.add("textures.lib", files->at("textures.lib")).has_value());
  ArchiveRepository repo(vfs);
  PrototypeResolver resolver(repo);
  DependencyGraph graph;
  const auto requests = placed({"s_tree"});
  resolver.resolve("m1", graph.node(NodeKind::mission, "m1"), requests, graph);
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.stats.failures, 1u);
  const auto& d = graph.failures().front();
  EXPECT_EQ(d.code, "load.texture_missing");
  EXPECT_NE(d.message.find("objects[0] 's_tree'"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("static.rlb:tree.msh"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("M_TWO"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("textures.lib: texture 'T_B' not found"), std::string::npos) << d.message;
  // The whole chain, each link once: placed object, mesh, WEAR, row, texture.
  EXPECT_EQ(d.message,
            "m1: objects[0] 's_tree' -> static.rlb:tree.msh -> tree.wea -> row 1 'M_TWO' -> textures.lib: "
            "texture 'T_B' not found");
  const auto& failed =
      *std::find_if(graph.edges().begin(), graph.edges().end(), [](const Edge& e) { return e.failure; });
  EXPECT_EQ(failed.kind, EdgeKind::material_to_texture);
  EXPECT_EQ(graph.nodes()[failed.to].label(), "textures.lib:T_B");
}

TEST(PrototypeResolver, missing_unit_dat_is_an_object_to_unit_dat_failure) {
  auto r = resolve(small_game(), {"UNITS/none.dat"});
  ASSERT_EQ(r.graph.failures().size(), 1u);
  EXPECT_EQ(r.graph.failures()[0].code, "load.unit_dat_missing");
  EXPECT_EQ(r.graph.edges().back().kind, EdgeKind::object_to_unit_dat);
}

TEST(PrototypeResolver, unknown_component_key_is_a_unit_dat_to_component_failure) {
  auto g = small_game();
  ASSERT_TRUE(g.add_unit_dat("UNITS/bad.dat", {"s_tree", "no_such"}).has_value());
  auto r = resolve(g, {"UNITS/bad.dat"});
  ASSERT_EQ(r.graph.failures().size(), 1u);
  const auto& d = r.graph.failures()[0];
  EXPECT_EQ(d.code, "load.prototype_missing");
  EXPECT_NE(d.message.find("component[1] 'no_such'"), std::string::npos) << d.message;
  const auto& failed =
      *std::find_if(r.graph.edges().begin(), r.graph.edges().end(), [](const Edge& e) { return e.failure; });
  EXPECT_EQ(failed.kind, EdgeKind::unit_dat_to_component);
  EXPECT_EQ(failed.unit_component_index, 1);
}

TEST(PrototypeResolver, rejects_inheritance_cycles_and_deep_chains) {
  auto g = small_game();
  g.add_prototype("cy_a", {{"objects.rlb", "cy_b"}});
  g.add_prototype("cy_b", {{"objects.rlb", "cy_a"}});
  for (int i = 0; i < 34; ++i) g.add_prototype(fmt::format("d{}", i), {{"objects.rlb", fmt::format("d{}", i + 1)}});
  g.add_prototype("d34", {{"static.rlb", "tree.msh"}});
  auto r = resolve(g, {"cy_a", "d0"});
  ASSERT_EQ(r.graph.failures().size(), 2u);
  EXPECT_EQ(r.graph.failures()[0].code, "load.prototype_cycle");
  EXPECT_EQ(r.graph.failures()[1].code, "load.prototype_depth");
}

TEST(PrototypeResolver, explicit_mesh_reference_missing_lists_the_references) {
  auto g = small_game();
  g.add_prototype("ghost", {{"static.rlb", "gone.msh"}, {"nothere.rlb", "x.msh"}});
  auto r = resolve(g, {"ghost"});
  ASSERT_EQ(r.graph.failures().size(), 1u);
  const auto& d = r.graph.failures()[0];
  EXPECT_EQ(d.code, "load.mesh_missing");
  EXPECT_NE(d.message.find("static.rlb:gone.msh, nothere.rlb:x.msh"), std::string::npos) << d.message;
}

TEST(PrototypeResolver, direct_model_key_falls_back_to_mesh_candidates) {
  // A key absent from the registry resolves when objects.rlb holds "<key>.msh" itself? No: the
  // fall-through looks in objects.rlb; here the key names tree.msh's stem in a unit record whose
  // archive is static.rlb.
  auto g = small_game();
  ASSERT_TRUE(g.add_unit_dat("UNITS/direct.dat", {}).has_value());
  auto r = resolve(g, {"UNITS/direct.dat"});
  EXPECT_TRUE(r.graph.ok());
  EXPECT_EQ(r.graph.stats.unit_components, 0u);  // an 8-byte unit DAT is valid and empty
  EXPECT_EQ(mesh_name_candidates("tree"), (std::vector<std::string>{"tree", "tree.msh"}));
  EXPECT_EQ(mesh_name_candidates("DIR\\tree.MSH"), (std::vector<std::string>{"DIR\\tree.MSH", "tree"}));
  EXPECT_EQ(clean_legacy_name(std::string(" key\0tail", 9)), "key");
}

TEST(PrototypeResolver, unknown_material_falls_back_to_default_with_a_warning) {
  auto g = small_game();
  ASSERT_TRUE(g.add_model({"static.rlb", "odd.msh", {"M_ONE", "NO_SUCH_MAT"}, {}}).has_value());
  g.add_prototype("odd", {{"static.rlb", "odd.msh"}});
  g.add_prototype("odd_too", {{"objects.rlb", "odd"}});
  auto r = resolve(g, {"odd", "odd_too", "s_tree"});
  ASSERT_TRUE(r.graph.ok());  // a fallback is not a failure: the engine draws with DEFAULT
  const auto& c = r.objects[0].components[0];
  EXPECT_EQ(c.requested_materials, (std::vector<std::string>{"M_ONE", "NO_SUCH_MAT"}));
  EXPECT_EQ(c.materials, (std::vector<std::string>{"M_ONE", "DEFAULT"}));
  EXPECT_EQ(c.textures, (std::vector<std::string>{"T_A", "T_B"}));
  // Counted per material slot (two objects reach the row), reported once per WEAR row.
  EXPECT_EQ(r.graph.stats.material_slots, 6u);
  EXPECT_EQ(r.graph.stats.material_fallbacks, 2u);
  ASSERT_EQ(r.graph.warnings.size(), 1u);
  const auto& w = r.graph.warnings[0];
  EXPECT_EQ(w.code, "load.material_fallback");
  EXPECT_EQ(w.severity, sortie::core::Severity::warning);
  EXPECT_EQ(w.message,
            "MISSIONS/m1/data.tma: objects[0] 'odd' -> static.rlb:odd.msh -> odd.wea -> row 1 'NO_SUCH_MAT' "
            "-> material.lib: Material NO_SUCH_MAT not found; using 'DEFAULT'");
  EXPECT_EQ(w.file, "material.lib");
  EXPECT_EQ(w.field, "objects[0]");
  EXPECT_EQ(r.graph.stats.to_json()["material_fallbacks"], 2);
  EXPECT_NE(r.graph.stats.to_table().find("2 material slots fell back (material not found)\n"), std::string::npos);
  // The row still reaches DEFAULT in the graph.
  std::size_t to_default = 0;
  for (const auto& e : r.graph.edges())
    to_default += e.kind == EdgeKind::wear_to_material && r.graph.nodes()[e.to].entry == "DEFAULT" ? 1 : 0;
  EXPECT_EQ(to_default, 2u);
}

TEST(PrototypeResolver, no_fallback_no_warning_and_no_fallback_line) {
  auto r = resolve(small_game(), {"s_tree"});
  EXPECT_EQ(r.graph.stats.material_fallbacks, 0u);
  EXPECT_TRUE(r.graph.warnings.empty());
  EXPECT_EQ(r.graph.stats.to_table().find("fell back"), std::string::npos);
}

TEST(PrototypeResolver, environment_wear_rows_resolve_with_the_table_path_as_the_chain_head) {
  MemoryVfs vfs;
  ASSERT_TRUE(small_game().fill(vfs).has_value());
  ArchiveRepository repo(vfs);
  PrototypeResolver resolver(repo);
  DependencyGraph graph;
  auto wear = sortie::iron3d::build_wear({"M_TWO", "GONE"}, {"LM_A"});
  ASSERT_TRUE(wear.has_value());
  const auto bytes = sortie::iron3d::write_wear(*wear);
  const auto rc =
      resolver.resolve_environment_wear("DATA/MAPS/a/Land2.wea", bytes, graph, graph.node(NodeKind::mission, "m1"));
  ASSERT_TRUE(graph.ok());
  EXPECT_EQ(rc.requested_materials, (std::vector<std::string>{"M_TWO", "GONE"}));
  EXPECT_EQ(rc.materials, (std::vector<std::string>{"M_TWO", "DEFAULT"}));
  EXPECT_EQ(rc.lightmaps, (std::vector<std::string>{"LM_A"}));
  ASSERT_EQ(graph.warnings.size(), 1u);
  EXPECT_EQ(graph.warnings[0].message,
            "DATA/MAPS/a/Land2.wea: row 1 'GONE' -> material.lib: Material GONE not found; using 'DEFAULT'");
}

TEST(DependencyGraph, json_lists_edges_with_kind_archive_entry) {
  auto r = resolve(small_game(), {"s_tree"});
  const auto j = r.graph.to_json();
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["statistics"]["material_slots"], 2);
  bool saw_texture = false;
  for (const auto& e : j["edges"]) {
    EXPECT_TRUE(e.contains("from") && e.contains("to") && e.contains("kind") && e.contains("archive") &&
                e.contains("entry"));
    if (e["kind"] == "material_to_texture") {
      saw_texture = true;
      EXPECT_EQ(e["archive"], "textures.lib");
    }
  }
  EXPECT_TRUE(saw_texture);
  EXPECT_NE(r.graph.stats.to_table().find("1 placed objects"), std::string::npos);
}
