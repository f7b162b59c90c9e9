#include "sortie/core/rng.hpp"

#include "sortie/core/hash.hpp"

namespace sortie::core {
namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}
}  // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
  for (auto& s : s_) s = splitmix64(x);
}

std::uint64_t Rng::next_u64() {  // xoshiro256**
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint32_t Rng::below(std::uint32_t bound) {
  // Lemire's multiply-shift with rejection.
  std::uint64_t m = static_cast<std::uint64_t>(next_u32()) * bound;
  auto low = static_cast<std::uint32_t>(m);
  if (low < bound) {
    const std::uint32_t threshold = (0u - bound) % bound;
    while (low < threshold) {
      m = static_cast<std::uint64_t>(next_u32()) * bound;
      low = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

std::int32_t Rng::range(std::int32_t lo, std::int32_t hi) {
  const auto span = static_cast<std::uint32_t>(static_cast<std::int64_t>(hi) - lo + 1);
  if (span == 0) return static_cast<std::int32_t>(next_u32());  // full 32-bit range
  return static_cast<std::int32_t>(static_cast<std::int64_t>(lo) + below(span));
}

float Rng::unit_f32() {
  return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f);
}
double Rng::unit_f64() {
  return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0);
}

std::uint64_t Rng::state_hash() const {
  StateHasher h;
  for (auto s : s_) h.u64(s);
  return h.digest();
}

}  // namespace sortie::core
