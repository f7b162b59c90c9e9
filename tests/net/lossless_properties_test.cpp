// Lossless data.tma properties (issue #18 part 5, ADR 0020): a mission whose objects carry
// repeated names, non-zero words 1-3 and a name CP1251 cannot say in UTF-8 keeps every record,
// in file order with all four words, in the loaded world, in a replica built from the server's
// mirrors, and in a played session resumed from its save.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sortie/core/text.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/mission/play_session.hpp"
#include "sortie/mission/save_game.hpp"
#include "sortie/net/session_report.hpp"
#include "sortie/world/world.hpp"
#include "sortie_test/demo_game.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;

namespace {

constexpr const char* kTma = "MISSIONS/m01/data.tma";

// The demo sample with three more records on every placed object: a second "Life state" (a
// repeated name), words 1-3 set, and a name with 0x98 (no Unicode mapping in CP1251).
sortie::test::Files files_with_records() {
  sortie::test::Files files = sortie::test::demo_files();
  auto tma = iron3d::read_tma(files.at(kTma));
  EXPECT_TRUE(tma.has_value()) << (tma ? "" : tma.error().to_string());
  if (!tma) return files;
  for (std::size_t i = 0; i < tma->objects.size(); ++i) {
    auto& o = tma->objects[i];
    const auto k = static_cast<std::uint32_t>(i);
    o.add_property("Life state", {k, 0x80000000u | k, 0xdeadbeefu, 0xffffffffu - k});
    o.add_property("\xc6\xe8\xe7\xed\xfc\x98", {1, 2, 3, 4});  // "Жизнь" + 0x98
    o.add_property("Life state", {0, 0, 0, k + 1});
  }
  auto bytes = iron3d::write_tma(*tma);
  EXPECT_TRUE(bytes.has_value());
  if (bytes) files[kTma] = std::move(*bytes);
  return files;
}

// What the world must hold for one TMA object: every record, decoded names, raw bytes when lossy.
world::RawProperties expected_records(const iron3d::TmaObject& o) {
  world::RawProperties out;
  for (const auto& p : o.properties) {
    const core::DecodedText name = core::cp1251_to_utf8(p.name);
    out.add({name.utf8, name.lossless ? std::string() : p.name, p.raw});
  }
  return out;
}

// Every placed object of `w` (found by its id) against the file; returns how many were checked.
std::size_t check_world(const world::World& w, const iron3d::Tma& tma, const std::vector<world::ObjectId>& ids,
                        const char* where) {
  std::size_t checked = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto h = w.lookup(ids[i]);
    const world::WorldObject* o = h ? w.find(*h) : nullptr;
    EXPECT_NE(o, nullptr) << where << " objects[" << i << "]";
    if (o == nullptr) continue;
    EXPECT_EQ(o->raw_properties, expected_records(tma.objects[i])) << where << " objects[" << i << "]";
    ++checked;
  }
  return checked;
}

class LosslessPropertiesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    files_ = files_with_records();
    auto tma = iron3d::read_tma(files_.at(kTma));
    ASSERT_TRUE(tma.has_value());
    tma_ = std::move(*tma);
  }
  sortie::test::Files files_;
  iron3d::Tma tma_;
};

TEST_F(LosslessPropertiesTest, the_loaded_world_keeps_every_record_in_file_order) {
  auto game = sortie::test::game_over(files_);
  mission::MissionLoadOptions lo;
  lo.world.seed = 1;
  auto report = game.load("m01", lo);
  ASSERT_TRUE(report.has_value() && report->ok);
  const mission::LoadedMission& m = *game.current();
  ASSERT_EQ(check_world(*m.world, tma_, m.ids_by_placement(), "loaded"), tma_.objects.size());

  // Spelled out for the first object: the sample's records, then the three added ones.
  const world::WorldObject* o = m.world->find_live(m.ids_by_placement().at(0));
  ASSERT_NE(o, nullptr);
  const auto& items = o->raw_properties.items();
  ASSERT_GE(items.size(), 5u);
  EXPECT_EQ(items[0].name, "Invulnerability");
  EXPECT_EQ(items[1].name, "Life state");
  EXPECT_EQ(items[1].words, (world::RawWords{0x3f800000u, 0, 0, 0}));
  const std::size_t n = items.size();
  EXPECT_EQ(items[n - 3].name, "Life state");
  EXPECT_EQ(items[n - 3].words, (world::RawWords{0, 0x80000000u, 0xdeadbeefu, 0xffffffffu}));
  EXPECT_EQ(items[n - 2].name, "\xd0\x96\xd0\xb8\xd0\xb7\xd0\xbd\xd1\x8c\xef\xbf\xbd");  // U+FFFD for 0x98
  EXPECT_EQ(items[n - 2].name_bytes, "\xc6\xe8\xe7\xed\xfc\x98");
  EXPECT_EQ(items[n - 2].words, (world::RawWords{1, 2, 3, 4}));
  EXPECT_EQ(items[n - 1].words, (world::RawWords{0, 0, 0, 1}));
  EXPECT_EQ(o->raw_properties.count("Life state"), 3u);
  EXPECT_EQ(items[1].name_bytes, "");  // a lossless name keeps no bytes
  // sortie's keys stay beside them, single-valued.
  EXPECT_EQ(o->properties.get_int("placed_index"), 0);
  EXPECT_EQ(o->properties.find("Life state"), nullptr);
}

TEST_F(LosslessPropertiesTest, a_replica_holds_the_same_records_and_hash) {
  auto game = sortie::test::game_over(files_);
  auto hosted = net::host_mission(game, "m01", 1);
  ASSERT_TRUE(hosted) << hosted.error().to_string();
  const std::vector<world::ObjectId> ids = game.current()->ids_by_placement();
  sortie::net::test::MemorySession session(hosted->setup);
  for (const world::Command& c : hosted->start) ASSERT_TRUE(session.server().submit(c));
  net::Client& alice = session.add_client("alice");
  session.pump(6);
  ASSERT_EQ(alice.state(), net::ClientState::in_game);
  EXPECT_EQ(check_world(session.server().world(), tma_, ids, "server"), tma_.objects.size());
  EXPECT_EQ(check_world(alice.replica()->world(), tma_, ids, "replica"), tma_.objects.size());
  session.tick(20);
  EXPECT_EQ(alice.replica()->state_hash(), session.server().world().last_hash());
  EXPECT_EQ(check_world(alice.replica()->world(), tma_, ids, "replica after 20 ticks"), tma_.objects.size());
}

TEST_F(LosslessPropertiesTest, a_resumed_save_holds_the_same_records_and_hash) {
  auto game = sortie::test::game_over(files_);
  mission::MissionLoadOptions lo;
  lo.world.seed = 1;
  auto report = game.load("m01", lo);
  ASSERT_TRUE(report.has_value() && report->ok);
  auto play = mission::PlaySession::start(*game.current());
  ASSERT_TRUE(play) << play.error().to_string();
  for (int t = 0; t < 40; ++t) ASSERT_TRUE((*play)->tick());
  const mission::SaveGame save = mission::play_save(**play, "", "demo", "m01", 1);
  const std::uint64_t hash = (*play)->state_hash();
  play->reset();

  auto resumed = mission::resume_play(game, save, "m01");
  ASSERT_TRUE(resumed) << resumed.error().to_string();
  EXPECT_EQ((*resumed)->state_hash(), hash);
  const mission::LoadedMission& m = (*resumed)->mission();
  EXPECT_EQ(check_world(*m.world, tma_, m.ids_by_placement(), "resumed"), tma_.objects.size());
}

}  // namespace
