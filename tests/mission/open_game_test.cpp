// mission::open_game (a game directory or the embedded sample, and its mission), the placed-index
// -> ObjectId map of a loaded mission, and mission::run_mission (`sortie run` as one call).
#include "sortie/mission/open_game.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/mission_reports.hpp"
#include "sortie/mission/mission_run.hpp"
#include "sortie/nav/iron3d_input.hpp"

using namespace sortie;
namespace fs = std::filesystem;

namespace {

class OpenGameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-open-game-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // The embedded sample as `sortie run` uses it, cached under this test's directory.
  mission::GameSource sample() const { return {{}, assets::SampleScale::demo, dir_ / "cache"}; }
  fs::path dir_;
};

TEST_F(OpenGameTest, opens_the_sample_once_and_names_its_first_mission) {
  auto first = mission::open_game(sample());
  ASSERT_TRUE(first.has_value()) << first.error().to_string();
  EXPECT_TRUE(first->sample);
  EXPECT_TRUE(first->generated);
  EXPECT_EQ(first->mission, "m01");
  EXPECT_EQ(first->dir.parent_path(), dir_ / "cache");
  auto again = mission::open_game(sample(), "m02");
  ASSERT_TRUE(again.has_value()) << again.error().to_string();
  EXPECT_FALSE(again->generated);  // cached now
  EXPECT_EQ(again->dir, first->dir);
  EXPECT_EQ(again->mission, "m02");
  auto missions = again->context.missions();
  ASSERT_TRUE(missions.has_value());
  EXPECT_EQ(missions->size(), 3u);

  // The same directory given as GAME_DIR: not the sample.
  auto dir = mission::open_game({first->dir, assets::SampleScale::demo, {}});
  ASSERT_TRUE(dir.has_value());
  EXPECT_FALSE(dir->sample);
  EXPECT_FALSE(dir->generated);
  EXPECT_EQ(dir->mission, "m01");
}

TEST_F(OpenGameTest, refuses_a_missing_directory_and_one_without_missions) {
  auto missing = mission::open_game({dir_ / "absent", assets::SampleScale::demo, {}});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, "io.not_found");
  fs::create_directories(dir_ / "empty");
  auto empty = mission::open_game({dir_ / "empty", assets::SampleScale::demo, {}});
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().code, "load.no_missions");
  // A named mission is not checked until it is loaded.
  auto named = mission::open_game({dir_ / "empty", assets::SampleScale::demo, {}}, "m07");
  ASSERT_TRUE(named.has_value());
  EXPECT_EQ(named->mission, "m07");
}

TEST(SampleScale, corpus_by_name_else_demo) {
  EXPECT_EQ(mission::sample_scale_from("corpus"), assets::SampleScale::corpus);
  EXPECT_EQ(mission::sample_scale_from("demo"), assets::SampleScale::demo);
  EXPECT_EQ(mission::sample_scale_from(""), assets::SampleScale::demo);
}

TEST_F(OpenGameTest, ids_by_placement_maps_each_placed_index_to_its_world_object) {
  auto game = mission::open_game(sample());
  ASSERT_TRUE(game.has_value());
  ASSERT_TRUE(game->context.load(game->mission).value().ok);
  const mission::LoadedMission& loaded = *game->context.current();
  const auto ids = loaded.ids_by_placement();
  ASSERT_EQ(ids.size(), loaded.objects.size());
  ASSERT_FALSE(ids.empty());
  for (const auto& o : loaded.objects) {
    EXPECT_EQ(ids.at(static_cast<std::size_t>(o.placed_index)).raw(), o.id.raw());
    EXPECT_EQ(o.id.index, static_cast<std::uint32_t>(o.placed_index) + 1);  // the loader's numbering
  }
  mission::LoadedMission sparse;
  sparse.objects.push_back({3, world::ObjectId{1, 7, 4}, {}, true, 1});
  const auto s = sparse.ids_by_placement();
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[3].index, 4u);
  EXPECT_EQ(s[0].raw(), 0u);  // no object placed there
}

TEST_F(OpenGameTest, run_mission_loads_runs_and_writes_the_report_and_command_log) {
  mission::MissionRunRequest rq;
  rq.source = sample();
  rq.ticks = 0;
  std::vector<std::string> phases;
  rq.on_load_phase = [&](std::string_view m, std::string_view phase) {
    EXPECT_EQ(m, "m01");
    phases.emplace_back(phase);
  };
  auto run = mission::run_mission(rq);
  ASSERT_TRUE(run.has_value()) << run.error().to_string();
  ASSERT_FALSE(run->failure) << run->failure->to_string();
  EXPECT_TRUE(run->load.ok);
  EXPECT_EQ(run->load.mission, "MISSIONS/m01/data.tma");  // the loader names the mission by its data.tma
  EXPECT_GE(phases.size(), 5u);
  EXPECT_EQ(core::hash_hex(run->result.final_hash), "6da67bd3bee6f2b6");  // `sortie run --ticks 0`
  EXPECT_EQ(run->report().at("final_hash"), "6da67bd3bee6f2b6");
  EXPECT_NE(run->to_text().find("final state hash: 6da67bd3bee6f2b6\n"), std::string::npos);

  rq.ticks = 120;
  rq.out_dir = dir_ / "out";
  std::uint64_t ticks_seen = 0;
  rq.on_tick = [&](std::uint64_t, std::uint64_t total) {
    ++ticks_seen;
    EXPECT_EQ(total, 120u);
  };
  auto written = mission::run_mission(rq);
  ASSERT_TRUE(written.has_value() && !written->failure);
  EXPECT_EQ(ticks_seen, 120u);
  auto report = core::read_text_file(rq.out_dir / "report.json");
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(*report, core::dump_json(written->report()));
  EXPECT_NE(written->to_text().find("report: " + (rq.out_dir / "report.json").string()), std::string::npos);

  // Its command log replays to the same hash.
  mission::MissionRunRequest replay;
  replay.source = sample();
  replay.ticks = 120;
  replay.replay = rq.out_dir / "commands.json";
  auto again = mission::run_mission(replay);
  ASSERT_TRUE(again.has_value() && !again->failure);
  EXPECT_EQ(again->result.final_hash, written->result.final_hash);
}

TEST_F(OpenGameTest, run_mission_says_where_it_stopped) {
  mission::MissionRunRequest rq;
  rq.source = {dir_ / "absent", assets::SampleScale::demo, {}};
  auto absent = mission::run_mission(rq);
  ASSERT_TRUE(absent.has_value());  // the directory is named; opening it failed
  EXPECT_EQ(absent->dir.path, dir_ / "absent");
  ASSERT_TRUE(absent->failure);
  EXPECT_EQ(absent->failed_at, mission::RunStage::open);
  EXPECT_EQ(absent->failure->code, "io.not_found");

  rq.source = sample();
  rq.mission = "m99";
  auto m99 = mission::run_mission(rq);
  ASSERT_TRUE(m99.has_value() && m99->failure);
  EXPECT_EQ(m99->failed_at, mission::RunStage::open);
  EXPECT_EQ(m99->failure->code, "load.mission_missing");

  rq.mission.clear();
  std::ofstream(dir_ / "log.json") << "not json";
  rq.replay = dir_ / "log.json";
  auto bad = mission::run_mission(rq);
  ASSERT_TRUE(bad.has_value() && bad->failure);
  EXPECT_EQ(bad->failed_at, mission::RunStage::run);
  EXPECT_EQ(bad->failure->code, "run.replay");
  rq.replay = dir_ / "absent.json";
  auto unread = mission::run_mission(rq);
  ASSERT_TRUE(unread.has_value() && unread->failure);
  EXPECT_EQ(unread->failed_at, mission::RunStage::run);
  EXPECT_EQ(unread->failure->code.rfind("io.", 0), 0u) << unread->failure->code;

  rq.replay.clear();
  rq.ticks = 0;
  std::ofstream(dir_ / "file") << "x";
  rq.out_dir = dir_ / "file" / "out";  // under a file: cannot be written
  auto unwritten = mission::run_mission(rq);
  ASSERT_TRUE(unwritten.has_value() && unwritten->failure);
  EXPECT_EQ(unwritten->failed_at, mission::RunStage::write);
}

// `sortie route` as one call: the route over the first mission's areal map, its JSON and text.
TEST_F(OpenGameTest, routes_over_the_missions_areal_map) {
  auto game = mission::open_game(sample());
  ASSERT_TRUE(game) << game.error().to_string();
  // Inside the island (its shore, 48 units wide, falls into the sea: no areals there).
  auto route = mission::route_in_mission(*game, {80, 90}, {170, 160});
  ASSERT_TRUE(route) << route.error().to_string();
  EXPECT_EQ(route->path.points.front(), (core::Vec2{80, 90}));
  EXPECT_EQ(route->path.points.back(), (core::Vec2{170, 160}));
  EXPECT_GE(route->path.length, std::hypot(90.0, 70.0) - 1e-3);
  const auto j = route->to_json();
  EXPECT_EQ(j.at("points").size(), route->path.points.size());
  EXPECT_EQ(j.at("areals").size(), route->path.areals.size());
  EXPECT_EQ(route->to_text().rfind("route on ", 0), 0u);
  auto off = mission::route_in_mission(*game, {-500, 30}, {20, 30});
  ASSERT_FALSE(off);
  EXPECT_EQ(off.error().code, "nav.path.off_map");
  EXPECT_EQ(off.error().file, route->mission);
}

// The sample's areals follow its places (generator version 10): triangles, none under the
// buildings, so a route from one side of a building to the other bends around it.
TEST_F(OpenGameTest, routes_detour_around_a_buildings_hole) {
  auto game = mission::open_game(sample());
  ASSERT_TRUE(game) << game.error().to_string();
  auto data = game->context.prepare(game->mission);
  ASSERT_TRUE(data) << data.error().to_string();
  std::size_t triangles = 0;
  for (const auto& a : data->land_map.areals) triangles += a.vertices.size() == 3 ? 1 : 0;
  EXPECT_EQ(triangles, data->land_map.areals.size());       // irregular triangles, not rectangles
  EXPECT_LT(data->land_map.areals.size(), 2u * 20u * 20u);  // the lattice with its holes left out
  double best_ratio = 0.0;
  std::size_t buildings = 0;
  for (const auto& o : data->tma.objects) {
    if (!o.resource_name.starts_with("bs_")) continue;
    ++buildings;
    const core::Vec2 at{o.position.x, o.position.y};
    auto inside = mission::route_in_mission(*game, at, at);
    ASSERT_FALSE(inside) << o.resource_name << " stands on walkable ground";
    EXPECT_EQ(inside.error().code, "nav.path.off_map");
    // Across the building in eight directions, 14 to 26 units out on each side.
    for (int k = 0; k < 8; ++k) {
      const float a = 0.785398f * static_cast<float>(k);
      for (float r = 14.0f; r <= 26.0f; r += 4.0f) {
        const core::Vec2 d{std::cos(a) * r, std::sin(a) * r};
        auto route = mission::route_in_mission(*game, at - d, at + d);
        if (!route) continue;  // an end in a hole or the sea
        best_ratio = std::max(best_ratio, route->path.length / (2.0 * static_cast<double>(r)));
      }
    }
  }
  ASSERT_GT(buildings, 0u);
  EXPECT_GT(best_ratio, 1.2);  // a clear detour, not a straight line
}

// Generator version 14: every mission's machines start on walkable ground (not on the shore or
// in a building's hole), apart from each other (formation slots 12 apart, nudged: at least 10.4),
// and the Player's machines clear of the base's buildings; no building or tower is walkable
// within 2.5 units of its centre, in the yard or out of it. Both scales, every mission.
TEST_F(OpenGameTest, units_start_apart_on_walkable_ground_clear_of_the_buildings) {
  for (const auto scale : {assets::SampleScale::demo, assets::SampleScale::corpus}) {
    const mission::GameSource source{{}, scale, dir_ / "cache"};
    const std::size_t missions = scale == assets::SampleScale::demo ? 3 : 8;
    for (std::size_t m = 1; m <= missions; ++m) {
      const std::string name = "m0" + std::to_string(m);
      auto game = mission::open_game(source, name);
      ASSERT_TRUE(game) << game.error().to_string();
      auto data = game->context.prepare(game->mission);
      ASSERT_TRUE(data) << data.error().to_string();
      // Walkable as a route's end is located (route_in_mission), on a map built once.
      auto map = nav::areal_map_from(data->land_map);
      ASSERT_TRUE(map) << map.error().to_string();
      const auto walkable = [&](core::Vec2 p) {
        return map->locate_areal(p, {.walkable_only = true, .z = std::nullopt}).has_value();
      };
      std::vector<std::pair<core::Vec2, std::uint32_t>> units;  // position, clan
      std::vector<core::Vec2> buildings;
      for (const auto& o : data->tma.objects) {
        const core::Vec2 at{o.position.x, o.position.y};
        if (o.resource_name.starts_with("UNITS")) units.emplace_back(at, o.identity_or_clan_raw);
        if (o.resource_name.starts_with("bs_")) buildings.push_back(at);
        if (!o.resource_name.starts_with("bs_") && !o.resource_name.starts_with("fr_")) continue;
        for (const core::Vec2 d :
             {core::Vec2{0, 0}, core::Vec2{2.5f, 0}, core::Vec2{-2.5f, 0}, core::Vec2{0, 2.5f}, core::Vec2{0, -2.5f}})
          EXPECT_FALSE(walkable(at + d)) << name << ": " << o.resource_name << " is walkable at " << (at + d).x << ", "
                                         << (at + d).y;
      }
      ASSERT_GT(units.size(), 2u) << name;
      float closest = 1e9f, closest_building = 1e9f;
      for (std::size_t i = 0; i < units.size(); ++i) {
        EXPECT_TRUE(walkable(units[i].first))
            << name << " unit " << i << " at " << units[i].first.x << ", " << units[i].first.y;
        for (std::size_t j = i + 1; j < units.size(); ++j)
          if (units[j].second == units[i].second)
            closest = std::min(closest, core::length(units[j].first - units[i].first));
        if (units[i].second == 1)
          for (const core::Vec2 b : buildings)
            closest_building = std::min(closest_building, core::length(b - units[i].first));
      }
      EXPECT_GE(closest, 10.4f) << name;
      EXPECT_GE(closest_building, 14.0f) << name;
    }
  }
}

TEST(RouteReport, a_map_point_is_two_finite_numbers) {
  auto p = mission::parse_map_point(" 1.5 , +2", "--from");
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(*p, (core::Vec2{1.5f, 2.0f}));
  for (const char* bad : {"", "1", "1,", ",2", "1;2", "nan,1", "1,inf", "1,2,3", "1e99,0"}) {
    auto r = mission::parse_map_point(bad, "--to");
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, "usage.point") << bad;
    EXPECT_EQ(r.error().field, "--to");
  }
}

}  // namespace
