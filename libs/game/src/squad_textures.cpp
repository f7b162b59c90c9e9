// Procedural textures of the squad picture (deterministic): worn concrete floor tiles and
// stained wall panels.
#include <algorithm>
#include <cmath>

#include "squad_view_state.hpp"

namespace sortie::game::detail {

namespace {

constexpr std::uint32_t kSize = 64;

// Smooth value noise on a lattice of `cell` texels, wrapping at kSize.
float value_noise(std::uint32_t x, std::uint32_t y, std::uint32_t cell, std::uint32_t salt) {
  const std::uint32_t n = kSize / cell;
  const std::uint32_t cx = x / cell;
  const std::uint32_t cy = y / cell;
  const float fx = static_cast<float>(x % cell) / static_cast<float>(cell);
  const float fy = static_cast<float>(y % cell) / static_cast<float>(cell);
  const auto at = [&](std::uint32_t i, std::uint32_t j) { return hash_unit(i % n, j % n, salt); };
  const float sx = fx * fx * (3.0f - 2.0f * fx);
  const float sy = fy * fy * (3.0f - 2.0f * fy);
  const float a = at(cx, cy) + (at(cx + 1, cy) - at(cx, cy)) * sx;
  const float b = at(cx, cy + 1) + (at(cx + 1, cy + 1) - at(cx, cy + 1)) * sx;
  return a + (b - a) * sy;
}

float smooth01(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

std::uint8_t byte(float v) {
  return static_cast<std::uint8_t>(std::clamp(v, 0.0f, 255.0f));
}

render::Texture finish(const std::vector<std::uint32_t>& texels) {
  auto t = render::Texture::from_packed(kSize, kSize, texels, render::MipChain::generate);
  return t ? std::move(*t) : render::Texture{};
}

}  // namespace

render::Texture make_floor_texture() {
  std::vector<std::uint32_t> texels(std::size_t{kSize} * kSize);
  for (std::uint32_t y = 0; y < kSize; ++y) {
    for (std::uint32_t x = 0; x < kSize; ++x) {
      float v = 150.0f + 26.0f * (value_noise(x, y, 16, 1) - 0.5f) + 30.0f * (value_noise(x, y, 4, 2) - 0.5f) +
                18.0f * (hash_unit(x, y, 3) - 0.5f);
      // Tile seams: a 2 x 2 tiling per cell.
      if (x % 32 == 0 || y % 32 == 0) v *= 0.55f;
      if (x % 32 == 1 || y % 32 == 1) v *= 0.85f;
      // Stains and a crack.
      const float stain = value_noise(x, y, 16, 4);
      v *= 1.0f - 0.25f * smooth01((stain - 0.55f) * 4.0f);
      const int crack = static_cast<int>(20.0f + 10.0f * std::sin(static_cast<float>(y) * 0.35f));
      if (static_cast<int>(x) == crack && y > 8 && y < 44) v *= 0.45f;
      const float rust = std::max(0.0f, value_noise(x, y, 8, 5) - 0.55f) * 60.0f;
      texels[y * kSize + x] =
          render::pack({byte(v + rust * 0.6f), byte(v - rust * 0.1f), byte(v * 0.92f - rust * 0.4f), 255});
    }
  }
  return finish(texels);
}

render::Texture make_wall_texture() {
  std::vector<std::uint32_t> texels(std::size_t{kSize} * kSize);
  for (std::uint32_t y = 0; y < kSize; ++y) {
    for (std::uint32_t x = 0; x < kSize; ++x) {
      float v = 160.0f + 40.0f * (value_noise(x, y, 16, 11) - 0.5f) + 16.0f * (hash_unit(x, y, 12) - 0.5f);
      // Panels with bolts.
      if (x % 32 == 0 || y % 21 == 0) v *= 0.5f;
      if ((x % 32 == 3 || x % 32 == 28) && (y % 21 == 3 || y % 21 == 17)) v *= 0.6f;
      // Streaks running down from the top (v grows downwards).
      const float streak = value_noise(x, 0, 4, 13);
      const float down = static_cast<float>(y) / static_cast<float>(kSize);
      float rust = 0.0f;
      if (streak > 0.6f) rust = (streak - 0.6f) * 160.0f * (1.0f - down * 0.7f);
      const float grime = down * down * 40.0f;  // dirt near the floor
      texels[y * kSize + x] = render::pack(
          {byte(v - grime + rust * 0.5f), byte(v - grime - rust * 0.2f), byte(v * 0.95f - grime - rust * 0.5f), 255});
    }
  }
  return finish(texels);
}

}  // namespace sortie::game::detail
