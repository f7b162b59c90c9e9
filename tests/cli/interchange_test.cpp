// `sortie export`, `sortie import` and `sortie texture` end to end (issue #20): a unit exported,
// imported into a copy of the sample under a new name, checked strictly, placed in a mission and
// loaded; textures out to PNG and back byte for byte; bad input refused with nothing written.
#include <gtest/gtest.h>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

class CliInterchangeTest : public CliTest {};

TEST_F(CliInterchangeTest, a_unit_goes_out_as_glb_and_comes_back_as_a_new_unit_that_loads) {
  const fs::path game = copy_sample();
  const fs::path glb = dir_ / "tank.glb";
  auto r = run_sortie({"export", "model", "UNITS\\TANKS\\u_000.dat", game.string(), "-o", glb.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_GT(r.json()["stats"]["triangles"].get<int>(), 12);
  EXPECT_TRUE(fs::exists(glb));
  r = run_sortie({"import", "model", glb.string(), game.string(), "--name", "newtank", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(r.json()["resource_name"], "UNITS\\IMPORTED\\newtank.dat");
  r = run_sortie({"check", "--strict", (game / "imported.lib").string(), (game / "material.lib").string(),
                  (game / "textures.lib").string(), (game / "objects.rlb").string(),
                  (game / "UNITS/IMPORTED/newtank.dat").string()});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  // Placed in m01 instead of its first object, the mission loads and renders.
  const fs::path tma = game / "MISSIONS/m01/data.tma";
  r = run_sortie({"tma", "edit", tma.string(), "--set", "objects[0].resource_name=UNITS\\IMPORTED\\newtank.dat", "-o",
                  tma.string()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  r = run_sortie({"render", game.string(), "-m", "m01", "-o", (dir_ / "m01.png").string(), "--size", "160x90"});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  r = run_sortie({"run", game.string(), "-m", "m01", "--ticks", "20"});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  // The export of the new unit has the same triangle count.
  r = run_sortie({"export", "model", "UNITS\\IMPORTED\\newtank.dat", game.string(), "-o",
                  (dir_ / "again.gltf").string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_TRUE(fs::exists(dir_ / "again.bin"));
}

TEST_F(CliInterchangeTest, a_mission_exports_with_its_overlays) {
  const auto r = run_sortie({"export", "mission", sample_dir().string(), "-m", "m02", "-o", (dir_ / "m02.glb").string(),
                             "--routes", "--areals"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.out.find("exported m02"), std::string::npos) << r.out;
}

TEST_F(CliInterchangeTest, textures_go_to_png_and_back_byte_for_byte) {
  const fs::path png = dir_ / "t.png";
  const fs::path lib = sample_dir() / "textures.lib";
  auto list = run_sortie({"archive", "list", "--json", lib.string()});
  ASSERT_EQ(list.exit_code, 0);
  const std::string entry = list.json()["entries"][0]["name"].get<std::string>();
  auto r = run_sortie({"texture", "export", lib.string(), entry, "-o", png.string(), "--levels", "all"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  std::vector<std::string> args{"texture", "import"};
  for (std::size_t level = 0;; ++level) {
    const fs::path p = level == 0 ? png : dir_ / ("t." + std::to_string(level) + ".png");
    if (!fs::exists(p)) break;
    args.push_back(p.string());
  }
  ASSERT_GE(args.size(), 3u);
  args.insert(args.end(), {"-o", (dir_ / "t.texm").string()});
  r = run_sortie(args);
  ASSERT_EQ(r.exit_code, 0) << r.all();
  r = run_sortie({"archive", "extract", lib.string(), entry, "-o", (dir_ / "x").string()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  bool same = false;
  for (const auto& [name, bytes] : tree_bytes(dir_ / "x")) same |= bytes == file_bytes(dir_ / "t.texm");
  EXPECT_TRUE(same) << "the imported Texm differs from the archive's entry " << entry;
}

TEST_F(CliInterchangeTest, bad_input_is_refused_and_writes_nothing) {
  const fs::path game = copy_sample();
  const auto before = file_bytes(game / "material.lib");
  put_bytes(dir_ / "junk.glb", core::as_bytes("glTF\x02\x00\x00\x00junk"));
  auto r = run_sortie({"import", "model", (dir_ / "junk.glb").string(), game.string(), "--name", "x"});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.err.find("gltf.parse"), std::string::npos) << r.err;
  EXPECT_EQ(file_bytes(game / "material.lib"), before);
  EXPECT_FALSE(fs::exists(game / "imported.lib"));
  r = run_sortie({"export", "model", "no_such_key", game.string(), "-o", (dir_ / "x.glb").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(fs::exists(dir_ / "x.glb"));
  r = run_sortie({"export", "model", "UNITS\\TANKS\\u_000.dat", game.string(), "-o", (dir_ / "x.obj").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("export.out"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sortie::cli_test
