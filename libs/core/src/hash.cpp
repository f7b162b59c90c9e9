#include "sortie/core/hash.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <bit>

namespace sortie::core {

std::uint64_t hash64(ByteView data, std::uint64_t seed) {
  return XXH3_64bits_withSeed(data.data(), data.size(), seed);
}

std::string hash_hex(std::uint64_t h) {
  return fmt::format("{:016x}", h);
}

struct StateHasher::State {
  XXH3_state_t* st = XXH3_createState();
  State() { XXH3_64bits_reset(st); }
  ~State() { XXH3_freeState(st); }
  State(const State&) = delete;
  State& operator=(const State&) = delete;
};

StateHasher::StateHasher() : state_(std::make_unique<State>()) {}
StateHasher::~StateHasher() = default;
StateHasher::StateHasher(StateHasher&&) noexcept = default;
StateHasher& StateHasher::operator=(StateHasher&&) noexcept = default;

void StateHasher::bytes(ByteView b) {
  XXH3_64bits_update(state_->st, b.data(), b.size());
}
void StateHasher::u32(std::uint32_t v) {
  std::uint8_t b[4];
  store_u32(b, v);
  bytes(b);
}
void StateHasher::u64(std::uint64_t v) {
  u32(static_cast<std::uint32_t>(v));
  u32(static_cast<std::uint32_t>(v >> 32));
}
void StateHasher::f32(float v) {
  u32(std::bit_cast<std::uint32_t>(v));
}
void StateHasher::f64(double v) {
  u64(std::bit_cast<std::uint64_t>(v));
}
void StateHasher::str(std::string_view s) {
  u64(s.size());
  bytes(as_bytes(s));
}
std::uint64_t StateHasher::digest() const {
  return XXH3_64bits_digest(state_->st);
}

}  // namespace sortie::core
