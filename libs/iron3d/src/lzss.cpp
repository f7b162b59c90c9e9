// Simple LZSS of RsLi methods 0x040/0x060 (spec §4.4.1).
#include <fmt/format.h>

#include <algorithm>

#include "lz_match.hpp"
#include "sortie/iron3d/rsli_codec.hpp"

namespace sortie::iron3d {
namespace {

constexpr std::size_t kRingMask = 0xFFF;
constexpr std::size_t kRingStart = 0xFEE;
constexpr std::size_t kMinMatch = 3;
constexpr std::size_t kMaxMatch = 18;

core::Diagnostic truncated(std::size_t offset, std::size_t produced, std::size_t wanted) {
  return core::Diagnostic::error("rsli.lzss.truncated", "LZSS stream ends before the declared unpacked size")
      .at(offset)
      .expect(fmt::format("{} bytes of output", wanted), fmt::format("{} bytes", produced));
}

}  // namespace

core::Result<core::Bytes> lzss_decode(core::ByteView packed, std::size_t unpacked_size) {
  if (unpacked_size == 0) return core::Bytes{};
  // 17 input bytes (a control byte and 8 references) produce at most 8 x 18 bytes.
  if (unpacked_size > packed.size() * kLzssMaxRatio + kMaxMatch)
    return core::fail(truncated(packed.size(), 0, unpacked_size)
                          .expect(fmt::format("{} bytes of output", unpacked_size),
                                  fmt::format("{} input bytes give at most {} bytes", packed.size(),
                                              packed.size() * kLzssMaxRatio + kMaxMatch)));
  core::Bytes out(unpacked_size + detail::kCopySlack);
  std::uint8_t* const base = out.data();
  std::uint8_t* o = base;
  std::uint8_t* const oend = base + unpacked_size;
  const std::uint8_t* p = packed.data();
  const std::uint8_t* const pend = p + packed.size();
  unsigned flags = 0;  // control bits in the low byte, bit 8+ marks how many are left
  while (o < oend) {
    flags >>= 1;
    if ((flags & 0x100u) == 0) {
      if (p == pend) return core::fail(truncated(packed.size(), static_cast<std::size_t>(o - base), unpacked_size));
      flags = 0xFF00u | *p++;
    }
    if (flags & 1u) {
      if (p == pend) return core::fail(truncated(packed.size(), static_cast<std::size_t>(o - base), unpacked_size));
      *o++ = *p++;
      continue;
    }
    if (pend - p < 2) return core::fail(truncated(packed.size(), static_cast<std::size_t>(o - base), unpacked_size));
    const std::size_t offset = p[0] | ((static_cast<std::size_t>(p[1]) & 0xF0u) << 4);
    std::size_t len = (p[1] & 0x0Fu) + kMinMatch;
    p += 2;
    const auto pos = static_cast<std::size_t>(o - base);
    const std::size_t write_at = (kRingStart + pos) & kRingMask;
    std::size_t d = (write_at - offset) & kRingMask;
    if (d == 0) d = kRingMask + 1;
    len = std::min(len, static_cast<std::size_t>(oend - o));
    detail::window_copy(o, pos, d, len);
    o += len;
  }
  out.resize(unpacked_size);
  return out;
}

core::Bytes lzss_encode(core::ByteView data) {
  core::Bytes out;
  out.reserve(data.size() + data.size() / 8 + 16);
  detail::MatchFinder finder(data, kRingMask, kMaxMatch);
  std::size_t control_at = 0;
  unsigned bit = 8;
  std::size_t pos = 0;
  while (pos < data.size()) {
    if (bit == 8) {
      control_at = out.size();
      out.push_back(0);
      bit = 0;
    }
    const auto m = finder.find(pos);
    if (m.length >= kMinMatch) {
      const std::size_t write_at = (kRingStart + pos) & kRingMask;
      const std::size_t offset = (write_at - m.distance) & kRingMask;
      out.push_back(static_cast<std::uint8_t>(offset & 0xFFu));
      out.push_back(static_cast<std::uint8_t>(((offset >> 4) & 0xF0u) | (m.length - kMinMatch)));
      for (std::size_t k = 0; k < m.length; ++k) finder.insert(pos + k);
      pos += m.length;
    } else {
      out[control_at] = static_cast<std::uint8_t>(out[control_at] | (1u << bit));
      out.push_back(data[pos]);
      finder.insert(pos);
      ++pos;
    }
    ++bit;
  }
  return out;
}

}  // namespace sortie::iron3d
