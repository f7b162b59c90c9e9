#include "sortie/render/framebuffer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace sortie::render {

core::Result<Framebuffer> Framebuffer::create(std::uint32_t width, std::uint32_t height) {
  Framebuffer fb;
  SORTIE_CHECK(fb.resize(width, height));
  return fb;
}

core::Status Framebuffer::resize(std::uint32_t width, std::uint32_t height) {
  if (width > kMaxFramebufferSize || height > kMaxFramebufferSize)
    return core::fail(
        core::Diagnostic::error("render.framebuffer.size", "framebuffer is too large")
            .expect(fmt::format("sides <= {}", kMaxFramebufferSize), fmt::format("{}x{}", width, height)));
  width_ = width;
  height_ = height;
  const std::size_t n = static_cast<std::size_t>(width) * height;
  color_.assign(n, pack(kBlack));
  depth_.assign(n, 1.0f);
  return {};
}

void Framebuffer::clear(Rgba8 color, float depth) {
  clear_color(color);
  clear_depth(depth);
}

void Framebuffer::clear_color(Rgba8 color) {
  std::fill(color_.begin(), color_.end(), pack(color));
}

void Framebuffer::clear_depth(float depth) {
  std::fill(depth_.begin(), depth_.end(), depth);
}

std::span<const std::uint8_t> Framebuffer::rgba_bytes() const {
  // Packed words are little-endian R, G, B, A (color.hpp); x86-64 and every target we build
  // for is little-endian.
  static_assert(std::endian::native == std::endian::little, "packed RGBA8 words assume a little-endian target");
  return {reinterpret_cast<const std::uint8_t*>(color_.data()), color_.size() * 4};
}

}  // namespace sortie::render
