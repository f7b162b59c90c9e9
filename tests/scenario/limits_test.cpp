// Every limit of scenario/limits.hpp, fed at the limit (accepted) and one above (refused, or for
// the state encoding, cut: a value past the limit no longer changes the state hash). The Lua
// state's memory and instruction limits are LuaOptions' defaults: they are checked to equal the
// constants (lua_mission_test stops scripts at smaller overrides).
#include "sortie/scenario/limits.hpp"

#include <gtest/gtest.h>

#include <string>

#include "lua_fixture.hpp"
#include "sortie/scenario/lua_mission.hpp"
#include "sortie/scenario/native_bundle.hpp"

namespace sortie::scenario {
namespace {

// The final state hash of m01 after a few ticks with `script`; fails the test if the script stops.
std::uint64_t hash_with(const std::string& script) {
  auto run = test::load_lua_run(script);
  EXPECT_NE(run, nullptr);
  if (run == nullptr) return 0;
  const auto r = test::play(*run, 3);
  const core::Diagnostic* d = test::stop_diagnostic(*run);
  EXPECT_EQ(d, nullptr) << d->to_string();
  return r.final_hash;
}

// A chain of `tables` nested tables in the global t, the innermost holding v = `value`.
std::string nested(int tables, int value) {
  return "t = {}\nlocal c = t\nfor i = 2, " + std::to_string(tables) +
         " do c.a = {}; c = c.a end\nc.v = " + std::to_string(value) + "\n";
}

// Global a: an array of `entries` ones; then global `name` = `value` (encoded after a).
std::string wide(int entries, const char* name, int value) {
  return "a = {}\nfor i = 1, " + std::to_string(entries) + " do a[i] = 1 end\n" + name + " = " + std::to_string(value) +
         "\n";
}

}  // namespace

TEST(ScenarioLimits, lua_defaults_are_the_constants) {
  const LuaOptions o;
  EXPECT_EQ(o.instruction_budget, kLuaInstructionBudget);
  EXPECT_EQ(o.memory_cap, kLuaMemoryCap);
}

TEST(ScenarioLimits, lua_string_rep_count) {
  auto rep = [](std::int64_t n) {
    return "after(0.05, function()\n  local s = string.rep('', " + std::to_string(n) +
           ")\n  objective_add('done', 'x')\nend)\n";
  };
  auto at_limit = test::load_lua_run(rep(kLuaRepCountMax));
  ASSERT_NE(at_limit, nullptr);
  test::play(*at_limit, 10);
  EXPECT_EQ(test::stop_diagnostic(*at_limit), nullptr);
  EXPECT_NE(test::objective(*at_limit, "done"), nullptr);
  auto over = test::load_lua_run(rep(kLuaRepCountMax + 1));
  ASSERT_NE(over, nullptr);
  test::play(*over, 10);
  const core::Diagnostic* d = test::stop_diagnostic(*over);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->code, "lua.runtime") << d->to_string();
  EXPECT_NE(d->message.find("string.rep: result too large"), std::string::npos) << d->to_string();
}

TEST(ScenarioLimits, lua_state_depth) {
  // Table k of the chain is encoded at depth k - 1: the innermost value counts up to the limit.
  EXPECT_NE(hash_with(nested(kLuaStateDepthMax, 1)), hash_with(nested(kLuaStateDepthMax, 2)));
  EXPECT_EQ(hash_with(nested(kLuaStateDepthMax + 1, 1)), hash_with(nested(kLuaStateDepthMax + 1, 2)));
}

TEST(ScenarioLimits, lua_state_values) {
  // Key "a", table a, then two per entry, then key "b" and its value: with 32766 entries the value
  // of b is the 65536th value encoded; with one entry more, the key of b is the 65537th.
  const int at = static_cast<int>(kLuaStateValuesMax / 2) - 2;
  EXPECT_NE(hash_with(wide(at, "b", 1)), hash_with(wide(at, "b", 2)));
  const std::uint64_t over = hash_with(wide(at + 1, "b", 1));
  EXPECT_EQ(over, hash_with(wide(at + 1, "b", 2)));
  EXPECT_EQ(over, hash_with(wide(at + 1, "c", 1)));
}

TEST(ScenarioLimits, native_raised_events) {
  NativeBundlePart part;
  for (std::size_t i = 0; i < kMaxRaisedEvents; ++i) ASSERT_TRUE(part.raise(0, "E").has_value()) << i;
  const auto over = part.raise(0, "E");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "native.raise_limit");
}

}  // namespace sortie::scenario
