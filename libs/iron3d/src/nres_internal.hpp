#pragma once
// Private helpers shared by the NRes source files: name folding and comparison on raw fields.
#include <cstdint>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d::detail {

inline std::uint8_t fold(std::uint8_t c) { return (c >= 'a' && c <= 'z') ? static_cast<std::uint8_t>(c - 32) : c; }

// Key of a raw 36-byte name field (NUL-terminated inside): first 8 folded bytes, big-endian.
inline std::uint64_t name_key(const std::uint8_t* raw) {
  std::uint64_t k = 0;
  int i = 0;
  for (; i < 8 && raw[i] != 0; ++i) k = (k << 8) | fold(raw[i]);
  for (; i < 8; ++i) k <<= 8;
  return k;
}
inline std::uint64_t name_key(std::string_view name) {
  std::uint64_t k = 0;
  std::size_t i = 0;
  for (; i < 8 && i < name.size(); ++i) k = (k << 8) | fold(static_cast<std::uint8_t>(name[i]));
  for (; i < 8; ++i) k <<= 8;
  return k;
}

// Two raw name fields (each with a NUL inside the field): <0, 0, >0 under the fold.
inline int compare_raw_names(const std::uint8_t* a, const std::uint8_t* b) {
  for (std::size_t i = 0;; ++i) {
    const std::uint8_t ca = fold(a[i]);
    const std::uint8_t cb = fold(b[i]);
    if (ca != cb) return ca < cb ? -1 : 1;
    if (ca == 0) return 0;
  }
}

// Raw name field against a query without NUL: <0 when the field sorts first.
inline int compare_raw_query(const std::uint8_t* raw, std::string_view q) {
  for (std::size_t i = 0;; ++i) {
    const std::uint8_t ca = fold(raw[i]);
    if (i == q.size()) return ca == 0 ? 0 : 1;
    const std::uint8_t cb = fold(static_cast<std::uint8_t>(q[i]));
    if (ca != cb) return ca < cb ? -1 : 1;
    if (ca == 0) return 0;  // unreachable for a query without NUL
  }
}

}  // namespace sortie::iron3d::detail

namespace sortie::iron3d::detail {

// One directory row to encode canonically (views; the caller keeps the data alive).
struct RowRef {
  std::uint32_t type_id = 0;
  std::uint32_t attr1 = 0;
  std::uint32_t attr2 = 0;
  std::uint32_t attr3 = 0;
  const core::FixedString* name = nullptr;  // 36 raw bytes
  core::ByteView payload;
};

// Canonical compact image: payloads in row order from 16, padded to 8; sort table rebuilt.
core::Result<core::Bytes> encode_canonical(std::span<const RowRef> rows);
// Writes the 16-byte header ("NRes", version, count, total) over the first bytes of `out`.
void put_header(core::Bytes& out, std::uint32_t version, std::uint32_t count, std::uint32_t total);
// Raw 36-byte field from a name that may carry bytes after a NUL ("one\0TAIL!").
core::Result<core::FixedString> raw_name_field(std::string_view name);

}  // namespace sortie::iron3d::detail
