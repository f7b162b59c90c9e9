// Lua `effect(name, x, y[, z])` (docs/mission-scripts.md, docs/effects.md): it issues fx.start with
// the effect's header lifetime, the effect is world state for that long, a run replays to the same
// hash from its log alone, and a bad call stops the script with a diagnostic while the world goes
// on. lua_effect_names finds the literal names the loader resolves.
#include <gtest/gtest.h>

#include "lua_fixture.hpp"
#include "sortie/env/effect_world.hpp"
#include "sortie/scenario/lua_mission.hpp"
#include "sortie/world/command_json.hpp"

namespace sortie::scenario::lua_effect_test {
namespace {

using test::stop_diagnostic;

// m01 of the demo sample with `script` as its mission.lua: the loader resolves the effects the
// script names (the sample's effects.rlb has "beacon" and "lightning"), and the runtime runs it.
std::unique_ptr<test::LuaRun> load_with(const std::string& script, const RuntimeOptions& runtime = {}) {
  test::Files files = test::demo_files();
  files[test::kScriptPath] = core::Bytes(script.begin(), script.end());
  auto run = std::make_unique<test::LuaRun>(test::LuaRun{test::game_over(files), nullptr, nullptr});
  auto report = run->game.load("m01");
  EXPECT_TRUE(report.has_value() && report->ok) << (report ? "" : report.error().to_string());
  run->mission = run->game.current();
  if (run->mission == nullptr) return nullptr;
  run->runtime =
      std::make_unique<ScenarioRuntime>(*run->mission->world, mission::mission_facts(*run->mission, "m01"), runtime);
  auto part = LuaMission::load(script, test::kScriptPath);
  EXPECT_TRUE(part.has_value());
  if (!part) return nullptr;
  run->runtime->add(std::move(*part));
  return run;
}

constexpr const char* kBeacon = R"lua(
local x0, y0, x1, y1 = bounds()
cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
on_start(function()
  effect("beacon", cx, cy)
  after(1, function() effect("BEACON", cx + 5, cy, 40) end)
end)
)lua";

TEST(LuaEffect, effect_issues_fx_start_with_the_header_lifetime_at_the_ground) {
  RuntimeOptions ro;
  ro.trace.channels = {"fx"};
  auto run = load_with(kBeacon, ro);
  ASSERT_NE(run, nullptr);
  ASSERT_NE(run->mission->effects->find("beacon"), nullptr);  // resolved at load from the literal
  const auto r = test::play(*run, 70);                        // 1.12 s: both started, none ended
  EXPECT_EQ(stop_diagnostic(*run), nullptr);
  const auto live = env::live_effects(run->world());
  ASSERT_EQ(live.size(), 2u);
  const auto& b = live[0];
  EXPECT_EQ(b.id, 1u);
  EXPECT_EQ(b.name, "beacon");
  EXPECT_EQ(b.end_us - b.start_us, 4'000'000u);  // effects.rlb:beacon lives 4 s
  const auto ground = run->mission->movement->terrain->height_at(b.position.x, b.position.y);
  ASSERT_TRUE(ground);
  EXPECT_EQ(b.position.z, *ground);  // no z: the ground there
  EXPECT_EQ(live[1].name, "BEACON");
  EXPECT_EQ(live[1].position.z, 40.0f);
  EXPECT_EQ(live[1].start_us - b.start_us, 1'008'000u);  // after(1): the first tick at or past 1 s
  EXPECT_EQ(env::find_effects_state(run->world())->started, 2u);
  std::size_t logged = 0;
  for (const auto& c : r.log.commands) logged += c.kind == env::StartEffectCommand::kWireId ? 1 : 0;
  EXPECT_EQ(logged, 2u);
  // The trace names what the effect runs and keeps.
  ASSERT_EQ(run->runtime->trace_lines().size(), 2u);
  const std::string& t = run->runtime->trace_lines().front().text;
  EXPECT_EQ(t.rfind("effect 'beacon' (effects.rlb/beacon) at (", 0), 0u) << t;
  EXPECT_NE(t.find("for 4.000 s from tick "), std::string::npos) << t;
  EXPECT_NE(t.find(": runs command 0 light, command 1 body env_beacon; keeps, not executed: command 2 opcode 7 "
                   "material.lib/env_beacon (opcode 7 is not executed)"),
            std::string::npos)
      << t;
  // At 4.8 s the first has ended, the second (started at 1 s) still lives.
  auto longer = load_with(kBeacon);
  ASSERT_NE(longer, nullptr);
  test::play(*longer, 300);
  const auto after = env::live_effects(longer->world());
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].id, 2u);
}

TEST(LuaEffect, a_run_with_effects_replays_to_the_same_hash_from_its_log) {
  auto a = load_with(kBeacon);
  ASSERT_NE(a, nullptr);
  const auto first = test::play(*a, 120);
  auto b = load_with(kBeacon);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(test::play(*b, 120).final_hash, first.final_hash);  // deterministic
  // A fresh load of the same mission, the log only (through its JSON form), no script running.
  auto c = load_with(kBeacon);
  ASSERT_NE(c, nullptr);
  auto json = world::command_log_json(first.log, c->world().commands());
  ASSERT_TRUE(json.has_value());
  auto log = world::command_log_from_json(*json, c->world().commands());
  ASSERT_TRUE(log.has_value()) << log.error().to_string();
  auto hash = mission::replay_scenario(*c->mission, *log, first.ticks);
  ASSERT_TRUE(hash.has_value()) << hash.error().to_string();
  EXPECT_EQ(*hash, first.final_hash);
  EXPECT_EQ(env::live_effects(c->world()).size(), env::live_effects(a->world()).size());
}

TEST(LuaEffect, an_effect_the_mission_did_not_prepare_stops_the_script_and_the_world_goes_on) {
  // The name is computed: the loader could not know it, so the call names what there is.
  auto run = load_with(R"lua(
on_start(function() objective_add("a", "before") end)
after(0.5, function() effect("be" .. "acon2", 1, 2) end)
)lua");
  ASSERT_NE(run, nullptr);
  const auto r = test::play(*run, 60);
  const core::Diagnostic* d = stop_diagnostic(*run);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->to_string().find("effect: no effect 'beacon2' among the mission's effects (none)"), std::string::npos)
      << d->to_string();
  EXPECT_NE(d->to_string().find("mission.lua:3"), std::string::npos) << d->to_string();
  EXPECT_TRUE(env::live_effects(run->world()).empty());
  EXPECT_EQ(r.ticks, 60u);  // the world went on
  EXPECT_NE(test::objective(*run, "a"), nullptr);
}

TEST(LuaEffect, a_position_that_is_not_finite_stops_the_script) {
  auto run = load_with("on_start(function() effect('beacon', 0/0, 1) end)\n");
  ASSERT_NE(run, nullptr);
  test::play(*run, 3);
  const core::Diagnostic* d = stop_diagnostic(*run);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->to_string().find("effect: the position must be finite numbers"), std::string::npos) << d->to_string();
  EXPECT_TRUE(env::live_effects(run->world()).empty());
}

TEST(LuaEffectNames, finds_literal_first_arguments_outside_comments_and_strings) {
  EXPECT_EQ(lua_effect_names(R"lua(
effect("beacon", 1, 2)
effect ( 'fx.lib/smoke' , 3, 4)
effect "flare"
Effect("BEACON", 1, 2) -- another function
effect("Beacon", 5, 6) -- the same name again
-- effect("commented", 1, 2)
--[[ effect("block", 1, 2) ]]
--[==[ effect("long block", 1, 2) ]==]
local s = 'effect("in a string")'
local l = [[ effect("in a long string") ]]
obj:effect("method", 1, 2)
t.effect("field", 1, 2)
effect(name, 1, 2)
effect("esc\"aped", 1, 2)
my_effect("suffix", 1, 2)
)lua"),
            (std::vector<std::string>{"beacon", "fx.lib/smoke", "flare"}));
  EXPECT_TRUE(lua_effect_names("").empty());
  EXPECT_TRUE(lua_effect_names("effect(").empty());
  EXPECT_TRUE(lua_effect_names("effect(\"unterminated").empty());
}

}  // namespace
}  // namespace sortie::scenario::lua_effect_test
