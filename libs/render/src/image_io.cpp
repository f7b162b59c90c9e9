#include "sortie/render/image_io.hpp"

#include <fmt/format.h>
#include <png.h>

#include <cstring>

#include "sortie/core/file_io.hpp"

namespace sortie::render {

core::Result<core::Bytes> encode_png(std::uint32_t width, std::uint32_t height, std::span<const std::uint8_t> rgba,
                                     const PngOptions& options) {
  const std::size_t n = static_cast<std::size_t>(width) * height * 4;
  if (width == 0 || height == 0 || rgba.size() != n)
    return core::fail(core::Diagnostic::error("render.png.size", "image size does not match its pixels")
                          .expect(fmt::format("{} bytes for {}x{} (sides > 0)", n, width, height),
                                  fmt::format("{} bytes", rgba.size())));
  // RGB copy when the alpha plane is dropped (sized at construction: gcc 12 warns about
  // resize() of an empty vector under -Wnull-dereference).
  std::vector<std::uint8_t> rgb(options.alpha ? 0 : static_cast<std::size_t>(width) * height * 3);
  const void* pixels = rgba.data();
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  if (!options.alpha) {
    image.format = PNG_FORMAT_RGB;
    for (std::size_t i = 0, j = 0; i < n; i += 4, j += 3) {
      rgb[j] = rgba[i];
      rgb[j + 1] = rgba[i + 1];
      rgb[j + 2] = rgba[i + 2];
    }
    pixels = rgb.data();
  }
  png_alloc_size_t size = 0;
  // First call measures, second writes.
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, pixels, 0, nullptr) || size == 0) {
    const std::string why = image.message;
    png_image_free(&image);
    return core::fail(core::Diagnostic::error("render.png.encode", fmt::format("libpng: {}", why)));
  }
  core::Bytes out(size);
  if (!png_image_write_to_memory(&image, out.data(), &size, 0, pixels, 0, nullptr)) {
    const std::string why = image.message;
    png_image_free(&image);
    return core::fail(core::Diagnostic::error("render.png.encode", fmt::format("libpng: {}", why)));
  }
  out.resize(size);
  png_image_free(&image);
  return out;
}

core::Result<core::Bytes> encode_png(const Framebuffer& image, const PngOptions& options) {
  return encode_png(image.width(), image.height(), image.rgba_bytes(), options);
}

core::Status write_png(const std::filesystem::path& path, const Framebuffer& image, const PngOptions& options) {
  SORTIE_TRY(const core::Bytes bytes, encode_png(image, options));
  return core::write_file_atomic(path, core::ByteView(bytes));
}

}  // namespace sortie::render
