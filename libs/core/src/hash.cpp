#include "sortie/core/hash.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include "sortie/core/state_writer.hpp"

namespace sortie::core {

std::uint64_t hash64(ByteView data, std::uint64_t seed) {
  return XXH3_64bits_withSeed(data.data(), data.size(), seed);
}

std::string hash_hex(std::uint64_t h) {
  return fmt::format("{:016x}", h);
}

// The hasher is the one canonical encoder (state_writer.hpp) and xxHash3 of its bytes.
struct StateHasher::State {
  StateWriter out;
};

StateHasher::StateHasher() : state_(std::make_unique<State>()) {}
StateHasher::~StateHasher() = default;
StateHasher::StateHasher(StateHasher&&) noexcept = default;
StateHasher& StateHasher::operator=(StateHasher&&) noexcept = default;

void StateHasher::bytes(ByteView b) {
  state_->out.bytes(b);
}
void StateHasher::u32(std::uint32_t v) {
  state_->out.u32(v);
}
void StateHasher::u64(std::uint64_t v) {
  state_->out.u64(v);
}
void StateHasher::f32(float v) {
  state_->out.f32(v);
}
void StateHasher::f64(double v) {
  state_->out.f64(v);
}
void StateHasher::str(std::string_view s) {
  state_->out.str(s);
}
std::uint64_t StateHasher::digest() const {
  return hash64(state_->out.view());
}

}  // namespace sortie::core
