// Lua mission scripts on the demo sample's m01: every event kind fires, queries and orders go
// through the registered commands, the sandbox holds (budget, memory cap, forbidden calls,
// errors: each a diagnostic naming file:line and the tick, the world still ticking), and the
// same script gives the same hash twice and on a replay of its log without the script.
#include "sortie/scenario/lua_mission.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "lua_fixture.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/scenario/commands.hpp"
#include "sortie/scenario/super_ai.hpp"

namespace sortie::scenario {
namespace {

using test::load_lua_run;
using test::objective;
using test::play;
using test::stop_diagnostic;

// Marks an objective the first time `name` is seen, so the test reads the events from world state.
constexpr const char* kSeen = R"lua(
seen = {}
function mark(name)
  if not seen[name] then
    seen[name] = true
    objective_add(name, "fired")
  end
end
)lua";

TEST(LuaMission, every_event_kind_fires) {
  const std::string script = std::string(kSeen) + R"lua(
local all = units()
a = all[1]
local ax, ay = position(a)
zone_circle("here", ax, ay, 3)
zone_rect("map", -100000, -100000, 100000, 100000)
zone_areal("areal", areal_at(ax, ay))
on_start(function() mark("start") end)
after(0.05, function() mark("after") end)
ticks = 0
every(0.05, function() ticks = ticks + 1; if ticks == 3 then mark("every") end end)
on_enter("here", function(u, z) if u == a and z == "here" then mark("enter") end end)
on_leave("here", function(u) if u == a then mark("leave") end end)
on_enter("map", function(u) mark("enter_rect") end)
on_enter("areal", function(u) if u == a then mark("enter_areal") end end)
on_arrive(function(u, ok) mark("arrive") end)
on_collision(function(u, other) mark("collision") end)
on_created(function(u) mark("created") end)
on_destroyed(function(u) mark("destroyed") end)
on_player_joined(function(p) if p == 7 then mark("joined") end end)
on_player_left(function(p) if p == 7 then mark("left") end end)
on_start(function()
  go(a, ax + 12, ay)
  local p = prototype(a)
  s1 = spawn(p, ax + 30, ay + 30, 2)
  s2 = spawn(p, ax + 30.5, ay + 30, 2)
  after(0.5, function() remove(s1) end)
end)
)lua";
  auto run = load_lua_run(script);
  ASSERT_NE(run, nullptr);
  world::World& w = run->world();
  // run_scenario's loop by hand, to tell the runtime about a player in between.
  for (auto& c : mission::movement_start_commands(*run->mission, mission::ScenarioOptions{}, 0))
    ASSERT_TRUE(w.submit(std::move(c)));
  ASSERT_TRUE(run->runtime->start());
  for (int t = 0; t < 400; ++t) {
    ASSERT_TRUE(w.tick());
    if (t == 10) run->runtime->player_joined(7);
    if (t == 20) run->runtime->player_left(7);
    ASSERT_TRUE(run->runtime->step());
  }
  const core::Diagnostic* stopped = stop_diagnostic(*run);
  EXPECT_EQ(stopped, nullptr) << (stopped != nullptr ? stopped->to_string() : std::string());
  for (const char* name : {"start", "after", "every", "enter", "leave", "enter_rect", "enter_areal", "arrive",
                           "collision", "created", "destroyed", "joined", "left"}) {
    EXPECT_NE(objective(*run, name), nullptr) << name;
  }
}

TEST(LuaMission, properties_give_every_data_tma_record_with_its_four_words) {
  auto run = load_lua_run(R"lua(
on_start(function()
  local u = units()[1]
  local out = {}
  for _, p in ipairs(properties(u)) do out[#out + 1] = p.name .. "=" .. table.concat(p.words, ",") end
  objective_add("all", table.concat(out, ";"))
  local life = properties(u, "Life state")
  objective_add("life", #life .. ":" .. life[1].words[1] .. ":" .. tostring(life[1].bytes))
  objective_add("other", #properties(u, "clan") .. " " .. tostring(properties(0) == nil))
end)
)lua");
  ASSERT_NE(run, nullptr);
  play(*run, 2);
  const core::Diagnostic* stopped = stop_diagnostic(*run);
  ASSERT_EQ(stopped, nullptr) << stopped->to_string();
  // The first unit's records, straight from the file.
  world::World& w = run->world();
  world::ObjectId first{};
  for (const world::Handle& h : w.queue()) {
    const world::WorldObject* o = w.find(h);
    if (o != nullptr && w.classes().is_unit(o->class_id()) && (first == world::ObjectId{} || o->id() < first))
      first = o->id();
  }
  const world::WorldObject* unit = w.find_live(first);
  ASSERT_NE(unit, nullptr);
  const auto placed = unit->properties.get_int("placed_index");
  ASSERT_TRUE(placed.has_value());
  const auto& records = run->mission->data->tma.objects.at(static_cast<std::size_t>(*placed)).properties;
  ASSERT_FALSE(records.empty());
  std::string expected;
  for (const auto& p : records)
    expected +=
        fmt::format("{}{}={},{},{},{}", expected.empty() ? "" : ";", p.name, p.raw[0], p.raw[1], p.raw[2], p.raw[3]);
  EXPECT_EQ(test::objective_text(*run, "all"), expected);
  EXPECT_EQ(test::objective_text(*run, "life"), "1:1065353216:nil");  // 1.0f's bits, a lossless name
  EXPECT_EQ(test::objective_text(*run, "other"), "0 true");           // sortie's keys are not records
}

TEST(LuaMission, objectives_and_the_outcome_end_the_run) {
  auto run = load_lua_run(R"lua(
objective_add("wait", "Wait a little")
after(0.5, function() objective_complete("wait"); win("waited") end)
)lua");
  ASSERT_NE(run, nullptr);
  const auto r = play(*run, 600);
  ASSERT_TRUE(r.scenario.has_value());
  EXPECT_EQ(r.scenario->outcome, Outcome::win);
  EXPECT_EQ(r.scenario->reason, "waited");
  ASSERT_EQ(r.scenario->objectives.size(), 1u);
  EXPECT_EQ(r.scenario->objectives[0].status, ObjectiveStatus::completed);
  EXPECT_EQ(r.ticks, r.scenario->tick + 1);  // the run ends after the outcome's tick
  EXPECT_LT(r.ticks, 600u);
}

// A hostile script: the part stops with `code`, the diagnostic names file:line and the tick,
// and the world keeps ticking to the end.
void expect_stopped(const std::string& script, std::string_view code, std::string_view file_line,
                    std::string_view words, LuaOptions options = {}) {
  auto run = load_lua_run(script, options);
  ASSERT_NE(run, nullptr);
  const auto r = play(*run, 60);
  EXPECT_EQ(r.ticks, 60u);  // the world went on
  EXPECT_EQ(run->world().clock().tick, 60u);
  const core::Diagnostic* d = stop_diagnostic(*run);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->code, code) << d->to_string();
  EXPECT_EQ(d->file, file_line) << d->to_string();
  EXPECT_EQ(d->field.rfind("tick ", 0), 0u) << d->to_string();
  EXPECT_NE(d->message.find(words), std::string::npos) << d->to_string();
  ASSERT_EQ(run->runtime->parts().size(), 1u);
  EXPECT_FALSE(run->runtime->parts()[0].running);
}

TEST(LuaMission, stops_a_runaway_loop_at_its_line) {
  LuaOptions o;
  o.instruction_budget = 200'000;
  expect_stopped("after(0.1, function()\n  local n = 0\n  while true do n = n + 1 end\nend)\n", "lua.budget",
                 "MISSIONS/m01/mission.lua:3", "instruction budget exceeded", o);
}

TEST(LuaMission, a_runaway_loop_cannot_catch_its_own_stop) {
  LuaOptions o;
  o.instruction_budget = 200'000;
  expect_stopped("every(0.1, function()\n  while true do pcall(function() while true do end end) end\nend)\n",
                 "lua.budget", "MISSIONS/m01/mission.lua:2", "instruction budget exceeded", o);
}

TEST(LuaMission, stops_allocation_without_end_at_the_memory_cap) {
  LuaOptions o;
  o.memory_cap = 2u << 20;
  o.instruction_budget = 100'000'000;
  expect_stopped("after(0.1, function()\n  local t = {}\n  while true do t[#t + 1] = {#t, #t} end\nend)\n",
                 "lua.memory", "MISSIONS/m01/mission.lua:3", "memory cap exceeded", o);
}

TEST(LuaMission, stops_on_a_runtime_error) {
  expect_stopped("after(0.1, function()\n  local t = nil\n  t.x = 1\nend)\n", "lua.runtime",
                 "MISSIONS/m01/mission.lua:3", "attempt to index a nil value");
}

TEST(LuaMission, stops_on_forbidden_functions) {
  expect_stopped("after(0.1, function()\n  os.execute('ls')\nend)\n", "lua.forbidden", "MISSIONS/m01/mission.lua:2",
                 "'os.execute'");
  expect_stopped("after(0.1, function()\n  local f = io.open('x')\nend)\n", "lua.forbidden",
                 "MISSIONS/m01/mission.lua:2", "'io.open'");
  expect_stopped("\n\nrequire('socket')\n", "lua.forbidden", "MISSIONS/m01/mission.lua:3", "'require'");
  expect_stopped("after(0.1, function()\n  load('return 1')\nend)\n", "lua.forbidden", "MISSIONS/m01/mission.lua:2",
                 "'load'");
  // pcall does not make a forbidden call harmless: the script is stopped all the same
  expect_stopped("after(0.1, function()\n  pcall(os.exit)\n  objective_add('x', 'y')\nend)\n", "lua.forbidden",
                 "MISSIONS/m01/mission.lua:2", "'os.exit'");
}

TEST(LuaMission, a_syntax_error_is_a_diagnostic_with_its_line) {
  auto st = check_lua_script("x = 1\ny = = 2\n", "MISSIONS/m01/mission.lua");
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, "lua.syntax");
  EXPECT_EQ(st.error().file, "MISSIONS/m01/mission.lua:2");
  auto bytecode = check_lua_script(std::string("\x1bLua\x54\x00", 6), "MISSIONS/m01/mission.lua");
  ASSERT_FALSE(bytecode);
  EXPECT_EQ(bytecode.error().code, "lua.bytecode");
}

TEST(LuaMission, an_order_to_a_deleted_object_is_a_warning_not_a_crash) {
  auto run = load_lua_run(R"lua(
local u = units()[1]
on_start(function() remove(u) end)
after(0.1, function()
  ok = go(u, 10, 10)
  if not ok then objective_add("refused", "the order was refused") end
end)
)lua");
  ASSERT_NE(run, nullptr);
  play(*run, 30);
  EXPECT_EQ(stop_diagnostic(*run), nullptr);
  EXPECT_NE(objective(*run, "refused"), nullptr);
  ASSERT_FALSE(run->runtime->diagnostics().empty());
  const core::Diagnostic& d = run->runtime->diagnostics().front();
  EXPECT_EQ(d.code, "lua.order.gone");
  EXPECT_EQ(d.file, "MISSIONS/m01/mission.lua:5");
  EXPECT_EQ(d.field, "tick 7");
  EXPECT_TRUE(run->runtime->parts()[0].running);
}

constexpr const char* kBusyScript = R"lua(
local all = units()
visits = {}
order = {}
local t = { zulu = 1, alpha = 2, [3] = "c", mike = 4, [1] = "a" }
for k in pairs(t) do order[#order + 1] = tostring(k) end
rolls = { math.random(), math.random(6), math.random(10, 20) }
for i, id in ipairs(all) do
  local x, y = position(id)
  go(id, x + math.random(-20, 20), y + math.random(-20, 20))
end
every(0.2, function()
  for _, id in ipairs(all) do
    if alive(id) then visits[#visits + 1] = areal_at(position(id)) or -1 end
  end
end)
after(1, function() spawn(prototype(all[1]), 40, 40, 2) end)
)lua";

TEST(LuaMission, the_same_script_gives_the_same_hash_twice_and_on_replay_without_it) {
  auto first = load_lua_run(kBusyScript);
  auto second = load_lua_run(kBusyScript);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  const auto a = play(*first, 150);
  const auto b = play(*second, 150);
  EXPECT_EQ(a.final_hash, b.final_hash);
  EXPECT_EQ(first->runtime->digest(), second->runtime->digest());
  EXPECT_EQ(stop_diagnostic(*first), nullptr);

  // Replay: a fresh load of the same mission, the log only, no script.
  auto replay = load_lua_run("");
  ASSERT_NE(replay, nullptr);
  auto hash = mission::replay_scenario(*replay->mission, a.log, a.ticks);
  ASSERT_TRUE(hash.has_value()) << hash.error().to_string();
  EXPECT_EQ(*hash, a.final_hash);
  const ScenarioDigest* digest = find_scenario_digest(replay->world());
  ASSERT_NE(digest, nullptr);
  EXPECT_EQ(digest->value, first->runtime->digest());
}

TEST(LuaMission, pairs_visits_keys_in_a_fixed_order_and_globals_reach_the_digest) {
  auto run = load_lua_run(R"lua(
local t = { zulu = 1, alpha = 2, [3] = "c", mike = 4, [1] = "a", [true] = 0 }
local s = ""
for k in pairs(t) do s = s .. tostring(k) .. "," end
objective_add("order", s)
objective_add("address", tostring({}) .. tostring(print))
counter = 0
every(0.1, function() counter = counter + 1 end)
)lua");
  ASSERT_NE(run, nullptr);
  play(*run, 3);
  EXPECT_EQ(test::objective_text(*run, "order"), "1,3,alpha,mike,zulu,true,");
  EXPECT_EQ(test::objective_text(*run, "address"), "tablefunction");
  const std::uint64_t before = run->runtime->digest();
  play(*run, 20);  // the counter moves: so does the digest
  EXPECT_NE(run->runtime->digest(), before);
}

}  // namespace
}  // namespace sortie::scenario

namespace sortie::scenario {
namespace {

TEST(LuaMission, superai_configures_a_clans_controller_and_refuses_bad_options) {
  // Clan 2 is the demo's Enemy; clan 1 (the player's) has no SuperAI here.
  auto run = test::load_lua_run(R"lua(
on_start(function()
  player_has_one = superai(1, { speed = 3 })
  configured = superai(2, { patrol = { {10, 10}, { x = 20, y = 30 } }, guard = {5, 6}, speed = 3.5,
                           cadence = 7, engage = false, sensor_range = 40 })
end)
after(0.2, function() superai(2, { speed = -1 }) end)
)lua");
  ASSERT_NE(run, nullptr);
  auto owned = std::make_unique<SuperAI>("Enemy");
  SuperAI* enemy = owned.get();
  run->runtime->add(std::move(owned));
  test::play(*run, 60);
  const SuperAIConfig& c = enemy->config();
  ASSERT_EQ(c.patrol_route.size(), 2u);
  EXPECT_FLOAT_EQ(c.patrol_route[1].x, 20.0f);
  EXPECT_FLOAT_EQ(c.patrol_route[1].y, 30.0f);
  ASSERT_TRUE(c.guard_point.has_value());
  EXPECT_FLOAT_EQ(c.guard_point->y, 6.0f);
  EXPECT_FLOAT_EQ(c.speed, 3.5f) << "the refused call changed nothing";
  EXPECT_EQ(c.cadence_ticks, 7u);
  EXPECT_FALSE(c.engage);
  EXPECT_FLOAT_EQ(c.sensor_range, 40.0f);
  const core::Diagnostic* d = test::stop_diagnostic(*run);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("superai: option 'speed' is not valid"), std::string::npos) << d->to_string();
  const auto parts = run->runtime->parts();
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_FALSE(parts[0].running);  // the script stopped at the bad call
  EXPECT_TRUE(parts[1].running);   // SuperAI goes on
}

}  // namespace
}  // namespace sortie::scenario
