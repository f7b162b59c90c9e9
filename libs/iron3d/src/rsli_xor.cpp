// The RsLi two-byte XOR stream (spec §4.2).
//
// The state update is linear over GF(2) (only XORs and shifts), so the state n steps ahead is
// a 16x16 bit-matrix times the current state. Long buffers are cut into four lanes whose
// start states are computed with that jump; the four independent recurrences then run
// interleaved, which hides the two-cycle dependency of a single stream.
#include <array>

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

inline Lane lane_of(std::uint16_t state) {
  return {static_cast<std::uint8_t>(state & 0xFFu), static_cast<std::uint8_t>(state >> 8)};
}

inline std::uint8_t step(Lane& s) {
  s.lo = static_cast<std::uint8_t>(s.hi ^ static_cast<std::uint8_t>(s.lo << 1));
  s.hi = static_cast<std::uint8_t>(s.lo ^ (s.hi >> 1));
  return s.lo;
}

constexpr std::size_t kLaneThreshold = 1024;

}  // namespace

void XorStream::apply(std::span<std::uint8_t> data) {
  std::uint8_t* p = data.data();
  const std::size_t n = data.size();
  if (n < kLaneThreshold) {
    Lane s{lo_, hi_};
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(p[i] ^ step(s));
    lo_ = s.lo;
    hi_ = s.hi;
    return;
  }
  const std::size_t len = n / 4;
  const BitMatrix jump = advance_matrix(len);
  const std::uint16_t s0 = state();
  const std::uint16_t s1 = apply_matrix(jump, s0);
  const std::uint16_t s2 = apply_matrix(jump, s1);
  const std::uint16_t s3 = apply_matrix(jump, s2);
  Lane a = lane_of(s0), b = lane_of(s1), c = lane_of(s2), d = lane_of(s3);
  std::uint8_t* pa = p;
  std::uint8_t* pb = p + len;
  std::uint8_t* pc = p + 2 * len;
  std::uint8_t* pd = p + 3 * len;
  for (std::size_t i = 0; i < len; ++i) {
    pa[i] = static_cast<std::uint8_t>(pa[i] ^ step(a));
    pb[i] = static_cast<std::uint8_t>(pb[i] ^ step(b));
    pc[i] = static_cast<std::uint8_t>(pc[i] ^ step(c));
    pd[i] = static_cast<std::uint8_t>(pd[i] ^ step(d));
  }
  for (std::size_t i = 4 * len; i < n; ++i) p[i] = static_cast<std::uint8_t>(p[i] ^ step(d));
  lo_ = d.lo;
  hi_ = d.hi;
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
