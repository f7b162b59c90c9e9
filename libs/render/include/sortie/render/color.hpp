#pragma once
// RGBA8 colour: the pixel format of the framebuffer and of textures. In memory a pixel is the
// four bytes R, G, B, A; as a 32-bit word (little-endian) that is r | g << 8 | b << 16 | a << 24.
#include <cstdint>

#include "sortie/core/math.hpp"

namespace sortie::render {

struct Rgba8 {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
  std::uint8_t a = 255;
  friend constexpr bool operator==(const Rgba8&, const Rgba8&) = default;
};

inline constexpr Rgba8 kBlack{0, 0, 0, 255};
inline constexpr Rgba8 kWhite{255, 255, 255, 255};
inline constexpr Rgba8 kTransparent{0, 0, 0, 0};

// The packed word of a pixel as stored (R in the low byte).
constexpr std::uint32_t pack(Rgba8 c) {
  return static_cast<std::uint32_t>(c.r) | (static_cast<std::uint32_t>(c.g) << 8) |
         (static_cast<std::uint32_t>(c.b) << 16) | (static_cast<std::uint32_t>(c.a) << 24);
}
constexpr Rgba8 unpack(std::uint32_t word) {
  return {static_cast<std::uint8_t>(word), static_cast<std::uint8_t>(word >> 8), static_cast<std::uint8_t>(word >> 16),
          static_cast<std::uint8_t>(word >> 24)};
}

// 0..1 floats (clamped; NaN gives 0) to bytes, rounded to nearest.
Rgba8 to_rgba8(const core::Vec4& c);
core::Vec4 to_vec4(Rgba8 c);  // bytes / 255

}  // namespace sortie::render
