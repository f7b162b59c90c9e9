#include "sortie/fomap/hash.hpp"

#include <fmt/format.h>

#include <cstring>

namespace sortie::fomap {
namespace {

constexpr std::uint64_t kS0 = 0xa0761d6478bd642fULL;
constexpr std::uint64_t kS1 = 0xe7037ed1a0b428dbULL;
constexpr std::uint64_t kS2 = 0x8ebc6af09c88c6e3ULL;
constexpr std::uint64_t kS3 = 0x589965cc75374cc3ULL;

__extension__ typedef unsigned __int128 U128;

inline std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  const U128 r = static_cast<U128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}

inline std::uint64_t r8(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
inline std::uint64_t r4(const unsigned char* p) {
  return static_cast<std::uint64_t>(p[0]) | (static_cast<std::uint64_t>(p[1]) << 8) |
         (static_cast<std::uint64_t>(p[2]) << 16) | (static_cast<std::uint64_t>(p[3]) << 24);
}
inline std::uint64_t r3(const unsigned char* p, std::size_t k) {
  return (static_cast<std::uint64_t>(p[0]) << 16) | (static_cast<std::uint64_t>(p[k >> 1]) << 8) | p[k - 1];
}

}  // namespace

std::uint64_t wyhash_bytes(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  std::uint64_t seed = kS0;
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  if (n <= 16) {
    if (n >= 4) {
      const std::size_t d = (n >> 3) << 2;
      a = (r4(p) << 32) | r4(p + d);
      b = (r4(p + n - 4) << 32) | r4(p + n - 4 - d);
    } else if (n > 0) {
      a = r3(p, n);
    }
  } else {
    std::size_t i = n;
    if (i > 48) {
      std::uint64_t s1 = seed;
      std::uint64_t s2 = seed;
      do {
        seed = mix(r8(p) ^ kS1, r8(p + 8) ^ seed);
        s1 = mix(r8(p + 16) ^ kS2, r8(p + 24) ^ s1);
        s2 = mix(r8(p + 32) ^ kS3, r8(p + 40) ^ s2);
        p += 48;
        i -= 48;
      } while (i > 48);
      seed ^= s1 ^ s2;
    }
    while (i > 16) {
      seed = mix(r8(p) ^ kS1, r8(p + 8) ^ seed);
      i -= 16;
      p += 16;
    }
    a = r8(p + i - 16);
    b = r8(p + i - 8);
  }
  return mix(kS1 ^ n, mix(a ^ kS1, b ^ seed));
}

std::string hash_text(std::uint64_t h) {
  return fmt::format("0x{:016x}", h);
}

}  // namespace sortie::fomap
