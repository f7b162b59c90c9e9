// `sortie fomap lint|fmt|hash|migrate|bake|json|materialize` smoke tests. The map corpus lives
// next to the repository (../shared/corpus/fomap); tests that need it skip when it is absent.
#include <gtest/gtest.h>

#include "cli_harness.hpp"
#include "sortie/core/file_io.hpp"

namespace sortie::cli_test {
namespace {

class CliFomapTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    corpus_ = fomap_corpus();
    if (corpus_.empty()) GTEST_SKIP() << "fomap corpus absent";
  }
  // A current-format map and its project's protos.
  fs::path map() const { return corpus_ / "new/cvet__fonline-tla/Maps/arroyo_bridge.fomap"; }
  fs::path protos() const { return corpus_ / "protos/cvet__fonline-tla"; }
  // A legacy (bare sections) map.
  fs::path old_map() const { return corpus_ / "old/cvet__fonline-tla@592a721fa1/Maps/sad_powersub.fomap"; }
  fs::path corpus_;
};

TEST_F(CliFomapTest, lint_strict_passes_a_current_map_with_its_protos) {
  const auto r = run_sortie({"fomap", "lint", "--strict", "--protos", protos().string(), map().string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out,
            "1 file, 1 map, 576 placements: 0 errors, 0 warnings, 0 notes (strict gate)\n"
            "resources not checked (no --resources)\nscripts not checked (no --scripts)\n");
  const auto j = run_sortie({"fomap", "lint", "--strict", "--json", "--protos", protos().string(), map().string()});
  EXPECT_EQ(j.exit_code, 0);
  const auto report = j.json();
  EXPECT_EQ(report.at("errors"), 0);
  EXPECT_EQ(report.at("placements"), 576);
  EXPECT_EQ(report.at("protos_loaded"), true);
  EXPECT_EQ(report.at("strict"), true);
  EXPECT_EQ(report.at("findings").size(), 0u);
  EXPECT_EQ(report.at("not_checked").size(), 2u);
  EXPECT_EQ(report.at("not_checked")[0].at("check"), "resources");
}

// Needs no corpus, so it is a plain CliTest (it used to skip with the corpus fixture).
TEST_F(CliTest, fomap_lint_of_a_missing_file_is_an_io_error) {
  const auto r = run_sortie({"fomap", "lint", (dir_ / "absent.fomap").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("[io.open]"), std::string::npos) << r.err;
}

TEST_F(CliFomapTest, fmt_check_accepts_the_canonical_map_and_restores_a_perturbed_copy) {
  const auto ok = run_sortie({"fomap", "fmt", "--check", "--protos", protos().string(), map().string()});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_EQ(ok.out, "");
  // A copy with an extra blank line between sections is not canonical; fmt writes it back.
  auto text = core::read_text_file(map());
  ASSERT_TRUE(text.has_value());
  const std::size_t cut = text->find("\n[", 1);
  ASSERT_NE(cut, std::string::npos);
  std::string perturbed = *text;
  perturbed.insert(cut + 1, "\n\n");
  const fs::path copy = dir_ / "arroyo_bridge.fomap";
  ASSERT_TRUE(core::write_file_atomic(copy, perturbed).has_value());
  const auto check = run_sortie({"fomap", "fmt", "--check", "--protos", protos().string(), copy.string()});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_EQ(check.out, copy.generic_string() + "\n");
  EXPECT_EQ(check.err, "1 of 1 file(s) are not canonical\n");
  const auto fix = run_sortie({"fomap", "fmt", "--protos", protos().string(), copy.string()});
  EXPECT_EQ(fix.exit_code, 0) << fix.err;
  EXPECT_EQ(fix.out, "formatted " + copy.generic_string() + "\n");
  EXPECT_EQ(core::read_text_file(copy).value_or(""), *text);
}

TEST_F(CliFomapTest, migrate_converts_a_legacy_map_losslessly) {
  const fs::path out = dir_ / "migrated.fomap";
  const auto r = run_sortie({"fomap", "migrate", old_map().string(), "-o", out.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("from"), "bare-sections-v2");
  EXPECT_EQ(j.at("lossless"), true);
  EXPECT_EQ(j.at("items"), 100);
  EXPECT_EQ(j.at("critters"), 0);
  EXPECT_EQ(j.at("not_carried").size(), 0u);
  // The result is a current-format map: lint reads it without errors.
  const auto lint = run_sortie({"fomap", "lint", "--json", out.string()});
  EXPECT_EQ(lint.exit_code, 0) << lint.out;
  EXPECT_EQ(lint.json().at("placements"), 100);
  EXPECT_EQ(lint.json().at("errors"), 0);
}

TEST_F(CliFomapTest, bake_writes_server_and_client_blobs) {
  const fs::path out = dir_ / "baked";
  const auto r =
      run_sortie({"fomap", "bake", "--protos", protos().string(), "-o", out.string(), map().string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("summary").at("baked"), 1);
  EXPECT_EQ(j.at("summary").at("failed"), 0);
  const auto& m = j.at("maps").at(0);
  EXPECT_EQ(m.at("map"), "arroyo_bridge");
  EXPECT_EQ(m.at("server").at("critters"), 15);
  EXPECT_EQ(m.at("server").at("items"), 561);
  EXPECT_EQ(m.at("client").at("items"), 503);
  EXPECT_TRUE(fs::exists(out / "arroyo_bridge.fomap-bin-server"));
  EXPECT_TRUE(fs::exists(out / "arroyo_bridge.fomap-bin-client"));
  // Baking is deterministic.
  const fs::path again = dir_ / "again";
  ASSERT_EQ(
      run_sortie({"fomap", "bake", "--protos", protos().string(), "-o", again.string(), map().string()}).exit_code, 0);
  EXPECT_TRUE(tree_bytes(out) == tree_bytes(again));
}

TEST_F(CliFomapTest, json_and_materialize_describe_the_map) {
  const auto j = run_sortie({"fomap", "json", "--protos", protos().string(), map().string()});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto model = j.json();
  EXPECT_EQ(model.at("loadable"), true);
  EXPECT_EQ(model.at("file"), map().string());
  EXPECT_EQ(model.at("maps").size(), 1u);
  const auto m = run_sortie({"fomap", "materialize", "--protos", protos().string(), map().string()});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(m.out,
            "arroyo_bridge: 528 static grid items, 15 critters, 33 items created (0 children skipped); client: 503 "
            "static items\n");
  const auto none =
      run_sortie({"fomap", "materialize", "--protos", protos().string(), "--map", "nope", map().string()});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("[fomap.materialize.no_map]"), std::string::npos) << none.err;
}

// The hstring vectors of spec/fomap.md §11 (no corpus needed).
TEST(CliFomapHash, matches_the_spec_vectors) {
  const std::vector<std::pair<std::string, std::string>> vectors{
      {"a", "0x6cf84e5a2465e867"},
      {"abc", "0xb4808df22d44ffcf"},
      {"abcd", "0xe73573b4c2ddfea0"},
      {"Item", "0x95f6358f62a3ca00"},
      {"Critter", "0x2a3a5a6591ebe4c1"},
      {"Map", "0xdfe30208f8ba04b8"},
      {"ProtoMap", "0x18fa50d1817a0ebd"},
      {"TestItem", "0x75706a5f6571696e"},
      {"EssentialsTest", "0xa06f3f92f40b8974"},
      {"art/tiles/floor.frm", "0x63beedc076ccc8b0"},
      {"0123456789abcdef", "0x461ebd6f5b59dfa7"},
      {"0123456789abcdefg", "0x7603b7053e7dbc5a"},
      {std::string(17, 'a'), "0xd1cb000f73f1a0dc"},
      {std::string(48, 'b'), "0xfb15a9b39c45b589"},
      {std::string(49, 'c'), "0xdacf849a5d64c369"},
      {std::string(100, 'd'), "0xa28290b3aa3a101e"},
  };
  std::vector<std::string> args{"fomap", "hash", "--json"};
  for (const auto& [s, h] : vectors) args.push_back(s);
  const auto r = run_sortie(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  ASSERT_EQ(j.size(), vectors.size());
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    EXPECT_EQ(j.at(i).at("string"), vectors[i].first);
    EXPECT_EQ(j.at(i).at("hash"), vectors[i].second) << vectors[i].first;
  }
  // Human form; the empty string is the null hash.
  const auto h = run_sortie({"fomap", "hash", "abc", ""});
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_EQ(h.out, "0xb4808df22d44ffcf  abc\n0x0000000000000000  \n");
  EXPECT_EQ(run_sortie({"fomap", "hash"}).exit_code, 2);
}

}  // namespace
}  // namespace sortie::cli_test
