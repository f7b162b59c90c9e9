// `sortie fomap lint --resources DIR --scripts DIR`: the opt-in reference checks end to end,
// on a small project written into the test's temporary directory.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

class CliFomapRefsTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fs::create_directories(dir_ / "res" / "art" / "doors");
    fs::create_directories(dir_ / "scripts");
    fs::create_directories(dir_ / "protos");
    std::ofstream(dir_ / "res" / "art" / "doors" / "Door.FRM") << "x";
    std::ofstream(dir_ / "scripts" / "door.fos") << "// FOS Server\nnamespace DoorScript\n{\n[[ItemTrigger]]\nvoid "
                                                    "Step(Critter cr, StaticItem t, bool entered, mdir dir) {}\n"
                                                    "void Init(Item item, bool firstTime) {}\n}\n";
    std::ofstream(dir_ / "protos" / "items.fopro") << "[ProtoItem]\n$Name = Door\nPicMap = art/doors/door.frm\n"
                                                      "[ProtoItem]\n$Name = Broken\nPicMap = art/doors/broken.frm\n";
    std::ofstream(map()) << "[ProtoMap]\n$Name = Yard\nSize = 20 20\n\n"
                            "[$Name/Item]\n$Id = 1\n$Proto = Door\nHex = 1 1\nInitScript = DoorScript::Init\n"
                            "TriggerScript = DoorScript::Step\n\n"
                            "[$Name/Item]\n$Id = 2\n$Proto = Broken\nHex = 2 2\nInitScript = DoorScript::Gone\n";
  }
  fs::path map() const { return dir_ / "yard.fomap"; }
  std::vector<std::string> args(std::initializer_list<std::string> extra) const {
    std::vector<std::string> a = {"fomap", "lint", "--protos", (dir_ / "protos").string()};
    a.insert(a.end(), extra.begin(), extra.end());
    a.push_back(map().string());
    return a;
  }
};

TEST_F(CliFomapRefsTest, reports_missing_resource_and_script_with_stable_checks) {
  const auto r =
      run_sortie(args({"--json", "--resources", (dir_ / "res").string(), "--scripts", (dir_ / "scripts").string()}));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("errors"), 2);
  EXPECT_EQ(j.at("resource_files"), 1);
  EXPECT_EQ(j.at("script_functions"), 2);
  EXPECT_EQ(j.at("not_checked").size(), 0u);
  std::vector<std::pair<std::string, int>> got;
  for (const auto& f : j.at("findings"))
    if (f.at("rule") == "map-format.rule.property-overrides")
      got.emplace_back(f.at("check").get<std::string>(), f.at("line").get<int>());
  EXPECT_EQ(got, (std::vector<std::pair<std::string, int>>{{"resource-missing", 12}, {"script-not-found", 16}}));
}

TEST_F(CliFomapRefsTest, text_report_names_the_finding_and_the_index_sizes) {
  const auto r = run_sortie(args({"--resources", (dir_ / "res").string()}));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(
      r.out.find(
          "yard.fomap:12: error: [map-format.rule.property-overrides] PicMap = art/doors/broken.frm (inherited from "
          "prototype 'Broken' at "),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nresources checked against 1 file(s)\nscripts not checked (no --scripts)\n"),
            std::string::npos)
      << r.out;
}

TEST_F(CliFomapRefsTest, without_the_options_says_what_was_not_checked) {
  const auto r = run_sortie(args({}));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out,
            "1 file, 1 map, 2 placements: 0 errors, 0 warnings, 0 notes\n"
            "resources not checked (no --resources)\nscripts not checked (no --scripts)\n");
}

TEST_F(CliFomapRefsTest, missing_resource_root_is_an_io_error) {
  const auto r = run_sortie(args({"--resources", (dir_ / "nowhere").string()}));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("resource root is not a directory"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sortie::cli_test
