// Baking a pack (bake_pack.hpp): the rules across containers, and what is written.
#include "sortie/fomap/bake_pack.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "protos_fixture.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/fomap/map_blob.hpp"

namespace sortie::fomap {
namespace {

namespace fs = std::filesystem;

const Project& project() {
  static const Project p =
      test::project_with_protos("[ProtoCritter]\n$Name = Guard\n\n[ProtoItem]\n$Name = Crate\n", "Test.fopro");
  return p;
}

std::string map_text(std::string_view name, std::string_view proto = "Crate") {
  return "[ProtoMap]\n$Name = " + std::string(name) +
         "\nSize = 20 20\n\n[$Name/Item]\n$Id = 1\n$Proto = " + std::string(proto) + "\nHex = 2 2\n";
}

PackOptions written_to(const fs::path& dir) {
  PackOptions o;
  o.output = dir;
  return o;
}

class FomapBakePack : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie_bake_pack_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_ / "maps");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void put(const std::string& name, const std::string& text) const {
    ASSERT_TRUE(core::write_file_atomic(dir_ / "maps" / name, text));
  }
  fs::path dir_;
};

TEST_F(FomapBakePack, a_map_id_baked_twice_fails_in_the_later_container) {
  put("a.fomap", map_text("Arroyo"));
  put("b.fomap", map_text("Arroyo"));
  put("c.fomap", map_text("Den"));
  const PackReport r = bake_pack({dir_ / "maps"}, project(), written_to(dir_ / "out"));
  EXPECT_TRUE(r.io_errors.empty());
  EXPECT_EQ(r.files, 3u);
  ASSERT_EQ(r.maps.size(), 3u);
  EXPECT_TRUE(r.maps[0].ok());
  ASSERT_FALSE(r.maps[1].ok());
  ASSERT_EQ(r.maps[1].errors.size(), 1u);
  EXPECT_EQ(r.maps[1].errors[0].code, "fomap.bake.duplicate_map");
  EXPECT_EQ(r.maps[1].errors[0].found, (dir_ / "maps/a.fomap").string());  // the container that keeps it
  EXPECT_TRUE(r.maps[2].ok());
  EXPECT_EQ(r.baked(), 2u);
  EXPECT_EQ(r.failed(), 1u);
  // Written pairs, and nothing else.
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir_ / "out")) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  EXPECT_EQ(out, (std::vector<std::string>{"Arroyo.fomap-bin-client", "Arroyo.fomap-bin-server", "Den.fomap-bin-client",
                                           "Den.fomap-bin-server"}));
  auto server = core::read_file(dir_ / "out/Den.fomap-bin-server");
  ASSERT_TRUE(server.has_value());
  auto blob = read_server_blob(*server);
  ASSERT_TRUE(blob.has_value());
  EXPECT_EQ(blob->items.size(), 1u);
  const core::Json j = r.to_json();
  EXPECT_EQ(j.at("summary"), (core::Json{{"baked", 2}, {"failed", 1}, {"files", 3}}));
  EXPECT_EQ(j.at("maps").at(1).at("errors").at(0).at("code"), "fomap.bake.duplicate_map");
}

TEST_F(FomapBakePack, only_bakes_the_named_map) {
  put("a.fomap", map_text("Arroyo"));
  put("c.fomap", map_text("Den"));
  PackOptions only_den;
  only_den.only = "Den";
  const PackReport r = bake_pack({dir_ / "maps"}, project(), only_den);
  ASSERT_EQ(r.maps.size(), 1u);
  EXPECT_EQ(r.maps[0].map, "Den");
  EXPECT_TRUE(r.maps[0].ok());
  EXPECT_EQ(r.maps[0].baked->server.items, 1u);
  EXPECT_TRUE(r.maps[0].baked->server_blob.empty());  // released once summarized
  EXPECT_TRUE(r.io_errors.empty());
}

TEST_F(FomapBakePack, rejects_only_naming_a_map_no_container_declares) {
  put("a.fomap", map_text("Arroyo"));
  PackOptions only_nope = written_to(dir_ / "out");
  only_nope.only = "Nope";
  const PackReport r = bake_pack({dir_ / "maps"}, project(), only_nope);
  EXPECT_TRUE(r.maps.empty());
  EXPECT_EQ(r.files, 1u);
  ASSERT_EQ(r.io_errors.size(), 1u);
  EXPECT_EQ(r.io_errors[0].code, "usage.only_unknown");
  EXPECT_EQ(r.io_errors[0].found, "Nope");
  EXPECT_TRUE(fs::is_empty(dir_ / "out"));  // nothing written
}

TEST_F(FomapBakePack, bake_errors_structure_errors_and_missing_inputs_are_reported) {
  put("a.fomap", map_text("Arroyo", "NoSuchProto"));
  put("broken.fomap", "[Tiles]\nx = 1\n");
  fs::create_directories(dir_ / "empty");
  const PackReport r = bake_pack({dir_ / "maps", dir_ / "empty", dir_ / "absent.fomap"}, project(), {});
  ASSERT_EQ(r.maps.size(), 2u);
  EXPECT_EQ(r.maps[0].errors.at(0).code, "fomap.bake.proto_unknown");
  EXPECT_EQ(r.maps[1].map, "broken");
  ASSERT_EQ(r.maps[1].errors.size(), 2u);
  EXPECT_EQ(r.maps[1].errors[0].code, "fomap.structure.no_anchor");
  EXPECT_EQ(r.maps[1].errors[1].code, "fomap.structure.top_level");
  ASSERT_EQ(r.io_errors.size(), 2u);
  EXPECT_EQ(r.io_errors[0].code, "usage.no_maps");
  EXPECT_EQ(r.io_errors[0].file, (dir_ / "empty").string());
  EXPECT_EQ(r.io_errors[1].code, "io.open");
  EXPECT_EQ(r.files, 3u);  // the two containers and the path given as a file
}

TEST_F(FomapBakePack, a_pair_that_cannot_be_written_fails_and_leaves_the_old_pair) {
  put("a.fomap", map_text("Arroyo"));
  fs::create_directories(dir_ / "out/Arroyo.fomap-bin-client");  // the client cannot be placed
  ASSERT_TRUE(core::write_file_atomic(dir_ / "out/Arroyo.fomap-bin-server", std::string_view("old")));
  const PackReport r = bake_pack({dir_ / "maps"}, project(), written_to(dir_ / "out"));
  ASSERT_EQ(r.maps.size(), 1u);
  EXPECT_FALSE(r.maps[0].ok());
  EXPECT_EQ(r.maps[0].errors.at(0).code, "io.write");
  EXPECT_EQ(r.failed(), 1u);
  EXPECT_EQ(core::read_text_file(dir_ / "out/Arroyo.fomap-bin-server").value_or(""), "old");
}

}  // namespace
}  // namespace sortie::fomap
