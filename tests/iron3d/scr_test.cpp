#include "sortie/iron3d/scr.hpp"

#include <gtest/gtest.h>

#include "sortie/formats/formats.hpp"

using namespace sortie;
using namespace sortie::iron3d;

namespace {

// Spec §20.6 fixture: 73 handlers, one event "Init" (event word 9) with one instruction
// w0..w4 = 1..5, two references 7 and 8, w6 = 6, then the trailing bytes AA BB.
core::Bytes fixture_20_6(std::uint32_t handler_count = 73) {
  core::ByteWriter w;
  w.u32(handler_count);
  w.u32(1);
  w.u32(4);
  w.bytes(std::string_view("Init"));
  w.u8(0);
  w.u32(9);
  w.u32(1);
  for (std::uint32_t v = 1; v <= 5; ++v) w.u32(v);
  w.u32(2), w.u32(7), w.u32(8), w.u32(6);
  w.u8(0xAA), w.u8(0xBB);
  return w.take();
}

}  // namespace

TEST(Scr, decodes_spec_fixture_20_6) {
  const auto bytes = fixture_20_6();
  // 8 (counts) + 4 + 5 ("Init\0") + 4 + 4 + 28 (seven words) + 8 (two refs) + 2 (trailing) = 63
  ASSERT_EQ(bytes.size(), 63u);
  auto res = read_scr(bytes);
  ASSERT_TRUE(res) << res.error().to_string();
  const auto& p = res->package;
  EXPECT_TRUE(res->warnings.empty());
  EXPECT_EQ(p.handler_count, 73u);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].name, "Init");
  EXPECT_EQ(p.events[0].event_word, 9u);
  ASSERT_EQ(p.events[0].instructions.size(), 1u);
  const auto& ins = p.events[0].instructions[0];
  EXPECT_EQ(ins.words, (std::array<std::uint32_t, 5>{1, 2, 3, 4, 5}));
  EXPECT_EQ(ins.references, (std::vector<std::uint32_t>{7, 8}));
  EXPECT_EQ(ins.w6, 6u);
  EXPECT_EQ(p.trailing, (core::Bytes{0xAA, 0xBB}));
  EXPECT_EQ(write_scr(p), bytes);
  const auto s = scr_summary(p);
  EXPECT_EQ(s.instructions, 1u);
  EXPECT_EQ(s.references, 2u);
  EXPECT_EQ(s.handler_selectors, 1u);
}

TEST(Scr, selector_is_handler_sentinel_or_unknown) {
  EXPECT_EQ(scr_selector(0).kind, ScrSelector::Kind::handler);
  EXPECT_EQ(scr_selector(72).kind, ScrSelector::Kind::handler);
  EXPECT_EQ(scr_selector(73).kind, ScrSelector::Kind::unknown);
  EXPECT_EQ(scr_selector(73).raw, 73u);
  EXPECT_EQ(scr_selector(0xFFFFFFFFu).kind, ScrSelector::Kind::sentinel);
  EXPECT_EQ(scr_selector(0xFFFFFFFEu).kind, ScrSelector::Kind::unknown);
}

TEST(Scr, built_package_with_every_selector_kind_round_trips) {
  ScrPackage p;
  ScrEvent a{"Mission", 3, {}};
  a.instructions.push_back({{0xFFFFFFFFu, 0, 0, 0, 0}, {}, 0});
  a.instructions.push_back({{19, 1, 2, 3, 4}, {224, 225, 226}, 5});
  a.instructions.push_back({{500, 0, 0, 0, 0}, {1}, 0});
  p.events.push_back(a);
  p.events.push_back({"Fort_Task_Complete", 0, {}});
  std::string inner_nul("A\0B", 3);
  p.events.push_back({inner_nul, 1, {}});
  const auto bytes = write_scr(p);
  auto back = read_scr(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->package, p);
  const auto s = scr_summary(back->package);
  EXPECT_EQ(s.events, 3u);
  EXPECT_EQ(s.instructions, 3u);
  EXPECT_EQ(s.references, 4u);
  EXPECT_EQ(s.sentinels, 1u);
  EXPECT_EQ(s.handler_selectors, 1u);
  EXPECT_EQ(s.unknown_selectors, 1u);
}

TEST(Scr, rejects_version_mismatch_with_its_own_code) {
  const auto bytes = fixture_20_6(72);
  auto strict = read_scr(bytes);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, "scr.version_mismatch");
  EXPECT_EQ(strict.error().found, "72 handlers");
  ReadOptions compat;
  compat.profile = core::Profile::compatible;
  auto kept = read_scr(bytes, compat);
  ASSERT_TRUE(kept) << kept.error().to_string();
  ASSERT_EQ(kept->warnings.size(), 1u);
  EXPECT_EQ(kept->warnings[0].code, "scr.version_mismatch");
  EXPECT_EQ(write_scr(kept->package), bytes);
}

TEST(Scr, rejects_name_without_nul) {
  auto bytes = fixture_20_6();
  bytes[8 + 4 + 4] = 'X';  // the NUL after "Init"
  auto r = read_scr(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "scr.name_nul");
  EXPECT_EQ(r.error().offset, 16u);
}

TEST(Scr, rejects_truncated_references) {
  auto bytes = fixture_20_6();
  bytes.resize(bytes.size() - 2 - 4 - 4);  // drop trailing, w6 and the second reference
  auto r = read_scr(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "scr.count");
  EXPECT_EQ(r.error().field, "events[0].instructions[0]");
}

TEST(Scr, rejects_reference_count_overflow) {
  auto bytes = fixture_20_6();
  core::store_u32(bytes.data() + 8 + 4 + 5 + 4 + 4 + 20, 0xFFFFFFFFu);
  auto r = read_scr(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "scr.limit");
}

TEST(Scr, rejects_event_count_larger_than_the_bytes) {
  core::ByteWriter w;
  w.u32(73), w.u32(1000);  // 1000 events need at least 13000 bytes
  auto r = read_scr(w.buffer());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "scr.count");
  EXPECT_EQ(r.error().offset, 4u);
}

TEST(Scr, rejects_instruction_count_above_the_limit) {
  core::ByteWriter w;
  w.u32(73), w.u32(1), w.u32(0), w.u8(0), w.u32(0), w.u32(2'000'000);
  auto r = read_scr(w.buffer());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "scr.limit");
}

TEST(Scr, rejects_truncated_header) {
  const core::Bytes three{73, 0, 0};
  auto r = read_scr(three);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "scr.eof");
}

TEST(Scr, format_table_detects_by_extension) {
  const auto* f = sortie::formats::detect_format(fixture_20_6(), "c1m2p.scr");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "scr");
  auto j = f->inspect(fixture_20_6(), {});
  ASSERT_TRUE(j);
  EXPECT_EQ((*j)["summary"]["references"], 2);
  EXPECT_EQ((*j)["events"][0]["instructions"][0]["selector"]["kind"], "handler");
}

// Spec §31.7: the 65-byte package with one Init event holding Handler(19) over refs 224..226.
TEST(Scr, decodes_spec_example_31_7) {
  const core::Bytes bytes = {0x49, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x49,
                             0x6e, 0x69, 0x74, 0x00, 0x09, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x13,
                             0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                             0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0xe0, 0x00, 0x00,
                             0x00, 0xe1, 0x00, 0x00, 0x00, 0xe2, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  ASSERT_EQ(bytes.size(), 65u);
  auto r = read_scr(bytes);
  ASSERT_TRUE(r) << r.error().to_string();
  const ScrPackage& p = r->package;
  EXPECT_EQ(p.handler_count, 73u);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].name, "Init");
  EXPECT_EQ(p.events[0].event_word, 9u);
  ASSERT_EQ(p.events[0].instructions.size(), 1u);
  const auto sel = scr_selector(p.events[0].instructions[0].selector_word());
  EXPECT_EQ(sel.kind, ScrSelector::Kind::handler);
  EXPECT_EQ(sel.raw, 19u);
  EXPECT_EQ(p.events[0].instructions[0].references, (std::vector<std::uint32_t>{224, 225, 226}));
  EXPECT_TRUE(p.trailing.empty());
  EXPECT_EQ(write_scr(p), bytes);
}
