#include "sortie/render/texture.hpp"

#include <fmt/format.h>

#include <cstring>

namespace sortie::render {
namespace {

core::Status check_size(std::uint32_t width, std::uint32_t height) {
  if (width == 0 || height == 0 || width > kMaxTextureSize || height > kMaxTextureSize)
    return core::fail(core::Diagnostic::error("render.texture.size", "texture size out of range")
                          .expect(fmt::format("sides 1..{}", kMaxTextureSize), fmt::format("{}x{}", width, height)));
  return {};
}

// Per-channel rounded mean of n (2 or 4) packed texels.
std::uint32_t mean(const std::uint32_t* t, int n) {
  std::uint32_t out = 0;
  for (int ch = 0; ch < 4; ++ch) {
    const int shift = ch * 8;
    std::uint32_t sum = 0;
    for (int i = 0; i < n; ++i) sum += (t[i] >> shift) & 0xFFu;
    out |= ((sum + static_cast<std::uint32_t>(n / 2)) / static_cast<std::uint32_t>(n)) << shift;
  }
  return out;
}

}  // namespace

core::Status validate_texture(const TextureView& view) {
  if (view.level_count > kMaxTextureLevels)
    return core::fail(core::Diagnostic::error("render.texture", "too many texture levels")
                          .in("level_count")
                          .expect(fmt::format("<= {}", kMaxTextureLevels), std::to_string(view.level_count)));
  for (std::uint32_t i = 0; i < view.level_count; ++i) {
    const TextureLevel& l = view.levels[i];
    const std::string field = fmt::format("levels[{}]", i);
    if (l.texels == nullptr)
      return core::fail(core::Diagnostic::error("render.texture", "texture level has no texels").in(field));
    if (l.width == 0 || l.height == 0 || l.width > kMaxTextureSize || l.height > kMaxTextureSize)
      return core::fail(
          core::Diagnostic::error("render.texture", "texture level size out of range")
              .in(field)
              .expect(fmt::format("sides 1..{}", kMaxTextureSize), fmt::format("{}x{}", l.width, l.height)));
    if (i > 0 && (l.width > view.levels[i - 1].width || l.height > view.levels[i - 1].height))
      return core::fail(core::Diagnostic::error("render.texture", "texture level larger than the level above")
                            .in(field)
                            .expect(fmt::format("<= {}x{}", view.levels[i - 1].width, view.levels[i - 1].height),
                                    fmt::format("{}x{}", l.width, l.height)));
  }
  return {};
}

std::uint32_t full_mip_count(std::uint32_t width, std::uint32_t height) {
  std::uint32_t n = 1;
  while ((width >> n) > 0 || (height >> n) > 0) ++n;
  return n;
}

std::vector<std::uint32_t> downsample_box(std::span<const std::uint32_t> src, std::uint32_t width,
                                          std::uint32_t height) {
  const std::uint32_t w = mip_size(width, 1);
  const std::uint32_t h = mip_size(height, 1);
  std::vector<std::uint32_t> out(static_cast<std::size_t>(w) * h);
  for (std::uint32_t y = 0; y < h; ++y) {
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint32_t t[4];
      int n = 0;
      const std::uint32_t sx = width > 1 ? 2 : 1;
      const std::uint32_t sy = height > 1 ? 2 : 1;
      for (std::uint32_t j = 0; j < sy; ++j)
        for (std::uint32_t i = 0; i < sx; ++i) t[n++] = src[static_cast<std::size_t>(y * sy + j) * width + x * sx + i];
      out[static_cast<std::size_t>(y) * w + x] = n == 1 ? t[0] : mean(t, n);
    }
  }
  return out;
}

core::Result<Texture> Texture::from_packed(std::uint32_t width, std::uint32_t height,
                                           std::span<const std::uint32_t> texels, MipChain mips) {
  SORTIE_CHECK(check_size(width, height));
  const std::size_t n = static_cast<std::size_t>(width) * height;
  if (texels.size() != n)
    return core::fail(core::Diagnostic::error("render.texture.data", "texel count does not match the size")
                          .expect(std::to_string(n), std::to_string(texels.size())));
  Texture t;
  t.width_ = width;
  t.height_ = height;
  t.offsets_.push_back(0);
  t.texels_.assign(texels.begin(), texels.end());
  if (mips == MipChain::generate) {
    const std::uint32_t count = full_mip_count(width, height);
    std::uint32_t w = width, h = height;
    for (std::uint32_t level = 1; level < count; ++level) {
      const std::size_t prev = t.offsets_.back();
      std::vector<std::uint32_t> next = downsample_box(
          std::span<const std::uint32_t>(t.texels_.data() + prev, static_cast<std::size_t>(w) * h), w, h);
      t.offsets_.push_back(t.texels_.size());
      t.texels_.insert(t.texels_.end(), next.begin(), next.end());
      w = mip_size(w, 1);
      h = mip_size(h, 1);
    }
  }
  return t;
}

core::Result<Texture> Texture::from_rgba8(std::uint32_t width, std::uint32_t height, std::span<const std::uint8_t> rgba,
                                          MipChain mips) {
  SORTIE_CHECK(check_size(width, height));
  const std::size_t n = static_cast<std::size_t>(width) * height;
  if (rgba.size() != n * 4)
    return core::fail(core::Diagnostic::error("render.texture.data", "byte count is not width * height * 4")
                          .expect(std::to_string(n * 4), std::to_string(rgba.size())));
  std::vector<std::uint32_t> packed(n);
  for (std::size_t i = 0; i < n; ++i)
    packed[i] = pack({rgba[i * 4], rgba[i * 4 + 1], rgba[i * 4 + 2], rgba[i * 4 + 3]});
  return from_packed(width, height, packed, mips);
}

core::Result<Texture> Texture::from_levels(std::uint32_t width, std::uint32_t height,
                                           std::span<const std::span<const std::uint32_t>> levels) {
  SORTIE_CHECK(check_size(width, height));
  if (levels.empty() || levels.size() > kMaxTextureLevels)
    return core::fail(core::Diagnostic::error("render.texture.levels", "level count out of range")
                          .expect(fmt::format("1..{}", kMaxTextureLevels), std::to_string(levels.size())));
  Texture t;
  t.width_ = width;
  t.height_ = height;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const auto li = static_cast<std::uint32_t>(i);
    const std::size_t n = static_cast<std::size_t>(mip_size(width, li)) * mip_size(height, li);
    if (levels[i].size() != n)
      return core::fail(core::Diagnostic::error("render.texture.levels", "level has the wrong texel count")
                            .in(fmt::format("levels[{}]", i))
                            .expect(std::to_string(n), std::to_string(levels[i].size())));
    t.offsets_.push_back(t.texels_.size());
    t.texels_.insert(t.texels_.end(), levels[i].begin(), levels[i].end());
  }
  return t;
}

TextureView Texture::view() const {
  TextureView v;
  v.level_count = level_count();
  for (std::uint32_t i = 0; i < v.level_count; ++i)
    v.levels[i] = {mip_size(width_, i), mip_size(height_, i), texels_.data() + offsets_[i]};
  return v;
}

std::span<const std::uint32_t> Texture::level(std::uint32_t i) const {
  if (i >= level_count()) return {};
  const std::size_t n = static_cast<std::size_t>(mip_size(width_, i)) * mip_size(height_, i);
  return {texels_.data() + offsets_[i], n};
}

}  // namespace sortie::render
