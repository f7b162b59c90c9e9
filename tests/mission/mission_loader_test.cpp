// Staged mission loading on the generated sample: success, determinism, and fault injection for
// every edge kind (the load fails with that edge's diagnostic, nothing is registered, and the
// previously loaded world stays untouched).
#include "sortie/mission/mission_loader.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "sortie/assets/sample_game.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/components.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie_test/demo_game.hpp"

using namespace sortie;
using assets::EdgeKind;

namespace {

using sortie::test::demo_files;
using sortie::test::Files;
using sortie::test::game_over;

std::string find_key(const Files& files, std::string_view path) {
  for (const auto& [p, b] : files)
    if (core::iequals_ascii(p, path)) return p;
  return std::string(path);
}

// Removes an entry from an NRes or RsLi archive of the file set.
bool remove_entry(Files& files, std::string_view archive, std::string_view entry) {
  const std::string key = find_key(files, archive);
  auto it = files.find(key);
  if (it == files.end()) return false;
  core::Bytes& bytes = it->second;
  if (bytes.size() >= 4 && bytes[0] == 'N' && bytes[1] == 'R') {
    auto a = iron3d::read_nres(core::ByteView(bytes));
    if (!a) return false;
    iron3d::NresEditor ed(*a);
    auto i = ed.find(entry);
    if (!i || !ed.remove(*i)) return false;
    auto out = ed.encode_canonical();
    if (!out) return false;
    bytes = std::move(*out);
    return true;
  }
  auto a = iron3d::read_rsli(bytes, iron3d::RsliReadOptions::from_profile(core::Profile::strict));
  if (!a) return false;
  auto ed = iron3d::RsliEditor::open(*a);
  if (!ed) return false;
  auto i = ed->find(entry);
  if (!i || !ed->remove(*i)) return false;
  auto out = ed->write();
  if (!out) return false;
  bytes = std::move(*out);
  return true;
}

// Replaces an NRes entry's payload with garbage.
bool corrupt_entry(Files& files, std::string_view archive, std::string_view entry) {
  auto it = files.find(find_key(files, archive));
  if (it == files.end()) return false;
  auto a = iron3d::read_nres(core::ByteView(it->second));
  if (!a) return false;
  iron3d::NresEditor ed(*a);
  auto i = ed.find(entry);
  if (!i || !ed.replace(*i, core::Bytes{0xFF, 0xFF, 0xFF, 0x7F, 1, 2, 3})) return false;
  auto out = ed.encode_canonical();
  if (!out) return false;
  it->second = std::move(*out);
  return true;
}

}  // namespace

TEST(MissionLoader, loads_registers_everything_and_runs_deterministically) {
  std::uint64_t hashes[2] = {};
  for (auto& h : hashes) {
    auto l = game_over(demo_files());
    auto report = l.load("m01");
    ASSERT_TRUE(report.has_value()) << report.error().to_string();
    ASSERT_TRUE(report->ok) << report->failures.front().to_string();
    EXPECT_EQ(report->constructed, 16u);
    EXPECT_EQ(report->registered, 16u);
    const auto* cur = l.current();
    ASSERT_NE(cur, nullptr);
    EXPECT_EQ(cur->world->queue().size(), 16u);
    std::vector<std::string> phases;
    for (const auto& t : report->timings) phases.push_back(t.phase);
    EXPECT_EQ(phases, (std::vector<std::string>{"context", "mission", "foundation", "scripts", "prototypes",
                                                "environment", "resources", "construct", "register", "ground"}));
    mission::ScenarioOptions so;
    so.ticks = 300;
    auto run = mission::run_scenario(*l.current(), so);
    ASSERT_TRUE(run.has_value());
    EXPECT_GT(run->orders, 0u);
    h = run->final_hash;

    // Replay of the recorded log on a fresh load reaches the same hash.
    auto l2 = game_over(demo_files());
    ASSERT_TRUE(l2.load("m01").has_value());
    auto replayed = mission::replay_scenario(*l2.current(), run->log, so.ticks);
    ASSERT_TRUE(replayed.has_value());
    EXPECT_EQ(*replayed, run->final_hash);
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

TEST(MissionLoader, every_edge_kind_failure_stops_the_load_and_keeps_the_previous_world) {
  // Find one concrete target per edge kind in the successful graphs of the demo missions.
  std::map<EdgeKind, std::pair<std::string, std::string>> targets;  // kind -> (archive/file, entry)
  std::map<EdgeKind, std::string> mission_of;
  {
    auto l = game_over(demo_files());
    for (const char* m : {"m01", "m02", "m03"}) {
      auto md = l.prepare(m);
      ASSERT_TRUE(md.has_value());
      ASSERT_TRUE(md->ok());
      for (const auto& e : md->graph.edges()) {
        if (targets.count(e.kind) || (e.placed_index < 0 && e.kind >= EdgeKind::object_to_prototype)) continue;
        const auto& n = md->graph.nodes()[e.to];
        targets[e.kind] = {n.archive, n.entry};
        mission_of[e.kind] = m;
      }
    }
  }
  const std::map<EdgeKind, std::set<std::string>> expected_codes = {
      {EdgeKind::mission_to_land_msh, {"load.land_msh_missing"}},
      {EdgeKind::mission_to_land_map, {"load.land_map_missing"}},
      {EdgeKind::mission_to_build_dat, {"load.build_dat_missing"}},
      {EdgeKind::object_to_prototype, {"load.prototype_missing"}},
      {EdgeKind::object_to_unit_dat, {"load.unit_dat_missing"}},
      {EdgeKind::unit_dat_to_component, {"load.prototype_missing"}},
      {EdgeKind::prototype_to_parent, {"load.parent_missing"}},
      {EdgeKind::prototype_to_mesh, {"load.mesh_missing"}},
      {EdgeKind::mesh_to_wear, {"load.wear_missing"}},
      {EdgeKind::wear_to_material, {"load.material_invalid"}},
      {EdgeKind::material_to_texture, {"load.texture_missing"}},
      {EdgeKind::wear_to_lightmap, {"load.lightmap_missing"}},
  };
  for (const auto& [kind, codes] : expected_codes) {
    SCOPED_TRACE(std::string(assets::to_string(kind)));
    ASSERT_TRUE(targets.count(kind)) << "no edge of this kind in the demo sample";
    const auto& [archive, entry] = targets[kind];
    Files broken = demo_files();
    bool injected = false;
    if (entry.empty()) {
      injected = broken.erase(find_key(broken, archive)) == 1;  // a file: remove it
    } else if (kind == EdgeKind::wear_to_material) {
      injected = corrupt_entry(broken, archive, entry);  // a missing material falls back to DEFAULT
    } else {
      injected = remove_entry(broken, archive, entry);
    }
    ASSERT_TRUE(injected) << archive << ":" << entry;

    // A previous world, loaded from the intact game, must survive the failed load.
    auto good = game_over(demo_files());
    auto first = good.load(mission_of[kind]);
    ASSERT_TRUE(first.has_value() && first->ok);
    const auto* before = good.current();
    const std::uint64_t hash_before = before->world->compute_state_hash();
    const std::size_t registered_before = before->world->queue().size();

    // A game whose VFS serves the broken files, with a previous world from another mission.
    auto l = game_over(broken);
    ASSERT_TRUE(l.load(mission_of[kind] == "m01" ? "m02" : "m01").has_value());
    const auto* prev = l.current();
    const std::uint64_t prev_hash = prev ? prev->world->compute_state_hash() : 0;
    auto report = l.load(mission_of[kind]);
    ASSERT_TRUE(report.has_value());
    EXPECT_FALSE(report->ok);
    EXPECT_EQ(report->registered, 0u);
    EXPECT_EQ(report->constructed, 0u);
    ASSERT_FALSE(report->failures.empty());
    bool matched = false;
    for (const auto& d : report->failures) matched |= codes.count(d.code) > 0;
    EXPECT_TRUE(matched) << report->failures.front().to_string();
    // Precise provenance: the failure names the archive/file and, for object chains, the placed
    // object, or the clan whose TRF reaches the same entry first (clans load before objects).
    const auto& d = report->failures.front();
    if (kind >= EdgeKind::object_to_prototype) {
      EXPECT_TRUE(d.message.find("objects[") != std::string::npos || d.message.find("clans[") != std::string::npos)
          << d.message;
    }
    EXPECT_EQ(l.current(), prev);
    if (prev) {
      EXPECT_EQ(prev->world->compute_state_hash(), prev_hash);
    }
    EXPECT_EQ(before->world->compute_state_hash(), hash_before);
    EXPECT_EQ(before->world->queue().size(), registered_before);
  }
}

TEST(MissionLoader, units_get_the_movement_stack_and_walk_on_the_ground) {
  auto l = game_over(demo_files());
  auto report = l.load("m01");
  ASSERT_TRUE(report.has_value() && report->ok);
  auto* cur = l.current();
  ASSERT_NE(cur, nullptr);
  ASSERT_NE(cur->world, nullptr);
  world::World& w = *cur->world;
  const auto ground = w.height_field();
  ASSERT_NE(ground, nullptr);  // make_ground defaults to the Land.msh terrain
  // The movement environment of the mission: its terrain and areal map, default parameters
  // (the demo has no Behavior.ini), and the movement kinds in the world's registry.
  ASSERT_NE(cur->movement, nullptr);
  ASSERT_NE(cur->movement->terrain, nullptr);
  ASSERT_NE(cur->movement->areals, nullptr);
  EXPECT_EQ(cur->movement->areals->areal_count(), cur->data->land_map.areals.size());
  EXPECT_TRUE(cur->movement->params.from_file.empty());
  EXPECT_NE(w.commands().find("move.goto"), nullptr);
  mission::ScenarioOptions so;
  so.ticks = 600;
  auto run = mission::run_scenario(*cur, so);
  ASSERT_TRUE(run.has_value()) << run.error().to_string();
  ASSERT_GT(run->orders, 0u);
  // Tick 0 enables every unit and every static obstacle, then the waves are goto orders.
  std::size_t enables = 0, gotos = 0;
  for (const auto& c : run->log.commands) {
    if (c.kind == move::EnableCommand::kWireId) ++enables;
    if (c.kind == move::GotoCommand::kWireId) {
      ++gotos;
      auto g = world::payload_of<move::GotoCommand>(c);
      ASSERT_TRUE(g);
      EXPECT_TRUE(ground->height_at(g->goal.x, g->goal.y).has_value());
    }
  }
  EXPECT_EQ(enables, run->units + run->obstacles);
  EXPECT_EQ(gotos, run->orders);
  EXPECT_GT(run->obstacles, 0u);
  // Units walked, on the ground, bit for bit.
  std::size_t walked = 0;
  for (const auto& info : cur->objects) {
    const auto* obj = w.find(info.handle);
    ASSERT_NE(obj, nullptr);
    if (!info.unit) continue;
    const auto* behavior = obj->components.get<move::BehaviorState>();
    ASSERT_NE(behavior, nullptr);
    if (behavior == nullptr || behavior->path_revision == 0) continue;  // never ordered
    const auto& p = obj->transform.position;
    auto h = ground->height_at(p.x, p.y);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(p.z, *h);  // Z comes from the terrain, bit for bit
    ++walked;
  }
  EXPECT_GT(walked, 0u);
  EXPECT_EQ(run->movement.steps, 600u);
  EXPECT_GT(run->movement.arrivals, 0u);
}

TEST(MissionLoader, behavior_ini_of_the_game_sets_the_movement_parameters) {
  auto files = demo_files();
  const std::string ini = "// tuned\r\nPathFind_MaxAccel = 10\r\nPathFind_CorridorRadius=3\r\nMystery=1\r\n";
  files["Behavior.ini"] = core::Bytes(ini.begin(), ini.end());
  auto l = game_over(files);
  auto report = l.load("m01");
  ASSERT_TRUE(report.has_value() && report->ok);
  const auto& params = l.current()->movement->params;
  EXPECT_EQ(params.max_accel, 10.0f);
  EXPECT_EQ(params.corridor_radius, 3.0f);
  EXPECT_EQ(params.from_file, (std::vector<std::string>{"PathFind_CorridorRadius", "PathFind_MaxAccel"}));
  // The unknown key is reported with the load's warnings.
  bool reported = false;
  for (const auto& d : report->warnings) reported |= d.code == "behavior_ini.key_unknown";
  EXPECT_TRUE(reported);
  // An out-of-range value fails the load (nothing registered), naming the key.
  auto bad = demo_files();
  const std::string broken = "PathFind_MaxAccel=0\n";
  bad["Behavior.ini"] = core::Bytes(broken.begin(), broken.end());
  auto lb = game_over(bad);
  auto rb = lb.load("m01");
  ASSERT_TRUE(rb.has_value());
  EXPECT_FALSE(rb->ok);
  ASSERT_FALSE(rb->failures.empty());
  EXPECT_EQ(rb->failures[0].code, "move.params.range");
  EXPECT_EQ(lb.current(), nullptr);
}
