// render_mission (`sortie render`, `sortie run --out` snapshot.png, the viewer's scene and weather):
// one call from a game directory to PNG files, the same picture for a mission loaded already.
#include "sortie/render/mission_render.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "render_fixtures.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/env/effect_world.hpp"
#include "sortie/render/scene_camera.hpp"
#include "sortie/scenario/super_ai.hpp"
#include "sortie/world/world.hpp"

namespace sortie::render::test {
namespace {

namespace fs = std::filesystem;

class MissionRenderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / ("sortie-mission-render-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    auto written = assets::write_sample({}, root_ / "game");
    ASSERT_TRUE(written.has_value()) << written.error().to_string();
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }
  static MissionRenderRequest request(const std::string& out) {
    MissionRenderRequest rq;
    rq.source.dir = root_ / "game";
    rq.out = root_ / out;
    rq.size = {160, 90};
    rq.threads = 1;
    return rq;
  }
  static inline fs::path root_;
};

TEST_F(MissionRenderTest, draws_the_first_mission_into_a_png) {
  auto r = render_mission(request("m01.png"));
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  EXPECT_FALSE(r->failed_load);
  EXPECT_EQ(r->mission, "MISSIONS/m01/data.tma");
  EXPECT_EQ(r->game, root_ / "game");
  ASSERT_EQ(r->files.size(), 1u);
  EXPECT_EQ(r->files[0], root_ / "m01.png");
  EXPECT_GT(r->scene.objects, 0u);
  EXPECT_GT(r->scene.terrain_triangles, 0u);
  EXPECT_EQ(r->threads, 1u);
  auto png = core::read_file(r->files[0]);
  ASSERT_TRUE(png.has_value());
  auto image = decode_png(*png);
  ASSERT_TRUE(image.has_value()) << image.error().to_string();
  EXPECT_EQ(image->width, 160u);
  EXPECT_EQ(image->height, 90u);
  const auto j = r->to_json();
  EXPECT_EQ(j.at("ok"), true);
  EXPECT_EQ(j.at("mission"), "MISSIONS/m01/data.tma");
  EXPECT_EQ(j.at("objects"), r->scene.objects);
  EXPECT_EQ(j.at("files").size(), 1u);
  const auto text = r->to_text();
  EXPECT_EQ(text.rfind("rendered MISSIONS/m01/data.tma 160x90: ", 0), 0u) << text;
  EXPECT_NE(text.find("\nwrote " + (root_ / "m01.png").string() + "\n"), std::string::npos) << text;
}

TEST_F(MissionRenderTest, a_loaded_mission_draws_the_same_picture_as_a_fresh_load) {
  auto fresh = render_mission(request("fresh.png"));
  ASSERT_TRUE(fresh.has_value()) << fresh.error().to_string();
  auto game = mission::open_game({root_ / "game", assets::SampleScale::demo, {}});
  ASSERT_TRUE(game.has_value());
  ASSERT_TRUE(game->context.load(game->mission).value().ok);
  auto rq = request("loaded.png");
  rq.source.dir = root_ / "absent";  // not opened: the loaded mission is drawn
  rq.loaded = game->context.current();
  auto loaded = render_mission(rq);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().to_string();
  EXPECT_TRUE(loaded->game.empty());
  EXPECT_EQ(core::read_file(root_ / "loaded.png").value(), core::read_file(root_ / "fresh.png").value());
}

// player_group_pose (`sortie run --out` snapshot.png): a commander's view over the player's clan
// (scenario::player_clan), group_pose over that clan's objects toward the terrain's centre, not
// the default framing.
TEST_F(MissionRenderTest, player_group_pose_looks_over_the_player_clans_objects) {
  auto game = mission::open_game({root_ / "game", assets::SampleScale::demo, {}});
  ASSERT_TRUE(game.has_value());
  ASSERT_TRUE(game->context.load(game->mission).value().ok);
  const mission::LoadedMission* m = game->context.current();
  const std::string player = scenario::player_clan(m->data->tma);
  ASSERT_FALSE(player.empty());
  std::int64_t clan = -1;
  for (std::size_t c = 0; c < m->data->tma.clans.size(); ++c)
    if (m->data->tma.clans[c].name == player) clan = static_cast<std::int64_t>(c);
  ASSERT_GE(clan, 0);
  std::vector<core::Vec3> at;
  for (const world::Handle h : m->world->queue())
    if (const world::WorldObject* o = m->world->find(h); o != nullptr)
      if (const auto c = o->properties.get_int("clan"); c && *c == clan) at.push_back(o->transform.position);
  ASSERT_GT(at.size(), 1u);
  EXPECT_EQ(m->player_clan_positions(), at);  // every object of the clan is active at the start
  core::Aabb terrain;
  for (const auto& p : m->visuals->terrain().positions) terrain.expand(p);
  const auto expected = group_pose(at, terrain.center());
  ASSERT_TRUE(expected.has_value());
  const auto pose = player_group_pose(*m);
  ASSERT_TRUE(pose.has_value());
  EXPECT_EQ(*pose, *expected);

  // Drawn from there: not the default framing's picture.
  auto rq = request("player.png");
  rq.loaded = m;
  rq.camera = *pose;
  ASSERT_TRUE(render_mission(rq).has_value());
  auto framed = request("framed.png");
  framed.loaded = m;
  ASSERT_TRUE(render_mission(framed).has_value());
  EXPECT_NE(core::read_file(root_ / "player.png").value(), core::read_file(root_ / "framed.png").value());

  // A mission without a world has no player to look at.
  mission::LoadedMission bare;
  bare.data = m->data;
  bare.visuals = m->visuals;
  EXPECT_FALSE(player_group_pose(bare).has_value());
}

TEST(GroupPose, looks_down_over_the_groups_middle_toward_the_target) {
  EXPECT_FALSE(group_pose({}, {0, 0, 0}).has_value());
  const std::vector<core::Vec3> group{{10, 0, 0}, {30, 0, 0}, {20, 10, 0}, {20, -10, 0}};
  const auto pose = group_pose(group, {20, 100, 0});
  ASSERT_TRUE(pose.has_value());
  EXPECT_NEAR(pose->yaw, core::kPi / 2.0f, 1e-5f);  // toward +Y
  EXPECT_NEAR(pose->pitch, -0.8f, 1e-6f);
  // 60 + 1.5 x the spread (10) back along the view, from the middle (20, 0, 0).
  const core::Vec3 back = pose->eye - core::Vec3{20, 0, 0};
  EXPECT_NEAR(core::length(back), 75.0f, 1e-3f);
  EXPECT_GT(back.z, 0.0f);
  EXPECT_LT(back.y, 0.0f);
  EXPECT_NEAR(back.x, 0.0f, 1e-3f);
}

TEST_F(MissionRenderTest, orbit_writes_numbered_frames_and_top_ignores_weather) {
  auto rq = request("turn.png");
  rq.orbit = 3;
  auto r = render_mission(rq);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  ASSERT_EQ(r->files.size(), 3u);
  EXPECT_EQ(r->files[2], root_ / "turn_002.png");
  EXPECT_NE(core::read_file(r->files[0]).value(), core::read_file(r->files[1]).value());
  EXPECT_NE(r->to_text().find("3 frame(s) in "), std::string::npos);

  std::ofstream(root_ / "sky.weather") << "sortie-weather 1\nsky red 1 0 0\n";
  auto top = request("top.png");
  top.top = true;
  auto plain = render_mission(top);
  top.out = root_ / "top_weather.png";
  top.weather = root_ / "sky.weather";
  auto weather = render_mission(top);
  ASSERT_TRUE(plain.has_value() && weather.has_value());
  EXPECT_EQ(core::read_file(root_ / "top.png").value(), core::read_file(root_ / "top_weather.png").value());
}

TEST_F(MissionRenderTest, the_weather_sky_clears_a_perspective_view) {
  std::ofstream(root_ / "red.weather") << "sortie-weather 1\nsky red 1 0 0\n";
  auto rq = request("red.png");
  rq.camera = CameraPose{{0.0f, 0.0f, 5000.0f}, 0.0f, 1.4f};  // up into the empty sky
  rq.weather = root_ / "red.weather";
  auto r = render_mission(rq);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  auto image = decode_png(core::read_file(root_ / "red.png").value());
  ASSERT_TRUE(image.has_value());
  // Looking 80 degrees up, the top row is all zenith: the deeper shade of the weather's red.
  const Rgba8 zenith = atmosphere_under_sky({}, Rgba8{255, 0, 0, 255}).zenith;
  EXPECT_EQ(zenith, (Rgba8{158, 0, 0, 255}));
  const std::size_t at = 80 * 4;  // row 0, column 80
  EXPECT_EQ(image->rgba.at(at), zenith.r);
  EXPECT_EQ(image->rgba.at(at + 1), zenith.g);
  EXPECT_EQ(image->rgba.at(at + 2), zenith.b);
}

// The rain mission's own weather (`--weather mission`): at 24.56 s its first strike (24.517 s with
// seed 1, `sortie env run`) is the sample's lightning effect: one body, one light, another picture
// than 0.16 s before.
TEST_F(MissionRenderTest, a_strike_of_the_missions_weather_draws_its_lightning_effect) {
  auto rq = request("strike.png");
  rq.mission = "m02";
  rq.mission_weather = true;
  rq.size = {320, 180};
  rq.weather_at_seconds = 24.56;
  auto strike = render_mission(rq);
  ASSERT_TRUE(strike.has_value()) << strike.error().to_string();
  EXPECT_TRUE(strike->warnings.empty()) << strike->warnings.front().to_string();  // the mission's own FXID
  EXPECT_EQ(strike->effect_bodies, 1u);
  EXPECT_EQ(strike->effect_lights, 1u);
  EXPECT_NE(strike->to_text().find("effects: 1 bodies, 1 point lights in the last frame\n"), std::string::npos);
  rq.out = root_ / "calm.png";
  rq.weather_at_seconds = 24.40;
  auto calm = render_mission(rq);
  ASSERT_TRUE(calm.has_value());
  EXPECT_EQ(calm->effect_bodies, 0u);
  const auto a = decode_png(core::read_file(root_ / "strike.png").value());
  const auto b = decode_png(core::read_file(root_ / "calm.png").value());
  ASSERT_TRUE(a && b);
  std::size_t brighter = 0;  // the bolt, and the terrain in the flash
  for (std::size_t i = 0; i + 3 < a->rgba.size(); i += 4)
    brighter +=
        a->rgba[i] + a->rgba[i + 1] + a->rgba[i + 2] > b->rgba[i] + b->rgba[i + 1] + b->rgba[i + 2] + 30 ? 1 : 0;
  EXPECT_GT(brighter, 500u);
}

// A loaded mission's world effects (fx.start) are drawn at the world's time.
TEST_F(MissionRenderTest, a_loaded_missions_world_effects_are_drawn) {
  auto game = mission::open_game({root_ / "game", assets::SampleScale::demo, {}});
  ASSERT_TRUE(game.has_value());
  ASSERT_TRUE(game->context.load(game->mission).value().ok);
  mission::LoadedMission* lm = game->context.current();
  auto c = env::start_effect_command(*lm->effects, "beacon", {128, 128, 10});
  ASSERT_TRUE(c.has_value()) << c.error().to_string();
  ASSERT_TRUE(lm->world->submit(world::make_command(lm->world->clock().tick, *c)));
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(lm->world->tick());  // ~1 s into its 4 s pulse
  auto rq = request("beacon.png");
  rq.source.dir = root_ / "absent";
  rq.loaded = lm;
  auto r = render_mission(rq);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  EXPECT_EQ(r->effect_bodies, 1u);
  EXPECT_EQ(r->effect_lights, 1u);
}

TEST_F(MissionRenderTest, errors_name_what_failed) {
  auto rq = request("x.png");
  rq.source.dir = root_ / "absent";
  auto absent = render_mission(rq);
  ASSERT_FALSE(absent.has_value());
  EXPECT_EQ(absent.error().code, "io.not_found");
  rq = request("x.png");
  rq.mission = "m99";
  auto m99 = render_mission(rq);
  ASSERT_FALSE(m99.has_value());
  EXPECT_EQ(m99.error().code, "load.mission_missing");
  rq = request("x.png");
  rq.weather = root_ / "absent.weather";
  auto weather = render_mission(rq);
  ASSERT_FALSE(weather.has_value());
  EXPECT_EQ(weather.error().code.rfind("io.", 0), 0u) << weather.error().code;
  rq = request("no_such_dir/x.png");
  auto unwritten = render_mission(rq);
  ASSERT_FALSE(unwritten.has_value());
  EXPECT_EQ(unwritten.error().code.rfind("io.", 0), 0u) << unwritten.error().code;
}

TEST(DrawWeatherOver, adds_the_drawing_after_the_frame_and_keeps_a_frame_without_weather) {
  Frame frame;
  DrawCall scene_draw;
  std::vector<DrawCall> scene{scene_draw};
  frame.draws = scene;
  frame.clear_color = Rgba8{1, 2, 3, 255};
  WeatherDrawing none;
  FrameOverlay storage;
  draw_weather_over(frame, none, storage);
  EXPECT_EQ(frame.draws.size(), 1u);
  EXPECT_TRUE(frame.point_lights.empty());
  EXPECT_EQ(frame.clear_color, (Rgba8{1, 2, 3, 255}));

  auto rain = env::read_weather_text(core::as_bytes(std::string_view(
      "sortie-weather 1\nmaterial rain rain_drop\nsample rain atm_rain1.wav\nkey 0 rain 1\nsky grey 0.5 0.5 0.5\n")));
  ASSERT_TRUE(rain.has_value()) << rain.error().to_string();
  WeatherDrawing drawing;
  ASSERT_TRUE(weather_at(*rain, 1, 5000, CameraPose{{0.0f, 0.0f, 10.0f}, 0.0f, 0.0f}, 320, 180, drawing));
  ASSERT_FALSE(drawing.draws().empty());
  EXPECT_GT(drawing.rain_lines(), 0u);
  draw_weather_over(frame, drawing, storage);
  EXPECT_EQ(frame.draws.size(), 1u + drawing.draws().size());
  EXPECT_EQ(frame.draws.data(), storage.draws.data());
  EXPECT_EQ(frame.clear_color, (Rgba8{128, 128, 128, 255}));
}

}  // namespace
}  // namespace sortie::render::test
