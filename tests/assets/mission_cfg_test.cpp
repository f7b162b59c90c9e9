// prepare_mission and MISSIONS/<m>/mission.cfg: absent (no edge, no error), present (decoded into
// MissionData with an edge), broken (a failed mission_to_mission_cfg edge with the reader's
// diagnostic; the compatible profile keeps going with warnings).
#include <gtest/gtest.h>

#include <string>

#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/sample_game.hpp"

using namespace sortie;
using namespace sortie::assets;

namespace {

constexpr std::string_view kConfig =
    "// ambient music\r\n"
    "object ambient_music_loop\r\n"
    "\tdesc ambient_music_loop\r\n"
    "\tlibrary music.lib\r\n"
    "\tTHEME theme01.wav\r\n"
    "end\r\n";

// The demo sample; without its missions' mission.cfg files unless `with_mission_cfg`.
MemoryVfs sample_vfs(bool with_mission_cfg = false) {
  MemoryVfs vfs;
  auto files = generate_sample_files({SampleScale::demo, 1, ArchiveFormat::rsli});
  EXPECT_TRUE(files.has_value());
  if (files) {
    for (auto& [path, bytes] : files->first) {
      if (!with_mission_cfg && path.ends_with("/mission.cfg")) continue;
      EXPECT_TRUE(vfs.add(path, bytes).has_value());
    }
  }
  return vfs;
}

std::string first_mission(const Vfs& vfs) {
  auto missions = list_missions(vfs);
  EXPECT_TRUE(missions && !missions->empty());
  return missions && !missions->empty() ? missions->front() : std::string();
}

core::Result<MissionData> prepare(const MemoryVfs& vfs, std::string_view mission,
                                  core::Profile profile = core::Profile::strict) {
  ArchiveRepository repo(vfs);
  PrototypeResolver resolver(repo);
  MissionPrepareOptions o;
  o.profile = profile;
  return prepare_mission(repo, resolver, mission, o);
}

std::size_t edges_of(const MissionData& md, EdgeKind kind) {
  std::size_t n = 0;
  for (const auto& e : md.graph.edges()) n += e.kind == kind ? 1 : 0;
  return n;
}

void add(MemoryVfs& vfs, const std::string& path, std::string_view text) {
  const auto b = core::as_bytes(text);
  ASSERT_TRUE(vfs.add(path, core::Bytes(b.begin(), b.end())).has_value());
}

}  // namespace

TEST(MissionCfgLoad, absent_mission_cfg_is_no_edge_and_no_error) {
  const MemoryVfs vfs = sample_vfs();
  auto md = prepare(vfs, first_mission(vfs));
  ASSERT_TRUE(md) << md.error().to_string();
  EXPECT_TRUE(md->ok());
  EXPECT_FALSE(md->mission_cfg.has_value());
  EXPECT_TRUE(md->mission_cfg_path.path.empty());
  EXPECT_EQ(edges_of(*md, EdgeKind::mission_to_mission_cfg), 0u);
}

TEST(MissionCfgLoad, present_mission_cfg_is_decoded_with_an_edge) {
  MemoryVfs vfs = sample_vfs();
  const std::string m = first_mission(vfs);
  auto without = prepare(vfs, m);
  ASSERT_TRUE(without);
  add(vfs, "MISSIONS/" + m + "/Mission.cfg", kConfig);  // found case-insensitively
  auto md = prepare(vfs, m);
  ASSERT_TRUE(md) << md.error().to_string();
  ASSERT_TRUE(md->ok()) << md->graph.failures().front().to_string();
  ASSERT_TRUE(md->mission_cfg.has_value());
  ASSERT_EQ(md->mission_cfg->objects.size(), 1u);
  EXPECT_EQ(md->mission_cfg->objects[0].find("THEME")->value, "theme01.wav");
  EXPECT_EQ(md->mission_cfg->objects[0].library(), std::optional<std::string_view>("music.lib"));
  EXPECT_EQ(md->mission_cfg_path.path, "MISSIONS/" + m + "/mission.cfg");
  ASSERT_EQ(edges_of(*md, EdgeKind::mission_to_mission_cfg), 1u);
  for (const auto& e : md->graph.edges()) {
    if (e.kind != EdgeKind::mission_to_mission_cfg) continue;
    EXPECT_FALSE(e.failure.has_value());
    EXPECT_EQ(md->graph.nodes()[e.to].kind, NodeKind::mission_cfg);
    EXPECT_EQ(md->graph.nodes()[e.from].kind, NodeKind::mission);
  }
  // The rest of the mission is what it was without the file.
  EXPECT_EQ(md->objects.size(), without->objects.size());
  EXPECT_EQ(md->graph.stats.to_json(), without->graph.stats.to_json());
  EXPECT_EQ(md->graph.edges().size(), without->graph.edges().size() + 1);
  // A mission given by the path of its data.tma finds it too.
  auto by_path = prepare(vfs, "MISSIONS/" + m + "/data.tma");
  ASSERT_TRUE(by_path);
  EXPECT_TRUE(by_path->mission_cfg.has_value());
}

TEST(MissionCfgLoad, every_sample_mission_has_a_decoded_mission_cfg) {
  const MemoryVfs vfs = sample_vfs(true);
  auto missions = list_missions(vfs);
  ASSERT_TRUE(missions);
  ASSERT_EQ(missions->size(), 3u);
  for (const auto& m : *missions) {
    auto md = prepare(vfs, m);
    ASSERT_TRUE(md) << md.error().to_string();
    ASSERT_TRUE(md->ok()) << m << ": " << md->graph.failures().front().to_string();
    ASSERT_TRUE(md->mission_cfg.has_value()) << m;
    EXPECT_EQ(md->mission_cfg_path.path, "MISSIONS/" + m + "/mission.cfg");
    EXPECT_EQ(edges_of(*md, EdgeKind::mission_to_mission_cfg), 1u);
  }
}

TEST(MissionCfgLoad, broken_mission_cfg_is_a_failed_edge_with_the_readers_diagnostic) {
  MemoryVfs vfs = sample_vfs();
  const std::string m = first_mission(vfs);
  const std::string path = "MISSIONS/" + m + "/mission.cfg";
  add(vfs, path, "object ambient_music_loop\nTHEME t.wav\n");  // no `end`
  auto md = prepare(vfs, m);
  ASSERT_TRUE(md) << md.error().to_string();
  EXPECT_FALSE(md->ok());
  EXPECT_FALSE(md->mission_cfg.has_value());
  ASSERT_EQ(md->graph.failures().size(), 1u);
  const core::Diagnostic& d = md->graph.failures()[0];
  EXPECT_EQ(d.code, "load.mission_cfg_invalid");
  EXPECT_EQ(d.file, path);
  EXPECT_EQ(d.offset, std::optional<std::uint64_t>(38));  // the end of the file
  EXPECT_EQ(d.field, "objects[0]");
  EXPECT_NE(d.message.find("mission_to_mission_cfg -> " + path), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("line 2: the file ends inside the block 'object ambient_music_loop' opened at line 1"),
            std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find("(mission_cfg.unterminated)"), std::string::npos) << d.message;
  ASSERT_EQ(edges_of(*md, EdgeKind::mission_to_mission_cfg), 1u);
  for (const auto& e : md->graph.edges()) {
    if (e.kind == EdgeKind::mission_to_mission_cfg) {
      EXPECT_EQ(e.failure, std::optional<std::uint32_t>(0));
    }
  }
  EXPECT_EQ(md->graph.stats.failures, 1u);
}

TEST(MissionCfgLoad, compatible_profile_keeps_a_broken_mission_cfg_with_warnings) {
  MemoryVfs vfs = sample_vfs();
  const std::string m = first_mission(vfs);
  add(vfs, "MISSIONS/" + m + "/mission.cfg", "stray field\nobject a\ntype x\nend\n");
  auto md = prepare(vfs, m, core::Profile::compatible);
  ASSERT_TRUE(md) << md.error().to_string();
  EXPECT_TRUE(md->ok());
  ASSERT_TRUE(md->mission_cfg.has_value());
  EXPECT_EQ(md->mission_cfg->objects.size(), 1u);
  std::vector<std::string> codes;
  for (const auto& w : md->graph.warnings)
    if (w.code.starts_with("mission_cfg.")) codes.push_back(w.code);
  EXPECT_EQ(codes, (std::vector<std::string>{"mission_cfg.syntax", "mission_cfg.value"}));
}
