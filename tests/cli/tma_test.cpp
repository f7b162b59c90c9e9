// `sortie tma edit`: edits show up in `inspect --json`; everything else is kept.
#include <gtest/gtest.h>

#include <bit>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

class CliTmaTest : public CliTest {
 protected:
  fs::path input() const { return sample_dir() / "MISSIONS/m01/data.tma"; }
  core::Json inspect(const fs::path& f) {
    const auto r = run_sortie({"inspect", "--json", f.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.json();
  }
};

TEST_F(CliTmaTest, set_move_and_rename_show_in_inspect) {
  const fs::path out = dir_ / "edited.tma";
  const auto r = run_sortie({"tma", "edit", input().string(), "--set", "objects[0].properties[Life state]=0", "--move",
                             "1", "10", "20.5", "3", "--rename", "2", "tank_01", "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto before = inspect(input());
  const auto after = inspect(out);
  EXPECT_EQ(r.out, input().string() + ": 3 edit(s) applied; wrote " + out.string() + " (" +
                       std::to_string(fs::file_size(out)) + " bytes, 16 objects)\n");
  // The new instance name adds its 7 bytes.
  EXPECT_EQ(fs::file_size(out), fs::file_size(input()) + 7);

  const auto& o0 = after.at("objects").at(0);
  ASSERT_EQ(o0.at("properties").at(1).at("name"), "Life state");
  EXPECT_EQ(o0.at("properties").at(1).at("raw"), core::Json::parse("[0,0,0,0]"));
  EXPECT_EQ(before.at("objects").at(0).at("properties").at(1).at("raw"), core::Json::parse("[1065353216,0,0,0]"));
  EXPECT_EQ(after.at("objects").at(1).at("position"), core::Json::parse("[10.0,20.5,3.0]"));
  EXPECT_EQ(after.at("objects").at(2).at("instance_name"), "tank_01");

  // Everything not edited is unchanged.
  auto a = after, b = before;
  a.erase("file");
  b.erase("file");
  a.erase("size");
  b.erase("size");
  a["objects"][0]["properties"][1]["raw"] = b["objects"][0]["properties"][1]["raw"];
  a["objects"][1]["position"] = b["objects"][1]["position"];
  a["objects"][2]["instance_name"] = b["objects"][2]["instance_name"];
  EXPECT_EQ(a, b);
}

TEST_F(CliTmaTest, float_words_and_in_place_edit) {
  const fs::path f = dir_ / "data.tma";
  fs::copy_file(input(), f);
  const auto r = run_sortie({"tma", "edit", f.string(), "--set", "objects[3].properties[Life state]=0.5f", "--set",
                             "mission_flag=7", "-o", f.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = inspect(f);
  EXPECT_EQ(j.at("objects").at(3).at("properties").at(1).at("raw").at(0).get<std::uint32_t>(),
            std::bit_cast<std::uint32_t>(0.5f));
  EXPECT_EQ(j.at("mission_flag"), 7);
  EXPECT_EQ(fs::file_size(f), fs::file_size(input()));
  EXPECT_EQ(run_sortie({"roundtrip", f.string()}).exit_code, 0);
}

TEST_F(CliTmaTest, remove_object_and_add_property) {
  const fs::path out = dir_ / "out.tma";
  const auto r = run_sortie({"tma", "edit", input().string(), "--remove-object", "0", "--add-property",
                             "objects[0].properties[Invulnerability]=1", "-o", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto before = inspect(input());
  const auto after = inspect(out);
  ASSERT_EQ(after.at("objects").size(), 15u);
  // Old object 1 is now object 0, with one more property at the end.
  const auto& moved = after.at("objects").at(0);
  EXPECT_EQ(moved.at("resource_name"), before.at("objects").at(1).at("resource_name"));
  const auto& props = moved.at("properties");
  ASSERT_EQ(props.size(), before.at("objects").at(1).at("properties").size() + 1);
  EXPECT_EQ(props.back().at("name"), "Invulnerability");
  EXPECT_EQ(props.back().at("raw"), core::Json::parse("[1,0,0,0]"));
}

TEST_F(CliTmaTest, bad_paths_exit_1_and_write_nothing) {
  const fs::path out = dir_ / "out.tma";
  struct Case {
    const char* edit;
    const char* code;
  };
  for (const Case& c :
       {Case{"objects[99].properties[Life state]=0", "[tma.edit.index]"},
        Case{"objects[0].properties[Nope]=0", "[tma.edit.property]"}, Case{"bogus=1", "[tma.edit.path]"}}) {
    const auto r = run_sortie({"tma", "edit", input().string(), "--set", c.edit, "-o", out.string()});
    EXPECT_EQ(r.exit_code, 1) << c.edit;
    EXPECT_NE(r.err.find(c.code), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.edit;
  }
  const auto none = run_sortie({"tma", "edit", input().string(), "-o", out.string()});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err, "sortie: no edit given (see --help) [usage.no_edit]\n");
  const auto split = run_sortie({"tma", "edit", input().string(), "--move", "0", "1", "2", "-o", out.string()});
  EXPECT_EQ(split.exit_code, 2);
  EXPECT_NE(split.err.find("usage"), std::string::npos) << split.err;
  EXPECT_FALSE(fs::exists(out));
  const auto bad_input = run_sortie(
      {"tma", "edit", (sample_dir() / "BuildDat.lst").string(), "--set", "mission_flag=1", "-o", out.string()});
  EXPECT_EQ(bad_input.exit_code, 1);
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace sortie::cli_test
