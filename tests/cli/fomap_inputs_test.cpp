// `sortie fomap ...` as a new user meets it: options that take one value per use, paths that are
// not maps, protos that do not exist, what lint did not check, in-place rewrites and baked pairs.
// Every input is written into the test's temporary directory (no corpus needed).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "cli_harness.hpp"
#include "sortie/core/file_io.hpp"

namespace sortie::cli_test {
namespace {

constexpr std::string_view kGood = "[ProtoMap]\nSize = 20 20\n\n[$Name/Item]\n$Id = 1\n$Proto = Crate\nHex = 2 2\n";
// kGood with unsorted keys and extra blank lines: fmt gives kGood back.
constexpr std::string_view kMessy =
    "[ProtoMap]\nSize = 20 20\n\n\n\n[$Name/Item]\n$Proto = Crate\n$Id = 1\nHex = 2 2\n";
constexpr std::string_view kBad = "[ProtoMap]\nSize = 20 20\n\n[$Name/Item]\n$Id = 1\n$Proto = Nope\nHex = 2 2\n";

class CliFomapInputs : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fs::create_directories(dir_ / "protos");
    fs::create_directories(dir_ / "more");
    std::ofstream(dir_ / "protos/items.fopro") << "[ProtoItem]\n$Name = Crate\n";
    std::ofstream(dir_ / "more/guards.focr") << "[ProtoCritter]\n$Name = Guard\n";
    write("good.fomap", kGood);
    write("bad.fomap", kBad);
  }
  void write(const std::string& name, std::string_view text) const { std::ofstream(dir_ / name) << text; }
  std::string read(const std::string& name) const { return core::read_text_file(dir_ / name).value_or("<missing>"); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string protos() const { return path("protos"); }
};

TEST_F(CliFomapInputs, protos_takes_one_path_and_the_maps_after_it_are_checked) {
  const auto r = run_sortie({"fomap", "lint", "--strict", "--protos", protos(), path("bad.fomap"), path("good.fomap")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("bad.fomap:6: error: [map-format.rule.prototype-resolution] no Item prototype named 'Nope'"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2 files, 2 maps, 2 placements: 1 error"), std::string::npos) << r.out;
  // Several proto directories: the option once per path.
  write("both.fomap", std::string(kGood) + "\n[$Name/Critter]\n$Id = 2\n$Proto = Guard\nHex = 3 3\n");
  const auto both =
      run_sortie({"fomap", "lint", "--strict", "--protos", protos(), "--protos", path("more"), path("both.fomap")});
  EXPECT_EQ(both.exit_code, 0) << both.out << both.err;
  // The same for every verb that reads protos: fmt formats both files, bake bakes both.
  write("a.fomap", kMessy);
  write("b.fomap", kMessy);
  const auto f = run_sortie({"fomap", "fmt", "--protos", protos(), path("a.fomap"), path("b.fomap")});
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(read("a.fomap"), kGood);
  EXPECT_EQ(read("b.fomap"), kGood);
  const auto b =
      run_sortie({"fomap", "bake", "--protos", protos(), "-o", path("out"), path("a.fomap"), path("good.fomap")});
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(b.out.find("2 file(s): 2 map(s) baked"), std::string::npos) << b.out;
}

TEST_F(CliFomapInputs, a_directory_without_maps_is_a_usage_error) {
  fs::create_directories(dir_ / "x.fomap");
  for (const char* verb : {"lint", "fmt"}) {
    const auto r = run_sortie({"fomap", verb, path("x.fomap")});
    EXPECT_EQ(r.exit_code, 2) << verb << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("x.fomap: a directory without any .fomap file [usage.no_maps]"), std::string::npos) << r.err;
  }
  const auto b = run_sortie({"fomap", "bake", "--protos", protos(), "-o", path("out"), path("x.fomap")});
  EXPECT_EQ(b.exit_code, 2) << b.out << b.err;
  EXPECT_NE(b.err.find("[usage.no_maps]"), std::string::npos) << b.err;
}

TEST_F(CliFomapInputs, bake_only_naming_an_undeclared_map_is_a_usage_error) {
  const auto r = run_sortie({"fomap", "bake", "--protos", protos(), "-o", path("out"), "--only", "nope",
                             path("good.fomap"), path("bad.fomap")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.err,
            "sortie: --only names a map that no container of the inputs declares (expected a map id declared by a "
            "container, found nope) [usage.only_unknown]\n");
  EXPECT_EQ(r.out, "2 file(s): 0 map(s) baked to " + path("out") + ", 0 failed\n");
  EXPECT_TRUE(fs::is_empty(dir_ / "out"));
  const auto j = run_sortie(
      {"fomap", "bake", "--protos", protos(), "-o", path("out"), "--only", "nope", path("good.fomap"), "--json"});
  EXPECT_EQ(j.exit_code, 2) << j.out << j.err;
  // A declared map is baked alone.
  const auto good = run_sortie({"fomap", "bake", "--protos", protos(), "-o", path("out"), "--only", "good",
                                path("good.fomap"), path("bad.fomap")});
  EXPECT_EQ(good.exit_code, 0) << good.out << good.err;
  EXPECT_EQ(good.out, "2 file(s): 1 map(s) baked to " + path("out") + ", 0 failed\n");
}

TEST_F(CliFomapInputs, protos_that_do_not_exist_stop_every_verb_with_an_io_error) {
  const std::string nope = path("no/such/protos");
  const std::vector<std::vector<std::string>> runs = {
      {"fomap", "lint", "--protos", nope, path("good.fomap")},
      {"fomap", "fmt", "--protos", nope, path("good.fomap")},
      {"fomap", "json", "--protos", nope, path("good.fomap")},
      {"fomap", "materialize", "--protos", nope, path("good.fomap")},
      {"fomap", "bake", "--protos", nope, "-o", path("out"), path("good.fomap")},
      {"fomap", "migrate", "--protos", nope, "-o", path("new.fomap"), path("good.fomap")},
  };
  for (const auto& args : runs) {
    const auto r = run_sortie(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(nope + ": protos path is neither a file nor a directory [io.open]"), std::string::npos)
        << args[1] << ": " << r.err;
    EXPECT_EQ(r.out, "") << args[1];
  }
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  EXPECT_FALSE(fs::exists(dir_ / "new.fomap"));
}

TEST_F(CliFomapInputs, lint_without_protos_says_the_prototypes_were_not_checked) {
  const auto r = run_sortie({"fomap", "lint", "--strict", path("bad.fomap")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(strict gate)\nprototypes not checked (no --protos)\nresources not checked"), std::string::npos)
      << r.out;
  const auto j = run_sortie({"fomap", "lint", "--json", path("bad.fomap")});
  EXPECT_EQ(j.json().at("not_checked").at(0), (core::Json{{"check", "prototypes"}, {"reason", "no --protos"}}));
}

TEST_F(CliFomapInputs, fmt_in_place_keeps_the_mode_and_writes_through_a_symlink) {
  write("private.fomap", kMessy);
  fs::permissions(dir_ / "private.fomap", fs::perms::owner_read | fs::perms::owner_write);
  fs::create_directories(dir_ / "real");
  write("real/linked.fomap", kMessy);
  fs::create_symlink("real/linked.fomap", dir_ / "linked.fomap");
  const auto r = run_sortie({"fomap", "fmt", "--protos", protos(), path("private.fomap"), path("linked.fomap")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "formatted " + path("private.fomap") + "\nformatted " + path("linked.fomap") + "\n");
  EXPECT_EQ(read("private.fomap"), kGood);
  struct stat st {};
  ASSERT_EQ(::stat((dir_ / "private.fomap").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_TRUE(fs::is_symlink(dir_ / "linked.fomap"));
  EXPECT_EQ(read("real/linked.fomap"), kGood);
}

TEST_F(CliFomapInputs, a_pair_that_cannot_be_written_is_a_failed_map_and_the_old_pair_stays) {
  fs::create_directories(dir_ / "out/good.fomap-bin-client");  // the client blob cannot be placed
  write("out/good.fomap-bin-server", "old server");
  const auto r = run_sortie({"fomap", "bake", "--protos", protos(), "-o", path("out"), path("good.fomap")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "1 file(s): 0 map(s) baked to " + path("out") + ", 1 failed\n");
  EXPECT_NE(r.err.find("map good not baked (1 error(s))"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[io.write]"), std::string::npos) << r.err;
  EXPECT_EQ(read("out/good.fomap-bin-server"), "old server");
}

TEST_F(CliFomapInputs, migrate_names_classic_protos_through_the_protos_or_refuses) {
  write("classic.fomap",
        "[Header]\nVersion 4\nMaxHexX 20\nMaxHexY 20\n\n[Tiles]\n\n[Objects]\n"
        "MapObjType 1\nProtoName Crate\nMapX 2\nMapY 3\nOffsetX 4\nOffsetY -1\n");
  const auto ok =
      run_sortie({"fomap", "migrate", "--protos", protos(), "-o", path("new.fomap"), path("classic.fomap")});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_EQ(read("new.fomap"),
            "[ProtoMap]\nSize = 20 20\n\n[$Name/Item]\n$Id = 1\n$Proto = Crate\nHex = 2 3\nOffset = 4 -1\n\n");
  const auto refused = run_sortie({"fomap", "migrate", "-o", path("other.fomap"), path("classic.fomap")});
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("classic.fomap: map classic, line 10: classic ProtoName can only be mapped"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("[fomap.migrate.proto_name]"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir_ / "other.fomap"));
}

}  // namespace
}  // namespace sortie::cli_test
