#pragma once
// Writer of the canonical state encoding: little-endian, floats as bit patterns, strings
// length-prefixed (u32). Inline and reusable (clear() keeps the capacity), because the whole
// world is encoded after every tick.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"

namespace sortie::world {

class StateWriter {
 public:
  void clear() { size_ = 0; }
  void u8(std::uint8_t v) { put(&v, 1); }
  void u16(std::uint16_t v) { put_le(v); }
  void u32(std::uint32_t v) { put_le(v); }
  void u64(std::uint64_t v) { put_le(v); }
  void f32(float v) { put_le(std::bit_cast<std::uint32_t>(v)); }
  void f64(double v) { put_le(std::bit_cast<std::uint64_t>(v)); }
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    put(s.data(), s.size());
  }
  void raw(std::string_view s) { put(s.data(), s.size()); }
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
  [[nodiscard]] core::ByteView view() const { return core::ByteView(buf_.data(), size_); }

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

}  // namespace sortie::world
