#pragma once
// The one canonical state encoding: little-endian integers, floats as their bit patterns (-0.0
// and NaN payloads as they are), booleans as one byte 0|1, strings length-prefixed (u32). The
// world's state (world_hash.cpp), the squad game's (squad sim.cpp) and every StateHasher digest
// (hash.hpp: RNG stream states, test fingerprints) are this encoding; the state hash is xxHash3
// of its bytes. Inline and reusable (clear() keeps the capacity), because the whole world is
// encoded after every tick.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"

namespace sortie::core {

class StateWriter {
 public:
  void clear() { size_ = 0; }
  void reserve(std::size_t n) {
    if (n > buf_.size()) buf_.resize(n);
  }
  void u8(std::uint8_t v) { put(&v, 1); }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void u16(std::uint16_t v) { put_le(v); }
  void u32(std::uint32_t v) { put_le(v); }
  void u64(std::uint64_t v) { put_le(v); }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void f32(float v) { put_le(std::bit_cast<std::uint32_t>(v)); }
  void f64(double v) { put_le(std::bit_cast<std::uint64_t>(v)); }
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    put(s.data(), s.size());
  }
  void raw(std::string_view s) { put(s.data(), s.size()); }
  void bytes(ByteView b) { put(b.data(), b.size()); }
  // Reserves a u32 and returns its position, for a length patched in later.
  std::size_t placeholder_u32() {
    const std::size_t at = size_;
    u32(0);
    return at;
  }
  void patch_u32(std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) buf_[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
  }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] ByteView view() const { return ByteView(buf_.data(), size_); }

 private:
  template <class T>
  void put_le(T v) {
    if constexpr (std::endian::native == std::endian::big) v = byteswap(v);
    put(&v, sizeof(T));
  }
  template <class T>
  static T byteswap(T v) {
    T out = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) out = static_cast<T>((out << 8) | ((v >> (8 * i)) & 0xff));
    return out;
  }
  void put(const void* p, std::size_t n) {
    if (n > buf_.size() - size_) buf_.resize(std::max<std::size_t>(buf_.size() * 2, size_ + n + 256));
    if (n != 0) std::memcpy(buf_.data() + size_, p, n);
    size_ += n;
  }

  std::vector<std::uint8_t> buf_;
  std::size_t size_ = 0;
};

}  // namespace sortie::core
