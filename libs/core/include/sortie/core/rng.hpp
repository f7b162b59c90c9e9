#pragma once
// Deterministic random streams: the same seed and stream id give the same sequence on every
// platform and compiler (no std::uniform_*_distribution, whose output is implementation-defined).
#include <array>
#include <cstdint>

namespace sortie::core {

class Rng {
 public:
  explicit Rng(std::uint64_t seed, std::uint64_t stream = 0);
  std::uint64_t next_u64();
  std::uint32_t next_u32() { return static_cast<std::uint32_t>(next_u64() >> 32); }
  // Uniform in [0, bound) without modulo bias; bound > 0.
  std::uint32_t below(std::uint32_t bound);
  // Uniform in [lo, hi] inclusive.
  std::int32_t range(std::int32_t lo, std::int32_t hi);
  // Uniform in [0, 1) with 24 bits (exact in float).
  float unit_f32();
  // Uniform in [0, 1) with 53 bits.
  double unit_f64();
  [[nodiscard]] std::uint64_t state_hash() const;
  // The four state words (xoshiro256**): a save's world image (docs/save-files.md) shows them.
  [[nodiscard]] std::array<std::uint64_t, 4> state() const { return {s_[0], s_[1], s_[2], s_[3]}; }

 private:
  std::uint64_t s_[4];
};

}  // namespace sortie::core
