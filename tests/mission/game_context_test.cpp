// GameContext (directory -> VFS -> repository -> resolver -> session) and what a loaded mission
// hands a renderer: the prepared-visual store, immutable after the load.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "sortie/assets/sample_game.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie_test/demo_game.hpp"

using namespace sortie;
namespace fs = std::filesystem;

namespace {

using sortie::test::demo_files;
using sortie::test::Files;
using sortie::test::game_over;

// Everything a renderer reads from a store, hashed: identities, pointers and contents.
std::uint64_t digest(const assets::VisualStore& s) {
  core::StateHasher h;
  auto texture = [&](const assets::PreparedTexture& t) {
    h.str(t.archive);
    h.str(t.entry);
    h.u64(reinterpret_cast<std::uintptr_t>(&t));
    for (const auto& m : t.mips) h.bytes(core::ByteView(m.pixels.data(), m.pixels.size()));
  };
  for (const auto& t : s.textures()) texture(*t);
  for (const auto& t : s.lightmaps()) texture(*t);
  for (const auto& m : s.meshes()) {
    h.str(m->entry);
    h.u64(reinterpret_cast<std::uintptr_t>(m.get()));
    for (const auto& p : m->positions) h.f32(p.x), h.f32(p.y), h.f32(p.z);
    for (const auto& slot : m->slots)
      for (const auto& sm : slot.submeshes)
        for (auto i : sm.indices) h.u32(i);
  }
  for (const auto& m : s.materials()) {
    h.str(m->entry);
    for (const auto& p : m->phases) h.u64(reinterpret_cast<std::uintptr_t>(p.texture.get()));
  }
  for (const auto& p : s.placements()) {
    h.u32(static_cast<std::uint32_t>(p.placed_index));
    h.f32(p.transform.position.x), h.f32(p.transform.position.y), h.f32(p.transform.position.z);
    h.f32(p.transform.orientation.z);
    for (const auto& c : p.components) h.u64(reinterpret_cast<std::uintptr_t>(c.prototype));
  }
  for (const auto& f : s.terrain().faces) h.u32(f.vertices[0]), h.u32(static_cast<std::uint32_t>(f.texture));
  h.u64(s.stats().texture_bytes);
  return h.digest();
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-game-context-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

}  // namespace

TEST_F(TempDir, open_reads_a_game_directory_and_refuses_a_missing_one) {
  auto written = assets::write_sample({assets::SampleScale::demo, 1, assets::ArchiveFormat::rsli}, dir_ / "game");
  ASSERT_TRUE(written.has_value()) << written.error().to_string();
  auto game = mission::GameContext::open(dir_ / "game");
  ASSERT_TRUE(game.has_value()) << game.error().to_string();
  EXPECT_EQ(game->missions().value(), (std::vector<std::string>{"m01", "m02", "m03"}));
  EXPECT_EQ(game->first_mission().value(), "m01");
  auto report = game->load("m02");
  ASSERT_TRUE(report.has_value() && report->ok);
  ASSERT_NE(game->current(), nullptr);
  EXPECT_EQ(game->current()->objects.size(), 16u);

  // Moving the context keeps its parts wired together.
  mission::GameContext moved = std::move(*game);
  ASSERT_NE(moved.current(), nullptr);
  EXPECT_TRUE(moved.load("m03").has_value());
  EXPECT_EQ(&moved.repository().vfs(), &moved.vfs());

  auto missing = mission::GameContext::open(dir_ / "absent");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, "io.not_found");  // an I/O error: exit code 2 in the CLI
  EXPECT_EQ(missing.error().file, (dir_ / "absent").string());
  std::ofstream(dir_ / "file.txt") << "x";
  auto file = mission::GameContext::open(dir_ / "file.txt");
  ASSERT_FALSE(file.has_value());
  EXPECT_EQ(file.error().code, "io.not_a_directory");

  fs::create_directories(dir_ / "empty");
  auto empty = mission::GameContext::open(dir_ / "empty");
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty->first_mission().error().code, "load.no_missions");
  EXPECT_EQ(empty->load("m01").error().code, "load.mission_missing");
}

TEST(GameContext, compatible_profile_reaches_the_resolver_and_loader) {
  mission::GameContextOptions o;
  o.profile = core::Profile::compatible;
  auto vfs = std::make_unique<assets::MemoryVfs>();
  auto game = mission::GameContext::over(std::move(vfs), o);
  EXPECT_EQ(game.options().profile, core::Profile::compatible);
  EXPECT_EQ(game.options().resolver.profile, core::Profile::compatible);
}

TEST(LoadedMission, exposes_an_immutable_visual_store_for_every_placed_object) {
  static_assert(std::is_same_v<decltype(mission::LoadedMission::visuals), std::shared_ptr<const assets::VisualStore>>);
  auto game = game_over(demo_files());
  auto report = game.load("m01");
  ASSERT_TRUE(report.has_value() && report->ok)
      << (report ? report->failures.front().to_string() : report.error().to_string());
  const mission::LoadedMission* lm = game.current();
  ASSERT_NE(lm, nullptr);
  ASSERT_NE(lm->visuals, nullptr);
  const assets::VisualStore& store = *lm->visuals;
  EXPECT_EQ(store.mission(), "MISSIONS/m01/data.tma");
  EXPECT_EQ(report->visuals.placements, 16u);
  EXPECT_EQ(report->visuals.meshes, store.meshes().size());
  EXPECT_TRUE(store.warnings().empty()) << store.warnings().front().to_string();

  // Per placed object: the authored transform (the world starts from it) and prototypes whose
  // geometric ones carry a mesh with vertices, materials and textures.
  ASSERT_EQ(store.placements().size(), lm->objects.size());
  for (const auto& info : lm->objects) {
    const auto* placement = store.placement(info.placed_index);
    ASSERT_NE(placement, nullptr);
    const auto& authored = lm->data->tma.objects[static_cast<std::size_t>(info.placed_index)];
    EXPECT_EQ(placement->transform.position,
              (core::Vec3{authored.position.x, authored.position.y, authored.position.z}));
    EXPECT_EQ(placement->transform.orientation.z, authored.orientation.z);
    const auto* obj = lm->world->find(info.handle);
    ASSERT_NE(obj, nullptr);
    EXPECT_EQ(obj->transform.position.x, placement->transform.position.x);
    EXPECT_EQ(obj->transform.position.y, placement->transform.position.y);
    ASSERT_EQ(placement->components.size(), info.components);
    for (const auto& c : placement->components) {
      ASSERT_NE(c.prototype, nullptr);
      ASSERT_NE(c.prototype->visual, nullptr) << c.prototype->key;  // every sample prototype placed here has geometry
      const auto& v = *c.prototype->visual;
      // Sample models are solids of flat faces (sample_art.hpp): at least a box's 24 corners.
      EXPECT_GE(v.mesh->positions.size(), 24u);
      EXPECT_FALSE(v.mesh->bounds.empty());
      EXPECT_GE(v.materials.size(), v.mesh->material_rows);  // every row a batch uses has a material
      for (const auto& slot : v.materials) {
        ASSERT_NE(slot.material, nullptr);
        EXPECT_FALSE(slot.fallback);
        for (const auto& phase : slot.material->phases) EXPECT_NE(phase.texture, nullptr) << phase.texture_name;
      }
    }
  }

  // Terrain: Land.msh geometry, its two WEAR layers, face textures from the Land2 rows.
  const auto& t = store.terrain();
  EXPECT_EQ(t.path, "DATA/MAPS/map01/Land.msh");
  EXPECT_EQ(t.positions.size(), lm->data->land_msh.positions.size());
  EXPECT_EQ(t.faces.size(), lm->data->land_msh.faces.size());
  EXPECT_EQ(t.uvs.size(), t.positions.size());
  EXPECT_EQ(t.layers[0].wear_path, "DATA/MAPS/map01/Land1.wea");
  EXPECT_EQ(t.layers[1].wear_path, "DATA/MAPS/map01/Land2.wea");
  ASSERT_EQ(t.layers[1].materials.size(), 5u);  // the terrain kinds, sand .. snow
  EXPECT_EQ(t.layers[1].lightmaps.size(), 1u);
  std::set<std::uint8_t> rows;
  for (const auto& f : t.faces) {
    rows.insert(f.land2_row);
    ASSERT_GE(f.texture, 0);
    const auto& first = t.layers[1].materials[f.land2_row].material->phases.front();
    EXPECT_EQ(t.textures[static_cast<std::size_t>(f.texture)].get(), first.texture.get());
  }
  EXPECT_GE(rows.size(), 3u);  // kinds by height and slope

  // Immutable: running the world and loading another mission through the same session (its
  // cache grows, the current world is replaced) changes nothing in the store we hold.
  const std::shared_ptr<const assets::VisualStore> held = lm->visuals;
  const std::uint64_t before = digest(*held);
  const std::size_t textures_before = game.session().visual_cache().stats().textures_decoded;
  mission::ScenarioOptions so;
  so.ticks = 120;
  ASSERT_TRUE(mission::run_scenario(*game.current(), so).has_value());
  EXPECT_EQ(digest(*held), before);
  auto second = game.load("m02");
  ASSERT_TRUE(second.has_value() && second->ok);
  const mission::LoadedMission* m02 = game.current();
  ASSERT_NE(m02, nullptr);
  ASSERT_NE(m02->visuals, nullptr);
  const assets::VisualStore& next = *m02->visuals;
  EXPECT_NE(&next, held.get());
  EXPECT_EQ(digest(*held), before);
  // A texture both missions use is one object, decoded once.
  std::size_t shared = 0;
  for (const auto& t2 : next.textures())
    for (const auto& t1 : held->textures()) shared += t1 == t2 ? 1 : 0;
  EXPECT_GT(shared, 0u);
  EXPECT_EQ(game.session().visual_cache().stats().textures_decoded, textures_before + next.textures().size() - shared);
}

TEST(LoadedMission, missing_material_falls_back_with_a_warning_and_loads) {
  // Remove from material.lib a material m01 reaches through a placed object.
  auto game = game_over(demo_files());
  auto md = game.prepare("m01");
  ASSERT_TRUE(md && md->ok());
  std::string victim;
  for (const auto& e : md->graph.edges())
    if (e.kind == assets::EdgeKind::wear_to_material && e.placed_index >= 0 &&
        md->graph.nodes()[e.to].entry != "DEFAULT") {
      victim = md->graph.nodes()[e.to].entry;
      break;
    }
  ASSERT_FALSE(victim.empty());
  Files files = demo_files();
  auto lib = iron3d::read_nres(core::ByteView(files.at("material.lib")));
  ASSERT_TRUE(lib.has_value());
  iron3d::NresEditor editor(*lib);
  ASSERT_TRUE(editor.remove(*editor.find(victim)).has_value());
  files["material.lib"] = *editor.encode_canonical();

  auto broken = game_over(files);
  auto report = broken.load("m01");
  ASSERT_TRUE(report.has_value());
  ASSERT_TRUE(report->ok);  // the engine draws those rows with DEFAULT
  EXPECT_GT(report->mission_total.material_fallbacks, 0u);
  EXPECT_GT(report->visuals.material_fallbacks, 0u);
  std::size_t warned = 0;  // through placed objects (the map's Land*.wea may use it too)
  for (const auto& d : report->warnings) {
    if (d.code != "load.material_fallback") continue;
    EXPECT_EQ(d.severity, core::Severity::warning);
    EXPECT_NE(d.message.find("Material " + victim + " not found; using 'DEFAULT'"), std::string::npos) << d.message;
    warned += d.message.rfind("MISSIONS/m01/data.tma: objects[", 0) == 0 ? 1 : 0;
  }
  EXPECT_GT(warned, 0u);
  const auto j = report->to_json();
  EXPECT_EQ(j["mission_total"]["material_fallbacks"], report->mission_total.material_fallbacks);
  EXPECT_EQ(j["visuals"]["material_fallbacks"], report->visuals.material_fallbacks);
  const mission::LoadedMission* lm = broken.current();
  ASSERT_NE(lm, nullptr);
  ASSERT_NE(lm->visuals, nullptr);
  std::size_t fallback_slots = 0;
  for (const auto& p : lm->visuals->prototypes())
    if (p.visual)
      for (const auto& slot : p.visual->materials)
        if (slot.fallback) {
          ++fallback_slots;
          EXPECT_EQ(slot.requested, victim);
          EXPECT_EQ(slot.material->entry, "DEFAULT");
        }
  EXPECT_GT(fallback_slots, 0u);
}

TEST(Scenario, zero_ticks_report_the_hash_of_the_loaded_state) {
  auto game = game_over(demo_files());
  ASSERT_TRUE(game.load("m01").has_value());
  const std::uint64_t loaded = game.current()->world->compute_state_hash();
  EXPECT_NE(loaded, 0u);
  mission::ScenarioOptions so;
  so.ticks = 0;
  auto r = mission::run_scenario(*game.current(), so);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->ticks, 0u);
  EXPECT_EQ(r->final_hash, loaded);
  auto replayed = mission::replay_scenario(*game.current(), r->log, 0);
  ASSERT_TRUE(replayed.has_value());
  EXPECT_EQ(*replayed, loaded);
  so.ticks = 1;
  auto one = mission::run_scenario(*game.current(), so);
  ASSERT_TRUE(one.has_value());
  EXPECT_NE(one->final_hash, loaded);  // the clock advanced
}
