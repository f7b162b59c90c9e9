#pragma once
// Hashes for procedural content (textures, noise, visual jitter): a well-mixed 32-bit hash of up
// to three words and its top 24 bits as a float in [0, 1). Pure integer arithmetic, the same on
// every platform; not part of any simulation state.
#include <cstdint>

namespace sortie::core {

constexpr std::uint32_t hash32(std::uint32_t a, std::uint32_t b, std::uint32_t c = 0) {
  std::uint32_t h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u) * 0x85ebca6bu ^ (c + 0x165667b1u) * 0xc2b2ae35u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  h *= 0x297a2d39u;
  h ^= h >> 15;
  return h;
}

constexpr float hash_unit(std::uint32_t a, std::uint32_t b, std::uint32_t c = 0) {
  return static_cast<float>(hash32(a, b, c) >> 8) * (1.0f / 16777216.0f);
}

}  // namespace sortie::core
