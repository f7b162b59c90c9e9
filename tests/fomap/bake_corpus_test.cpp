// Corpus: every current-format map of corpus/fomap/new bakes with the copied protos; record
// counts follow the placements; the client selection is the proto-static, proto-visible items;
// every baked pair loads on the server and client side and materializes without skipped children.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "sortie/core/file_io.hpp"
#include "sortie/fomap/bake.hpp"
#include "sortie/fomap/materialize.hpp"
#include "sortie_test/corpus.hpp"

namespace sortie::fomap {
namespace {

namespace fs = std::filesystem;

fs::path corpus_dir() {
  return test::fomap_corpus();
}

class FomapBakeCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const fs::path c = corpus_dir();
    if (!fs::exists(c / "new") || !fs::exists(c / "protos/cvet__fonline-tla")) return;
    project_ = std::make_unique<Project>(
        Project::load({c / "protos/cvet__fonline-tla", c / "protos/cvet__fonline@84990df655"}));
    regs_ = std::make_unique<BakeRegistrars>(project_->properties);
  }
  static void TearDownTestSuite() {
    regs_.reset();
    project_.reset();
  }
  static bool proto_flag(const Proto& p, std::string_view key) {
    auto it = p.resolved.find(key);
    return it != p.resolved.end() && (it->second == "True" || it->second == "true" || it->second == "1");
  }
  static std::unique_ptr<Project> project_;
  static std::unique_ptr<BakeRegistrars> regs_;
};
std::unique_ptr<Project> FomapBakeCorpus::project_;
std::unique_ptr<BakeRegistrars> FomapBakeCorpus::regs_;

TEST_F(FomapBakeCorpus, every_new_map_bakes_loads_and_materializes) {
  if (!project_) GTEST_SKIP() << "corpus absent";
  const auto files = find_map_containers({corpus_dir() / "new"});
  ASSERT_GT(files.size(), 100u);
  const ProtoNames names = proto_names_of(*project_);
  std::size_t maps = 0, critters = 0, items = 0, client = 0, hidden = 0;
  std::uint64_t next_runtime_id = 1;
  for (const auto& f : files) {
    auto text = core::read_text_file(f);
    ASSERT_TRUE(text);
    const MapContainer c = MapContainer::from_text(std::move(*text), f.string());
    for (const MapDefinition& map : c.maps()) {
      ++maps;
      BakeOutcome out = bake_map(c, map, *project_, *regs_);
      ASSERT_TRUE(out.baked) << f << ": " << (out.errors.empty() ? "" : out.errors.front().to_string());
      const BakedMap& b = *out.baked;
      EXPECT_EQ(b.server.critters, map.critters.size()) << f;
      EXPECT_EQ(b.server.items, map.items.size()) << f;
      std::size_t want_client = 0, want_hidden = 0;
      for (const Placement& p : map.items) {
        const Proto* proto = find_placement_proto(*project_, p);
        ASSERT_NE(proto, nullptr) << f << " $Id=" << p.id;
        if (!proto_flag(*proto, "Static")) continue;
        (proto_flag(*proto, "Hidden") ? want_hidden : want_client) += 1;
      }
      EXPECT_EQ(b.client.items, want_client) << f;
      EXPECT_EQ(b.hidden_static_items, want_hidden) << f;
      critters += b.server.critters;
      items += b.server.items;
      client += b.client.items;
      hidden += b.hidden_static_items;

      const auto size = map_size_of(c, map, *project_);
      ASSERT_TRUE(size) << f;
      auto server = read_server_blob(b.server_bytes());
      ASSERT_TRUE(server) << f;
      auto statics = load_server_statics(*server, map.name, *size, *regs_, names);
      ASSERT_TRUE(statics) << f << ": " << statics.error().to_string();
      auto m = materialize(*statics, next_runtime_id);
      ASSERT_TRUE(m) << f << ": " << m.error().to_string();
      EXPECT_TRUE(m->skipped.empty()) << f << ": " << m->skipped.front().reason;
      EXPECT_EQ(m->entities.size() + statics->static_items.size(), map.critters.size() + map.items.size()) << f;
      auto cl = read_client_blob(b.client_bytes());
      ASSERT_TRUE(cl) << f;
      auto client_items = load_client_statics(*cl, *size, *regs_, names);
      ASSERT_TRUE(client_items) << f << ": " << client_items.error().to_string();
      EXPECT_EQ(client_items->size(), b.client.items) << f;
    }
  }
  EXPECT_EQ(maps, files.size());
  EXPECT_GT(critters, 0u);
  EXPECT_GT(hidden, 0u);
  EXPECT_LT(client + hidden, items);
}

TEST_F(FomapBakeCorpus, arroyo_bridge_record_counts) {
  if (!project_) GTEST_SKIP() << "corpus absent";
  const fs::path f = corpus_dir() / "new/cvet__fonline-tla/Maps/arroyo_bridge.fomap";
  auto text = core::read_text_file(f);
  ASSERT_TRUE(text);
  const MapContainer c = MapContainer::from_text(std::move(*text), f.string());
  auto out = bake_container(c, *project_, *regs_);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].baked);
  EXPECT_EQ(out[0].name, "arroyo_bridge");
  EXPECT_EQ(out[0].baked->server.critters, 15u);
  EXPECT_EQ(out[0].baked->server.items, 561u);
  EXPECT_EQ(out[0].baked->client.items, 503u);
  EXPECT_EQ(out[0].baked->hidden_static_items, 25u);
  auto server = read_server_blob(out[0].baked->server_bytes());
  ASSERT_TRUE(server);
  EXPECT_EQ(server->critters.size(), 15u);
  EXPECT_EQ(server->items.size(), 561u);
  // The first critter record is the first critter section, id kept as authored (beyond int32).
  EXPECT_EQ(server->critters[0].id, c.maps()[0].critters[0].id);
  EXPECT_EQ(server->critters[0].id, 4294966539);
}

}  // namespace
}  // namespace sortie::fomap
