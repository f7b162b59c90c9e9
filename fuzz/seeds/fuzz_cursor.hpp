#pragma once
// The reading side of the structure-aware fuzz layouts (nav_input_codec.hpp,
// visual_store_codec.hpp): little-endian words that read as zero bytes past the end, so every
// input decodes to something. Their writers use core::ByteWriter.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "sortie/core/bytes.hpp"
#include "sortie/core/math.hpp"

namespace sortie::fuzz {

class FuzzCursor {
 public:
  explicit FuzzCursor(core::ByteView data) : data_(data) {}
  [[nodiscard]] bool at_end() const { return pos_ >= data_.size(); }
  std::uint32_t word(std::size_t n) {  // n = 1, 2 or 4 bytes
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint32_t>(byte()) << (8 * i);
    return v;
  }
  // A count of n bytes, capped at how many items of at least `item_bytes` bytes the input still
  // holds: a hostile count cannot make the decoder allocate (and the target walk) items that are
  // all zero bytes past the end. A well-formed input is never capped.
  std::uint32_t count(std::size_t n, std::size_t item_bytes) {
    const std::uint32_t v = word(n);
    const std::size_t left = data_.size() - std::min(pos_, data_.size());
    return static_cast<std::uint32_t>(std::min<std::size_t>(v, left / std::max<std::size_t>(item_bytes, 1)));
  }
  float f32() { return std::bit_cast<float>(word(4)); }
  core::Vec2 vec2() {
    const float x = f32();
    return {x, f32()};
  }
  core::Vec3 vec3() {
    const float x = f32();
    const float y = f32();
    return {x, y, f32()};
  }
  // Up to n bytes (fewer when the input ends first).
  core::Bytes bytes(std::size_t n) {
    const std::size_t k = std::min(n, data_.size() - std::min(pos_, data_.size()));
    core::Bytes out(data_.begin() + static_cast<std::ptrdiff_t>(pos_),
                    data_.begin() + static_cast<std::ptrdiff_t>(pos_ + k));
    pos_ += k;
    return out;
  }

 private:
  std::uint8_t byte() { return pos_ < data_.size() ? data_[pos_++] : 0; }
  core::ByteView data_;
  std::size_t pos_ = 0;
};

}  // namespace sortie::fuzz
