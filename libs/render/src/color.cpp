#include "sortie/render/color.hpp"

namespace sortie::render {
namespace {
std::uint8_t to_byte(float v) {
  if (!(v > 0.0f)) return 0;  // also NaN
  if (v >= 1.0f) return 255;
  return static_cast<std::uint8_t>(v * 255.0f + 0.5f);
}
}  // namespace

Rgba8 to_rgba8(const core::Vec4& c) {
  return {to_byte(c.x), to_byte(c.y), to_byte(c.z), to_byte(c.w)};
}

core::Vec4 to_vec4(Rgba8 c) {
  constexpr float k = 1.0f / 255.0f;
  return {static_cast<float>(c.r) * k, static_cast<float>(c.g) * k, static_cast<float>(c.b) * k,
          static_cast<float>(c.a) * k};
}

}  // namespace sortie::render
