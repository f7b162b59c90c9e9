#include "sortie/render/image_io.hpp"

#include <fmt/format.h>
#include <png.h>

#include <cstdio>
#include <cstring>
#include <string>
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
  for (const auto& [key, value] : options.text)
    if (key.empty() || key.size() > 79 || value.find('\0') != std::string::npos)
      return core::fail(core::Diagnostic::error("render.png.text", "a PNG text keyword must be 1..79 bytes")
                            .expect("1..79 bytes, no NUL in the text", fmt::format("'{}'", key)));
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
  std::vector<png_text> text(options.text.size());
  for (std::size_t i = 0; i < options.text.size(); ++i) {
    text[i].compression = PNG_TEXT_COMPRESSION_NONE;
    text[i].key = const_cast<png_charp>(options.text[i].first.c_str());
    text[i].text = const_cast<png_charp>(options.text[i].second.c_str());
    text[i].text_length = options.text[i].second.size();
  }
  if (!text.empty()) png_set_text(png, info, text.data(), static_cast<int>(text.size()));
  png_write_info(png, info);
  if (!options.alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);  // RGBA rows in, RGB out
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

namespace {

struct PngSource {
  core::ByteView bytes;
  std::size_t at = 0;
  char why[256] = {};
};

void png_read_memory(png_structp png, png_bytep data, png_size_t size) {
  auto* src = static_cast<PngSource*>(png_get_io_ptr(png));
  if (size > src->bytes.size() - src->at) png_error(png, "the file ends inside the stream");
  std::memcpy(data, src->bytes.data() + src->at, size);
  src->at += size;
}

[[noreturn]] void png_read_error(png_structp png, png_const_charp message) {
  auto* src = static_cast<PngSource*>(png_get_error_ptr(png));
  std::snprintf(src->why, sizeof src->why, "%s", message != nullptr ? message : "?");
  png_longjmp(png, 1);
}

void png_collect_text(png_structp png, png_infop info, std::vector<std::pair<std::string, std::string>>& out) {
  png_textp text = nullptr;
  int count = 0;
  png_get_text(png, info, &text, &count);
  for (int i = 0; i < count; ++i)
    out.emplace_back(text[i].key != nullptr ? text[i].key : "",
                     text[i].text != nullptr ? std::string(text[i].text, text[i].text_length) : std::string());
}

// The body of decode_png between setjmp and the reads: no object with a destructor lives here
// across a libpng call that may jump, except those owned by the caller.
bool png_read_all(png_structp png, png_infop info, const PngReadLimits& limits, DecodedPng& out,
                  std::vector<png_bytep>& rows, std::string& limit_error) {
  png_read_info(png, info);
  const png_uint_32 w = png_get_image_width(png, info);
  const png_uint_32 h = png_get_image_height(png, info);
  if (w == 0 || h == 0 || w > limits.max_side || h > limits.max_side ||
      static_cast<std::uint64_t>(w) * h > limits.max_pixels) {
    limit_error = fmt::format("{}x{}", w, h);
    return false;
  }
  const int color = png_get_color_type(png, info);
  if (png_get_bit_depth(png, info) == 16) png_set_strip_16(png);
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  if (png_get_bit_depth(png, info) < 8) png_set_expand(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS) != 0) png_set_tRNS_to_alpha(png);
  if ((color & PNG_COLOR_MASK_ALPHA) == 0) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != static_cast<png_size_t>(w) * 4) png_error(png, "unexpected row layout");
  out.width = w;
  out.height = h;
  out.rgba.resize(static_cast<std::size_t>(w) * h * 4);
  rows.resize(h);
  for (png_uint_32 y = 0; y < h; ++y) rows[y] = out.rgba.data() + static_cast<std::size_t>(y) * w * 4;
  png_read_image(png, rows.data());
  png_read_end(png, info);
  png_collect_text(png, info, out.text);
  return true;
}

}  // namespace

namespace {

// Every chunk's declared length against the bytes that are there, before libpng sees the file:
// libpng allocates a text chunk's declared size before reading it (a 200-byte file declaring a
// 2 GB tEXt chunk asked for 2 GB). Returns a reason, or "" when the chunk list fits.
std::string png_chunk_problem(core::ByteView bytes) {
  std::size_t at = 8;
  while (at < bytes.size()) {
    if (bytes.size() - at < 12) return fmt::format("a chunk header at byte {} runs past the end", at);
    const std::uint32_t length = static_cast<std::uint32_t>(bytes[at]) << 24 |
                                 static_cast<std::uint32_t>(bytes[at + 1]) << 16 |
                                 static_cast<std::uint32_t>(bytes[at + 2]) << 8 | bytes[at + 3];
    if (length > bytes.size() - at - 12)
      return fmt::format("the chunk at byte {} declares {} bytes; {} are left", at, length, bytes.size() - at - 12);
    if (std::memcmp(bytes.data() + at + 4, "IEND", 4) == 0) return {};
    at += 12 + std::size_t{length};
  }
  return "no IEND chunk";
}

}  // namespace

core::Result<DecodedPng> decode_png(core::ByteView bytes, const PngReadLimits& limits) {
  if (bytes.size() >= 8 && png_sig_cmp(bytes.data(), 0, 8) == 0)
    if (const std::string problem = png_chunk_problem(bytes); !problem.empty())
      return core::fail(core::Diagnostic::error("render.png.decode", "a damaged or truncated PNG: " + problem));
  if (bytes.size() < 8 || png_sig_cmp(bytes.data(), 0, 8) != 0)
    return core::fail(core::Diagnostic::error("render.png.decode", "not a PNG file (signature)")
                          .expect("89 50 4E 47 0D 0A 1A 0A", fmt::format("{} bytes", bytes.size())));
  PngSource src;
  src.bytes = bytes;
  DecodedPng out;
  std::vector<png_bytep> rows;
  std::string limit_error;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, png_read_error, png_on_warning);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (png == nullptr || info == nullptr) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    return core::fail(core::Diagnostic::error("render.png.decode", "libpng: out of memory"));
  }
  png_set_chunk_malloc_max(png, 8u << 20);
  bool ok = false;
  if (setjmp(png_jmpbuf(png)) == 0) {
    png_set_read_fn(png, &src, png_read_memory);
    ok = png_read_all(png, info, limits, out, rows, limit_error);
  } else {
    png_destroy_read_struct(&png, &info, nullptr);
    return core::fail(core::Diagnostic::error("render.png.decode", fmt::format("libpng: {}", src.why)));
  }
  png_destroy_read_struct(&png, &info, nullptr);
  if (!ok)
    return core::fail(
        core::Diagnostic::error("render.png.limit", "the image is larger than the reader accepts")
            .expect(fmt::format("sides 1..{}, <= {} pixels", limits.max_side, limits.max_pixels), limit_error));
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
