// `sortie-viewer squad MAP` under a virtual X server (xvfb-run): scripted key presses move the
// squad up the screen at the simulation's fixed 60 Hz tick (the state lines on stdout before and
// after), the screenshots are pictures, P/N/R pause, step and restart, a bad map exits 1 with
// file:line. Skipped with a message when xvfb-run is not installed (`make deps` installs it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>

#include "cli_harness.hpp"

namespace sortie::cli_test {
namespace {

std::string map(const std::string& name) {
  return (fs::path(SORTIE_SOURCE_DIR) / "data" / "squad" / name).string();
}

RunResult run_squad_viewer(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"squad"};
  all.insert(all.end(), args.begin(), args.end());
  return run_viewer(all);
}

// One "squad: tick T seed S disc X,Y centre X,Y up U ... paused P" line of the mode's stdout.
struct StateLine {
  unsigned long long seed = 0;
  double disc_x = 0, disc_y = 0, centre_x = 0, centre_y = 0, up = 0;
  int paused = -1;
};

std::optional<StateLine> state_at(const std::string& out, std::uint64_t tick) {
  const std::string head = "squad: tick " + std::to_string(tick) + " ";
  const auto at = out.find(head);
  if (at == std::string::npos) return std::nullopt;
  const std::string line = out.substr(at, out.find('\n', at) - at);
  StateLine s;
  if (std::sscanf(line.c_str() + head.size(), "seed %llu disc %lf,%lf centre %lf,%lf up %lf", &s.seed, &s.disc_x,
                  &s.disc_y, &s.centre_x, &s.centre_y, &s.up) != 6)
    return std::nullopt;
  const auto p = line.find(" paused ");
  if (p != std::string::npos) s.paused = line[p + 8] - '0';
  return s;
}

std::size_t colour_count(const std::vector<std::uint8_t>& rgb) {
  std::set<std::uint32_t> colors;
  for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) colors.insert(rgb[i] | rgb[i + 1] << 8 | rgb[i + 2] << 16);
  return colors.size();
}

class CliSquadViewerTest : public CliTest {};

TEST_F(CliSquadViewerTest, held_w_moves_the_squad_up_the_screen) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  // W held from frame 10 to 130: the key reaches the tick of frame 10 (tick 11), so by tick 120
  // the squad has had 110 ticks = 1.833 s of movement input.
  const fs::path script = dir_ / "w.txt", moved = dir_ / "moved.png", still = dir_ / "still.png";
  write_text(script, "10 key_down w\n130 key_up w\n");
  const auto w = run_squad_viewer({map("yard.txt"), "--size", "320x240", "--frames", "150", "--script", script.string(),
                                   "--screenshot", moved.string()});
  ASSERT_EQ(w.exit_code, 0) << w.all();
  EXPECT_NE(w.out.find("150 frames in"), std::string::npos) << w.out;
  const auto s =
      run_squad_viewer({map("yard.txt"), "--size", "320x240", "--frames", "150", "--screenshot", still.string()});
  ASSERT_EQ(s.exit_code, 0) << s.all();

  const auto w0 = state_at(w.out, 0), w120 = state_at(w.out, 120);
  const auto s0 = state_at(s.out, 0), s120 = state_at(s.out, 120);
  ASSERT_TRUE(w0 && w120 && s0 && s120) << w.out << s.out;
  // The same map and seed start alike: the yard's '@' cell (21, 27), its centre 21.5,27.5.
  EXPECT_DOUBLE_EQ(w0->disc_x, 21.5);
  EXPECT_DOUBLE_EQ(w0->disc_y, 27.5);
  EXPECT_EQ(w0->seed, 1u);
  EXPECT_DOUBLE_EQ(s0->up, w0->up);
  // Up the screen at the camera's yaw 45 deg is squad (cos 45, -sin 45): north-east (y south).
  const double k = std::sqrt(0.5);
  const double dx = w120->disc_x - w0->disc_x, dy = w120->disc_y - w0->disc_y;
  const double disc_up = k * dx - k * dy, disc_side = k * dx + k * dy;
  EXPECT_NEAR(disc_side, 0.0, 0.01);  // straight up, no sideways drift
  // The disc runs at most 3.3 units/s: 3.3 * 110 / 60 = 6.05; at least half of it.
  EXPECT_LE(disc_up, 6.05 + 0.01);
  EXPECT_GE(disc_up, 3.02);
  // The soldiers follow: their centre goes up by more than 1.5 and at most the sprint speed
  // 2.7 * 110 / 60 = 4.95.
  const double centre_up = w120->up - w0->up;
  EXPECT_GT(centre_up, 1.5);
  EXPECT_LE(centre_up, 4.95 + 0.01);
  // Without input the squad holds where it stands.
  EXPECT_DOUBLE_EQ(s120->disc_x, s0->disc_x);
  EXPECT_DOUBLE_EQ(s120->disc_y, s0->disc_y);
  EXPECT_NEAR(s120->up, s0->up, 0.05);

  const auto a = read_png_rgb(moved).rgb, b = read_png_rgb(still).rgb;
  ASSERT_EQ(a.size(), 320u * 240u * 3u);
  ASSERT_EQ(b.size(), a.size());
  EXPECT_GT(colour_count(a), 50u);  // not blank
  EXPECT_GT(colour_count(b), 50u);
  EXPECT_NE(a, b);  // the camera follows the disc: the yard scrolled
}

TEST_F(CliSquadViewerTest, p_pauses_n_steps_one_tick_r_restarts_with_the_next_seed) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const fs::path script = dir_ / "keys.txt";
  // Every frame runs one tick: P on frame 30 pauses after 30 ticks; N twice steps to 32; P on
  // frame 60 resumes (tick 33 on that frame); R on frame 70 restarts with seed 8 (tick 1).
  write_text(script,
             "5 key_down 3\n6 key_up 3\n7 key_down space\n8 key_up space\n9 key_down left\n12 key_up left\n"
             "13 key_down tab\n14 key_up tab\n15 key_down o\n16 key_up o\n30 key_down p\n31 key_up p\n"
             "40 key_down n\n41 key_up n\n50 key_down n\n51 key_up n\n60 key_down p\n61 key_up p\n"
             "70 key_down r\n71 key_up r\n");
  const auto r = run_squad_viewer({map("rooms.txt"), "--seed", "7", "--size", "320x240", "--frames", "80", "--script",
                                   script.string(), "--screenshot", (dir_ / "keys.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  const auto paused = state_at(r.out, 30), step1 = state_at(r.out, 31), step2 = state_at(r.out, 32),
             resumed = state_at(r.out, 33), restarted = state_at(r.out, 1);
  ASSERT_TRUE(paused && step1 && step2 && resumed && restarted) << r.out;
  EXPECT_EQ(paused->paused, 1);
  EXPECT_EQ(step1->paused, 1);
  EXPECT_EQ(step2->paused, 1);
  EXPECT_EQ(resumed->paused, 0);
  EXPECT_EQ(paused->seed, 7u);
  EXPECT_EQ(restarted->seed, 8u);
  EXPECT_EQ(r.out.find("squad: tick 34 "), std::string::npos) << r.out;  // paused ticks did not run
  EXPECT_GT(colour_count(read_png_rgb(dir_ / "keys.png").rgb), 50u);
}

TEST_F(CliSquadViewerTest, bad_map_exits_1_with_file_and_line) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const fs::path bad = dir_ / "bad.txt";
  write_text(bad, "squad-map 1\nname bad\ngrid 3 2\n###\n#q#\n");
  const auto r = run_squad_viewer({bad.string(), "--frames", "2"});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  // One line, the code once at its end (Diagnostic::to_string already ends with it).
  const std::string line =
      "sortie-viewer: " + bad.string() +
      ":5: grid[1][1]: unknown cell at column 2 (expected # . @ h H, found 'q') [squad.map.cell]\n";
  EXPECT_NE(r.err.find(line), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[squad.map.cell] [squad.map.cell]"), std::string::npos) << r.err;
  const auto missing = run_squad_viewer({(dir_ / "none.txt").string(), "--frames", "2"});
  EXPECT_EQ(missing.exit_code, 2) << missing.all();
  const fs::path script = dir_ / "s.txt";
  write_text(script, "3 key_down z\n");
  const auto key = run_squad_viewer({map("maze.txt"), "--frames", "2", "--script", script.string()});
  EXPECT_EQ(key.exit_code, 1) << key.all();
  EXPECT_NE(key.err.find("line 1"), std::string::npos) << key.err;
}

}  // namespace
}  // namespace sortie::cli_test
