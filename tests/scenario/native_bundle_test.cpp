// The native script bundles as a scenario part (native_bundle.hpp): MISSION_START runs Init
// (Handler(19)'s three DWORD writes), Handler(2)'s event records, Handler(8)'s problem state, the
// host callback of Handlers 30/57 as the outcome, and everything else traced to "ai" (spec §20.4,
// §20.5, §20.6 fixtures; seed 001).
#include "sortie/scenario/native_bundle.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/sample_game.hpp"
#include "sortie/world/world.hpp"

namespace sortie::scenario {
namespace {

using iron3d::ScrEvent;
using iron3d::ScrInstruction;

ScrInstruction scr_ins(std::uint32_t selector, std::vector<std::uint32_t> refs) {
  ScrInstruction i;
  i.words = {selector, 0, 0, 0, 0};
  i.references = std::move(refs);
  return i;
}

// A varset like the GOG one around its indices 0..: f0 (float), then DWORDs.
constexpr std::string_view kNativeVarset =
    "VAR(float, fScale, 1.5)\n"           // 0
    "VAR(DWORD, NONE, 0)\n"               // 1
    "VAR(DWORD, ONE, 1)\n"                // 2
    "VAR(DWORD, ST_SOLVED, 2)\n"          // 3
    "VAR(DWORD, Convoy, 7)\n"             // 4
    "VAR(float, fKey, -0.0)\n"            // 5
    "VAR(DWORD, ClanBaseX, 0)\n"          // 6
    "VAR(DWORD, ClanBaseY, 0, 0, 600)\n"  // 7 (ranged)
    "VAR(DWORD, ClanID, 0)\n"             // 8
    "VAR(DWORD, dCurrentProblem, 3)\n"    // 9
    "VAR(float, fNaN, 0, 0, 1)\n"         // 10
    "VAR(DWORD, ST_THREE, 3)\n";          // 11

struct NativeFixture {
  world::World world;
  std::shared_ptr<assets::MissionData> data = std::make_shared<assets::MissionData>();
  MissionFacts facts;
  std::vector<world::Event> events;
  std::vector<TraceLine> trace;
  std::vector<std::pair<Outcome, std::string>> outcomes;

  // One clan per anchor; every clan gets the same package.
  NativeFixture(std::vector<std::array<float, 2>> anchors, std::vector<ScrEvent> package_events) {
    auto vs = iron3d::read_varset(core::as_bytes(kNativeVarset));
    EXPECT_TRUE(vs) << vs.error().to_string();
    auto shared = std::make_shared<const iron3d::Varset>(std::move(*vs));
    for (std::size_t i = 0; i < anchors.size(); ++i) {
      data->tma.clans.push_back(iron3d::TmaClan::standard("C" + std::to_string(i), 1, anchors[i], "S\\c", 0, "", 0));
      assets::ScriptBundle b;
      b.clan_index = i;
      b.clan_name = "C" + std::to_string(i);
      b.package.events = package_events;
      b.varset = shared;
      data->scripts.push_back(std::move(b));
    }
    facts.data = data;
  }
  ScenarioContext ctx() {
    return ScenarioContext{world,
                           facts,
                           0,
                           [](world::Command) -> core::Status { return {}; },
                           [this](std::string_view channel, std::string text) {
                             trace.push_back({0, std::string(channel), std::move(text)});
                           },
                           events};
  }
  OutcomeFn recorder() {
    return [this](ScenarioContext&, Outcome o, std::string reason) -> core::Status {
      outcomes.emplace_back(o, std::move(reason));
      return {};
    };
  }
  [[nodiscard]] bool traced(std::string_view needle) const {
    for (const auto& t : trace)
      if (t.channel == "ai" && t.text.find(needle) != std::string::npos) return true;
    return false;
  }
};

std::vector<std::uint8_t> encoded_part(const ScenarioPart& p) {
  world::StateWriter out;
  p.encode(out);
  const auto v = out.view();
  return {v.begin(), v.end()};
}

TEST(NativeBundle, init_writes_truncated_anchors_and_the_clan_index) {
  // AutoDemo (spec §20.4): (500, 752, 0) and (728, 449, 1).
  NativeFixture f({{500.9f, 752.0f}, {728.5f, 449.99f}}, {ScrEvent{"Init", 0, {scr_ins(19, {6, 7, 8})}}});
  NativeBundlePart part;
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));
  ASSERT_EQ(part.clans().size(), 2u);
  const auto& c0 = part.clans()[0].values;
  const auto& c1 = part.clans()[1].values;
  EXPECT_EQ(c0[6].bits, 500u);
  EXPECT_EQ(c0[7].bits, 752u);
  EXPECT_EQ(c0[8].bits, 0u);
  EXPECT_EQ(c1[6].bits, 728u);
  EXPECT_EQ(c1[7].bits, 449u);
  EXPECT_EQ(c1[8].bits, 1u);
  EXPECT_EQ(std::bit_cast<float>(c1[0].bits), 1.5f);  // untouched defaults keep their bits
  EXPECT_TRUE(f.traced("handler 19: [6] = 728, [7] = 449, [8] = 1"));
  EXPECT_TRUE(f.traced("handler 19: 752 is outside declaration 7's range 0..600 (kept)"));
  EXPECT_EQ(c0[7].max, 600u);
}

TEST(NativeBundle, rejects_an_anchor_outside_the_map_range) {
  for (const float bad :
       {-0.5f, 10000.5f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    NativeFixture f({{bad, 10.0f}}, {ScrEvent{"Init", 0, {scr_ins(19, {6, 7, 8})}}});
    NativeBundlePart part;
    auto ctx = f.ctx();
    auto st = part.start(ctx);
    ASSERT_FALSE(st) << bad;
    EXPECT_EQ(st.error().code, "native.anchor");
  }
  NativeFixture edge({{0.0f, 10000.0f}}, {ScrEvent{"Init", 0, {scr_ins(19, {6, 7, 8})}}});
  NativeBundlePart part;
  auto ctx = edge.ctx();
  ASSERT_TRUE(part.start(ctx));
  EXPECT_EQ(part.clans()[0].values[7].bits, 10000u);
}

TEST(NativeBundle, init_refuses_a_float_target) {
  NativeFixture f({{1.0f, 2.0f}}, {ScrEvent{"Init", 0, {scr_ins(19, {0, 7, 8})}}});
  NativeBundlePart part;
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));  // traced and skipped: not an anchor problem
  ASSERT_EQ(part.findings().size(), 1u);
  EXPECT_EQ(part.findings()[0].code, "native.float_operand");
  EXPECT_EQ(part.clans()[0].values[7].bits, 0u);
}

TEST(NativeBundle, handler2_key_identity_refresh_nan_wrap_and_signed_zero) {
  std::vector<EventRecord> recs;
  Handler2Input a;
  a.slot0 = 7;
  a.slot1 = 1.5f;
  a.slot2 = 4;
  a.slot3 = 11;
  a.slot4 = -0.0f;
  a.slot5 = 3.0f;
  a.slot6 = 9.0f;
  auto r = submit_event_record(recs, a);
  EXPECT_TRUE(r.created);
  EXPECT_EQ(recs[0].counter, 4u);
  Handler2Input same = a;
  same.slot6 = 12.0f;
  same.slot2 = 99;
  r = submit_event_record(recs, same);  // slot1 equal: unchanged
  EXPECT_FALSE(r.created || r.refreshed);
  EXPECT_EQ(recs[0].scalar6, 9.0f);
  Handler2Input changed = same;
  changed.slot1 = 2.5f;
  r = submit_event_record(recs, changed);  // refresh: scalar1/6 replaced, the stored +0x28 added
  EXPECT_TRUE(r.refreshed);
  EXPECT_EQ(recs[0].scalar1, 2.5f);
  EXPECT_EQ(recs[0].scalar6, 12.0f);
  EXPECT_EQ(recs[0].counter, 8u);
  Handler2Input plus_zero = changed;
  plus_zero.slot4 = 0.0f;  // -0.0 and +0.0 are different keys
  EXPECT_EQ(submit_event_record(recs, plus_zero).index, 1u);
  // NaN compares unequal: always a refresh; the counter wraps.
  std::vector<EventRecord> nan;
  Handler2Input n = a;
  n.slot1 = std::numeric_limits<float>::quiet_NaN();
  n.slot2 = 0xFFFFFFFFu;
  submit_event_record(nan, n);
  EXPECT_TRUE(submit_event_record(nan, n).refreshed);
  EXPECT_EQ(nan[0].counter, 0xFFFFFFFEu);
  // Signed zero as the value: +0 == -0, no refresh.
  std::vector<EventRecord> z;
  Handler2Input zero = a;
  zero.slot1 = -0.0f;
  submit_event_record(z, zero);
  zero.slot1 = 0.0f;
  EXPECT_FALSE(submit_event_record(z, zero).refreshed);
}

TEST(NativeBundle, handler2_binds_the_start_and_continue_events_without_dispatching) {
  NativeFixture f({{1.0f, 1.0f}},
                  {ScrEvent{"Mission", 0, {scr_ins(2, {4, 0, 2, 1, 5, 5, 0}), scr_ins(2, {4, 2, 2, 1, 5, 5, 0})}},
                   ScrEvent{"Convoy_Start", 1, {scr_ins(8, {3})}}, ScrEvent{"Convoy_Continue", 2, {}}});
  NativeBundlePart part;
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));
  ASSERT_TRUE(part.raise(0, "Mission"));
  ASSERT_TRUE(part.step(ctx));
  const auto& recs = part.clans()[0].records;
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].slot0, 7u);
  EXPECT_EQ(recs[0].base, "Convoy");
  EXPECT_EQ(recs[0].key4_bits, 0x80000000u);  // -0.0
  EXPECT_EQ(recs[0].start_event, 1u);
  EXPECT_EQ(recs[0].continue_event, 2u);
  EXPECT_EQ(recs[0].refreshes, 1u);  // slot1 1.5 -> 1.0 (the DWORD ONE read as a float)
  EXPECT_EQ(recs[0].counter, 2u);
  EXPECT_TRUE(part.clans()[0].problems.empty());  // Convoy_Start was not run
}

TEST(NativeBundle, handler8_writes_the_state_of_the_current_problem) {
  NativeFixture f({{1.0f, 1.0f}}, {ScrEvent{"P", 0, {scr_ins(8, {3}), scr_ins(8, {11})}}});
  NativeBundlePart part;
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));
  ASSERT_TRUE(part.raise(0, "P"));
  ASSERT_TRUE(part.step(ctx));
  const auto& probs = part.clans()[0].problems;
  ASSERT_EQ(probs.size(), 1u);
  EXPECT_EQ(probs[0].index, 3u);     // dCurrentProblem's value
  EXPECT_EQ(probs[0].words[6], 3u);  // the last state written
  EXPECT_TRUE(f.traced("handler 8: problem 3 state 2 (words 0..3 and 6 reset)"));
  EXPECT_TRUE(f.traced("handler 8: problem 3 state 3 (words 0..2 and 6 reset)"));
}

TEST(NativeBundle, handler15_arity_by_mode) {
  EXPECT_EQ(handler15_arity(0), 9u);
  EXPECT_EQ(handler15_arity(0x0201), 10u);
  EXPECT_EQ(handler15_arity(0x0202), 11u);
  EXPECT_EQ(handler15_arity(0x0205), 10u);
  EXPECT_EQ(handler15_arity(0x0206), std::nullopt);
}

TEST(NativeBundle, host_callback_decides_the_outcome_once_per_state) {
  NativeFixture f({{1.0f, 1.0f}},
                  {ScrEvent{"Win", 0, {scr_ins(30, {1, 2})}}, ScrEvent{"Lose", 1, {scr_ins(30, {1, 1})}},
                   ScrEvent{"Other", 2, {scr_ins(30, {2, 2}), scr_ins(57, {1, 1})}}});
  NativeBundlePart part(f.recorder());
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));
  for (const char* e : {"Win", "Win", "Other", "Lose"}) ASSERT_TRUE(part.raise(0, e));
  ASSERT_TRUE(part.step(ctx));
  ASSERT_EQ(f.outcomes.size(), 2u);  // the repeated (0, 0, 1) is a no-op; Other is traced only
  EXPECT_EQ(f.outcomes[0].first, Outcome::win);
  EXPECT_EQ(f.outcomes[1].first, Outcome::lose);
  EXPECT_NE(f.outcomes[0].second.find("mission complete"), std::string::npos);
  EXPECT_TRUE(f.traced("repeated target state, no-op"));
  EXPECT_TRUE(f.traced("host callback (0, 1, 1): command not recovered"));
  EXPECT_TRUE(f.traced("handler 57: host callback (2, 0, 0): command not recovered"));
  EXPECT_EQ(part.host_state(), (std::pair<std::uint32_t, std::uint32_t>{0, 0}));
}

TEST(NativeBundle, host_callback_refuses_float_missing_and_out_of_range_operands) {
  NativeFixture f({{1.0f, 1.0f}}, {ScrEvent{"E", 0, {scr_ins(30, {0, 1}), scr_ins(30, {1}), scr_ins(30, {1, 12})}}});
  NativeBundlePart part(f.recorder());
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));
  ASSERT_TRUE(part.raise(0, "E"));
  ASSERT_TRUE(part.step(ctx));
  ASSERT_EQ(part.findings().size(), 3u);
  EXPECT_EQ(part.findings()[0].code, "native.float_operand");
  EXPECT_EQ(part.findings()[1].code, "native.reference_missing");
  EXPECT_EQ(part.findings()[2].code, "native.reference_range");
  EXPECT_TRUE(f.outcomes.empty());
}

TEST(NativeBundle, other_handlers_sentinels_and_unknown_selectors_are_traced_not_run) {
  NativeFixture f({{1.0f, 1.0f}}, {ScrEvent{"Init",
                                            0,
                                            {scr_ins(0xFFFFFFFFu, {}), scr_ins(5, {1}), scr_ins(100, {}),
                                             scr_ins(0, {}), scr_ins(15, {1, 1, 1, 1, 0, 0, 0, 0, 1})}}});
  NativeBundlePart part;
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));
  EXPECT_TRUE(f.traced("sentinel: no handler"));
  EXPECT_TRUE(f.traced("handler 5: contract not recovered, not run"));
  EXPECT_TRUE(f.traced("unknown selector 0x00000064: no handler"));
  EXPECT_TRUE(f.traced("handler 0 (sets the execution context"));
  EXPECT_TRUE(f.traced("handler 15: target mode 0x0000, 9 references (expected 9)"));
  EXPECT_EQ(part.clans()[0].traced, 5u);
  EXPECT_EQ(part.clans()[0].instructions_run, 5u);
}

TEST(NativeBundle, evaluator_tags_are_typed) {
  EXPECT_EQ(classify_evaluator({2, 0, 5}).branch, EvaluatorBranch::lookup_state);
  EXPECT_TRUE(classify_evaluator({2, 0, 5}).subtype_ok);
  EXPECT_FALSE(classify_evaluator({3, 1, 5}).subtype_ok);  // tags 1..3 need subtype 0
  EXPECT_TRUE(classify_evaluator({4, 1, 5}).subtype_ok);   // tags 4..5 need subtype 1
  EXPECT_FALSE(classify_evaluator({5, 0, 5}).subtype_ok);
  EXPECT_EQ(classify_evaluator({6, 0, 0}).branch, EvaluatorBranch::none);
  EXPECT_TRUE(is_evaluator_result_tag(0x12));
  EXPECT_FALSE(is_evaluator_result_tag(2));
  NativeFixture f({}, {});
  auto ctx = f.ctx();
  trace_evaluator(ctx, {4, 1, 9});
  EXPECT_TRUE(f.traced("evaluator tag 4 subtype 1 payload 9"));
}

TEST(NativeBundle, state_encoding_follows_the_state) {
  NativeFixture f({{1.0f, 1.0f}}, {ScrEvent{"Init", 0, {scr_ins(19, {6, 7, 8})}}, ScrEvent{"P", 1, {scr_ins(8, {2})}}});
  NativeBundlePart a, b;
  auto ctx = f.ctx();
  ASSERT_TRUE(a.start(ctx));
  ASSERT_TRUE(b.start(ctx));
  EXPECT_EQ(encoded_part(a), encoded_part(b));
  ASSERT_TRUE(b.raise(0, "P"));
  EXPECT_NE(encoded_part(a), encoded_part(b));  // a waiting event is state
  ASSERT_TRUE(b.step(ctx));
  ASSERT_TRUE(a.raise(0, "P"));
  ASSERT_TRUE(a.step(ctx));
  EXPECT_EQ(encoded_part(a), encoded_part(b));
}

TEST(NativeBundle, unknown_event_or_clan_is_traced) {
  NativeFixture f({{1.0f, 1.0f}}, {});
  NativeBundlePart part;
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));
  ASSERT_TRUE(part.raise(0, "Nope"));
  ASSERT_TRUE(part.raise(9, "Init"));
  ASSERT_TRUE(part.step(ctx));
  EXPECT_TRUE(f.traced("no event 'Nope'"));
  EXPECT_TRUE(f.traced("the clan has no bundle"));
}

// The sample game's bundles through the loader: Init writes every clan's anchors; the enemy's
// Fort_Task_Complete (Handler(30) -> (0, 0, 1)) wins, the player's Hero_Killed loses.
TEST(NativeBundle, sample_bundles_run_init_and_the_outcome_path) {
  assets::MemoryVfs vfs;
  auto files = assets::generate_sample_files({assets::SampleScale::demo, 3, assets::ArchiveFormat::rsli});
  ASSERT_TRUE(files);
  for (auto& [path, bytes] : files->first) ASSERT_TRUE(vfs.add(path, bytes));
  assets::ArchiveRepository repo(vfs);
  assets::PrototypeResolver resolver(repo);
  auto md = assets::prepare_mission(repo, resolver, "m02");
  ASSERT_TRUE(md && md->ok());
  NativeFixture f({}, {});
  f.data = std::make_shared<assets::MissionData>(std::move(*md));
  f.facts.data = f.data;
  NativeBundlePart part(f.recorder());
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));
  ASSERT_EQ(part.clans().size(), 3u);
  for (const auto& c : part.clans()) {
    const auto& vs = *f.data->scripts[c.bundle].varset;
    const auto& clan = f.data->tma.clans[c.clan_index];
    EXPECT_EQ(c.values[*vs.find("ClanBaseX")].bits, static_cast<std::uint32_t>(std::trunc(clan.anchor_x)));
    EXPECT_EQ(c.values[*vs.find("ClanBaseY")].bits, static_cast<std::uint32_t>(std::trunc(clan.anchor_y)));
    EXPECT_EQ(c.values[*vs.find("ClanID")].bits, c.clan_index);
  }
  EXPECT_TRUE(part.findings().empty());
  ASSERT_TRUE(part.raise(2, "Mission"));
  ASSERT_TRUE(part.raise(2, "Fort_Task_Complete"));
  ASSERT_TRUE(part.step(ctx));
  ASSERT_EQ(f.outcomes.size(), 1u);
  EXPECT_EQ(f.outcomes[0].first, Outcome::win);
  EXPECT_EQ(part.clans()[2].records.size(), 1u);
  EXPECT_EQ(part.clans()[2].records[0].base, "Convoy");
  ASSERT_TRUE(part.raise(1, "Hero_Killed"));
  ASSERT_TRUE(part.step(ctx));
  ASSERT_EQ(f.outcomes.size(), 2u);
  EXPECT_EQ(f.outcomes[1].first, Outcome::lose);
  EXPECT_TRUE(part.findings().empty());
}

}  // namespace
}  // namespace sortie::scenario

namespace sortie::scenario {
namespace {

// Spec §20.4 / §31.7: the GOG layout (ClanBaseX/Y and ClanID at 224..226 of 231 declarations) and
// the AutoDemo result (728, 449, 1) for clan 1.
TEST(NativeBundle, spec_31_7_package_writes_the_autodemo_anchors) {
  std::string text;
  for (int i = 0; i < 231; ++i)
    text += i < 31 ? fmt::format("VAR(float, f{}, 0.0)\r\n", i) : fmt::format("VAR(DWORD, d{}, 0)\r\n", i);
  auto vs = iron3d::read_varset(core::as_bytes(text));
  ASSERT_TRUE(vs);
  auto shared = std::make_shared<const iron3d::Varset>(std::move(*vs));
  iron3d::ScrPackage p;
  p.events.push_back(ScrEvent{"Init", 9, {scr_ins(19, {224, 225, 226})}});
  NativeFixture f({{500.0f, 752.0f}, {728.0f, 449.0f}}, p.events);
  for (auto& b : f.data->scripts) b.varset = shared;
  NativeBundlePart part;
  auto ctx = f.ctx();
  ASSERT_TRUE(part.start(ctx));
  const auto& v = part.clans()[1].values;
  EXPECT_EQ(v[224].bits, 728u);
  EXPECT_EQ(v[225].bits, 449u);
  EXPECT_EQ(v[226].bits, 1u);
  EXPECT_EQ(part.clans()[0].values[224].bits, 500u);
  EXPECT_EQ(part.clans()[0].values[226].bits, 0u);
}

}  // namespace
}  // namespace sortie::scenario
