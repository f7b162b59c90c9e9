#pragma once
// Private helpers shared by the NRes source files: name folding and comparison on raw fields.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d::detail {

inline std::uint8_t fold(std::uint8_t c) {
  return (c >= 'a' && c <= 'z') ? static_cast<std::uint8_t>(c - 32) : c;
}

// Word-at-a-time helpers over little-endian packed bytes (byte 0 in the low bits).
inline constexpr std::uint64_t kOnes = 0x0101010101010101ull;
inline constexpr std::uint64_t kHighBits = 0x8080808080808080ull;

inline std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}
inline void store_le64(std::uint8_t* p, std::uint64_t v) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}
// Word w (0..4) of a 36-byte name field; word 4 holds bytes 32..35, zero-extended.
inline std::uint64_t name_word(const std::uint8_t* raw, std::size_t w) {
  return w < 4 ? load_le64(raw + 8 * w) : std::uint64_t{core::load_u32(raw + 32)};
}
// High bit of each zero byte; the lowest set bit marks the first zero byte exactly.
inline std::uint64_t zero_bytes(std::uint64_t x) {
  return (x - kOnes) & ~x & kHighBits;
}
// Keeps the bytes before the first zero byte flagged in `zeros` (0 = keep all).
inline std::uint64_t before_first_zero(std::uint64_t x, std::uint64_t zeros) {
  if (zeros == 0) return x;
  const int bits = std::countr_zero(zeros) & ~7;  // 8 * index of the first zero byte
  return bits == 0 ? 0 : x & (~std::uint64_t{0} >> (64 - bits));
}
// ASCII fold to upper case of 8 packed bytes ('a'..'z' -> 'A'..'Z'; bytes >= 0x80 unchanged).
inline std::uint64_t fold_word(std::uint64_t x) {
  const std::uint64_t low7 = x & ~kHighBits;
  const std::uint64_t at_least_a = low7 + kOnes * (0x80 - 'a');        // high bit: low7 >= 'a'
  const std::uint64_t above_z = low7 + kOnes * (0x80 - ('z' + 1));     // high bit: low7 > 'z'
  const std::uint64_t lower = at_least_a & ~above_z & ~x & kHighBits;  // ASCII lower case
  return x - (lower >> 2);                                             // 0x80 >> 2 == 'a' - 'A'
}

// Length of the name in a 36-byte field: index of the first NUL, or 36 when there is none.
inline std::size_t name_length(const std::uint8_t* raw) {
  for (std::size_t w = 0; w < 5; ++w) {
    const std::uint64_t zeros = zero_bytes(name_word(raw, w));
    if (zeros != 0)
      return std::min<std::size_t>(8 * w + static_cast<std::size_t>(std::countr_zero(zeros) / 8), kNresNameSize);
  }
  return kNresNameSize;
}

// Folds a name (raw field up to its NUL, or a query) into a zero-padded 40-byte buffer.
// fold_query gives length 0 when the query is empty, longer than 35 bytes or holds a NUL
// (a query that can never match).
struct FoldedName {
  alignas(8) std::uint8_t bytes[40] = {};
  std::size_t len = 0;
};
// The field must hold a NUL within its 36 bytes (read_nres checks that first).
inline FoldedName fold_raw(const std::uint8_t* raw) {
  FoldedName f;
  for (std::size_t w = 0; w < 5; ++w) {
    const std::uint64_t x = name_word(raw, w);
    const std::uint64_t zeros = zero_bytes(x);
    store_le64(f.bytes + 8 * w, fold_word(before_first_zero(x, zeros)));
    if (zeros != 0) {
      f.len = 8 * w + static_cast<std::size_t>(std::countr_zero(zeros) / 8);
      return f;
    }
  }
  f.len = kNresNameSize;  // unreachable for a checked field
  return f;
}
inline FoldedName fold_query(std::string_view q) {
  FoldedName f;
  if (q.empty() || q.size() > kNresMaxNameLength || q.find('\0') != std::string_view::npos) return f;
  std::memcpy(f.bytes, q.data(), q.size());
  for (std::size_t w = 0; w < 5; ++w) store_le64(f.bytes + 8 * w, fold_word(load_le64(f.bytes + 8 * w)));
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
  // A full finaliser: the slot is taken from the low bits, and without the last shifts the high
  // bytes of the final chunk (a name's last characters) never reached them, so names differing
  // only at the end (MAT_0001, MAT_0002, ...) crowded into a handful of slots.
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

// True when the raw name field at `raw` folds to exactly `f` (zero-padded buffers compare
// equal only for names of equal length).
inline bool raw_name_equals(const std::uint8_t* raw, const FoldedName& f) {
  const FoldedName g = fold_raw(raw);
  return std::memcmp(g.bytes, f.bytes, sizeof g.bytes) == 0;
}

// Two raw name fields (each with a NUL inside the field): <0, 0, >0 under the fold.
// Word-at-a-time: bytes after the NUL are masked off, and byte-swapped words compare in
// byte order.
inline int compare_raw_names(const std::uint8_t* a, const std::uint8_t* b) {
  for (std::size_t w = 0; w < 5; ++w) {
    const std::uint64_t x = name_word(a, w);
    const std::uint64_t y = name_word(b, w);
    const std::uint64_t zx = zero_bytes(x);
    const std::uint64_t fx = fold_word(before_first_zero(x, zx));
    const std::uint64_t fy = fold_word(before_first_zero(y, zero_bytes(y)));
    if (fx != fy) return __builtin_bswap64(fx) < __builtin_bswap64(fy) ? -1 : 1;
    if (zx != 0) return 0;  // equal up to a NUL both share
  }
  return 0;
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
  std::string_view name_raw;  // the 36-byte field
  core::ByteView payload;
};

// Canonical compact image: payloads in row order from 16, padded to 8; sort table rebuilt.
core::Result<core::Bytes> encode_canonical(std::span<const RowRef> rows);
// Writes the 16-byte header ("NRes", version, count, total) over the first bytes of `out`.
void put_header(core::Bytes& out, std::uint32_t version, std::uint32_t count, std::uint32_t total);
// Raw 36-byte field from a name that may carry bytes after a NUL ("one\0TAIL!").
core::Result<core::FixedString> raw_name_field(std::string_view name);

// The one JSON view of an archive (nres_format.cpp): header fields, every entry's directory
// fields with "name" (UTF-8 text) and "name_hex" (the raw 36-byte field), the gaps.
// nres_to_json adds the warnings, nres_manifest the payload and gap file names.
core::Json nres_json_view(const NresArchive& archive);

}  // namespace sortie::iron3d::detail
