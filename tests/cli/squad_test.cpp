// `sortie squad run --record/--replay` (world command log) and `sortie squad render`.
#include <gtest/gtest.h>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

class CliSquadTest : public CliTest {
 protected:
  static std::string map(const std::string& name) {
    return (fs::path(SORTIE_SOURCE_DIR) / "data" / "squad" / name).string();
  }
};

TEST_F(CliSquadTest, record_writes_a_world_log_that_replays_to_the_same_hashes) {
  const fs::path log = dir_ / "rooms.sclg";
  const auto live = run_sortie(
      {"squad", "run", map("rooms.txt"), "--seconds", "8", "--seed", "4", "--record", log.string(), "--json"});
  ASSERT_EQ(live.exit_code, 0) << live.all();
  const core::Bytes bytes = file_bytes(log);
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "SCLG");
  const auto again = run_sortie({"squad", "run", map("rooms.txt"), "--replay", log.string(), "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.all();
  EXPECT_EQ(again.json()["final_hash"], live.json()["final_hash"]);
  EXPECT_EQ(again.json()["world_hash"], live.json()["world_hash"]);
  EXPECT_EQ(again.json()["ticks"], 480);
  EXPECT_EQ(again.json()["replayed"], true);
  // Another map: refused with exit 1.
  const auto other = run_sortie({"squad", "run", map("yard.txt"), "--replay", log.string()});
  EXPECT_EQ(other.exit_code, 1) << other.all();
  EXPECT_NE(other.err.find("squad.run.map_mismatch"), std::string::npos) << other.err;
}

TEST_F(CliSquadTest, render_writes_the_picture_as_png) {
  const fs::path out = dir_ / "yard.png";
  const auto r = run_sortie({"squad", "render", map("yard.txt"), "--at", "2", "--seed", "3", "--size", "320x200",
                             "--overlay", "-o", out.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(r.json()["tick"], 120);
  EXPECT_EQ(r.json()["width"], 320);
  const core::Bytes png = file_bytes(out);
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png[1], 'P');
  EXPECT_EQ(png[2], 'N');
  EXPECT_EQ(png[3], 'G');
  // IHDR: width and height big-endian at 16 and 20.
  EXPECT_EQ((png[16] << 24) | (png[17] << 16) | (png[18] << 8) | png[19], 320);
  EXPECT_EQ((png[20] << 24) | (png[21] << 16) | (png[22] << 8) | png[23], 200);
  // The picture's state hash is the run's at that tick.
  const auto run = run_sortie({"squad", "run", map("yard.txt"), "--seconds", "2", "--seed", "3", "--json"});
  ASSERT_EQ(run.exit_code, 0);
  EXPECT_EQ(r.json()["state_hash"], run.json()["final_hash"]);
}

TEST_F(CliSquadTest, render_rejects_a_bad_size_and_a_missing_map) {
  const fs::path out = dir_ / "x.png";
  const auto size = run_sortie({"squad", "render", map("yard.txt"), "--size", "320by200", "-o", out.string()});
  EXPECT_EQ(size.exit_code, 2) << size.all();
  EXPECT_NE(size.err.find("usage.size"), std::string::npos) << size.err;
  const auto zero = run_sortie({"squad", "render", map("yard.txt"), "--size", "0x10", "-o", out.string()});
  EXPECT_EQ(zero.exit_code, 2);
  const auto missing = run_sortie({"squad", "render", (dir_ / "none.txt").string(), "-o", out.string()});
  EXPECT_EQ(missing.exit_code, 2) << missing.all();
  EXPECT_FALSE(fs::exists(out));
  const auto no_out = run_sortie({"squad", "render", map("yard.txt")});
  EXPECT_EQ(no_out.exit_code, 2);
}

}  // namespace
}  // namespace sortie::cli_test
