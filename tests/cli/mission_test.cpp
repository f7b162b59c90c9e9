// `sortie sample`, `sortie mission list|graph|load`, `sortie run` on the demo sample, and a
// broken game made the way a user would break it (archive remove).
#include <gtest/gtest.h>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

class CliMissionTest : public CliTest {};

TEST_F(CliMissionTest, sample_is_deterministic_and_seed_dependent) {
  const auto a = run_sortie({"sample", (dir_ / "a").string(), "--json"});
  const auto b = run_sortie({"sample", (dir_ / "b").string()});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const auto ta = tree_bytes(dir_ / "a");
  const auto tb = tree_bytes(dir_ / "b");
  ASSERT_EQ(ta.size(), 33u);
  EXPECT_TRUE(ta == tb);
  EXPECT_TRUE(ta == tree_bytes(sample_dir()));
  const auto j = a.json();
  EXPECT_EQ(j.at("files"), 32);  // + sortie-sample.json = 33 files in the tree
  EXPECT_EQ(j.at("scale"), "demo");
  EXPECT_EQ(j.at("seed"), 1);
  EXPECT_EQ(j.at("prototypes"), 40);
  EXPECT_EQ(j.at("textures"), 24);
  EXPECT_EQ(j.at("missions").size(), 3u);
  std::uint64_t total = 0;
  for (const auto& [path, bytes] : ta) total += bytes.size();
  // "files" and "bytes" count the game files only, not the manifest sortie-sample.json.
  EXPECT_EQ(j.at("bytes").get<std::uint64_t>(), total - fs::file_size(dir_ / "a/sortie-sample.json"));
  EXPECT_EQ(j.at("files").get<std::size_t>(), ta.size() - 1);
  EXPECT_NE(b.out.find("wrote a demo sample (seed 1) to " + (dir_ / "b").string() + ": 32 game files, "), std::string::npos) << b.out;

  ASSERT_EQ(run_sortie({"sample", (dir_ / "c").string(), "--seed", "2"}).exit_code, 0);
  EXPECT_FALSE(tree_bytes(dir_ / "c") == ta);
  EXPECT_EQ(run_sortie({"sample", (dir_ / "d").string(), "--scale", "huge"}).exit_code, 2);
}

TEST_F(CliMissionTest, sample_with_nres_objects_is_an_nres_archive) {
  ASSERT_EQ(run_sortie({"sample", (dir_ / "n").string(), "--objects", "nres"}).exit_code, 0);
  const auto r = run_sortie({"archive", "list", "--json", (dir_ / "n/objects.rlb").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json().at("entries").size(), 40u);
  EXPECT_EQ(run_sortie({"mission", "load", (dir_ / "n").string(), "-m", "m01"}).exit_code, 0);
}

TEST(CliMission, list_names_the_three_demo_missions) {
  const auto r = run_sortie({"mission", "list", sample_dir().string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "m01\nm02\nm03\n");
  const auto j = run_sortie({"mission", "list", "--json", sample_dir().string()});
  EXPECT_EQ(j.json(), core::Json::parse(R"(["m01","m02","m03"])"));
  EXPECT_EQ(run_sortie({"mission", "list", (sample_dir() / "absent").string()}).exit_code, 2);
}

TEST(CliMission, graph_json_has_statistics_and_complete_edges) {
  const auto r = run_sortie({"mission", "graph", sample_dir().string(), "--mission", "m01", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("ok"), true);
  EXPECT_EQ(j.at("mission"), "MISSIONS/m01/data.tma");
  EXPECT_EQ(j.at("failures").size(), 0u);
  const auto& s = j.at("statistics");
  EXPECT_EQ(s.at("placed_objects"), 16);
  EXPECT_EQ(s.at("unit_references"), 5);
  EXPECT_EQ(s.at("failures"), 0);
  ASSERT_TRUE(j.at("edges").is_array());
  EXPECT_EQ(j.at("edge_count").get<std::size_t>(), j.at("edges").size());
  std::size_t objects = 0, textures = 0;
  for (const auto& e : j.at("edges")) {
    for (const char* key : {"from", "to", "kind", "archive", "entry"}) ASSERT_TRUE(e.contains(key)) << e.dump();
    EXPECT_EQ(e.at("ok"), true);
    objects += e.at("kind") == "mission_to_object";
    textures += e.at("kind") == "material_to_texture";
  }
  EXPECT_EQ(objects, 16u);
  EXPECT_EQ(textures, s.at("texture_requests").get<std::size_t>());
  // The first edges tie the mission to its terrain.
  EXPECT_EQ(j.at("edges").at(0).at("kind"), "mission_to_land_msh");
  EXPECT_EQ(j.at("edges").at(0).at("to"), "DATA/MAPS/map01/Land.msh");
  // --no-edges leaves them out; the human form ends with the node/edge count.
  const auto ne = run_sortie({"mission", "graph", sample_dir().string(), "-m", "m01", "--json", "--no-edges"});
  EXPECT_FALSE(ne.json().contains("edges"));
  const auto h = run_sortie({"mission", "graph", sample_dir().string(), "-m", "m01"});
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find(std::to_string(j.at("edge_count").get<std::size_t>()) + " edges\n"), std::string::npos) << h.out;
}

TEST(CliMission, load_constructs_and_registers_every_object) {
  const auto r = run_sortie({"mission", "load", sample_dir().string(), "-m", "m02", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("ok"), true);
  EXPECT_EQ(j.at("mission"), "MISSIONS/m02/data.tma");
  EXPECT_EQ(j.at("constructed"), 16);
  EXPECT_EQ(j.at("registered"), 16);
  EXPECT_EQ(j.at("failures").size(), 0u);
  const auto h = run_sortie({"mission", "load", sample_dir().string(), "-m", "m02"});
  EXPECT_NE(h.out.find("loaded MISSIONS/m02/data.tma: 16 objects constructed, 16 registered\n"), std::string::npos) << h.out;
  const auto missing = run_sortie({"mission", "load", sample_dir().string(), "-m", "m99"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("[load.mission_missing]"), std::string::npos) << missing.err;
}

TEST(CliRun, json_is_deterministic) {
  const auto a = run_sortie({"run", sample_dir().string(), "--json"});
  const auto b = run_sortie({"run", sample_dir().string(), "--json"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const auto ja = a.json(), jb = b.json();
  EXPECT_EQ(ja.at("ok"), true);
  ASSERT_TRUE(ja.at("final_hash").is_string());
  EXPECT_EQ(ja.at("final_hash").get<std::string>().size(), 16u);
  EXPECT_EQ(ja.at("final_hash"), jb.at("final_hash"));
  EXPECT_EQ(ja.at("run").at("ticks"), 600);
  EXPECT_EQ(ja.at("run").at("checkpoints"), jb.at("run").at("checkpoints"));
  EXPECT_EQ(ja.at("load").at("mission"), "MISSIONS/m01/data.tma");  // the first mission by default
  // A different seed or mission gives another state.
  const auto s2 = run_sortie({"run", sample_dir().string(), "--json", "--seed", "2"});
  EXPECT_NE(s2.json().at("final_hash"), ja.at("final_hash"));
  const auto m2 = run_sortie({"run", sample_dir().string(), "--json", "-m", "m02"});
  EXPECT_NE(m2.json().at("final_hash"), ja.at("final_hash"));
}

TEST_F(CliMissionTest, run_out_then_replay_gives_the_same_hash) {
  const fs::path out = dir_ / "run";
  const auto r = run_sortie({"run", sample_dir().string(), "--ticks", "300", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::exists(out / "report.json"));
  ASSERT_TRUE(fs::exists(out / "commands.json"));
  const auto report = core::Json::parse(std::string(reinterpret_cast<const char*>(file_bytes(out / "report.json").data()),
                                                    fs::file_size(out / "report.json")));
  const std::string hash = report.at("final_hash").get<std::string>();
  EXPECT_NE(r.out.find("final state hash: " + hash + "\n"), std::string::npos) << r.out;
  const auto replay = run_sortie({"run", sample_dir().string(), "--ticks", "300", "--replay", (out / "commands.json").string(), "--json"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(replay.json().at("final_hash"), hash);
  const auto bad = run_sortie({"run", sample_dir().string(), "--replay", (out / "absent.json").string()});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(CliMission, replays_a_version_1_command_log_to_its_recorded_hash) {
  // golden/run_v1/commands.json: `sortie run --out` on the demo sample (600 ticks) written by the
  // world before the open command set ("sortie-command-log-v1"); that run printed this hash.
  const fs::path log = fs::path(SORTIE_TEST_DATA_DIR) / "golden/run_v1/commands.json";
  const auto r = run_sortie({"run", sample_dir().string(), "--replay", log.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json().at("final_hash"), "00caee6afb3f8a96");
}

TEST_F(CliMissionTest, removed_texture_fails_the_load_naming_texture_and_object) {
  // Pick a texture reached through a placed object, as a user would from the graph.
  const auto g = run_sortie({"mission", "graph", sample_dir().string(), "-m", "m01", "--json"});
  ASSERT_EQ(g.exit_code, 0);
  std::string texture;
  const core::Json graph = g.json();
  for (const auto& e : graph.at("edges"))
    if (e.at("kind") == "material_to_texture" && e.at("archive") == "textures.lib" && e.contains("placed_index")) {
      texture = e.at("entry").get<std::string>();
      break;
    }
  ASSERT_FALSE(texture.empty());
  const fs::path game = copy_sample();
  const auto rm = run_sortie({"archive", "remove", (game / "textures.lib").string(), texture});
  ASSERT_EQ(rm.exit_code, 0) << rm.err;
  ASSERT_EQ(run_sortie({"check", "--strict", (game / "textures.lib").string()}).exit_code, 0);

  const auto load = run_sortie({"mission", "load", game.string(), "-m", "m01"});
  EXPECT_EQ(load.exit_code, 1);
  const std::string all = load.all();
  EXPECT_NE(all.find("texture '" + texture + "' not found"), std::string::npos) << all;
  EXPECT_NE(all.find("objects["), std::string::npos) << all;
  EXPECT_NE(all.find("[load.texture_missing]"), std::string::npos) << all;
  EXPECT_NE(all.find("load of MISSIONS/m01/data.tma failed"), std::string::npos) << all;

  const auto lj = run_sortie({"mission", "load", game.string(), "-m", "m01", "--json"});
  EXPECT_EQ(lj.exit_code, 1);
  const auto j = lj.json();
  EXPECT_EQ(j.at("ok"), false);
  EXPECT_EQ(j.at("registered"), 0);
  ASSERT_FALSE(j.at("failures").empty());
  EXPECT_EQ(j.at("failures").at(0).at("code"), "load.texture_missing");

  EXPECT_EQ(run_sortie({"mission", "graph", game.string(), "-m", "m01"}).exit_code, 1);
  const auto run = run_sortie({"run", game.string(), "-m", "m01"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("texture '" + texture + "' not found"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace sortie::cli_test
