#pragma once
// Fast non-cryptographic hashing (xxHash3) for fingerprints and state hashes.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"

namespace sortie::core {

std::uint64_t hash64(ByteView data, std::uint64_t seed = 0);
inline std::uint64_t hash64(std::string_view s, std::uint64_t seed = 0) {
  return hash64(as_bytes(s), seed);
}
std::string hash_hex(std::uint64_t h);  // 16 lower-case hex digits

// Incremental hasher over a canonical encoding. Values are fed little-endian, so the result
// is the same on every platform and compiler.
class StateHasher {
 public:
  StateHasher();
  ~StateHasher();
  StateHasher(const StateHasher&) = delete;
  StateHasher& operator=(const StateHasher&) = delete;
  StateHasher(StateHasher&&) noexcept;
  StateHasher& operator=(StateHasher&&) noexcept;

  void bytes(ByteView b);
  void u8(std::uint8_t v) { bytes(ByteView(&v, 1)); }
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void f32(float v);  // bit pattern; -0.0 and NaN payloads are hashed as they are
  void f64(double v);
  void str(std::string_view s);  // length-prefixed
  [[nodiscard]] std::uint64_t digest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace sortie::core
