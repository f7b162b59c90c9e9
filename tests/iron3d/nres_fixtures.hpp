#pragma once
// Small helpers for NRes tests: hex literals with spaces, byte copies, field patching.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d::nres_test {

inline core::Bytes hex(std::string_view spaced) {
  std::string compact;
  for (char c : spaced)
    if (c != ' ') compact.push_back(c);
  return core::from_hex(compact).value();
}

inline core::Bytes bytes_of(core::ByteView v) {
  return core::Bytes(v.begin(), v.end());
}
inline core::Bytes bytes_of(std::string_view s) {
  return bytes_of(core::as_bytes(s));
}

inline std::uint32_t get_u32(const core::Bytes& b, std::size_t at) {
  return core::load_u32(b.data() + at);
}
inline void put_u32(core::Bytes& b, std::size_t at, std::uint32_t v) {
  core::store_u32(b.data() + at, v);
}

// Offset of directory record `i` (from the header fields of a well-formed image).
inline std::size_t record_at(const core::Bytes& b, std::size_t i) {
  return get_u32(b, 12) - get_u32(b, 8) * 64u + i * 64u;
}
// Record field offsets.
inline constexpr std::size_t kType = 0, kAttr1 = 4, kAttr2 = 8, kSize = 12, kAttr3 = 16, kName = 20, kOffset = 56,
                             kSort = 60;

// Canonical archive from (name, payload) pairs, type ids 1, 2, 3...
inline core::Bytes simple(std::vector<std::pair<std::string, std::string>> entries) {
  NresBuilder b;
  std::uint32_t type = 1;
  for (auto& [name, payload] : entries) b.add(type++, name, bytes_of(payload));
  return b.build().value();
}

// Splices `gap` at offset 16: every data_offset and total_size shift by gap.size().
inline core::Bytes with_prefix_gap(const core::Bytes& in, const core::Bytes& gap) {
  const core::ByteView whole(in);
  core::ByteWriter w(in.size() + gap.size());
  w.bytes(whole.first(16));
  w.bytes(gap);
  w.bytes(whole.subspan(16));
  core::Bytes out = w.take();
  const auto shift = static_cast<std::uint32_t>(gap.size());
  put_u32(out, 12, get_u32(out, 12) + shift);
  const std::uint32_t count = get_u32(out, 8);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t rec = record_at(out, i);
    put_u32(out, rec + kOffset, get_u32(out, rec + kOffset) + shift);
  }
  return out;
}

}  // namespace sortie::iron3d::nres_test
