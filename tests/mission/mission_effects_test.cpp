// The effects a mission needs as edges of its dependency graph (seed 000 step 7; docs/effects.md):
// the weather's lightning effect (mission_to_weather, weather_to_effect), the literals of its Lua
// script (lua_script_to_effect), their bodies' materials (effect_to_material). A missing or bad
// FXID is a failed edge with its explanation; --compatible keeps going with a warning.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "sortie/assets/prepared_effect.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie_test/demo_game.hpp"

using namespace sortie;

namespace mission_effects_test {

test::Files with_effects(const std::vector<std::pair<std::string, core::Bytes>>& entries) {
  test::Files files = test::demo_files();
  iron3d::NresBuilder b;
  for (const auto& [name, bytes] : entries) b.add(iron3d::kFxidTypeId, name, bytes, 0, 0, 1);
  auto built = b.build();
  EXPECT_TRUE(built.has_value());
  files["effects.rlb"] = std::move(*built);
  return files;
}

core::Bytes lightning_bytes() {
  return iron3d::write_fxid(assets::lightning_fxid("sounds.lib", "THUNDER1.WAV", "env_lightning"));
}
core::Bytes beacon_bytes() {
  // The sample's own beacon entry, as generated.
  const auto& lib = test::demo_files().at("effects.rlb");
  auto archive = iron3d::read_nres(core::ByteView(lib));
  EXPECT_TRUE(archive.has_value());
  for (std::size_t i = 0; i < archive->size(); ++i)
    if (archive->entries[i].name.text() == "beacon") {
      const core::ByteView p = archive->payload(i);
      return core::Bytes(p.begin(), p.end());
    }
  return {};
}

mission::GameContext compatible_game(const test::Files& files) {
  auto vfs = std::make_unique<assets::MemoryVfs>();
  for (const auto& [path, bytes] : files) EXPECT_TRUE(vfs->add(path, bytes));
  mission::GameContextOptions o;
  o.profile = core::Profile::compatible;
  return mission::GameContext::over(std::move(vfs), o);
}

std::size_t edges_of(const assets::DependencyGraph& g, assets::EdgeKind kind, bool failed = false) {
  std::size_t n = 0;
  for (const auto& e : g.edges()) n += e.kind == kind && e.failure.has_value() == failed ? 1 : 0;
  return n;
}

TEST(MissionEffects, the_sample_rain_mission_resolves_its_lightning_and_script_effects) {
  auto game = test::game_over(test::demo_files());
  auto graph = game.prepare("m02");
  ASSERT_TRUE(graph.has_value());
  const auto& g = graph->graph;
  EXPECT_TRUE(g.ok());
  EXPECT_EQ(edges_of(g, assets::EdgeKind::mission_to_weather), 1u);
  EXPECT_EQ(edges_of(g, assets::EdgeKind::weather_to_effect), 1u);
  EXPECT_EQ(edges_of(g, assets::EdgeKind::lua_script_to_effect), 1u);  // effect("beacon", ...) of mission.lua
  EXPECT_EQ(edges_of(g, assets::EdgeKind::effect_to_material), 2u);    // env_lightning, env_beacon
  EXPECT_EQ(g.stats.effect_requests, 2u);
  EXPECT_EQ(graph->effects.size(), 2u);
  const auto json = g.to_json();
  bool named = false;
  for (const auto& e : json.at("edges"))
    named = named || (e.at("kind") == "weather_to_effect" && e.at("to") == "effects.rlb:lightning");
  EXPECT_TRUE(named) << json.dump();

  auto report = game.load("m02");
  ASSERT_TRUE(report.has_value());
  ASSERT_TRUE(report->ok);
  EXPECT_TRUE(report->warnings.empty()) << report->warnings.front().to_string();
  EXPECT_EQ(report->visuals.effects, 2u);
  const mission::LoadedMission* lm = game.current();
  ASSERT_NE(lm, nullptr);
  ASSERT_TRUE(lm->weather);
  EXPECT_EQ(lm->weather->path, "MISSIONS/m02/sky.weather");
  EXPECT_EQ(lm->weather->schedule.lightning_effect, "effects.rlb/lightning");
  ASSERT_NE(lm->lightning, nullptr);
  EXPECT_EQ(lm->lightning->label(), "effects.rlb/lightning");
  EXPECT_EQ(lm->lightning, lm->visuals->effect("lightning"));
  // The bolt's material is prepared with its texture.
  const auto& body = lm->lightning->commands[2];
  ASSERT_NE(body.material, nullptr);
  EXPECT_EQ(body.material->entry, "env_lightning");
  ASSERT_FALSE(body.material->phases.empty());
  ASSERT_NE(body.material->phases[0].texture, nullptr);
  EXPECT_EQ(body.material->phases[0].texture->entry, "FX_BOLT");
  EXPECT_NE(lm->effects->find("beacon"), nullptr);
  // The clear mission m01 has its weather but no lightning key: the stand-in, without a warning;
  // its script names the beacon.
  auto clear = game.load("m01");
  ASSERT_TRUE(clear.has_value());
  EXPECT_TRUE(clear->warnings.empty());
  ASSERT_TRUE(game.current()->weather);
  EXPECT_EQ(game.current()->lightning->label(), "built-in/lightning");
  EXPECT_EQ(game.current()->effects->size(), 1u);
}

TEST(MissionEffects, a_missing_lightning_fxid_is_a_failed_edge_and_compatible_falls_back) {
  const auto files = with_effects({{"beacon", beacon_bytes()}});
  auto game = test::game_over(files);
  auto report = game.load("m02");
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->ok);
  EXPECT_EQ(game.current(), nullptr);  // nothing registered
  ASSERT_EQ(report->failures.size(), 1u);
  const core::Diagnostic& d = report->failures[0];
  EXPECT_EQ(d.code, "load.effect_missing");
  EXPECT_EQ(d.message,
            "MISSIONS/m02/data.tma: MISSIONS/m02/sky.weather -> effect lightning -> effects.rlb: effect 'lightning' "
            "not found");
  EXPECT_EQ(d.file, "effects.rlb");
  EXPECT_EQ(d.field, "effect lightning");
  EXPECT_EQ(d.expected, "an entry of type FXID");
  auto graph = game.prepare("m02");
  ASSERT_TRUE(graph.has_value());
  EXPECT_EQ(edges_of(graph->graph, assets::EdgeKind::weather_to_effect, true), 1u);

  // --compatible: the mission loads; the strikes run the stand-in, both warnings say why.
  auto lenient = compatible_game(files);
  auto ok = lenient.load("m02");
  ASSERT_TRUE(ok.has_value());
  ASSERT_TRUE(ok->ok);
  std::vector<std::string> codes;
  for (const auto& w : ok->warnings) codes.push_back(w.code);
  EXPECT_NE(std::find(codes.begin(), codes.end(), "load.effect_missing"), codes.end());
  EXPECT_NE(std::find(codes.begin(), codes.end(), "weather.lightning_effect"), codes.end());
  ASSERT_NE(lenient.current()->lightning, nullptr);
  EXPECT_EQ(lenient.current()->lightning->label(), "built-in/lightning");
}

TEST(MissionEffects, a_hostile_fxid_is_a_failed_edge_naming_the_reason) {
  auto fx = assets::lightning_fxid("sounds.lib", "THUNDER1.WAV", "env_lightning");
  fx.header.duration_seconds = std::numeric_limits<float>::quiet_NaN();
  auto game = test::game_over(with_effects({{"lightning", iron3d::write_fxid(fx)}, {"beacon", beacon_bytes()}}));
  auto report = game.load("m02");
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->ok);
  ASSERT_EQ(report->failures.size(), 1u);
  EXPECT_EQ(report->failures[0].code, "load.effect_invalid");
  EXPECT_NE(report->failures[0].message.find("effects.rlb:lightning: cannot be run: "), std::string::npos)
      << report->failures[0].message;
  EXPECT_NE(report->failures[0].message.find("[fx.duration]"), std::string::npos) << report->failures[0].message;

  // Bytes that do not read: the reader's reason.
  core::Bytes cut = lightning_bytes();
  cut.resize(cut.size() - 10);
  auto broken = test::game_over(with_effects({{"lightning", cut}, {"beacon", beacon_bytes()}}));
  auto r2 = broken.load("m02");
  ASSERT_TRUE(r2.has_value());
  ASSERT_EQ(r2->failures.size(), 1u);
  EXPECT_EQ(r2->failures[0].code, "load.effect_invalid");
  EXPECT_NE(r2->failures[0].message.find("invalid FXID"), std::string::npos) << r2->failures[0].message;
  EXPECT_NE(r2->failures[0].message.find("[fxid.command_size]"), std::string::npos) << r2->failures[0].message;
}

TEST(MissionEffects, a_script_literal_naming_a_missing_effect_fails_its_edge) {
  test::Files files = test::demo_files();
  const std::string script = "on_start(function() effect('flare', 1, 2) end)\n";
  files["MISSIONS/m01/mission.lua"] = core::Bytes(script.begin(), script.end());
  auto game = test::game_over(files);
  auto report = game.load("m01");
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->ok);
  ASSERT_EQ(report->failures.size(), 1u);
  EXPECT_EQ(report->failures[0].code, "load.effect_missing");
  EXPECT_NE(report->failures[0].message.find("MISSIONS/m01/mission.lua -> effect(\"flare\") -> effects.rlb: effect "
                                             "'flare' not found"),
            std::string::npos)
      << report->failures[0].message;
}

TEST(MissionEffects, an_effect_material_that_is_not_in_material_lib_falls_back_with_a_warning) {
  auto game = test::game_over(
      with_effects({{"lightning", iron3d::write_fxid(assets::lightning_fxid("sounds.lib", "T.WAV", "no_such"))},
                    {"beacon", beacon_bytes()}}));
  auto report = game.load("m02");
  ASSERT_TRUE(report.has_value());
  ASSERT_TRUE(report->ok);
  bool warned = false;
  for (const auto& w : report->warnings)
    warned =
        warned || (w.code == "load.material_fallback" && w.message.find("commands[2] 'no_such'") != std::string::npos);
  EXPECT_TRUE(warned);
  EXPECT_EQ(game.current()->lightning->commands[2].material->entry, "DEFAULT");
}

TEST(MissionEffects, a_broken_sky_weather_is_a_failed_edge_or_under_compatible_no_weather) {
  test::Files files = test::demo_files();
  const std::string bad = "sortie-weather 1\nkey 0 rain 2\n";
  files["MISSIONS/m02/sky.weather"] = core::Bytes(bad.begin(), bad.end());
  auto game = test::game_over(files);
  auto report = game.load("m02");
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->ok);
  ASSERT_EQ(report->failures.size(), 1u);
  EXPECT_EQ(report->failures[0].code, "load.weather_invalid");
  EXPECT_NE(report->failures[0].message.find("mission_to_weather -> MISSIONS/m02/sky.weather"), std::string::npos);
  EXPECT_NE(report->failures[0].message.find("(weather.value)"), std::string::npos) << report->failures[0].message;
  auto lenient = compatible_game(files);
  auto ok = lenient.load("m02");
  ASSERT_TRUE(ok.has_value());
  ASSERT_TRUE(ok->ok);
  EXPECT_FALSE(lenient.current()->weather);
  EXPECT_EQ(lenient.current()->lightning, nullptr);
}

}  // namespace mission_effects_test
