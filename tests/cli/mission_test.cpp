// `sortie sample`, `sortie mission list|graph|load`, `sortie run` on the demo sample, and a
// broken game made the way a user would break it (archive remove).
#include <gtest/gtest.h>

#include <fstream>

#include "cli_harness.hpp"
#include "sortie/core/file_io.hpp"

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
  ASSERT_EQ(ta.size(), 53u);
  EXPECT_TRUE(ta == tb);
  EXPECT_TRUE(ta == tree_bytes(sample_dir()));
  const auto j = a.json();
  // 32 + sounds.lib, music.lib, 3 x (mission.cfg, sky.weather, mission.lua), MISSIONS/SCRIPTS (3 x
  // .scr + .fml, varset.var, enemy.trf), effects.rlb; + sortie-sample.json = 53 in the tree
  EXPECT_EQ(j.at("files"), 52);
  EXPECT_EQ(j.at("scale"), "demo");
  EXPECT_EQ(j.at("seed"), 1);
  EXPECT_EQ(j.at("prototypes"), 40);
  EXPECT_EQ(j.at("textures"), 31);  // 24 painted plates + 5 terrain textures + FX_BOLT, FX_GLOW
  EXPECT_EQ(j.at("missions").size(), 3u);
  std::uint64_t total = 0;
  for (const auto& [path, bytes] : ta) total += bytes.size();
  // "files" and "bytes" count the game files only, not the manifest sortie-sample.json.
  EXPECT_EQ(j.at("bytes").get<std::uint64_t>(), total - fs::file_size(dir_ / "a/sortie-sample.json"));
  EXPECT_EQ(j.at("files").get<std::size_t>(), ta.size() - 1);
  EXPECT_NE(b.out.find("wrote a demo sample (seed 1) to " + (dir_ / "b").string() + ": 52 game files, "),
            std::string::npos)
      << b.out;

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
  EXPECT_NE(h.out.find("loaded MISSIONS/m02/data.tma: 16 objects constructed, 16 registered\n"), std::string::npos)
      << h.out;
  EXPECT_NE(h.out.find("prepared 15 meshes, 34 materials, 23 textures + 3 lightmaps ("), std::string::npos) << h.out;
  EXPECT_EQ(j.at("visuals").at("meshes"), 15);
  EXPECT_EQ(j.at("visuals").at("placements"), 16);
  const auto& phases = j.at("timings");
  ASSERT_EQ(phases.size(), 10u);
  EXPECT_EQ(phases.at(3).at("phase"), "scripts");
  EXPECT_EQ(phases.at(6).at("phase"), "resources");
}

TEST(CliMission, a_mission_that_does_not_exist_is_a_usage_error) {
  for (const char* verb : {"load", "graph"}) {
    const auto missing = run_sortie({"mission", verb, sample_dir().string(), "-m", "m99"});
    EXPECT_EQ(missing.exit_code, 2) << verb;
    EXPECT_NE(missing.err.find("mission 'm99' not found"), std::string::npos) << missing.err;
    EXPECT_NE(missing.err.find("[load.mission_missing]"), std::string::npos) << missing.err;
  }
  const auto run = run_sortie({"run", sample_dir().string(), "-m", "m99"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("[load.mission_missing]"), std::string::npos) << run.err;
}

TEST(CliRun, missing_game_directory_is_an_io_error) {
  const auto r = run_sortie({"run", "/no/such/dir"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/no/such/dir: cannot open the game directory: no such directory [io.not_found]"),
            std::string::npos)
      << r.err;
  const auto j = run_sortie({"run", "/no/such/dir", "--json"});
  EXPECT_EQ(j.exit_code, 2);
  EXPECT_EQ(j.json().at("ok"), false);
  EXPECT_EQ(j.json().at("error").at("code"), "io.not_found");
  // A file where the directory should be is an I/O error too.
  const auto f = run_sortie({"run", (sample_dir() / "BuildDat.lst").string()});
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.err.find("[io.not_a_directory]"), std::string::npos) << f.err;
}

TEST(CliRun, zero_ticks_print_the_hash_of_the_loaded_state) {
  const auto text = run_sortie({"run", sample_dir().string(), "--ticks", "0"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find("final state hash: 0000000000000000"), std::string::npos) << text.out;
  const auto j = run_sortie({"run", sample_dir().string(), "--ticks", "0", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const std::string hash = j.json().at("final_hash").get<std::string>();
  EXPECT_NE(hash, "0000000000000000");
  EXPECT_EQ(j.json().at("run").at("ticks"), 0);
  EXPECT_NE(text.out.find("final state hash: " + hash + "\n"), std::string::npos) << text.out;
  // The loaded state of another mission hashes differently; one tick moves the clock on.
  const auto m2 = run_sortie({"run", sample_dir().string(), "--ticks", "0", "-m", "m02", "--json"});
  EXPECT_NE(m2.json().at("final_hash"), hash);
  const auto one = run_sortie({"run", sample_dir().string(), "--ticks", "1", "--json"});
  EXPECT_NE(one.json().at("final_hash"), hash);
}

TEST(CliRun, sample_run_keeps_its_golden_hash) {
  // docs/decisions/0010-movement-stack.md: was 00caee6afb3f8a96 with the reference mover;
  // 82ffd51214eb3778 before the sample's missions had scripts (ADR 0016), with random orders;
  // 2b5c14679f519e7a before the world kept data.tma's property records whole (ADR 0020).
  const auto r = run_sortie({"run", sample_dir().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("final state hash: ee5e994e860b6621\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("scenario result: win at tick 299 (a Player unit reached the depot)\n"), std::string::npos)
      << r.out;
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
  // The sample's scenario (MISSIONS/m01/mission.lua) ends the run after the tick it is won at.
  EXPECT_EQ(ja.at("scenario").at("outcome"), "win");
  EXPECT_EQ(ja.at("run").at("ticks"), ja.at("scenario").at("tick").get<int>() + 1);
  EXPECT_LT(ja.at("run").at("ticks").get<int>(), 600);
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
  const auto report = core::Json::parse(std::string(
      reinterpret_cast<const char*>(file_bytes(out / "report.json").data()), fs::file_size(out / "report.json")));
  const std::string hash = report.at("final_hash").get<std::string>();
  EXPECT_NE(r.out.find("final state hash: " + hash + "\n"), std::string::npos) << r.out;
  const auto replay = run_sortie(
      {"run", sample_dir().string(), "--ticks", "300", "--replay", (out / "commands.json").string(), "--json"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(replay.json().at("final_hash"), hash);
  const auto bad = run_sortie({"run", sample_dir().string(), "--replay", (out / "absent.json").string()});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST_F(CliMissionTest, save_at_a_tick_then_load_gives_the_uninterrupted_hash) {
  const fs::path save = dir_ / "t60.save";
  const auto whole = run_sortie({"run", sample_dir().string(), "--ticks", "150", "--json"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto saving = run_sortie(
      {"run", sample_dir().string(), "--ticks", "150", "--save-at", "60", "--save", save.string(), "--json"});
  ASSERT_EQ(saving.exit_code, 0) << saving.err;
  EXPECT_EQ(saving.json().at("saved").at("tick"), 60);
  const auto resumed = run_sortie({"run", sample_dir().string(), "--load", save.string(), "--ticks", "90"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("resumed a save of tick 60"), std::string::npos) << resumed.out;
  EXPECT_NE(resumed.out.find("final state hash: " + whole.json().at("final_hash").get<std::string>() + "\n"),
            std::string::npos)
      << resumed.out;
  // A damaged save: a clear message with its code, a non-zero exit, nothing run.
  std::string text(reinterpret_cast<const char*>(file_bytes(save).data()), fs::file_size(save));
  const std::string saved_tick = "\"tick\":60";
  ASSERT_NE(text.find(saved_tick), std::string::npos) << text.substr(0, 200);
  text.replace(text.find(saved_tick), saved_tick.size(), "\"tick\":61");
  std::ofstream(save, std::ios::binary | std::ios::trunc) << text;
  const auto damaged = run_sortie({"run", sample_dir().string(), "--load", save.string()});
  EXPECT_NE(damaged.exit_code, 0);
  EXPECT_NE(damaged.err.find("[save.checksum]"), std::string::npos) << damaged.err;
  EXPECT_EQ(damaged.out.find("final state hash"), std::string::npos) << damaged.out;
  // --save-at needs --save, and neither goes with --replay.
  EXPECT_EQ(run_sortie({"run", "--save-at", "5"}).exit_code, 2);
  EXPECT_EQ(run_sortie({"run", "--load", save.string(), "--replay", save.string()}).exit_code, 2);
}

TEST_F(CliMissionTest, save_show_prints_the_header_and_a_summary_of_the_image) {
  const fs::path save = dir_ / "t60.save";
  ASSERT_EQ(
      run_sortie({"run", sample_dir().string(), "--ticks", "60", "--save-at", "60", "--save", save.string()}).exit_code,
      0);
  const auto text = run_sortie({"save", "show", save.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("tick: 60\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("mission: m01\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("part superai:"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("objective "), std::string::npos) << text.out;
  const auto json = run_sortie({"save", "show", save.string(), "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = json.json();
  EXPECT_EQ(j.at("save").at("tick"), 60);
  EXPECT_EQ(j.at("image").at("world").at("clock").at(0), 60);
  EXPECT_EQ(j.at("image").at("world").at("objects").size(), j.at("summary").at("objects"));
  // A damaged file: its code, exit 1.
  std::ofstream(save, std::ios::binary | std::ios::app) << "x";
  const auto bad = run_sortie({"save", "show", save.string()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("[save.json]"), std::string::npos) << bad.err;
}

TEST_F(CliMissionTest, run_plays_every_part_of_the_scenario_and_writes_their_traces) {
  // The sample's run: the Lua script orders the Player clan, SuperAI plays the Enemy clan, the
  // native bundles' Init events write every clan's anchors (handler 19, ai.log).
  const fs::path out = dir_ / "traced";
  const auto r = run_sortie({"run", sample_dir().string(), "--out", out.string(), "--trace", "ai,superai,lua"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string superai = core::read_text_file(out / "superai.log").value_or("<missing>");
  const std::string ai = core::read_text_file(out / "ai.log").value_or("<missing>");
  EXPECT_NE(superai.find("tick 0: Enemy: clan id 2"), std::string::npos) << superai;
  // The Enemy's outpost is within sight of the Player's base (generator 10): its units pursue.
  EXPECT_NE(superai.find("idle -> pursue"), std::string::npos) << superai;
  EXPECT_EQ(superai.find("Player:"), std::string::npos) << "the player's clan has no SuperAI\n" << superai;
  EXPECT_NE(ai.find("clan 1 'Player' event 'Init' [0]: handler 19:"), std::string::npos) << ai;
  EXPECT_NE(ai.find("clan 2 'Enemy' event 'Init' [0]: handler 19:"), std::string::npos) << ai;
  EXPECT_TRUE(fs::exists(out / "lua.log"));
}

TEST(CliMission, replays_a_version_1_command_log_to_its_recorded_hash) {
  // golden/run_v1/commands.json: `sortie run --out` on the demo sample (600 ticks) written by the
  // world before the open command set ("sortie-command-log-v1"); that run printed 00caee6afb3f8a96.
  // The same simulation hashes to af29806a6c302993 since the state encoding holds data.tma's
  // property records whole (ADR 0020: the sample's objects carry them; the log is unchanged), and
  // c44790cfd378ce56 since the sample is laid out as places (generator 10: other objects, other
  // ground, triangulated areals; the log's commands are replayed on them as they are), and
  // 009561d10796b792 since the base's buildings stand clear of its formation (generator 13), and
  // 30c6a00d3221ae23 since formations stand 12 apart on open ground (generator 14).
  const fs::path log = fs::path(SORTIE_TEST_DATA_DIR) / "golden/run_v1/commands.json";
  const auto r = run_sortie({"run", sample_dir().string(), "--replay", log.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json().at("final_hash"), "30c6a00d3221ae23");
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

TEST_F(CliMissionTest, missing_material_is_a_warning_in_load_graph_and_run) {
  // A material m01 reaches through a placed object, removed as a user would.
  const auto g = run_sortie({"mission", "graph", sample_dir().string(), "-m", "m01", "--json"});
  ASSERT_EQ(g.exit_code, 0);
  std::string material;
  const core::Json graph_json = g.json();
  for (const auto& e : graph_json.at("edges"))
    if (e.at("kind") == "wear_to_material" && e.contains("placed_index") && e.at("entry") != "DEFAULT") {
      material = e.at("entry").get<std::string>();
      break;
    }
  ASSERT_FALSE(material.empty());
  const fs::path game = copy_sample();
  ASSERT_EQ(run_sortie({"archive", "remove", (game / "material.lib").string(), material}).exit_code, 0);
  const std::string said = "Material " + material + " not found; using 'DEFAULT'";

  // The engine keeps going with DEFAULT, so does the load: exit 0 with a warning naming the chain.
  const auto load = run_sortie({"mission", "load", game.string(), "-m", "m01"});
  EXPECT_EQ(load.exit_code, 0) << load.all();
  EXPECT_NE(load.out.find("warning: material.lib: objects[0]: MISSIONS/m01/data.tma: objects[0] "), std::string::npos)
      << load.out;
  EXPECT_NE(load.out.find(said), std::string::npos) << load.out;
  EXPECT_NE(load.out.find("[load.material_fallback]"), std::string::npos) << load.out;
  EXPECT_NE(load.out.find(" material slots fell back (material not found)\n"), std::string::npos) << load.out;
  const auto lj = run_sortie({"mission", "load", game.string(), "-m", "m01", "--json"});
  ASSERT_EQ(lj.exit_code, 0);
  const auto lr = lj.json();
  EXPECT_GT(lr.at("mission_total").at("material_fallbacks").get<int>(), 0);
  EXPECT_GT(lr.at("visuals").at("material_fallbacks").get<int>(), 0);
  bool in_json = false;
  for (const auto& w : lr.at("warnings"))
    in_json |=
        w.at("code") == "load.material_fallback" && w.at("message").get<std::string>().find(said) != std::string::npos;
  EXPECT_TRUE(in_json) << lr.at("warnings").dump();

  const auto graph = run_sortie({"mission", "graph", game.string(), "-m", "m01"});
  EXPECT_EQ(graph.exit_code, 0);
  EXPECT_NE(graph.out.find(said), std::string::npos) << graph.out;
  const auto gj = run_sortie({"mission", "graph", game.string(), "-m", "m01", "--json", "--no-edges"}).json();
  EXPECT_GT(gj.at("statistics").at("material_fallbacks").get<int>(), 0);
  EXPECT_EQ(gj.at("warnings").at(0).at("code"), "load.material_fallback");

  const auto run = run_sortie({"run", game.string(), "-m", "m01", "--ticks", "10"});
  EXPECT_EQ(run.exit_code, 0) << run.all();
  EXPECT_NE(run.out.find(said), std::string::npos) << run.out;
  const auto rj = run_sortie({"run", game.string(), "-m", "m01", "--ticks", "10", "--json"}).json();
  EXPECT_GT(rj.at("load").at("mission_total").at("material_fallbacks").get<int>(), 0);
  EXPECT_EQ(rj.at("load").at("warnings").at(0).at("code"), "load.material_fallback");
}

}  // namespace
}  // namespace sortie::cli_test
