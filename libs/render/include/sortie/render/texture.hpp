#pragma once
// Textures: RGBA8 texels (packed as in color.hpp) with an optional mip chain.
//
//   TextureView -- non-owning: one pointer per level. What a Material holds; the caller keeps
//                  the texels alive while a frame that uses the view is being rendered.
//   Texture     -- owning: level 0 and its chain in one buffer; share it as
//                  std::shared_ptr<const Texture> when several owners need it.
//
// Level i of a chain is max(1, width >> i) x max(1, height >> i). The sampler scales texture
// coordinates by each level's own size, so any size works; power-of-two sizes take the fast
// wrap path (a mask instead of a modulo).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/render/color.hpp"
#include "sortie/render/limits.hpp"  // kMaxTextureSize, kMaxTextureLevels

namespace sortie::render {

struct TextureLevel {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  const std::uint32_t* texels = nullptr;  // width * height packed RGBA8, rows top to bottom
  friend bool operator==(const TextureLevel&, const TextureLevel&) = default;  // the same texels, not equal ones
};

struct TextureView {
  std::array<TextureLevel, kMaxTextureLevels> levels{};
  std::uint32_t level_count = 0;
  [[nodiscard]] bool empty() const { return level_count == 0; }
  [[nodiscard]] std::uint32_t width() const { return level_count ? levels[0].width : 0; }
  [[nodiscard]] std::uint32_t height() const { return level_count ? levels[0].height : 0; }
  friend bool operator==(const TextureView&, const TextureView&) = default;
};

// Checks a view before it is sampled: level count within kMaxTextureLevels, every level with
// texels and a size in 1..kMaxTextureSize, level i no larger than level i-1.
// Code render.texture (field "levels[i]").
core::Status validate_texture(const TextureView& view);

// Size of level `level` of a width x height chain.
constexpr std::uint32_t mip_size(std::uint32_t size, std::uint32_t level) {
  const std::uint32_t s = level >= 32 ? 0 : size >> level;
  return s == 0 ? 1 : s;
}
// Levels of a full chain down to 1x1 (1 for a 1x1 texture).
std::uint32_t full_mip_count(std::uint32_t width, std::uint32_t height);

enum class MipChain : std::uint8_t {
  none,      // level 0 only
  generate,  // box-filtered chain down to 1x1
};

class Texture {
 public:
  Texture() = default;
  // `rgba` holds width * height * 4 bytes R, G, B, A, rows top to bottom.
  // Errors: render.texture.size (a side of 0 or above kMaxTextureSize), render.texture.data
  // (byte count is not width * height * 4).
  static core::Result<Texture> from_rgba8(std::uint32_t width, std::uint32_t height, std::span<const std::uint8_t> rgba,
                                          MipChain mips = MipChain::generate);
  // Same from packed words (width * height of them).
  static core::Result<Texture> from_packed(std::uint32_t width, std::uint32_t height,
                                           std::span<const std::uint32_t> texels, MipChain mips = MipChain::generate);
  // Level 0 and the caller's own lower levels, each packed, sizes mip_size(width, i) x
  // mip_size(height, i) (e.g. the mips stored in a Texm file). Errors as above plus
  // render.texture.levels (too many levels or a level of the wrong size).
  static core::Result<Texture> from_levels(std::uint32_t width, std::uint32_t height,
                                           std::span<const std::span<const std::uint32_t>> levels);

  [[nodiscard]] TextureView view() const;
  [[nodiscard]] std::uint32_t width() const { return width_; }
  [[nodiscard]] std::uint32_t height() const { return height_; }
  [[nodiscard]] std::uint32_t level_count() const { return static_cast<std::uint32_t>(offsets_.size()); }
  [[nodiscard]] std::span<const std::uint32_t> level(std::uint32_t i) const;

 private:
  std::uint32_t width_ = 0;
  std::uint32_t height_ = 0;
  std::vector<std::uint32_t> texels_;  // all levels back to back
  std::vector<std::size_t> offsets_;   // start of each level in texels_
};

// One box-filtered level from the level above: output texel (x, y) is the rounded per-channel
// mean of source texels (2x, 2y), (2x+1, 2y), (2x, 2y+1), (2x+1, 2y+1): (a + b + c + d + 2) / 4
// (an odd last column or row is dropped, as in a power-of-two chain). A side of 1 stays 1 and
// averages 2 texels along the other side: (a + b + 1) / 2.
std::vector<std::uint32_t> downsample_box(std::span<const std::uint32_t> src, std::uint32_t width,
                                          std::uint32_t height);

}  // namespace sortie::render
