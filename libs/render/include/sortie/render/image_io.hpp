#pragma once
// PNG output through libpng; files are written atomically (core/file_io.hpp).
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/render/framebuffer.hpp"
#include "sortie/render/limits.hpp"  // kPngSideMax, kPngPixelsMax

namespace sortie::render {

struct PngOptions {
  bool alpha = false;  // write RGBA; default RGB (the alpha plane is dropped)
  // tEXt chunks (keyword, Latin-1 text) written before the image data, in this order. Keywords
  // are 1..79 bytes (render.png.text otherwise).
  std::vector<std::pair<std::string, std::string>> text;
};

// `rgba`: width * height * 4 bytes, rows top to bottom. Errors: render.png.size (a zero side or
// a byte count that does not match), render.png.encode (libpng failed).
core::Result<core::Bytes> encode_png(std::uint32_t width, std::uint32_t height, std::span<const std::uint8_t> rgba,
                                     const PngOptions& options = {});
core::Result<core::Bytes> encode_png(const Framebuffer& image, const PngOptions& options = {});
// A decoded PNG: every colour type and bit depth libpng reads, expanded to 8-bit RGBA (grey to
// RGB, palette to RGB, tRNS to alpha, 16-bit channels reduced, no alpha = 255).
struct DecodedPng {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgba;                         // width * height * 4, rows top to bottom
  std::vector<std::pair<std::string, std::string>> text;  // tEXt / zTXt / iTXt chunks in file order
};

struct PngReadLimits {
  std::uint32_t max_side = kPngSideMax;      // width and height (render/limits.hpp)
  std::uint64_t max_pixels = kPngPixelsMax;  // width * height
};

// Decodes a whole PNG from memory. The header's size is checked against `limits` before any
// pixel memory is allocated. Errors: render.png.decode (not a PNG, a damaged or truncated
// stream: libpng's reason), render.png.limit (a side or the pixel count past the limits).
core::Result<DecodedPng> decode_png(core::ByteView bytes, const PngReadLimits& limits = {});

// Encodes and writes atomically (io.* codes from write_file_atomic).
core::Status write_png(const std::filesystem::path& path, const Framebuffer& image, const PngOptions& options = {});

}  // namespace sortie::render
