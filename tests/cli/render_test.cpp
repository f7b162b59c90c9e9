// `sortie render` and `sortie run --out` end to end: image size, non-blank pictures, objects
// where data.tma places them (projected with the same camera), --orbit, missing assets (exit 1,
// --allow-missing) and numeric option validation.
#include <gtest/gtest.h>

#include <set>

#include "cli_harness.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/render/draw.hpp"
#include "sortie/render/scene_camera.hpp"

namespace sortie::cli_test {
namespace {

struct Png : RgbImage {
  [[nodiscard]] std::array<std::uint8_t, 3> at(std::uint32_t x, std::uint32_t y) const {
    const std::size_t i = (std::size_t{y} * width + x) * 3;
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
  [[nodiscard]] std::size_t distinct_colors() const {
    std::set<std::uint32_t> s;
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) s.insert(rgb[i] | rgb[i + 1] << 8 | rgb[i + 2] << 16);
    return s.size();
  }
};

Png read_png(const fs::path& path) {
  Png out{read_png_rgb(path)};
  EXPECT_FALSE(out.rgb.empty()) << path << ": not a PNG";
  return out;
}

class CliRenderTest : public CliTest {};

TEST_F(CliRenderTest, writes_a_png_of_the_requested_size_and_reports_it) {
  const fs::path out = dir_ / "m.png";
  const auto r = run_sortie({"render", sample_dir().string(), "-m", "m01", "-o", out.string(), "--size", "320x200",
                             "--json", "--threads", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("width"), 320);
  EXPECT_EQ(j.at("height"), 200);
  EXPECT_EQ(j.at("objects"), 16);
  EXPECT_EQ(j.at("placeholders"), 0);
  EXPECT_EQ(j.at("terrain_triangles"), 2048);
  EXPECT_GT(j.at("object_triangles").get<int>(), 0);
  EXPECT_GT(j.at("textures").get<int>(), 0);
  EXPECT_EQ(j.at("threads"), 2);
  const Png png = read_png(out);
  EXPECT_EQ(png.width, 320u);
  EXPECT_EQ(png.height, 200u);
  EXPECT_GT(png.distinct_colors(), 50u);  // terrain textures, lit objects: not blank
  const auto text = run_sortie({"render", sample_dir().string(), "-o", (dir_ / "t.png").string(), "--size", "64x48"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("16 objects (0 placeholders)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("wrote " + (dir_ / "t.png").string()), std::string::npos) << text.out;
}

TEST_F(CliRenderTest, objects_appear_where_the_mission_places_them) {
  // One explicit camera for both renders and for the projection of the placed positions.
  const std::string pose_text = "300,-150,400,90,-50";
  const render::CameraPose pose{{300.0f, -150.0f, 400.0f}, core::kPi / 2.0f, -50.0f * core::kPi / 180.0f};
  constexpr std::uint32_t kW = 480, kH = 360;
  const fs::path with = dir_ / "with.png", without = dir_ / "without.png";
  ASSERT_EQ(run_sortie({"render", sample_dir().string(), "-m", "m01", "-o", with.string(), "--size", "480x360",
                        "--camera", pose_text})
                .exit_code,
            0);
  ASSERT_EQ(run_sortie({"render", sample_dir().string(), "-m", "m01", "-o", without.string(), "--size", "480x360",
                        "--camera", pose_text, "--no-objects"})
                .exit_code,
            0);
  const Png a = read_png(with), b = read_png(without);
  const auto tma = iron3d::read_tma(file_bytes(sample_dir() / "MISSIONS/m01/data.tma"));
  ASSERT_TRUE(tma.has_value());
  // x/y of a perspective projection do not depend on near/far: any bounds give the same pixels.
  const auto camera = render::pose_camera(pose, float{kW} / float{kH}, core::Aabb::from_min_max({0, 0, 0}, {1, 1, 1}));
  // A model stands on its placed point but need not cover it (a walker's legs straddle it):
  // the pictures must differ within 3 pixels of the projection.
  std::size_t inside = 0, differ = 0;
  for (const auto& o : tma->objects) {
    const auto s = camera.project(o.position, {0, 0, int{kW}, int{kH}});
    if (!s || s->x < 0 || s->y < 0 || s->x >= kW || s->y >= kH) continue;
    ++inside;
    bool changed = false;
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) {
        const int x = static_cast<int>(s->x) + dx, y = static_cast<int>(s->y) + dy;
        if (x < 0 || y < 0 || x >= int{kW} || y >= int{kH}) continue;
        changed |= a.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)) !=
                   b.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
      }
    differ += changed ? 1 : 0;
  }
  EXPECT_GE(inside, 12u);
  EXPECT_EQ(differ, inside);
}

TEST_F(CliRenderTest, orbit_writes_numbered_frames_that_differ) {
  const auto r = run_sortie(
      {"render", sample_dir().string(), "-o", (dir_ / "turn.png").string(), "--orbit", "3", "--size", "96x64"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<core::Bytes> frames;
  for (const char* name : {"turn_000.png", "turn_001.png", "turn_002.png"}) {
    ASSERT_TRUE(fs::exists(dir_ / name)) << name;
    frames.push_back(file_bytes(dir_ / name));
  }
  EXPECT_FALSE(fs::exists(dir_ / "turn.png"));
  EXPECT_NE(frames[0], frames[1]);
  EXPECT_NE(frames[1], frames[2]);
}

TEST_F(CliRenderTest, missing_texture_is_exit_1_unless_allowed) {
  const auto g = run_sortie({"mission", "graph", sample_dir().string(), "-m", "m01", "--json"});
  ASSERT_EQ(g.exit_code, 0);
  std::string texture;
  const core::Json graph = g.json();
  for (const auto& e : graph.at("edges"))
    if (e.at("kind") == "material_to_texture" && e.contains("placed_index")) {
      texture = e.at("entry").get<std::string>();
      break;
    }
  ASSERT_FALSE(texture.empty());
  const fs::path game = copy_sample();
  ASSERT_EQ(run_sortie({"archive", "remove", (game / "textures.lib").string(), texture}).exit_code, 0);
  const fs::path out = dir_ / "broken.png";
  const auto r = run_sortie({"render", game.string(), "-m", "m01", "-o", out.string(), "--size", "64x48"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("texture '" + texture + "' not found"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("objects["), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));

  const auto a = run_sortie(
      {"render", game.string(), "-m", "m01", "-o", out.string(), "--size", "320x240", "--allow-missing", "--json"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const auto j = a.json();
  ASSERT_GT(j.at("missing").size(), 0u);
  EXPECT_EQ(j.at("placeholders"), j.at("missing").size());
  EXPECT_EQ(j.at("objects").get<std::size_t>() + j.at("placeholders").get<std::size_t>(), 16u);
  for (const auto& m : j.at("missing"))
    EXPECT_NE(m.at("reason").get<std::string>().find(texture), std::string::npos) << m.dump();
  EXPECT_TRUE(fs::exists(out));
  const auto t =
      run_sortie({"render", game.string(), "-m", "m01", "-o", out.string(), "--size", "64x48", "--allow-missing"});
  EXPECT_NE(t.out.find("drawn as a checker"), std::string::npos) << t.out;
}

TEST_F(CliRenderTest, bad_numbers_are_usage_errors_naming_the_option) {
  const std::string out = (dir_ / "x.png").string();
  struct Case {
    std::vector<std::string> args;
    std::string option;
  };
  const std::vector<Case> cases = {
      {{"--size", "0x10"}, "--size"},
      {{"--size", "12"}, "--size"},
      {{"--size", "9000x10"}, "--size"},
      {{"--camera", "1,2,3"}, "--camera"},
      {{"--camera", "1,2,3,4,100"}, "--camera"},
      {{"--orbit", "0"}, "--orbit"},
      {{"--orbit", "-2"}, "--orbit"},
      {{"--threads", "-1"}, "--threads"},
      {{"--overlay", "trees"}, "--overlay"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"render", sample_dir().string(), "-o", out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_sortie(args);
    EXPECT_EQ(r.exit_code, 2) << c.args[1];
    EXPECT_NE(r.err.find(c.option), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_sortie({"render", sample_dir().string(), "-o", out, "--top", "--orbit", "2"}).exit_code, 2);
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(CliRenderTest, run_out_writes_a_snapshot_and_keeps_the_hash) {
  const auto plain = run_sortie({"run", sample_dir().string(), "--json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const auto r = run_sortie({"run", sample_dir().string(), "--json", "--out", (dir_ / "run").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.json().at("final_hash"), plain.json().at("final_hash"));  // rendering reads, never writes
  const Png png = read_png(dir_ / "run/snapshot.png");
  EXPECT_EQ(png.width, 1280u);
  EXPECT_EQ(png.height, 720u);
  EXPECT_GT(png.distinct_colors(), 50u);
}

TEST_F(CliRenderTest, weather_draws_rain_from_its_key_on_and_is_deterministic) {
  const fs::path weather = dir_ / "later.weather";
  const std::string text = "sortie-weather 1\nmaterial rain drop\nsample rain r.wav\nkey 0 none 0\nkey 10 rain 1\n";
  put_bytes(weather, core::ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  const std::vector<std::string> base = {"render",   sample_dir().string(), "-m",     "m01",
                                         "--camera", "300,-150,400,90,-50", "--size", "320x240"};
  auto run = [&](const std::string& name, std::vector<std::string> extra) {
    auto args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"-o", (dir_ / name).string()});
    const auto r = run_sortie(args);
    EXPECT_EQ(r.exit_code, 0) << r.all();
    return read_png(dir_ / name);
  };
  const Png dry = run("dry.png", {});
  const Png before = run("before.png", {"--weather", weather.string(), "--at", "5"});
  const Png wet = run("wet.png", {"--weather", weather.string(), "--at", "12"});
  const Png again = run("again.png", {"--weather", weather.string(), "--at", "12"});
  EXPECT_EQ(before.rgb, dry.rgb);  // clear until the rain key
  EXPECT_EQ(again.rgb, wet.rgb);   // same seed, same drops
  std::size_t differing = 0;
  for (std::size_t i = 0; i + 2 < wet.rgb.size(); i += 3)
    differing += (wet.rgb[i] != dry.rgb[i] || wet.rgb[i + 1] != dry.rgb[i + 1] || wet.rgb[i + 2] != dry.rgb[i + 2]);
  // 1,000 drops, a third of them in the picture, one-frame streaks of 1..26 pixels.
  EXPECT_GT(differing, 300u);
  EXPECT_LT(differing, 320u * 240u / 4);
  const auto top = run_sortie(
      {"render", sample_dir().string(), "--top", "--weather", weather.string(), "-o", (dir_ / "top.png").string()});
  EXPECT_EQ(top.exit_code, 2) << top.all();
}

TEST_F(CliRenderTest, weather_with_a_sky_object_clears_to_its_colour) {
  const fs::path weather = dir_ / "sky.weather";
  // 0.2 * 255 + 0.5 = 51.5 -> 51; 0.4 -> 102.5 -> 102; 0.8 -> 204.5 -> 204; night 0.02 -> 5.6 -> 5.
  const std::string text = "sortie-weather 1\nsky dusk 0.2 0.4 0.8 until 10\nsky night 0.02 0.02 0.02\n";
  put_bytes(weather, core::ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  auto corner = [&](const std::string& at) {
    const fs::path out = dir_ / ("sky_" + at + ".png");
    // Looking 80 degrees up from high above: the top row is all zenith.
    const auto r = run_sortie({"render", sample_dir().string(), "--size", "160x90", "--weather", weather.string(),
                               "--at", at, "--camera", "0,0,5000,0,80", "-o", out.string()});
    EXPECT_EQ(r.exit_code, 0) << r.all();
    return read_png(out).at(0, 0);
  };
  // The zenith is the deeper shade of the weather's sky (render::atmosphere_under_sky).
  const auto zenith = [](render::Rgba8 sky) {
    const render::Rgba8 z = render::atmosphere_under_sky({}, sky).zenith;
    return std::array<std::uint8_t, 3>{z.r, z.g, z.b};
  };
  EXPECT_EQ(corner("5"), zenith({51, 102, 204, 255}));
  EXPECT_EQ(corner("12"), zenith({5, 5, 5, 255}));
  EXPECT_EQ(zenith({51, 102, 204, 255}), (std::array<std::uint8_t, 3>{32, 77, 188}));
}

}  // namespace
}  // namespace sortie::cli_test
