#pragma once
// Framebuffer: RGBA8 colour plus a 32-bit float depth buffer, rows top to bottom, tightly
// packed (pitch = width pixels). Depth is window depth: 0 at the near plane, 1 at the far plane.
#include <cstdint>
#include <span>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/render/color.hpp"
#include "sortie/render/limits.hpp"  // kMaxFramebufferSize

namespace sortie::render {

class Framebuffer {
 public:
  Framebuffer() = default;
  // Errors: render.framebuffer.size (a side above kMaxFramebufferSize). A zero side is allowed
  // (an empty framebuffer: every draw into it draws nothing).
  static core::Result<Framebuffer> create(std::uint32_t width, std::uint32_t height);
  core::Status resize(std::uint32_t width, std::uint32_t height);

  [[nodiscard]] std::uint32_t width() const { return width_; }
  [[nodiscard]] std::uint32_t height() const { return height_; }
  [[nodiscard]] bool empty() const { return width_ == 0 || height_ == 0; }

  void clear(Rgba8 color, float depth = 1.0f);
  void clear_color(Rgba8 color);
  void clear_depth(float depth = 1.0f);

  // Packed pixels (see color.hpp), width * height, row y at y * width.
  [[nodiscard]] std::span<std::uint32_t> color() { return color_; }
  [[nodiscard]] std::span<const std::uint32_t> color() const { return color_; }
  [[nodiscard]] std::span<float> depth() { return depth_; }
  [[nodiscard]] std::span<const float> depth() const { return depth_; }
  // The colour plane as bytes R, G, B, A per pixel (for PNG writers and window blits).
  [[nodiscard]] std::span<const std::uint8_t> rgba_bytes() const;

  // Unchecked accessors (x < width, y < height).
  [[nodiscard]] Rgba8 pixel(std::uint32_t x, std::uint32_t y) const { return unpack(color_[index(x, y)]); }
  [[nodiscard]] float depth_at(std::uint32_t x, std::uint32_t y) const { return depth_[index(x, y)]; }
  void set_pixel(std::uint32_t x, std::uint32_t y, Rgba8 c) { color_[index(x, y)] = pack(c); }

 private:
  [[nodiscard]] std::size_t index(std::uint32_t x, std::uint32_t y) const {
    return static_cast<std::size_t>(y) * width_ + x;
  }
  std::uint32_t width_ = 0;
  std::uint32_t height_ = 0;
  std::vector<std::uint32_t> color_;
  std::vector<float> depth_;
};

}  // namespace sortie::render
