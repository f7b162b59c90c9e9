#pragma once
// PNG output through libpng; files are written atomically (core/file_io.hpp).
#include <cstdint>
#include <filesystem>
#include <span>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/render/framebuffer.hpp"

namespace sortie::render {

struct PngOptions {
  bool alpha = false;  // write RGBA; default RGB (the alpha plane is dropped)
};

// `rgba`: width * height * 4 bytes, rows top to bottom. Errors: render.png.size (a zero side or
// a byte count that does not match), render.png.encode (libpng failed).
core::Result<core::Bytes> encode_png(std::uint32_t width, std::uint32_t height, std::span<const std::uint8_t> rgba,
                                     const PngOptions& options = {});
core::Result<core::Bytes> encode_png(const Framebuffer& image, const PngOptions& options = {});
// Encodes and writes atomically (io.* codes from write_file_atomic).
core::Status write_png(const std::filesystem::path& path, const Framebuffer& image, const PngOptions& options = {});

}  // namespace sortie::render
