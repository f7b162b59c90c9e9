// RsLi payload codecs: XOR stream vectors, LZSS (§4.4.1), LZHUF (§4.4.2), raw Deflate (§4.4.3).
#include "sortie/iron3d/rsli_codec.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include "rsli_fixture.hpp"
#include "sortie/core/rng.hpp"

namespace sortie::iron3d {
namespace {

using core::Bytes;
using test::bytes_of;

Bytes random_bytes(std::uint64_t seed, std::size_t n, unsigned alphabet = 256) {
  core::Rng rng(seed);
  Bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng.below(alphabet));
  return b;
}

// Text-like data with repeats, so the LZ encoders find matches of every length and distance.
Bytes structured_bytes(std::uint64_t seed, std::size_t n) {
  core::Rng rng(seed);
  static const char* kWords[] = {"tank ", "bunker ", "SPRITE", "\r\n",        "Iron3D ",
                                 "0000",  "    ",    "lzss",   "\x01\x02\x03"};
  Bytes b;
  while (b.size() < n) {
    const auto pick = rng.below(12);
    if (pick < 9) {
      std::string_view w = kWords[pick];
      b.insert(b.end(), w.begin(), w.end());
    } else if (pick == 9 && b.size() > 100) {
      const std::size_t back = 1 + rng.below(static_cast<std::uint32_t>(std::min<std::size_t>(b.size(), 5000)));
      const std::size_t len = 1 + rng.below(80);
      for (std::size_t k = 0; k < len; ++k) b.push_back(b[b.size() - back]);
    } else {
      b.push_back(static_cast<std::uint8_t>(rng.below(256)));
    }
  }
  b.resize(n);
  return b;
}

TEST(RsliXor, matches_spec_vector_key_1234) {
  Bytes b{0x00, 0x01, 0x02, 0x03};
  xor_stream(0x1234, b);
  EXPECT_EQ(b, (Bytes{0x7A, 0x86, 0xB2, 0x8C}));
}

TEST(RsliXor, matches_spec_vector_key_abba_on_zeros) {
  Bytes b(8, 0);
  xor_stream(0xABBA, b);
  EXPECT_EQ(b, (Bytes{0xDF, 0x34, 0x19, 0x13, 0x25, 0x6E, 0xA0, 0xDE}));
}

TEST(RsliXor, key_zero_is_identity_and_key_one_starts_02_06_0b_1e) {
  Bytes b = random_bytes(1, 100);
  EXPECT_EQ(xor_stream_copy(0, b), b);
  Bytes z(4, 0);
  xor_stream(1, z);
  EXPECT_EQ(z, (Bytes{0x02, 0x06, 0x0B, 0x1E}));
}

TEST(RsliXor, lane_split_equals_serial_stream_and_continues) {
  for (std::size_t n : {0u, 1u, 1023u, 1024u, 1025u, 4099u, 70001u}) {
    for (std::uint16_t key : {std::uint16_t{0x0001}, std::uint16_t{0xBEEF}, std::uint16_t{0xFFFF}}) {
      const Bytes src = random_bytes(n + key, n);
      Bytes serial = src;
      XorStream s(key);
      for (auto& x : serial) x = static_cast<std::uint8_t>(x ^ s.next());
      Bytes fast = src;
      XorStream f(key);
      f.apply(fast);
      EXPECT_EQ(fast, serial) << n << " " << key;
      EXPECT_EQ(f.state(), s.state()) << n << " " << key;
      // Symmetric: applying again restores the input.
      xor_stream(key, fast);
      EXPECT_EQ(fast, src);
    }
  }
}

TEST(RsliLzss, decodes_three_literals) {
  auto r = lzss_decode(Bytes{0x07, 'A', 'B', 'C'}, 3);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(*r, bytes_of("ABC"));
}

TEST(RsliLzss, reference_to_0xfff_wraps_into_initial_spaces) {
  auto r = lzss_decode(Bytes{0x00, 0xFF, 0xF1}, 4);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, bytes_of("    "));
}

TEST(RsliLzss, overlapping_copy_reads_fresh_bytes) {
  // Literal 'a' at ring 0xFEE, then reference to 0xFEE length 5: "aaaaaa".
  auto r = lzss_decode(Bytes{0x01, 'a', 0xEE, 0xF2}, 6);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, bytes_of("aaaaaa"));
}

TEST(RsliLzss, stops_mid_copy_at_unpacked_size_and_ignores_rest) {
  auto r = lzss_decode(Bytes{0x00, 0xFF, 0xFF, 0x99, 0x99}, 5);  // length 18 copy cut to 5
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, bytes_of("     "));
}

TEST(RsliLzss, rejects_stream_ending_before_unpacked_size) {
  auto r = lzss_decode(Bytes{0x07, 'A', 'B'}, 3);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.lzss.truncated");
  auto half_ref = lzss_decode(Bytes{0x00, 0xFF}, 3);
  ASSERT_FALSE(half_ref);
  EXPECT_EQ(half_ref.error().code, "rsli.lzss.truncated");
  auto no_control = lzss_decode(Bytes{}, 1);
  ASSERT_FALSE(no_control);
  EXPECT_EQ(no_control.error().code, "rsli.lzss.truncated");
}

TEST(RsliLzss, rejects_unreachable_declared_size_before_allocating) {
  auto r = lzss_decode(Bytes{0x00, 0xFF, 0xFF}, 100'000'000);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.lzss.truncated");
}

TEST(RsliLzss, round_trips_random_and_structured_data) {
  for (std::size_t n : {0u, 1u, 2u, 3u, 17u, 18u, 19u, 4095u, 4096u, 4097u, 20000u}) {
    for (const Bytes& src : {random_bytes(n, n), random_bytes(n + 7, n, 3), structured_bytes(n, n)}) {
      const Bytes packed = lzss_encode(src);
      auto back = lzss_decode(packed, src.size());
      ASSERT_TRUE(back) << n << ": " << back.error().to_string();
      EXPECT_EQ(*back, src) << n;
    }
  }
  const Bytes text = structured_bytes(99, 200'000);
  EXPECT_LT(lzss_encode(text).size(), text.size() / 2);  // the match finder finds matches
}

TEST(RsliLzhuf, first_literal_of_fresh_tree_from_zero_bits_is_t) {
  auto r = lzhuf_decode(Bytes{0x00}, 1);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(*r, bytes_of("t"));
}

TEST(RsliLzhuf, round_trips_random_and_structured_data) {
  for (std::size_t n : {0u, 1u, 2u, 3u, 60u, 61u, 4095u, 4096u, 4097u, 30000u}) {
    for (const Bytes& src : {random_bytes(n, n), random_bytes(n + 3, n, 2), structured_bytes(n, n)}) {
      const Bytes packed = lzhuf_encode(src);
      auto back = lzhuf_decode(packed, src.size());
      ASSERT_TRUE(back) << n << ": " << back.error().to_string();
      EXPECT_EQ(*back, src) << n;
    }
  }
}

TEST(RsliLzhuf, survives_frequency_rebuild_on_long_skewed_input) {
  // More than 0x8000 symbols forces the tree rebuild (freq[root] reaches 0x8000).
  const Bytes src = random_bytes(5, 300'000, 4);
  auto back = lzhuf_decode(lzhuf_encode(src), src.size());
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, src);
}

TEST(RsliLzhuf, uses_canonical_position_decoding) {
  // "abcabc": literals a b c, then a 3-byte match 3 back (position code 2). A decoder that ORs
  // the first byte's low bits back in (the defect of §4.4.2) would copy from elsewhere.
  const Bytes src = bytes_of("abcabcabcabcXabcabc");
  const Bytes packed = lzhuf_encode(src);
  EXPECT_LT(packed.size(), src.size());
  auto back = lzhuf_decode(packed, src.size());
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, src);
}

TEST(RsliLzhuf, rejects_truncated_stream) {
  const Bytes src = structured_bytes(3, 5000);
  Bytes packed = lzhuf_encode(src);
  packed.resize(packed.size() / 2);
  auto r = lzhuf_decode(packed, src.size());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.lzhuf.truncated");
  auto empty = lzhuf_decode(Bytes{}, 1);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, "rsli.lzhuf.truncated");
}

TEST(RsliDeflate, inflates_stored_block_raw) {
  auto r = inflate_raw(Bytes{0x01, 0x03, 0x00, 0xFC, 0xFF, 'r', 'a', 'w'}, 3);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(*r, bytes_of("raw"));
}

TEST(RsliDeflate, rejects_zlib_wrapped_stream) {
  const Bytes src = bytes_of("zlib wrapped payload zlib wrapped payload");
  Bytes wrapped(compressBound(static_cast<uLong>(src.size())));
  uLongf len = static_cast<uLongf>(wrapped.size());
  ASSERT_EQ(compress2(wrapped.data(), &len, src.data(), static_cast<uLong>(src.size()), 9), Z_OK);
  wrapped.resize(len);
  ASSERT_EQ(wrapped[0], 0x78);
  auto r = inflate_raw(wrapped, src.size());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.deflate.corrupt");
}

TEST(RsliDeflate, rejects_output_larger_than_declared) {
  auto r = inflate_raw(Bytes{0x01, 0x03, 0x00, 0xFC, 0xFF, 'r', 'a', 'w'}, 2);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.deflate.overrun");
}

TEST(RsliDeflate, rejects_output_smaller_than_declared) {
  auto r = inflate_raw(Bytes{0x01, 0x03, 0x00, 0xFC, 0xFF, 'r', 'a', 'w'}, 4);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.size_mismatch");
}

TEST(RsliDeflate, rejects_stream_without_final_block) {
  auto r = inflate_raw(Bytes{0x00, 0x03, 0x00, 0xFC, 0xFF, 'r', 'a', 'w'}, 3);  // BFINAL = 0, nothing follows
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "rsli.deflate.truncated");
}

TEST(RsliDeflate, round_trips_random_and_structured_data) {
  for (std::size_t n : {0u, 1u, 1000u, 70000u}) {
    for (const Bytes& src : {random_bytes(n, n), structured_bytes(n, n)}) {
      auto packed = deflate_raw(src);
      ASSERT_TRUE(packed);
      auto back = inflate_raw(*packed, src.size());
      ASSERT_TRUE(back) << back.error().to_string();
      EXPECT_EQ(*back, src);
    }
  }
}

TEST(RsliCodecs, arbitrary_streams_never_crash_and_fail_with_codec_codes) {
  core::Rng rng(77);
  for (int iter = 0; iter < 3000; ++iter) {
    const Bytes in = random_bytes(static_cast<std::uint64_t>(iter), rng.below(64));
    const std::size_t want = rng.below(600);
    for (auto r : {lzss_decode(in, want), lzhuf_decode(in, want), inflate_raw(in, want)}) {
      if (r) {
        EXPECT_EQ(r->size(), want);
      } else {
        EXPECT_EQ(r.error().code.rfind("rsli.", 0), 0u) << r.error().code;
      }
    }
  }
}

}  // namespace
}  // namespace sortie::iron3d
