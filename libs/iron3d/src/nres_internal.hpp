#pragma once
// Private helpers shared by the NRes source files: name folding and comparison on raw fields.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d::detail {

inline std::uint8_t fold(std::uint8_t c) { return (c >= 'a' && c <= 'z') ? static_cast<std::uint8_t>(c - 32) : c; }

// Folds a name (raw field up to its NUL, or a query) into a zero-padded 40-byte buffer.
// Returns the length, or 0 when the name is empty, longer than 35 bytes or holds a NUL
// (a query that can never match).
struct FoldedName {
  alignas(8) std::uint8_t bytes[40] = {};
  std::size_t len = 0;
};
inline FoldedName fold_raw(const std::uint8_t* raw) {
  FoldedName f;
  std::size_t i = 0;
  for (; i < kNresNameSize && raw[i] != 0; ++i) f.bytes[i] = fold(raw[i]);
  f.len = i;
  return f;
}
inline FoldedName fold_query(std::string_view q) {
  FoldedName f;
  if (q.empty() || q.size() > kNresMaxNameLength) return f;
  for (std::size_t i = 0; i < q.size(); ++i) {
    const auto c = static_cast<std::uint8_t>(q[i]);
    if (c == 0) return FoldedName{};
    f.bytes[i] = fold(c);
  }
  f.len = q.size();
  return f;
}
inline std::uint64_t folded_hash(const FoldedName& f) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ f.len;
  for (std::size_t i = 0; i < f.len; i += 8) {
    std::uint64_t chunk;
    std::memcpy(&chunk, f.bytes + i, 8);
    h = (h ^ chunk) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  return h * 0xc4ceb9fe1a85ec53ull;
}

// True when the slot holds a name fold-equal to f (tail beyond 27 bytes read from the directory).
inline bool slot_matches(const NameSlot& slot, const FoldedName& f, const std::uint8_t* dir) {
  if (slot.len != f.len) return false;
  constexpr std::size_t kInline = sizeof slot.folded;
  if (std::memcmp(slot.folded, f.bytes, f.len < kInline ? f.len : kInline) != 0) return false;
  if (f.len <= kInline) return true;
  const std::uint8_t* raw = dir + std::size_t{slot.index_plus1 - 1} * kNresRecordSize + 20;
  for (std::size_t i = kInline; i < f.len; ++i)
    if (fold(raw[i]) != f.bytes[i]) return false;
  return true;
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
