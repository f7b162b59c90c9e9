#pragma once
// Texm texture (spec §12) and lightmaps (§13, Texm entries of lightmap.lib): 32-byte header,
// optional 256-entry palette (format 0), a packed mip chain, optional "Page" atlas chunk.
// Plus the CPU decode to RGBA8 (§12.4) the renderer uses.
#include <cstdint>
#include <optional>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/format.hpp"

namespace sortie::iron3d {

inline constexpr std::uint32_t kTexmMagic = 0x6D786554;      // "Texm", also the NRes entry type
inline constexpr std::uint32_t kTexmPageMagic = 0x65676150;  // "Page"
inline constexpr std::size_t kTexmHeaderSize = 32;
inline constexpr std::size_t kTexmPaletteSize = 1024;

// Format codes are the decimal numbers stored on disk.
enum class TexmFormat : std::uint32_t {
  indexed8 = 0,
  r5g6b5 = 565,
  r5g5b6 = 556,
  a4r4g4b4 = 4444,
  l8a8 = 88,
  rgb888x = 888,
  a8r8g8b8 = 8888,
};

// Bytes per pixel of a known format code; 0 for an unknown code.
std::uint32_t texm_bytes_per_pixel(std::uint32_t format);

struct TexmPageRect {
  std::int16_t x = 0, width = 0, y = 0, height = 0;  // disk order x, w, y, h
  bool operator==(const TexmPageRect&) const = default;
};

struct Texm {
  std::uint32_t width = 1;
  std::uint32_t height = 1;
  std::uint32_t flags4 = 0;
  std::uint32_t flags5 = 0;
  std::uint32_t unknown6 = 0;
  std::uint32_t format = 565;
  core::Bytes palette;            // 1024 bytes when format == 0, else empty
  std::vector<core::Bytes> mips;  // mip_count = mips.size(); level i = max(1,w>>i) x max(1,h>>i)
  std::optional<std::vector<TexmPageRect>> page;
  bool operator==(const Texm&) const = default;
};

// Pixel size of level `level` (extra levels beyond the dimensions stay 1x1).
std::uint32_t texm_level_width(std::uint32_t width, std::uint32_t level);

// Codes: texm.size (< 32), texm.magic, texm.dimensions (zero width/height), texm.mip_count
// (zero, or more levels than bytes left), texm.format (unknown code), texm.palette (does not
// fit), texm.mip_data (levels overflow or do not fit), texm.tail (bytes after the mips that are
// not a Page chunk), texm.page_count (chunk size is not 8 + 8 x count).
core::Result<Texm> read_texm(core::ByteView payload, const ReadOptions& options = {});
core::Bytes write_texm(const Texm& texm);

struct Rgba8Image {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 4, rows top to bottom, R G B A
};

// §12.4: 565/556/4444 expand with rounded division ((v*255+15)/31, (v*255+31)/63, v*17);
// 88 = L high byte, A low byte; 888 = R,G,B bytes, alpha 255; 8888 = A,R,G,B bytes; 0 = palette
// entry bytes as R,G,B,A. Code texm.level when the level does not exist.
core::Result<Rgba8Image> decode_texm_rgba8(const Texm& texm, std::uint32_t level = 0);

// §12.5 loader mip-skip policy (levels dropped at load time; the file is unchanged).
std::uint32_t texm_mip_skip(const Texm& texm);

// Builder: a width x height texture in `format` with `mip_count` levels filled from `pixel`
// (an RGBA8 colour function of level, x, y, encoded to the format; palette format 0 gets a
// 256-grey palette and the index = red channel). Codes builder.texm on zero sizes/unknown format.
struct TexmColor {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
};
using TexmPixelFn = TexmColor (*)(std::uint32_t level, std::uint32_t x, std::uint32_t y);
core::Result<Texm> build_texm(std::uint32_t width, std::uint32_t height, std::uint32_t format, std::uint32_t mip_count,
                              TexmPixelFn pixel = nullptr);
// The inverse of decode_texm_rgba8 for one level: RGBA8 pixels encoded in `format` (565/556/4444
// round to the nearest step, so decode -> encode gives the stored bits back; 88 keeps red as L;
// 888 writes `pad888` as the fourth byte; format 0 looks each pixel up in `palette` (1024 bytes
// R,G,B,A) and takes the first entry equal to it, else the nearest by squared RGBA distance).
// Errors builder.texm: an unknown format, a pixel count that does not match, a missing palette.
core::Result<core::Bytes> encode_texm_level(const Rgba8Image& image, std::uint32_t format,
                                            const core::Bytes& palette = {}, std::uint8_t pad888 = 0);
// A lightmap as found in lightmap.lib: format 565, one level.
core::Result<Texm> build_lightmap(std::uint32_t width, std::uint32_t height, TexmPixelFn pixel = nullptr);
// Lightmap contract of §12.8/§13 (565, one level): findings with code texm.lightmap_shape (notes).
core::Diagnostics lightmap_findings(const Texm& texm);

core::Json texm_json(const Texm& texm);
FormatInfo texm_format_info();

}  // namespace sortie::iron3d
