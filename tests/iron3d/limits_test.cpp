// Every limit of iron3d/limits.hpp, fed at the limit (accepted) and one above (refused with its
// diagnostic). Limits of hundreds of MiB are tested one of two ways, named at each test: the
// archive limits are NresLimits / RsliLimits options whose defaults are the constants (a small
// override is fed, and the default is checked to be the constant); a count is declared in a
// header without its bytes (at the limit the reader passes the limit check and stops at the end
// of the data, one above it stops at the limit). mission.cfg's three limits have their
// limit / limit + 1 tests in mission_cfg_test.cpp (rejects_*_over_the_*_limit).
#include "sortie/iron3d/limits.hpp"

#include <gtest/gtest.h>

#include "nres_fixtures.hpp"
#include "rsli_fixture.hpp"
#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/behavior_ini.hpp"
#include "sortie/iron3d/build_dat.hpp"
#include "sortie/iron3d/fml.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"
#include "sortie/iron3d/scr.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/iron3d/varset.hpp"
#include "sortie/iron3d/wear.hpp"
#include "tma_fixtures.hpp"

namespace sortie::iron3d {
namespace {

template <class T>
void expect_code(const core::Result<T>& r, std::string_view code) {
  ASSERT_FALSE(r.has_value()) << "accepted, expected " << code;
  EXPECT_EQ(r.error().code, code) << r.error().to_string();
}

template <class T>
void expect_ok(const core::Result<T>& r) {
  EXPECT_TRUE(r.has_value()) << r.error().to_string();
}

// ---------------------------------------------------------------- NRes (options, small overrides)

TEST(Iron3dLimits, nres_defaults_are_the_constants) {
  const NresLimits d;
  EXPECT_EQ(d.max_input, kNresMaxInput);
  EXPECT_EQ(d.max_entries, kNresMaxEntries);
  EXPECT_EQ(d.max_payload, kNresMaxPayload);
  EXPECT_EQ(d.max_total_payload, kNresMaxTotalPayload);
  EXPECT_EQ(d.max_preserved, kNresMaxPreserved);
}

TEST(Iron3dLimits, nres_input_entries_payload_total_and_preserved) {
  using nres_test::simple;
  const core::Bytes three = simple({{"a", "1234"}, {"b", "12345"}, {"c", "1"}});
  auto with = [](auto set) {
    NresReadOptions o;
    set(o.limits);
    return o;
  };
  auto nres = [](const core::Bytes& b, const NresReadOptions& o) { return read_nres(b, o); };
  expect_ok(nres(three, with([&](NresLimits& l) { l.max_input = three.size(); })));
  expect_code(nres(three, with([&](NresLimits& l) { l.max_input = three.size() - 1; })), "nres.limit");
  expect_ok(nres(three, with([](NresLimits& l) { l.max_entries = 3; })));
  expect_code(nres(three, with([](NresLimits& l) { l.max_entries = 2; })), "nres.limit");
  expect_ok(nres(three, with([](NresLimits& l) { l.max_payload = 5; })));
  expect_code(nres(three, with([](NresLimits& l) { l.max_payload = 4; })), "nres.limit");
  expect_ok(nres(three, with([](NresLimits& l) { l.max_total_payload = 10; })));
  expect_code(nres(three, with([](NresLimits& l) { l.max_total_payload = 9; })), "nres.limit");
  // Gaps: 4 prefix bytes + 7 padding bytes after the one-byte payload.
  const core::Bytes gap = nres_test::with_prefix_gap(simple({{"one", "x"}}), nres_test::hex("aabbccdd"));
  expect_ok(nres(gap, with([](NresLimits& l) { l.max_preserved = 11; })));
  expect_code(nres(gap, with([](NresLimits& l) { l.max_preserved = 10; })), "nres.limit");
}

// ---------------------------------------------------------------- RsLi (options, small overrides)

TEST(Iron3dLimits, rsli_defaults_are_the_constants) {
  const RsliLimits d;
  EXPECT_EQ(d.max_file, kRsliMaxFile);
  EXPECT_EQ(d.max_entries, kRsliMaxEntries);
  EXPECT_EQ(d.max_packed, kRsliMaxPacked);
  EXPECT_EQ(d.max_unpacked, kRsliMaxUnpacked);
  EXPECT_EQ(kRsliEditMaxPayload, kRsliMaxUnpacked);  // every edit reads back
}

TEST(Iron3dLimits, rsli_file_entries_packed_and_unpacked) {
  const core::Bytes two = test::synthetic_rsli(
      {{.name = "A", .unpacked = 3, .payload = test::bytes_of("raw")}, {.name = "B", .unpacked = 1, .payload = {7}}},
      false, 0);
  auto with = [](auto set) {
    RsliReadOptions o = RsliReadOptions::from_profile(core::Profile::strict, "t.rlb");
    set(o.limits);
    return o;
  };
  expect_ok(read_rsli(two, with([&](RsliLimits& l) { l.max_file = two.size(); })));
  expect_code(read_rsli(two, with([&](RsliLimits& l) { l.max_file = two.size() - 1; })), "rsli.limit");
  expect_ok(read_rsli(two, with([](RsliLimits& l) { l.max_entries = 2; })));
  expect_code(read_rsli(two, with([](RsliLimits& l) { l.max_entries = 1; })), "rsli.limit");
  expect_ok(read_rsli(two, with([](RsliLimits& l) { l.max_packed = 3; })));
  expect_code(read_rsli(two, with([](RsliLimits& l) { l.max_packed = 2; })), "rsli.limit");
  expect_ok(read_rsli(two, with([](RsliLimits& l) { l.max_unpacked = 3; })));
  expect_code(read_rsli(two, with([](RsliLimits& l) { l.max_unpacked = 2; })), "rsli.limit");
}

// ---------------------------------------------------------------- data.tma (declared counts)

const core::Bytes& kTmaMinimal = tma_test::kMinimal;
const core::Bytes& kTmaRich = tma_test::kRich;

// The count at `at` declared as `limit` stops at the end of the data (tma.eof); limit + 1 stops
// at the limit (tma.limit) naming `field`.
void expect_tma_count(const core::Bytes& base, std::size_t at, std::uint32_t limit, std::string_view field) {
  SCOPED_TRACE(std::string(field));
  core::Bytes b = base;
  nres_test::put_u32(b, at, limit);
  const auto at_limit = read_tma(b, {core::Profile::strict, "data.tma"});
  ASSERT_FALSE(at_limit.has_value());
  EXPECT_EQ(at_limit.error().code, "tma.eof") << at_limit.error().to_string();
  nres_test::put_u32(b, at, limit + 1);
  const auto over = read_tma(b, {core::Profile::strict, "data.tma"});
  expect_code(over, "tma.limit");
  if (!over) {
    EXPECT_EQ(over.error().field, field);
  }
}

TEST(Iron3dLimits, tma_counts) {
  ASSERT_TRUE(read_tma(kTmaMinimal, {core::Profile::strict, "data.tma"}).has_value());
  ASSERT_TRUE(read_tma(kTmaRich, {core::Profile::strict, "data.tma"}).has_value());
  expect_tma_count(kTmaMinimal, 0x04, kTmaMaxPaths, "path_count");
  expect_tma_count(kTmaMinimal, 0x0c, kTmaMaxClans, "clan_count");
  expect_tma_count(kTmaMinimal, 0x14, kTmaMaxObjects, "object_count");
  expect_tma_count(kTmaMinimal, kTmaMinimal.size() - 4, kTmaMaxExtras, "extra_count");
  expect_tma_count(kTmaRich, 0x0c, kTmaMaxPoints, "paths[0].point_count");
  expect_tma_count(kTmaRich, 0x48, kTmaMaxSpatialGroups, "clans[0].spatial_group_count");
  expect_tma_count(kTmaRich, 0x4c, kTmaMaxSpatialRecords, "clans[0].spatial_groups[0].record_count");
  expect_tma_count(kTmaRich, 0xda, kTmaMaxProperties, "objects[0].property_count");
}

TEST(Iron3dLimits, tma_relations) {
  // One clan written by our writer with kTmaMaxRelations relations reads back; the count one
  // above (patched, the writer refuses it) is refused.
  Tma t = read_tma(kTmaMinimal, {core::Profile::strict, "data.tma"}).value();
  Tma rich = read_tma(kTmaRich, {core::Profile::strict, "data.tma"}).value();
  TmaClan clan = rich.clans.at(0);
  clan.relations.assign(kTmaMaxRelations, clan.relations.empty() ? TmaRelation{} : clan.relations.front());
  t.clans = {clan};
  const core::Bytes b = write_tma(t).value();
  const auto back = read_tma(b, {core::Profile::strict, "data.tma"});
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(back->clans.at(0).relations.size(), kTmaMaxRelations);
  clan.relations.push_back(clan.relations.front());
  t.clans = {clan};
  expect_code(write_tma(t), "tma.write.limit");
}

TEST(Iron3dLimits, tma_string) {
  // The land path's length (offset 0x18) at 64 KiB passes and runs out of data; one above is
  // refused before a byte of it is read.
  core::Bytes b = kTmaMinimal;
  nres_test::put_u32(b, 0x18, kTmaMaxString);
  expect_code(read_tma(b, {core::Profile::strict, "data.tma"}), "tma.eof");
  nres_test::put_u32(b, 0x18, kTmaMaxString + 1);
  expect_code(read_tma(b, {core::Profile::strict, "data.tma"}), "tma.string_too_long");
}

// ---------------------------------------------------------------- .scr (declared counts)

core::Bytes scr_header(std::uint32_t events) {
  core::ByteWriter w;
  w.u32(kScrHandlerCount), w.u32(events);
  return w.take();
}

TEST(Iron3dLimits, scr_events_instructions_references_and_names) {
  expect_code(read_scr(scr_header(kScrMaxEvents)), "scr.count");
  expect_code(read_scr(scr_header(kScrMaxEvents + 1)), "scr.limit");
  auto event = [](std::uint32_t name_len, std::uint32_t instructions) {
    core::ByteWriter w;
    w.u32(kScrHandlerCount), w.u32(1), w.u32(name_len);
    if (name_len < 16) {
      w.bytes(std::string(name_len, 'E'));
      w.u8(0), w.u32(0), w.u32(instructions);
    } else {
      w.bytes(core::Bytes(16, 0));  // room for one event's minimum, not for the name
    }
    return w.take();
  };
  expect_code(read_scr(event(kScrMaxNameLength, 0)), "scr.eof");
  expect_code(read_scr(event(kScrMaxNameLength + 1, 0)), "scr.limit");
  expect_code(read_scr(event(4, kScrMaxInstructions)), "scr.count");
  expect_code(read_scr(event(4, kScrMaxInstructions + 1)), "scr.limit");
  auto refs = [](std::uint32_t count) {
    core::ByteWriter w;
    w.u32(kScrHandlerCount), w.u32(1), w.u32(1), w.u8('E'), w.u8(0), w.u32(0), w.u32(1);
    for (std::uint32_t v = 0; v < 5; ++v) w.u32(v);
    w.u32(count), w.u32(0);  // w6: the instruction's 28 bytes are there, its references not
    return w.take();
  };
  expect_code(read_scr(refs(kScrMaxReferences)), "scr.count");
  expect_code(read_scr(refs(kScrMaxReferences + 1)), "scr.limit");
}

// ---------------------------------------------------------------- text formats

TEST(Iron3dLimits, varset_declarations) {
  std::string text;
  for (std::size_t i = 0; i < kVarsetMaxDeclarations; ++i) text += "VAR(DWORD, v, 0);\n";
  expect_ok(read_varset(core::as_bytes(text), {}));
  text += "VAR(DWORD, v, 0);\n";
  expect_code(read_varset(core::as_bytes(text), {}), "varset.limit");
}

TEST(Iron3dLimits, behavior_ini_entries) {
  std::string text;
  for (std::size_t i = 0; i < kBehaviorIniMaxEntries; ++i) text += "K" + std::to_string(i) + "=1\n";
  ReadOptions o;
  o.profile = core::Profile::compatible;
  expect_ok(read_behavior_ini(core::as_bytes(text), o));
  text += "K=1\n";
  expect_code(read_behavior_ini(core::as_bytes(text), o), "behavior_ini.limit");
}

TEST(Iron3dLimits, fml_bytes) {
  std::string text(kFmlMaxBytes, 'x');
  expect_ok(read_fml(core::as_bytes(text), {}));
  text += 'x';
  expect_code(read_fml(core::as_bytes(text), {}), "fml.limit");
}

TEST(Iron3dLimits, fml_lines) {
  const std::string lines(kFmlMaxLines - 1, '\n');  // kFmlMaxLines lines
  expect_ok(read_fml(core::as_bytes(lines), {}));
  expect_code(read_fml(core::as_bytes(lines + "\n"), {}), "fml.limit");
}

TEST(Iron3dLimits, wear_lines) {
  // kWearMaxLines lines (the last one empty) pass the line limit; the table itself is then
  // refused for its content (an empty count line), not for its size.
  const std::string text(kWearMaxLines - 1, '\n');
  const auto at_limit = read_wear(core::as_bytes(text));
  ASSERT_FALSE(at_limit.has_value());
  EXPECT_NE(at_limit.error().code, "wear.limit");
  expect_code(read_wear(core::as_bytes(text + "\n")), "wear.limit");
}

TEST(Iron3dLimits, build_dat_bytes) {
  const std::string body = "Mine 1\n\"UNITS\\BUILDS\\mine.dat\"\n";
  std::string text = body + "//" + std::string(kBuildDatMaxBytes - body.size() - 3, 'c') + "\n";
  ASSERT_EQ(text.size(), kBuildDatMaxBytes);
  expect_ok(read_build_dat(core::as_bytes(text), {core::Profile::compatible, "BuildDat.lst"}));
  text.insert(text.size() - 1, "c");
  expect_code(read_build_dat(core::as_bytes(text), {core::Profile::compatible, "BuildDat.lst"}), "build_dat.limit");
}

}  // namespace
}  // namespace sortie::iron3d
