#pragma once
// Shared pieces of the two terrain files (Land.msh, Land.map): both are NRes archives whose
// entries are typed streams. The stream codecs work on decoded NRes entries, so they can be
// tested (and fuzzed) without the container.
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/math.hpp"

namespace sortie::iron3d {

// One NRes entry as the terrain codecs see it: directory fields and the payload span.
struct LandStream {
  std::uint32_t type_id = 0;
  std::uint32_t attr1 = 0;
  std::uint32_t attr2 = 0;
  std::uint32_t attr3 = 0;
  core::FixedString name;            // the 36-byte raw name field
  core::ByteView payload;            // the entry's bytes
  std::uint64_t payload_offset = 0;  // absolute offset of the payload in the file (diagnostics)
};

// Directory fields of one entry, kept in physical order for lossless writing.
struct LandEntryHeader {
  std::uint32_t type_id = 0;
  std::uint32_t attr1 = 0;
  std::uint32_t attr2 = 0;
  std::uint32_t attr3 = 0;
  core::FixedString name;
  bool operator==(const LandEntryHeader&) const = default;
};

// An encoded entry, ready for the NRes builder.
struct LandStreamOut {
  LandEntryHeader header;
  core::Bytes payload;
};

// On-disk float triples (positions, bounds, normals) are core::Vec3: three IEEE-754 floats,
// copied bit for bit, so the record arrays below may move them in one block.
static_assert(sizeof(core::Vec3) == 12 && std::is_trivially_copyable_v<core::Vec3>);

namespace detail {

// Record arrays: one description (decode_one/encode_one) per record type; on little-endian
// hosts a record whose in-memory layout equals the disk layout is copied in one block.
template <class T, class Decode>
void decode_records(core::ByteView bytes, std::size_t stride, std::vector<T>& out, Decode decode_one) {
  const std::size_t n = stride ? bytes.size() / stride : 0;
  out.resize(n);
  if constexpr (std::endian::native == std::endian::little && std::is_trivially_copyable_v<T>) {
    if (sizeof(T) == stride) {
      if (n) std::memcpy(out.data(), bytes.data(), n * stride);
      return;
    }
  }
  for (std::size_t i = 0; i < n; ++i) decode_one(bytes.data() + i * stride, out[i]);
}

template <class T, class Encode>
core::Bytes encode_records(const std::vector<T>& in, std::size_t stride, Encode encode_one) {
  core::Bytes out(in.size() * stride);
  if constexpr (std::endian::native == std::endian::little && std::is_trivially_copyable_v<T>) {
    if (sizeof(T) == stride) {
      if (!in.empty()) std::memcpy(out.data(), in.data(), out.size());
      return out;
    }
  }
  for (std::size_t i = 0; i < in.size(); ++i) encode_one(out.data() + i * stride, in[i]);
  return out;
}

inline core::Json vec3_json(const core::Vec3& v) {
  return core::Json::array({v.x, v.y, v.z});
}

}  // namespace detail
}  // namespace sortie::iron3d
