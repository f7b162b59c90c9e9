// sortie-viewer under a virtual X server (xvfb-run): a scripted run's screenshot is not blank
// and matches `sortie render` of the same camera; a scripted click picks the object under the
// cursor. Skipped with a message when xvfb-run is not installed (`make deps` installs it).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <set>
#include <thread>

#include "cli_harness.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/iron3d/wave.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/scene_camera.hpp"
#include "sortie_test/process.hpp"

namespace sortie::cli_test {
namespace {

std::vector<std::uint8_t> rgb_of(const fs::path& path, std::uint32_t& w, std::uint32_t& h) {
  RgbImage image = read_png_rgb(path);
  w = image.width;
  h = image.height;
  return std::move(image.rgb);
}

class CliViewerTest : public CliTest {};

TEST_F(CliViewerTest, screenshot_matches_sortie_render_of_the_same_camera) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const std::string camera = "300,-150,400,90,-50";
  const fs::path shot = dir_ / "viewer.png", still = dir_ / "render.png";
  const auto v = run_viewer({sample_dir().string(), "-m", "m01", "--spectate", "--camera", camera, "--size", "320x240",
                             "--frames", "5", "--screenshot", shot.string()});
  ASSERT_EQ(v.exit_code, 0) << v.all();
  EXPECT_NE(v.out.find("5 frames in"), std::string::npos) << v.out;
  const auto r = run_sortie(
      {"render", sample_dir().string(), "-m", "m01", "--camera", camera, "--size", "320x240", "-o", still.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::uint32_t w1 = 0, h1 = 0, w2 = 0, h2 = 0;
  const auto a = rgb_of(shot, w1, h1);
  const auto b = rgb_of(still, w2, h2);
  ASSERT_EQ(w1, 320u);
  ASSERT_EQ(h1, 240u);
  ASSERT_EQ(w2, 320u);
  ASSERT_EQ(a.size(), b.size());
  // Not blank: many colours.
  std::set<std::uint32_t> colors;
  for (std::size_t i = 0; i + 2 < a.size(); i += 3) colors.insert(a[i] | a[i + 1] << 8 | a[i + 2] << 16);
  EXPECT_GT(colors.size(), 50u);
  // Same picture: at most 1 pixel in 500 differs by more than 2 per channel.
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.size(); i += 3) {
    int d = 0;
    for (std::size_t c = 0; c < 3; ++c) d = std::max(d, std::abs(int{a[i + c]} - int{b[i + c]}));
    differing += d > 2 ? 1 : 0;
  }
  EXPECT_LE(differing, a.size() / 3 / 500);
}

TEST_F(CliViewerTest, scripted_click_picks_the_object_under_the_cursor_and_keys_move_the_camera) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const render::CameraPose pose{{300.0f, -150.0f, 400.0f}, core::kPi / 2.0f, -50.0f * core::kPi / 180.0f};
  const auto cam = render::pose_camera(pose, 320.0f / 240.0f, core::Aabb::from_min_max({0, 0, 0}, {1, 1, 1}));
  const auto tma = iron3d::read_tma(file_bytes(sample_dir() / "MISSIONS/m01/data.tma"));
  ASSERT_TRUE(tma.has_value());
  // The first object inside the picture.
  int px = -1, py = -1;
  for (const auto& o : tma->objects) {
    const auto s = cam.project(o.position, {0, 0, 320, 240});
    if (s && s->x > 10 && s->y > 10 && s->x < 310 && s->y < 230) {
      px = static_cast<int>(s->x);
      py = static_cast<int>(s->y);
      break;
    }
  }
  ASSERT_GE(px, 0);
  const fs::path script = dir_ / "script.txt";
  const std::string text = "1 click " + std::to_string(px) + " " + std::to_string(py) +
                           "\n2 key_down w\n12 key_up w\n# look\n13 mouse_down 10 10 3\n14 mouse_move 30 0\n"
                           "15 mouse_up 10 10 3\n";
  put_bytes(script, core::ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  const fs::path moved = dir_ / "moved.png", still = dir_ / "still.png";
  const auto v =
      run_viewer({sample_dir().string(), "-m", "m01", "--spectate", "--camera", "300,-150,400,90,-50", "--size",
                  "320x240", "--frames", "20", "--script", script.string(), "--screenshot", moved.string()});
  ASSERT_EQ(v.exit_code, 0) << v.all();
  EXPECT_NE(v.out.find("pick: objects["), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("prototype: "), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("  id p"), std::string::npos) << v.out;
  const auto r = run_viewer({sample_dir().string(), "-m", "m01", "--spectate", "--camera", "300,-150,400,90,-50",
                             "--size", "320x240", "--frames", "20", "--screenshot", still.string()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(file_bytes(moved), file_bytes(still));  // W and the mouse look moved the camera

  put_bytes(script, core::ByteView(reinterpret_cast<const std::uint8_t*>("3 jump\n"), 7));
  const auto bad = run_viewer({sample_dir().string(), "--frames", "2", "--script", script.string()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("line 1"), std::string::npos) << bad.err;
}

// The game (issue #19): a drag box selects the player's units, a right click orders them, a
// quick save and a quick load after more input land on the same tick and state hash, and a
// unit piloted forward for two seconds moves.
TEST_F(CliViewerTest, scripted_game_selects_orders_saves_loads_and_pilots) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const fs::path script = dir_ / "game.txt", save = dir_ / "quick.save";
  const std::string text =
      "# select everything on screen, order to the picture's centre\n"
      "10 mouse_down 1 1 1\n11 mouse_move 300 200\n12 mouse_up 638 358 1\n"
      "14 mouse_down 320 150 3\n15 mouse_up 320 150 3\n"
      "40 key_down f5\n41 key_up f5\n"
      "# more input, then the quick load\n"
      "50 mouse_down 120 250 3\n51 mouse_up 120 250 3\n"
      "80 key_down f9\n81 key_up f9\n"
      "# pilot the first selected unit forward for two seconds (125 ticks at 1x)\n"
      "90 mouse_down 1 1 1\n91 mouse_move 300 200\n92 mouse_up 638 358 1\n"
      "95 key_down enter\n96 key_up enter\n100 key_down w\n225 key_up w\n230 key_down enter\n231 key_up enter\n";
  put_bytes(script, core::ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  const fs::path shot = dir_ / "game.png";
  const fs::path traces = dir_ / "traces";
  const auto v = run_viewer({sample_dir().string(), "-m", "m01", "--mute", "--size", "640x360", "--frames", "240",
                             "--script", script.string(), "--save-file", save.string(), "--screenshot", shot.string(),
                             "--trace", "input,camera,control,lifecycle", "--trace-dir", traces.string()});
  ASSERT_EQ(v.exit_code, 0) << v.all();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(v.out, m, std::regex("game: select ([0-9]+) units"))) << v.out;
  EXPECT_GE(std::stoi(m[1]), 1) << v.out;
  EXPECT_TRUE(std::regex_search(v.out, std::regex("game: order tick [0-9]+ [0-9]+ units go"))) << v.out;
  std::smatch saved, loaded;
  ASSERT_TRUE(std::regex_search(v.out, saved, std::regex("saved tick ([0-9]+) \\(state hash ([0-9a-f]{16})\\)")))
      << v.out;
  ASSERT_TRUE(std::regex_search(v.out, loaded, std::regex("loaded tick ([0-9]+) \\(state hash ([0-9a-f]{16})\\)")))
      << v.out;
  EXPECT_EQ(saved[1], loaded[1]);
  EXPECT_EQ(saved[2], loaded[2]);
  EXPECT_TRUE(fs::exists(save));
  std::smatch from, to;
  ASSERT_TRUE(std::regex_search(v.out, from, std::regex("piloting p[^ ]+ at (-?[0-9.]+),(-?[0-9.]+)"))) << v.out;
  ASSERT_TRUE(std::regex_search(v.out, to, std::regex("piloting p[^ ]+ ended at (-?[0-9.]+),(-?[0-9.]+)"))) << v.out;
  const double moved = std::hypot(std::stod(to[1]) - std::stod(from[1]), std::stod(to[2]) - std::stod(from[2]));
  EXPECT_GT(moved, 4.0) << v.out;
  EXPECT_NE(v.out.find("game: end at tick"), std::string::npos) << v.out;
  // The traces (docs/traces.md): the player's orders and drive (input), the camera's modes, the
  // orders starting (control), the viewer's start and end through the bootstrap (lifecycle).
  const std::string input = sortie::test::text_of(traces / "input.log");
  EXPECT_TRUE(std::regex_search(input, std::regex("tick [0-9]+: player go at tick [0-9]+: p1:c20:#[0-9]+.* to \\(")))
      << input;
  EXPECT_TRUE(std::regex_search(input, std::regex("tick [0-9]+: player drive at tick [0-9]+: p1:c20:#[0-9]+ speed ")))
      << input;
  const std::string camera = sortie::test::text_of(traces / "camera.log");
  EXPECT_TRUE(std::regex_search(camera, std::regex("^tick 0: mode game camera\n"))) << camera;
  EXPECT_TRUE(std::regex_search(camera, std::regex("tick [0-9]+: mode game camera -> piloting p1:c20:#[0-9]+\n")))
      << camera;
  EXPECT_TRUE(std::regex_search(camera, std::regex("tick [0-9]+: mode piloting p1:c20:#[0-9]+ -> game camera\n")))
      << camera;
  EXPECT_TRUE(std::regex_search(sortie::test::text_of(traces / "control.log"),
                                std::regex("tick [0-9]+: p1:c20:#[0-9]+ order start move.drive speed ")));
  const std::string lifecycle = sortie::test::text_of(traces / "lifecycle.log");
  for (const char* line : {"tick 0: start mode\n", "tick 0: start window\n", "tick 0: stage MAIN_LOOP\n",
                           ": stop window\n", ": stop mode\n", ": stage SHELL_DELETED\n"})
    EXPECT_NE(lifecycle.find(line), std::string::npos) << line << lifecycle;
  EXPECT_LT(lifecycle.find(": stop window\n"), lifecycle.find(": stop mode\n"));  // reverse order
  // A headless run refuses the viewer's save with a clear message.
  const auto r = run_sortie({"run", "--load", save.string(), "--ticks", "10"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.all().find("save.game"), std::string::npos) << r.all();
}

}  // namespace
}  // namespace sortie::cli_test

namespace sortie::cli_test {
namespace {

// The address a `sortie serve` child prints ("listening on 127.0.0.1:PORT"), waiting up to 20 s.
std::string listening_address(const sortie::test::Process& server) {
  for (int i = 0; i < 1000; ++i) {
    std::smatch m;
    const std::string out = sortie::test::text_of(server.out);
    if (std::regex_search(out, m, std::regex("listening on (127\\.0\\.0\\.1:[0-9]+)"))) return m[1];
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return {};
}

std::size_t pixels_differing(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 2 < a.size() && i + 2 < b.size(); i += 3)
    n += (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) ? 1 : 0;
  return n;
}

// A sounds library of our own writers: THEME.WAV (a 441 Hz square wave at +-6000, 1 s) and
// atm_rain1.wav (noise-like, 0.5 s), both 22,050 Hz mono PCM.
void write_sounds(const fs::path& path) {
  std::vector<std::int16_t> theme(22050), rain(11025);
  for (std::size_t i = 0; i < theme.size(); ++i) theme[i] = (i / 25) % 2 ? 6000 : -6000;
  for (std::size_t i = 0; i < rain.size(); ++i) rain[i] = static_cast<std::int16_t>((i * 7919 % 4001) - 2000);
  auto lib = iron3d::NresBuilder()
                 .add(0, "THEME.WAV", iron3d::write_wave(iron3d::make_pcm16_wave(22050, 1, theme)))
                 .add(0, "atm_rain1.wav", iron3d::write_wave(iron3d::make_pcm16_wave(22050, 1, rain)))
                 .build();
  ASSERT_TRUE(lib);
  put_bytes(path, *lib);
}

// Samples of what the disk driver wrote (signed 16-bit little-endian) at or above `level`.
std::size_t loud_samples(const core::Bytes& played, int level) {
  std::size_t loud = 0;
  for (std::size_t i = 0; i + 1 < played.size(); i += 2) {
    const auto sample = static_cast<std::int16_t>(played[i] | played[i + 1] << 8);
    loud += std::abs(static_cast<int>(sample)) >= level ? 1 : 0;
  }
  return loud;
}

class CliViewerWorldTest : public CliTest {};

TEST_F(CliViewerWorldTest, weather_draws_rain_over_the_mission_and_the_disk_driver_hears_the_theme) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const fs::path sounds = dir_ / "snd.lib", weather = dir_ / "storm.weather", raw = dir_ / "played.raw";
  write_sounds(sounds);
  write_text(weather, "sortie-weather 1\nmaterial rain rain_drop\nsample rain atm_rain1.wav\nkey 0 rain 1\n");
  ::setenv("SDL_DISKAUDIOFILE", raw.c_str(), 1);
  ::setenv("SDL_DISKAUDIODELAY", "0", 1);
  const std::vector<std::string> common = {sample_dir().string(),
                                           "-m",
                                           "m01",
                                           "--camera",
                                           "300,-150,400,90,-50",
                                           "--size",
                                           "320x240",
                                           "--frames",
                                           "20",
                                           "--sounds",
                                           sounds.string()};
  auto with = common, without = common;
  const fs::path wet = dir_ / "wet.png", dry = dir_ / "dry.png";
  with.insert(with.end(), {"--weather", weather.string(), "--theme", "THEME.WAV", "--audio-driver", "disk",
                           "--screenshot", wet.string()});
  without.insert(without.end(), {"--screenshot", dry.string()});
  const auto v = run_viewer(with);
  ASSERT_EQ(v.exit_code, 0) << v.all();
  EXPECT_EQ(v.err.find("warning"), std::string::npos) << v.err;  // the samples resolved, the device opened
  const auto d = run_viewer(without);
  ASSERT_EQ(d.exit_code, 0) << d.all();
  std::uint32_t w = 0, h = 0;
  const auto a = rgb_of(wet, w, h);
  const auto b = rgb_of(dry, w, h);
  ASSERT_EQ(a.size(), b.size());
  // 1,000 drops of which about a third are in the picture, streaks of a frame (1/60 s: one
  // unit, 26..1 pixels from depth 2 to 50 at this size): hundreds to a few thousand pixels.
  const std::size_t n = pixels_differing(a, b);
  EXPECT_GT(n, 300u);
  EXPECT_LT(n, 320u * 240u / 4);
  // What the disk driver wrote: the theme's square wave (+-6000 at full music gain) sounded.
  const core::Bytes played = file_bytes(raw);
  ASSERT_GT(played.size(), 4u * 1000);
  EXPECT_GT(loud_samples(played, 5000), 1000u);
  // --mute: the same run writes only silence.
  auto muted = with;
  muted.push_back("--mute");
  ASSERT_EQ(run_viewer(muted).exit_code, 0);
  const core::Bytes quiet = file_bytes(raw);
  ASSERT_GT(quiet.size(), 0u);
  EXPECT_TRUE(std::all_of(quiet.begin(), quiet.end(), [](std::uint8_t c) { return c == 0; }));
  ::unsetenv("SDL_DISKAUDIOFILE");
}

// Without --theme/--weather the viewer plays the mission's own: the sample's m02 has a mission.cfg
// (THEME.WAV in sounds.lib) and a sky.weather (rain under an overcast sky until 90 s).
TEST_F(CliViewerWorldTest, the_missions_own_music_and_sky_play_by_default) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const fs::path raw = dir_ / "played.raw", shot = dir_ / "m02.png";
  ::setenv("SDL_DISKAUDIOFILE", raw.c_str(), 1);
  ::setenv("SDL_DISKAUDIODELAY", "0", 1);
  const std::vector<std::string> common = {
      sample_dir().string(), "-m",   "m02",       "--size", "160x120", "--frames", "20",
      "--audio-driver",      "disk", "--spectate"};
  auto args = common;
  const fs::path traces = dir_ / "traces";
  args.insert(args.end(), {"--screenshot", shot.string(), "--trace", "sound,camera", "--trace-dir", traces.string()});
  const auto v = run_viewer(args);
  ASSERT_EQ(v.exit_code, 0) << v.all();
  EXPECT_EQ(v.err.find("warning"), std::string::npos) << v.err;  // every sample of the mission resolved
  // The mixer's sources in sound.log (the mission's theme on the music bus, its rain loop), the
  // spectator's camera in camera.log.
  const std::string sound = sortie::test::text_of(traces / "sound.log");
  EXPECT_TRUE(std::regex_search(sound, std::regex("tick [0-9]+: start source [0-9]+ loop '[a-z]+' .* bus music at ")))
      << sound;
  EXPECT_TRUE(std::regex_search(sound, std::regex("tick [0-9]+: start source [0-9]+ loop 'rain' "))) << sound;
  EXPECT_EQ(sortie::test::text_of(traces / "camera.log"), "tick 0: mode spectator flight\n");
  const core::Bytes played = file_bytes(raw);
  ASSERT_GT(played.size(), 4u * 1000);
  EXPECT_GT(loud_samples(played, 1000), 1000u);
  // The sky comes from the overcast sky's base colour (0.72, 0.74, 0.78) * 255, rounded: the
  // top-left pixel lies between it (the horizon) and its deeper shade (the zenith).
  std::uint32_t w = 0, h = 0;
  const auto rgb = rgb_of(shot, w, h);
  ASSERT_GE(rgb.size(), 3u);
  const render::Rgba8 horizon{184, 189, 199, 255};
  const render::Rgba8 zenith = render::atmosphere_under_sky({}, horizon).zenith;
  EXPECT_TRUE(rgb[0] >= zenith.r && rgb[0] <= horizon.r) << int{rgb[0]};
  EXPECT_TRUE(rgb[1] >= zenith.g && rgb[1] <= horizon.g) << int{rgb[1]};
  EXPECT_TRUE(rgb[2] >= zenith.b && rgb[2] <= horizon.b) << int{rgb[2]};
  EXPECT_NE((std::vector<int>{rgb[0], rgb[1], rgb[2]}), (std::vector<int>{186, 204, 216}));  // not a clear day
  // --no-music and --weather none: nothing to play or draw, no device, no file written.
  fs::remove(raw);
  auto quiet = common;
  quiet.insert(quiet.end(), {"--no-music", "--weather", "none"});
  ASSERT_EQ(run_viewer(quiet).exit_code, 0);
  EXPECT_FALSE(fs::exists(raw));
  // --no-music alone: the rain loop still sounds.
  auto rain = common;
  rain.push_back("--no-music");
  ASSERT_EQ(run_viewer(rain).exit_code, 0);
  EXPECT_TRUE(fs::exists(raw));
  ::unsetenv("SDL_DISKAUDIOFILE");
}

TEST_F(CliViewerWorldTest, a_broken_weather_file_is_exit_1_and_no_device_is_one_warning) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const fs::path weather = dir_ / "bad.weather";
  write_text(weather, "sortie-weather 1\nkey 0 rain 2\n");
  const auto bad = run_viewer({sample_dir().string(), "--frames", "2", "--weather", weather.string()});
  EXPECT_EQ(bad.exit_code, 1) << bad.all();
  EXPECT_NE(bad.err.find("weather."), std::string::npos) << bad.err;
  write_text(weather, "sortie-weather 1\nmaterial snow flake\nsample snow nope.wav\nkey 0 snow 1\n");
  const auto nodev = run_viewer({sample_dir().string(), "--size", "160x120", "--frames", "3", "--weather",
                                 weather.string(), "--audio-driver", "no-such-driver"});
  EXPECT_EQ(nodev.exit_code, 0) << nodev.all();
  EXPECT_NE(nodev.err.find("no-such-driver"), std::string::npos) << nodev.err;  // the device warning
  EXPECT_NE(nodev.err.find("nope.wav"), std::string::npos) << nodev.err;        // the sample, once
  const auto first = nodev.err.find("sound.entry_missing");  // sounds.lib is in the sample: the entry is not
  EXPECT_NE(first, std::string::npos) << nodev.err;
  EXPECT_EQ(first, nodev.err.rfind("sound.entry_missing")) << nodev.err;
}

TEST_F(CliViewerWorldTest, join_shows_the_served_mission_and_ends_on_the_servers_hash) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  // The server waits for the viewer: on a loaded machine the viewer's start can take longer than
  // the 120 ticks (a late join is JoinSession.a_world_trace_given_before_the_welcome_sees_...).
  const auto server = sortie::test::spawn_logged(
      {SORTIE_BIN, "serve", sample_dir().string(), "--port", "0", "--ticks", "120", "--wait-players", "1"},
      dir_ / "server.out");
  ASSERT_GT(server.pid, 0);
  const std::string address = listening_address(server);
  ASSERT_FALSE(address.empty()) << sortie::test::text_of(server.out);
  const fs::path shot = dir_ / "join.png";
  const fs::path traces = dir_ / "join-traces";
  const auto v =
      run_viewer({"join", address, "--name", "viewer", sample_dir().string(), "--ticks", "120", "--size", "320x240",
                  "--frames", "30", "--screenshot", shot.string(), "--trace", "queue", "--trace-dir", traces.string()});
  EXPECT_EQ(v.exit_code, 0) << v.all();
  ASSERT_EQ(sortie::test::wait_for(server, std::chrono::seconds(60)), 0) << sortie::test::text_of(server.out);
  std::smatch mv, ms;
  const std::string server_out = sortie::test::text_of(server.out);
  ASSERT_TRUE(std::regex_search(v.out, mv, std::regex("final state hash: ([0-9a-f]{16})"))) << v.all();
  ASSERT_TRUE(std::regex_search(server_out, ms, std::regex("final state hash: ([0-9a-f]{16})"))) << server_out;
  EXPECT_EQ(mv[1].str(), ms[1].str());
  // The server plays the sample's scenario; the viewer prints the replicated objectives (no
  // outcome in 120 ticks: the depot is reached at tick 299).
  EXPECT_NE(v.out.find("scenario objectives:\n  [active] reach: Bring a Player unit to the depot\n"), std::string::npos)
      << v.out;
  EXPECT_NE(v.out.find("scenario result: undecided\n"), std::string::npos) << v.out;
  // The mirrored world carries the bootstrap's trace: its queue channel, every line tick-stamped.
  const auto queue_bytes = core::read_file(traces / "queue.log");
  ASSERT_TRUE(queue_bytes.has_value()) << queue_bytes.error().to_string();
  const std::string queue(queue_bytes->begin(), queue_bytes->end());
  EXPECT_NE(queue.find("commands "), std::string::npos) << queue;
  EXPECT_EQ(queue.rfind("tick ", 0), 0u) << queue;
  std::uint32_t w = 0, h = 0;
  const auto rgb = rgb_of(shot, w, h);
  ASSERT_EQ(w, 320u);
  std::set<std::uint32_t> colors;
  for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) colors.insert(rgb[i] | rgb[i + 1] << 8 | rgb[i + 2] << 16);
  EXPECT_GT(colors.size(), 50u);  // the mission, not the waiting screen
}

// Issue #19 part 7: a joined player plays. The viewer claims the Player clan's units, a scripted
// drag selects them and a right click orders them; the server's world (its final hash, equal to
// the viewer's, and its message log replayed) has the unit where it was sent.
TEST_F(CliViewerWorldTest, join_plays_drag_select_and_right_click_move_the_players_unit_on_the_server) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const fs::path log = dir_ / "served.snlg";
  // Nothing else moves: no scenario, no host bot; the session waits for the player.
  const auto server =
      sortie::test::spawn_logged({SORTIE_BIN, "serve", sample_dir().string(), "--port", "0", "--ticks", "600",
                                  "--no-scenario", "--no-bot", "--wait-players", "1", "--log", log.string()},
                                 dir_ / "server.out");
  ASSERT_GT(server.pid, 0);
  const std::string address = listening_address(server);
  ASSERT_FALSE(address.empty()) << sortie::test::text_of(server.out);
  // Frames count from when the units are the player's (the camera is then over the first one).
  const fs::path script = dir_ / "join.txt", shot = dir_ / "join_play.png";
  write_text(script,
             "5 mouse_down 1 1 1\n6 mouse_move 300 200\n7 mouse_up 638 358 1\n"
             "10 mouse_down 420 200 3\n11 mouse_up 420 200 3\n");
  const auto v = run_viewer({"join", address, "--name", "alice", sample_dir().string(), "--ticks", "600", "--size",
                             "640x360", "--frames", "40", "--script", script.string(), "--screenshot", shot.string(),
                             "--timeout-ms", "60000"});
  ASSERT_EQ(v.exit_code, 0) << v.all();
  ASSERT_EQ(sortie::test::wait_for(server, std::chrono::seconds(60)), 0) << sortie::test::text_of(server.out);
  EXPECT_NE(v.out.find("game: joined as player 2, clan Player\n"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("game: 3 units of clan Player to command\n"), std::string::npos) << v.out;
  std::smatch sel, order;
  // The drag box covers the picture: every Player unit in view (all three stand in the base's
  // yard, generator 10) is selected and sent as a group.
  ASSERT_TRUE(std::regex_search(v.out, sel, std::regex("game: select 3 units (p1:c20:#[0-9]+)[ p1:c20:#0-9]*\n")))
      << v.out;
  const std::string unit = sel[1];
  ASSERT_TRUE(
      std::regex_search(v.out, order, std::regex("game: order tick [0-9]+ 3 units go (-?[0-9.]+),(-?[0-9.]+)\n")))
      << v.out;
  std::smatch from, to;
  ASSERT_TRUE(std::regex_search(v.out, from, std::regex("game: unit " + unit + " from (-?[0-9.]+),(-?[0-9.]+)\n")))
      << v.out;
  ASSERT_TRUE(std::regex_search(v.out, to, std::regex("game: unit " + unit + " at (-?[0-9.]+),(-?[0-9.]+)\n")))
      << v.out;
  const auto distance = [](const std::smatch& a, const std::smatch& b) {
    return std::hypot(std::stod(a[1]) - std::stod(b[1]), std::stod(a[2]) - std::stod(b[2]));
  };
  EXPECT_GT(distance(from, to), 5.0) << v.out;   // it moved
  EXPECT_LT(distance(order, to), 6.0) << v.out;  // to where it was sent, in the group's formation
  // The server's world is the viewer's replica: the same final hash, and its log replays to it.
  std::smatch mv, ms;
  const std::string server_out = sortie::test::text_of(server.out);
  ASSERT_TRUE(std::regex_search(v.out, mv, std::regex("final state hash: ([0-9a-f]{16})"))) << v.all();
  ASSERT_TRUE(std::regex_search(server_out, ms, std::regex("final state hash: ([0-9a-f]{16})"))) << server_out;
  EXPECT_EQ(mv[1].str(), ms[1].str());
  const auto replay = run_sortie({"replay", log.string()});
  ASSERT_EQ(replay.exit_code, 0) << replay.all();
  EXPECT_NE(replay.out.find("final state hash: " + ms[1].str()), std::string::npos) << replay.out;
  std::uint32_t w = 0, h = 0;
  const auto rgb = rgb_of(shot, w, h);
  ASSERT_EQ(w, 640u);
  // The minimap shows the player's own units in the own green (80,240,110): 3x3 pixels each.
  std::size_t own = 0;
  for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) own += rgb[i] == 80 && rgb[i + 1] == 240 && rgb[i + 2] == 110;
  EXPECT_GE(own, 9u);
}

// Issue #19 part 7: a session served from another game was drawn on the local sample's ground,
// exit 0. The viewer now refuses a local copy that is not the served mission.
TEST_F(CliViewerWorldTest, join_refuses_a_local_game_that_is_not_the_served_one) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const fs::path other = dir_ / "seed2";
  ASSERT_EQ(run_sortie({"sample", other.string(), "--seed", "2"}).exit_code, 0);
  // The session waits for the viewer: a slow machine cannot miss it.
  const auto server = sortie::test::spawn_logged(
      {SORTIE_BIN, "serve", other.string(), "--port", "0", "--ticks", "60", "--wait-players", "1"},
      dir_ / "server.out");
  ASSERT_GT(server.pid, 0);
  const std::string address = listening_address(server);
  ASSERT_FALSE(address.empty()) << sortie::test::text_of(server.out);
  // Frames to spare: the viewer stops at the refusal, however long the setup takes to arrive.
  const auto v = run_viewer({"join", address, "--name", "viewer", sample_dir().string(), "--ticks", "60", "--size",
                             "160x120", "--frames", "3000", "--timeout-ms", "60000"});
  EXPECT_NE(v.exit_code, 0) << v.all();
  EXPECT_NE(v.err.find("[net.join.mission_mismatch]"), std::string::npos) << v.all();
  EXPECT_EQ(v.out.find("final state hash"), std::string::npos) << v.all();
  sortie::test::wait_for(server, std::chrono::seconds(60));
}

TEST_F(CliViewerWorldTest, join_without_a_server_is_an_io_error) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const auto v = run_viewer({"join", "127.0.0.1:9", "--name", "x", "--timeout-ms", "300", "--frames", "1000"});
  EXPECT_EQ(v.exit_code, 2) << v.all();
  // One line, the code once (Diagnostic::to_string() ends with it).
  EXPECT_NE(v.err.find("sortie-viewer: no answer from the server (expected a session within 300 ms, found "
                       "127.0.0.1:9) [join.timeout]\n"),
            std::string::npos)
      << v.err;
  EXPECT_EQ(v.err.find("[join.timeout]"), v.err.rfind("[join.timeout]")) << v.err;
}

}  // namespace
}  // namespace sortie::cli_test
