// sortie-viewer under a virtual X server (xvfb-run): a scripted run's screenshot is not blank
// and matches `sortie render` of the same camera; a scripted click picks the object under the
// cursor. Skipped with a message when xvfb-run is not installed (`make deps` installs it).
#include <gtest/gtest.h>
#include <png.h>

#include <cstdlib>
#include <set>

#include "cli_harness.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/render/scene_camera.hpp"

namespace sortie::cli_test {
namespace {

bool have_xvfb() {
  return std::system("command -v xvfb-run >/dev/null 2>&1") == 0;
}

std::vector<std::uint8_t> rgb_of(const fs::path& path, std::uint32_t& w, std::uint32_t& h) {
  const core::Bytes bytes = file_bytes(path);
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  std::vector<std::uint8_t> out;
  if (png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()) == 0) return out;
  image.format = PNG_FORMAT_RGB;
  w = image.width;
  h = image.height;
  out.resize(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, out.data(), 0, nullptr) == 0) out.clear();
  return out;
}

RunResult run_viewer(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"-a", SORTIE_VIEWER_BIN};
  all.insert(all.end(), args.begin(), args.end());
  return run_program("xvfb-run", all);
}

class CliViewerTest : public CliTest {};

TEST_F(CliViewerTest, screenshot_matches_sortie_render_of_the_same_camera) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run not found (install xvfb and xauth: make deps)";
  const std::string camera = "300,-150,400,90,-50";
  const fs::path shot = dir_ / "viewer.png", still = dir_ / "render.png";
  const auto v = run_viewer({sample_dir().string(), "-m", "m01", "--camera", camera, "--size", "320x240", "--frames",
                             "5", "--screenshot", shot.string()});
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
  const auto v = run_viewer({sample_dir().string(), "-m", "m01", "--camera", "300,-150,400,90,-50", "--size", "320x240",
                             "--frames", "20", "--script", script.string(), "--screenshot", moved.string()});
  ASSERT_EQ(v.exit_code, 0) << v.all();
  EXPECT_NE(v.out.find("pick: objects["), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("prototype: "), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("  id p"), std::string::npos) << v.out;
  const auto r = run_viewer({sample_dir().string(), "-m", "m01", "--camera", "300,-150,400,90,-50", "--size", "320x240",
                             "--frames", "20", "--screenshot", still.string()});
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(file_bytes(moved), file_bytes(still));  // W and the mouse look moved the camera

  put_bytes(script, core::ByteView(reinterpret_cast<const std::uint8_t*>("3 jump\n"), 7));
  const auto bad = run_viewer({sample_dir().string(), "--frames", "2", "--script", script.string()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("line 1"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace sortie::cli_test
