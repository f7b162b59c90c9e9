#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/rng.hpp"

using namespace sortie::core;
namespace fs = std::filesystem;

TEST(Diagnostic, formats_location_field_and_expectation) {
  auto d = Diagnostic::error("tma.clan.mode_unknown", "unknown clan mode")
               .of("data.tma")
               .at(0x1a4)
               .in("mode")
               .expect("0..3", "7");
  d = std::move(d).within("clans[2]");
  EXPECT_EQ(d.to_string(),
            "data.tma: 0x1a4: clans[2].mode: unknown clan mode (expected 0..3, found 7) [tma.clan.mode_unknown]");
  const auto j = d.to_json();
  EXPECT_EQ(j["code"], "tma.clan.mode_unknown");
  EXPECT_EQ(j["offset"], 0x1a4);
  EXPECT_EQ(j["offset_hex"], "0x1a4");
  EXPECT_EQ(j["field"], "clans[2].mode");
  EXPECT_EQ(j["severity"], "error");
}

namespace {
Result<int> parse_positive(int v) {
  if (v <= 0) return fail(Diagnostic::error("t.neg", "not positive"));
  return v;
}
Result<int> twice(int v) {
  SORTIE_TRY(int x, parse_positive(v));
  SORTIE_CHECK(parse_positive(x));
  return 2 * x;
}
}  // namespace

TEST(Result, try_macros_propagate_errors) {
  EXPECT_EQ(*twice(4), 8);
  auto r = twice(-1);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, "t.neg");
}

TEST(Hash, is_stable_across_builds) {
  // XXH3-64 of "" with seed 0 is a published constant.
  EXPECT_EQ(hash64(std::string_view("")), 0x2D06800538D394C2ull);
  StateHasher a, b;
  a.u32(1);
  a.str("x");
  b.u32(1);
  b.str("x");
  EXPECT_EQ(a.digest(), b.digest());
  StateHasher c;
  c.u32(2);
  c.str("x");
  EXPECT_NE(a.digest(), c.digest());
  EXPECT_EQ(hash_hex(0xabc), "0000000000000abc");
}

TEST(Rng, same_seed_same_stream_same_sequence) {
  Rng a(42, 1), b(42, 1), c(42, 2);
  std::set<std::uint32_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const auto x = a.below(10);
    EXPECT_EQ(x, b.below(10));
    EXPECT_LT(x, 10u);
    seen.insert(x);
  }
  EXPECT_EQ(seen.size(), 10u);
  EXPECT_NE(Rng(42, 1).next_u64(), c.next_u64());
  Rng r(7);
  for (int i = 0; i < 1000; ++i) {
    const auto v = r.range(-3, 3);
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 3);
    const float f = r.unit_f32();
    EXPECT_GE(f, 0.0f);
    EXPECT_LT(f, 1.0f);
  }
}

TEST(FileIo, atomic_write_replaces_and_reads_back) {
  const fs::path dir = fs::temp_directory_path() / "sortie_core_test";
  fs::create_directories(dir);
  const fs::path p = dir / "out.bin";
  ASSERT_TRUE(write_file_atomic(p, std::string_view("first")).has_value());
  ASSERT_TRUE(write_file_atomic(p, std::string_view("second")).has_value());
  EXPECT_EQ(*read_text_file(p), "second");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u);  // no temporary left behind
  auto too_big = read_file(p, 3);
  ASSERT_FALSE(too_big.has_value());
  EXPECT_EQ(too_big.error().code, "io.too_large");
  auto missing = read_file(dir / "missing");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, "io.open");
  auto into_missing_dir = write_file_atomic(dir / "no" / "such" / "x", std::string_view("x"));
  EXPECT_FALSE(into_missing_dir.has_value());
  fs::remove_all(dir);
}

TEST(Json, legacy_text_keeps_raw_when_lossy) {
  auto ok = legacy_text_json("\xcf\xf0\xe8");
  EXPECT_EQ(ok["text"], "При");
  EXPECT_FALSE(ok.contains("raw_hex"));
  auto lossy = legacy_text_json("a\x98");
  EXPECT_EQ(lossy["raw_hex"], "6198");
  auto fixed = fixed_string_json(FixedString{std::string("ab\0cd", 5)});
  EXPECT_EQ(fixed["text"], "ab");
  EXPECT_EQ(fixed["raw_hex"], "6162006364");
}
