#include "sortie/render/image_io.hpp"

#include <fmt/format.h>
#include <png.h>

#include <cstdio>
#include <vector>

#include "sortie/core/file_io.hpp"

namespace sortie::render {

namespace {

// One pass of libpng's writer into memory: zlib level 2 and the Sub filter on every row (a
// fixed choice, so the bytes depend only on the pixels): several times faster than the default
// level and adaptive filters for a modestly larger file.
constexpr int kPngZlibLevel = 2;
constexpr int kPngRowFilter = PNG_FILTER_SUB;

struct PngSink {
  core::Bytes* out = nullptr;
  char why[256] = {};
};

void png_append(png_structp png, png_bytep data, png_size_t size) {
  auto* sink = static_cast<PngSink*>(png_get_io_ptr(png));
  sink->out->insert(sink->out->end(), data, data + size);
}

void png_no_flush(png_structp) {}

[[noreturn]] void png_on_error(png_structp png, png_const_charp message) {
  auto* sink = static_cast<PngSink*>(png_get_error_ptr(png));
  std::snprintf(sink->why, sizeof sink->why, "%s", message != nullptr ? message : "?");
  png_longjmp(png, 1);
}

void png_on_warning(png_structp, png_const_charp) {}

}  // namespace

core::Result<core::Bytes> encode_png(std::uint32_t width, std::uint32_t height, std::span<const std::uint8_t> rgba,
                                     const PngOptions& options) {
  const std::size_t n = static_cast<std::size_t>(width) * height * 4;
  if (width == 0 || height == 0 || rgba.size() != n)
    return core::fail(core::Diagnostic::error("render.png.size", "image size does not match its pixels")
                          .expect(fmt::format("{} bytes for {}x{} (sides > 0)", n, width, height),
                                  fmt::format("{} bytes", rgba.size())));
  core::Bytes out;
  out.reserve(n / 8);
  // libpng reads the rows (through a copy when it strips the filler); it never writes them.
  std::vector<png_bytep> rows(height);
  for (std::uint32_t y = 0; y < height; ++y) {
    rows[y] = const_cast<png_bytep>(rgba.data() + static_cast<std::size_t>(y) * width * 4);
  }
  PngSink sink;
  sink.out = &out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, png_on_error, png_on_warning);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (png == nullptr || info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    return core::fail(core::Diagnostic::error("render.png.encode", "libpng: out of memory"));
  }
  // Nothing with a destructor is created between here and the writes that may jump back.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return core::fail(core::Diagnostic::error("render.png.encode", fmt::format("libpng: {}", sink.why)));
  }
  png_set_write_fn(png, &sink, png_append, png_no_flush);
  png_set_IHDR(png, info, width, height, 8, options.alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, kPngRowFilter);
  png_set_compression_level(png, kPngZlibLevel);
  png_write_info(png, info);
  if (!options.alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);  // RGBA rows in, RGB out
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
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
