// The RsLi two-byte XOR stream (spec §4.2).
//
// The state update is linear over GF(2) (only XORs and shifts), so the state n steps ahead is
// a 16x16 bit-matrix times the current state. Long buffers are cut into eight lanes whose
// start states are computed with that jump; the eight independent recurrences then run as
// bytes of one 64-bit word (SWAR), which hides the serial dependency of a single stream.
#include <array>
#include <bit>
#include <cstring>

#include "sortie/iron3d/rsli_codec.hpp"

namespace sortie::iron3d {
namespace {

// Column b holds the image of state bit b.
using BitMatrix = std::array<std::uint16_t, 16>;

std::uint16_t apply_matrix(const BitMatrix& m, std::uint16_t v) {
  std::uint16_t r = 0;
  for (unsigned b = 0; b < 16; ++b)
    if ((v >> b) & 1u) r = static_cast<std::uint16_t>(r ^ m[b]);
  return r;
}

BitMatrix compose(const BitMatrix& a, const BitMatrix& b) {  // a after b
  BitMatrix c{};
  for (unsigned col = 0; col < 16; ++col) c[col] = apply_matrix(a, b[col]);
  return c;
}

// Matrix advancing the state by `steps` bytes.
BitMatrix advance_matrix(std::uint64_t steps) {
  BitMatrix result{};
  BitMatrix base{};
  for (unsigned b = 0; b < 16; ++b) {
    result[b] = static_cast<std::uint16_t>(1u << b);
    XorStream s(static_cast<std::uint16_t>(1u << b));
    (void)s.next();
    base[b] = s.state();
  }
  while (steps != 0) {
    if (steps & 1u) result = compose(base, result);
    base = compose(base, base);
    steps >>= 1;
  }
  return result;
}

struct Lane {
  std::uint8_t lo;
  std::uint8_t hi;
};

inline std::uint8_t step(Lane& s) {
  s.lo = static_cast<std::uint8_t>(s.hi ^ static_cast<std::uint8_t>(s.lo << 1));
  s.hi = static_cast<std::uint8_t>(s.lo ^ (s.hi >> 1));
  return s.lo;
}

constexpr std::size_t kLaneThreshold = 1024;

// Transposes an 8x8 byte matrix held as eight little-endian rows.
inline void transpose8x8(std::uint64_t (&x)[8]) {
  constexpr std::uint64_t kMask[3] = {0x00FF00FF00FF00FFull, 0x0000FFFF0000FFFFull, 0x00000000FFFFFFFFull};
  for (unsigned stage = 0, s = 1; stage < 3; ++stage, s <<= 1) {
    for (unsigned i = 0; i < 8; ++i) {
      if (i & s) continue;
      const std::uint64_t t = ((x[i] >> (8 * s)) ^ x[i + s]) & kMask[stage];
      x[i + s] ^= t;
      x[i] ^= t << (8 * s);
    }
  }
}

}  // namespace

void XorStream::apply(std::span<std::uint8_t> data) {
  std::uint8_t* p = data.data();
  const std::size_t n = data.size();
  if (n < kLaneThreshold || std::endian::native != std::endian::little) {
    Lane s{lo_, hi_};
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(p[i] ^ step(s));
    lo_ = s.lo;
    hi_ = s.hi;
    return;
  }
  // Eight lanes of `len` bytes each; lane j starts j * len bytes into the stream. The lanes'
  // state bytes sit side by side in two words, so one word step advances all eight; every 8
  // steps the 8 keystream words are transposed into 8 runs of 8 bytes, one per lane.
  const std::size_t len = (n / 64) * 8;
  const BitMatrix jump = advance_matrix(len);
  std::uint64_t lo = 0, hi = 0;
  std::uint16_t st = state();
  for (unsigned j = 0; j < 8; ++j) {
    lo |= std::uint64_t{static_cast<std::uint8_t>(st & 0xFFu)} << (8 * j);
    hi |= std::uint64_t{static_cast<std::uint8_t>(st >> 8)} << (8 * j);
    st = apply_matrix(jump, st);
  }
  constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
  constexpr std::uint64_t kHigh7 = 0xFEFEFEFEFEFEFEFEull;
  for (std::size_t t0 = 0; t0 < len; t0 += 8) {
    std::uint64_t k[8];
    for (auto& word : k) {
      lo = hi ^ ((lo << 1) & kHigh7);
      hi = lo ^ ((hi >> 1) & kLow7);
      word = lo;
    }
    transpose8x8(k);
    for (unsigned j = 0; j < 8; ++j) {
      std::uint8_t* q = p + j * len + t0;
      std::uint64_t v;
      std::memcpy(&v, q, 8);
      v ^= k[j];
      std::memcpy(q, &v, 8);
    }
  }
  Lane last{static_cast<std::uint8_t>(lo >> 56), static_cast<std::uint8_t>(hi >> 56)};
  for (std::size_t i = 8 * len; i < n; ++i) p[i] = static_cast<std::uint8_t>(p[i] ^ step(last));
  lo_ = last.lo;
  hi_ = last.hi;
}

void xor_stream(std::uint16_t key, std::span<std::uint8_t> data) {
  XorStream s(key);
  s.apply(data);
}

core::Bytes xor_stream_copy(std::uint16_t key, core::ByteView data) {
  core::Bytes out(data.begin(), data.end());
  xor_stream(key, out);
  return out;
}

}  // namespace sortie::iron3d
