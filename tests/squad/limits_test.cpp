// Every limit of squad/limits.hpp, fed at the limit (accepted) and one above (refused with its
// code). Files go to a fresh temporary directory; the replay files are sparse, and the replay limit
// is checked to hold the largest input log.
#include "sortie/squad/limits.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sortie/core/bytes.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/play.hpp"
#include "sortie/squad/squad_world.hpp"
#include "sortie/world/command.hpp"

namespace sortie::squad {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kSmall = "squad-map 1\ngrid 3 1\n@.h\n";

// A map of `width` x 1 cells: '@', 'h', then floor.
std::string wide_map(int width) {
  std::string row(static_cast<std::size_t>(width), '.');
  row[0] = '@';
  row[1] = 'h';
  return "squad-map 1\ngrid " + std::to_string(width) + " 1\n" + row + "\n";
}

// A map of `squads` '@' in one row, then an 'h'.
std::string squads_map(std::size_t squads) {
  return "squad-map 1\ngrid " + std::to_string(squads + 1) + " 1\n" + std::string(squads, '@') + "h\n";
}

}  // namespace

class SquadLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie_squad_limits_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  fs::path dir_;
};

TEST_F(SquadLimits, map_file_size) {
  // A small map padded with a comment to exactly the limit.
  std::string text(kSmall);
  text += '#';
  text += std::string(kMapFileMax - text.size() - 1, 'x');
  text += '\n';
  ASSERT_EQ(text.size(), kMapFileMax);
  const auto at_limit = load_squad_map(write("at.txt", text));
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().to_string();
  EXPECT_EQ(at_limit->width, 3);
  text.insert(text.size() - 1, "x");
  const auto over = load_squad_map(write("over.txt", text));
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "io.too_large");
}

TEST_F(SquadLimits, map_size) {
  const auto at_limit = parse_squad_map(wide_map(kMapSizeMax), "m.txt");
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().to_string();
  EXPECT_EQ(at_limit->width, kMapSizeMax);
  const auto over = parse_squad_map(wide_map(kMapSizeMax + 1), "m.txt");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "squad.map.value");
  // Height too.
  const auto tall = parse_squad_map("squad-map 1\ngrid 2 " + std::to_string(kMapSizeMax + 1) + "\n@h\n", "m.txt");
  ASSERT_FALSE(tall.has_value());
  EXPECT_EQ(tall.error().code, "squad.map.value");
}

TEST_F(SquadLimits, squads) {
  const auto at_limit = parse_squad_map(squads_map(kSquadsMax), "m.txt");
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().to_string();
  EXPECT_EQ(at_limit->squads.size(), kSquadsMax);
  const auto over = parse_squad_map(squads_map(kSquadsMax + 1), "m.txt");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "squad.map.too_many_squads");
}

TEST_F(SquadLimits, input_log_ticks) {
  // Two runs of exactly the limit (64 MiB of frames), then one tick more in the first run.
  core::ByteWriter w;
  w.bytes(std::string_view("SQIL"));
  w.u32(kInputLogVersion);
  w.u64(1);
  w.u64(2);
  w.u32(2);
  w.u32(static_cast<std::uint32_t>(kInputLogTicksMax - 1));
  write_input_frame(w, InputFrame{});
  w.u32(1);
  write_input_frame(w, InputFrame::moving_towards({1.0f, 0.0f}));
  const auto at_limit = read_input_log(w.take());
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().to_string();
  EXPECT_EQ(at_limit->frames.size(), kInputLogTicksMax);
  core::ByteWriter over;
  over.bytes(std::string_view("SQIL"));
  over.u32(kInputLogVersion);
  over.u64(1);
  over.u64(2);
  over.u32(2);
  over.u32(static_cast<std::uint32_t>(kInputLogTicksMax));
  write_input_frame(over, InputFrame{});
  over.u32(1);
  write_input_frame(over, InputFrame::moving_towards({1.0f, 0.0f}));
  const auto refused = read_input_log(over.take());
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, "squad.input.length");
}

TEST_F(SquadLimits, input_log_runs) {
  // Run counts declared without their bytes.
  auto declared = [](std::uint64_t runs) {
    core::ByteWriter w;
    w.bytes(std::string_view("SQIL"));
    w.u32(kInputLogVersion);
    w.u64(1);
    w.u64(2);
    w.u32(static_cast<std::uint32_t>(runs));
    return w.take();
  };
  const auto at_limit = read_input_log(declared(kInputLogTicksMax));
  ASSERT_FALSE(at_limit.has_value());
  EXPECT_EQ(at_limit.error().code, "squad.input.eof");
  const auto over = read_input_log(declared(kInputLogTicksMax + 1));
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "squad.input.limit");
}

TEST_F(SquadLimits, session_ticks_in_the_world_log) {
  const world::ObjectId id{};
  const auto at_limit = world::decode_payload<SquadSessionCommand>(
      world::encode_payload(SquadSessionCommand{id, 1, 2, kInputLogTicksMax}));
  ASSERT_TRUE(at_limit.has_value()) << at_limit.error().to_string();
  EXPECT_EQ(at_limit->ticks, kInputLogTicksMax);
  const auto over = world::decode_payload<SquadSessionCommand>(
      world::encode_payload(SquadSessionCommand{id, 1, 2, kInputLogTicksMax + 1}));
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "squad.command.payload");
}

TEST_F(SquadLimits, replay_file_size) {
  // The limit holds the largest input log: every tick its own run of 8 bytes after the header.
  static_assert(kReplayFileMax >= 4 + 4 + 8 + 8 + 4 + kInputLogTicksMax * (4 + kInputFrameBytes));
  PlayRequest request;
  request.map = write("m.txt", std::string(kSmall));
  request.seconds = 0.0;
  request.replay = dir_ / "replay.bin";
  { std::ofstream(request.replay, std::ios::binary) << "SQIL"; }
  // Sparse files: no bytes are written. At the limit the file is read (128 MiB) and its version
  // (0) refused; one byte more is refused before it is read.
  fs::resize_file(request.replay, kReplayFileMax);
  const auto at_limit = play_map(request);
  ASSERT_FALSE(at_limit.has_value());
  EXPECT_EQ(at_limit.error().code, "squad.input.version");
  fs::resize_file(request.replay, kReplayFileMax + 1);
  const auto over = play_map(request);
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "io.too_large");
}

}  // namespace sortie::squad
