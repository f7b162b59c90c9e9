// Tuning fields, the input frame and input log codecs (bounded, lossless), and the flow field.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sortie/squad/flow.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/tuning.hpp"

namespace sortie::squad {
namespace {

TEST(Tuning, every_field_has_a_unique_name_and_a_default_in_range) {
  const Tuning t;
  std::set<std::string_view> names;
  for (const TuningField& f : tuning_fields()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    const std::string text = tuning_field_text(t, f);
    Tuning copy;
    EXPECT_TRUE(set_tuning_field(copy, f.name, text)) << f.name << " = " << text;  // default is in range
    EXPECT_EQ(tuning_field_text(copy, f), text);
  }
  EXPECT_GE(names.size(), 80u);
  EXPECT_TRUE(validate_tuning(t));
}

TEST(Tuning, set_field_by_name) {
  Tuning t;
  ASSERT_TRUE(set_tuning_field(t, "weaponRange", "9.5"));
  EXPECT_EQ(t.weapon_range, 9.5f);
  ASSERT_TRUE(set_tuning_field(t, "meleeCount", "0"));
  EXPECT_EQ(t.melee_count, 0);
  ASSERT_TRUE(set_tuning_field(t, "freeFireSecondary", "false"));
  EXPECT_FALSE(t.free_fire_secondary);
}

TEST(Tuning, rejects_unknown_field_bad_text_and_out_of_range) {
  Tuning t;
  EXPECT_EQ(set_tuning_field(t, "weaponrange", "9").error().code, "squad.tuning.unknown");
  EXPECT_EQ(set_tuning_field(t, "weaponRange", "9x").error().code, "squad.tuning.value");
  EXPECT_EQ(set_tuning_field(t, "weaponRange", "nan").error().code, "squad.tuning.value");
  EXPECT_EQ(set_tuning_field(t, "weaponRange", "1000").error().code, "squad.tuning.range");
  EXPECT_EQ(set_tuning_field(t, "meleeCount", "1.5").error().code, "squad.tuning.value");
  EXPECT_EQ(set_tuning_field(t, "freeFireSecondary", "1").error().code, "squad.tuning.value");
  EXPECT_EQ(t.weapon_range, 8.0f);  // unchanged
}

TEST(Tuning, rejects_leash_bounds_in_the_wrong_order) {
  Tuning t;
  t.anchor_leash = 4.0f;
  EXPECT_EQ(validate_tuning(t).error().code, "squad.tuning.relation");
}

TEST(InputFrame, bytes_of_a_frame) {
  InputFrame f;
  f.move_x = -127;
  f.move_y = 5;
  f.sprint = true;
  f.cycle_target = true;
  f.formation = 3;
  core::ByteWriter w;
  write_input_frame(w, f);
  EXPECT_EQ(w.buffer(), (core::Bytes{0x81, 0x05, 0x11, 0x03}));
  core::ByteReader r(w.buffer());
  EXPECT_EQ(*read_input_frame(r), f);
}

TEST(InputFrame, movement_is_normalised_and_quantised) {
  InputFrame diag;
  diag.move_x = 127;
  diag.move_y = 127;
  EXPECT_NEAR(core::length(diag.move()), 1.0f, 1e-6f);
  const InputFrame q = InputFrame::moving_towards({3.0f, 4.0f});
  EXPECT_EQ(q.move_x, 76);   // 0.6 x 127 = 76.2
  EXPECT_EQ(q.move_y, 102);  // 0.8 x 127 = 101.6
  EXPECT_FALSE(InputFrame{}.moving());
}

TEST(InputFrame, rejects_minus_128_reserved_bits_and_unknown_formation) {
  const core::Bytes bad_move{0x80, 0x00, 0x00, 0x00};
  core::ByteReader r1(bad_move);
  EXPECT_EQ(read_input_frame(r1).error().code, "squad.input.move");
  const core::Bytes bad_bits{0x00, 0x00, 0x20, 0x00};
  core::ByteReader r2(bad_bits);
  EXPECT_EQ(read_input_frame(r2).error().code, "squad.input.buttons");
  const core::Bytes bad_formation{0x00, 0x00, 0x00, 0x04};
  core::ByteReader r3(bad_formation);
  EXPECT_EQ(read_input_frame(r3).error().code, "squad.input.formation");
}

InputLog sample_log() {
  InputLog log;
  log.seed = 7;
  log.map_fingerprint = 0x1122334455667788ull;
  InputFrame a = InputFrame::moving_towards({1.0f, 0.0f});
  InputFrame b;
  b.toggle_manual = true;
  log.frames = {a, a, a, b, a};
  return log;
}

TEST(InputLog, runs_of_equal_frames_round_trip_exactly) {
  const InputLog log = sample_log();
  const core::Bytes bytes = write_input_log(log);
  // Header 28 bytes, three runs (3 a, 1 b, 1 a) of 8 bytes.
  ASSERT_EQ(bytes.size(), 28u + 3u * 8u);
  EXPECT_EQ(core::load_u32(bytes.data() + 24), 3u);
  EXPECT_EQ(core::load_u32(bytes.data() + 28), 3u);
  const auto back = read_input_log(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, log);
  EXPECT_EQ(write_input_log(*back), bytes);
}

TEST(InputLog, empty_log_round_trips) {
  InputLog log;
  const core::Bytes bytes = write_input_log(log);
  EXPECT_EQ(bytes.size(), 28u);
  EXPECT_EQ(*read_input_log(bytes), log);
}

TEST(InputLog, rejects_bad_magic_and_version) {
  core::Bytes bytes = write_input_log(sample_log());
  bytes[0] = 'X';
  EXPECT_EQ(read_input_log(bytes).error().code, "squad.input.magic");
  bytes = write_input_log(sample_log());
  bytes[4] = 2;
  EXPECT_EQ(read_input_log(bytes).error().code, "squad.input.version");
}

TEST(InputLog, rejects_zero_length_run) {
  core::Bytes bytes = write_input_log(sample_log());
  core::store_u32(bytes.data() + 28, 0);
  EXPECT_EQ(read_input_log(bytes).error().code, "squad.input.run");
}

TEST(InputLog, rejects_a_run_repeating_the_previous_frame) {
  core::Bytes bytes = write_input_log(sample_log());
  // Make run 1 (b) equal to run 0 (a): not canonical, two encodings of one log.
  std::copy(bytes.begin() + 32, bytes.begin() + 36, bytes.begin() + 40);
  EXPECT_EQ(read_input_log(bytes).error().code, "squad.input.run");
}

TEST(InputLog, rejects_truncated_and_trailing_bytes) {
  core::Bytes bytes = write_input_log(sample_log());
  core::Bytes cut(bytes.begin(), bytes.end() - 1);
  EXPECT_EQ(read_input_log(cut).error().code, "squad.input.eof");
  bytes.push_back(0);
  EXPECT_EQ(read_input_log(bytes).error().code, "squad.input.trailing");
}

TEST(InputLog, rejects_run_count_beyond_the_bytes_left) {
  core::Bytes bytes = write_input_log(sample_log());
  core::store_u32(bytes.data() + 24, 0x00ffffffu);
  EXPECT_EQ(read_input_log(bytes).error().code, "squad.input.eof");
  core::store_u32(bytes.data() + 24, 0xffffffffu);  // over kInputLogTicksMax: refused before the bytes left
  EXPECT_EQ(read_input_log(bytes).error().code, "squad.input.limit");
}

TEST(InputLog, rejects_total_ticks_over_the_limit) {
  InputLog log;
  InputFrame a;
  InputFrame b = InputFrame::moving_towards({0.0f, 1.0f});
  log.frames = {a, b};
  core::Bytes bytes = write_input_log(log);
  core::store_u32(bytes.data() + 28, static_cast<std::uint32_t>(kInputLogTicksMax + 1));  // first run
  EXPECT_EQ(read_input_log(bytes).error().code, "squad.input.length");
}

TEST(FlowField, breadth_first_steps_and_no_corner_cutting) {
  // 5x4 map, a wall column at x = 2 except its bottom cell.
  //   . . # . .
  //   . . # . .
  //   . . # . .
  //   . . . . .
  std::vector<std::uint8_t> cells(20, 0);
  for (std::size_t y = 0; y < 3; ++y) cells[y * 5 + 2] = 1;
  const WallGrid w(5, 4, cells);
  FlowField f;
  const std::int32_t source[1] = {0};  // cell (0,0)
  f.compute_all(w, source);
  EXPECT_EQ(f.distance(0, 0), 0);
  EXPECT_EQ(f.distance(1, 1), 2);
  EXPECT_EQ(f.distance(2, 0), -1);  // wall
  EXPECT_EQ(f.distance(2, 3), 5);
  EXPECT_EQ(f.distance(4, 0), 10);  // down, along the bottom and up
  EXPECT_EQ(*f.next_waypoint({3.5f, 3.5f}), (core::Vec2{2.5f, 3.5f}));
  // From (3,2) the diagonal to (2,3) (distance 5) would cut the wall's corner: (3,3) instead.
  EXPECT_EQ(*f.next_waypoint({3.5f, 2.5f}), (core::Vec2{3.5f, 3.5f}));
  EXPECT_FALSE(f.next_waypoint({0.5f, 0.5f}));  // at the source
  FlowField windowed;
  windowed.compute(w, source, 0, 0, 1, 3, 2);
  EXPECT_EQ(windowed.distance(1, 1), 2);
  EXPECT_EQ(windowed.distance(1, 3), -1);  // beyond two steps
  EXPECT_EQ(windowed.distance(3, 3), -1);  // outside the window
}

}  // namespace
}  // namespace sortie::squad
