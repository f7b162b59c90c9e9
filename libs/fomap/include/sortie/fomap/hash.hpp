#pragma once
// The engine's string hash (`hstring`): the stripped wyhash of unordered_dense v4.8.1 with its
// fixed seed and secret, little-endian reads over the raw bytes (spec fomap.md §11).
#include <cstdint>
#include <string>
#include <string_view>

namespace sortie::fomap {

// Raw wyhash of the bytes; wyhash_bytes("") == 0x42bc986dc5eec4d3.
std::uint64_t wyhash_bytes(std::string_view bytes);

// The hstring rule: the empty string is the null hash 0 and is never hashed.
inline std::uint64_t string_hash(std::string_view s) {
  return s.empty() ? 0 : wyhash_bytes(s);
}

// "0x" + 16 lower-case hex digits.
std::string hash_text(std::uint64_t h);

}  // namespace sortie::fomap
