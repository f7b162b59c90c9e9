#include "sortie/iron3d/texm.hpp"

#include <fmt/format.h>

#include "asset_util.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

std::uint32_t texm_bytes_per_pixel(std::uint32_t format) {
  switch (format) {
    case 0:
      return 1;
    case 565:
    case 556:
    case 4444:
    case 88:
      return 2;
    case 888:
    case 8888:
      return 4;
    default:
      return 0;
  }
}

std::uint32_t texm_level_width(std::uint32_t width, std::uint32_t level) {
  if (level >= 32) return 1;
  const std::uint32_t w = width >> level;
  return w == 0 ? 1 : w;
}

core::Result<Texm> read_texm(core::ByteView payload, const ReadOptions& options) {
  core::ByteReader r(payload, options.file_name);
  r.set_code_prefix("texm");
  if (payload.size() < kTexmHeaderSize)
    return core::fail(r.error_at(0, "texm.size", "Texm payload shorter than its 32-byte header")
                          .in("header")
                          .expect(">= 32 bytes", fmt::format("{} bytes", payload.size())));
  SORTIE_TRY(const std::uint32_t magic, r.u32());
  if (magic != kTexmMagic)
    return core::fail(r.error_at(0, "texm.magic", "not a Texm payload")
                          .in("magic")
                          .expect("5465786d (\"Texm\")", core::to_hex(payload.first(4))));
  Texm t;
  SORTIE_TRY(t.width, r.u32());
  SORTIE_TRY(t.height, r.u32());
  SORTIE_TRY(const std::uint32_t mip_count, r.u32());
  SORTIE_TRY(t.flags4, r.u32());
  SORTIE_TRY(t.flags5, r.u32());
  SORTIE_TRY(t.unknown6, r.u32());
  SORTIE_TRY(t.format, r.u32());
  if (t.width == 0 || t.height == 0)
    return core::fail(r.error_at(t.width == 0 ? 4 : 8, "texm.dimensions", "Texm width and height must be non-zero")
                          .in(t.width == 0 ? "width" : "height")
                          .expect("> 0", "0"));
  if (mip_count == 0)
    return core::fail(r.error_at(12, "texm.mip_count", "Texm has no mip level").in("mip_count").expect("> 0", "0"));
  const std::uint32_t bpp = texm_bytes_per_pixel(t.format);
  if (bpp == 0)
    return core::fail(r.error_at(28, "texm.format", "unknown Texm pixel format")
                          .in("format")
                          .expect("0, 565, 556, 4444, 88, 888 or 8888", fmt::format("{}", t.format)));
  if (t.format == 0) {
    if (r.remaining() < kTexmPaletteSize)
      return core::fail(r.error("texm.palette", "palette of an indexed Texm does not fit")
                            .in("palette")
                            .expect("1024 bytes", fmt::format("{} bytes left", r.remaining())));
    SORTIE_TRY(auto pal, r.bytes(kTexmPaletteSize));
    t.palette.assign(pal.begin(), pal.end());
  }
  // Every level holds at least one pixel: bound the count before reserving the level table.
  if (static_cast<std::uint64_t>(mip_count) * bpp > r.remaining())
    return core::fail(r.error_at(12, "texm.mip_count", "more mip levels than bytes left")
                          .in("mip_count")
                          .expect(fmt::format("<= {} levels", r.remaining() / bpp), fmt::format("{}", mip_count)));
  t.mips.reserve(mip_count);
  for (std::uint32_t i = 0; i < mip_count; ++i) {
    const std::uint64_t pixels =
        static_cast<std::uint64_t>(texm_level_width(t.width, i)) * texm_level_width(t.height, i);
    if (pixels > r.remaining() / bpp)
      return core::fail(r.error("texm.mip_data", "mip level runs past the end of the payload")
                            .in(fmt::format("mips[{}]", i))
                            .expect(fmt::format("{} x {} x {} bytes", texm_level_width(t.width, i),
                                                texm_level_width(t.height, i), bpp),
                                    fmt::format("{} bytes left", r.remaining())));
    SORTIE_TRY(auto level, r.bytes(static_cast<std::size_t>(pixels * bpp)));
    t.mips.emplace_back(level.begin(), level.end());
  }
  if (r.at_end()) return t;
  const std::size_t tail_at = r.offset();
  if (r.remaining() < 8 || core::load_u32(r.cursor()) != kTexmPageMagic)
    return core::fail(r.error("texm.tail", "bytes after the mip chain are not a Page chunk")
                          .in("page")
                          .expect("end of payload or \"Page\"",
                                  core::to_hex(core::ByteView(r.cursor(), std::min<std::size_t>(8, r.remaining())))));
  SORTIE_CHECK(r.skip(4));
  SORTIE_TRY(const std::uint32_t rect_count, r.u32());
  if (static_cast<std::uint64_t>(rect_count) * 8 != r.remaining())
    return core::fail(r.error_at(tail_at + 4, "texm.page_count", "Page chunk size does not match its rect count")
                          .in("page.rect_count")
                          .expect(fmt::format("{} bytes of rects", static_cast<std::uint64_t>(rect_count) * 8),
                                  fmt::format("{} bytes left", r.remaining())));
  std::vector<TexmPageRect> rects;
  rects.reserve(rect_count);
  for (std::uint32_t i = 0; i < rect_count; ++i) {
    TexmPageRect rc;
    SORTIE_TRY(rc.x, r.i16());
    SORTIE_TRY(rc.width, r.i16());
    SORTIE_TRY(rc.y, r.i16());
    SORTIE_TRY(rc.height, r.i16());
    rects.push_back(rc);
  }
  t.page = std::move(rects);
  SORTIE_CHECK(r.require_end("Texm"));
  return t;
}

core::Bytes write_texm(const Texm& t) {
  std::size_t total = kTexmHeaderSize + t.palette.size();
  for (const auto& m : t.mips) total += m.size();
  core::ByteWriter w(total + (t.page ? 8 + 8 * t.page->size() : 0));
  w.u32(kTexmMagic);
  w.u32(t.width);
  w.u32(t.height);
  w.u32(static_cast<std::uint32_t>(t.mips.size()));
  w.u32(t.flags4);
  w.u32(t.flags5);
  w.u32(t.unknown6);
  w.u32(t.format);
  w.bytes(core::ByteView(t.palette));
  for (const auto& m : t.mips) w.bytes(core::ByteView(m));
  if (t.page) {
    w.u32(kTexmPageMagic);
    w.u32(static_cast<std::uint32_t>(t.page->size()));
    for (const auto& rc : *t.page) {
      w.i16(rc.x);
      w.i16(rc.width);
      w.i16(rc.y);
      w.i16(rc.height);
    }
  }
  return w.take();
}

namespace {

inline std::uint8_t x5(std::uint32_t v) {
  return static_cast<std::uint8_t>((v * 255 + 15) / 31);
}
inline std::uint8_t x6(std::uint32_t v) {
  return static_cast<std::uint8_t>((v * 255 + 31) / 63);
}
inline std::uint8_t x4(std::uint32_t v) {
  return static_cast<std::uint8_t>(v * 17);
}

}  // namespace

core::Result<Rgba8Image> decode_texm_rgba8(const Texm& t, std::uint32_t level) {
  if (level >= t.mips.size())
    return core::fail(Diagnostic::error("texm.level", "mip level does not exist")
                          .in("mips")
                          .expect(fmt::format("< {}", t.mips.size()), fmt::format("{}", level)));
  Rgba8Image img;
  img.width = texm_level_width(t.width, level);
  img.height = texm_level_width(t.height, level);
  const std::size_t n = static_cast<std::size_t>(img.width) * img.height;
  const std::uint32_t bpp = texm_bytes_per_pixel(t.format);
  const core::Bytes& src = t.mips[level];
  if (bpp == 0 || src.size() != n * bpp || (t.format == 0 && t.palette.size() != kTexmPaletteSize))
    return core::fail(Diagnostic::error("texm.mip_data", "mip level size does not match its dimensions and format")
                          .in(fmt::format("mips[{}]", level))
                          .expect(fmt::format("{} bytes", n * bpp), fmt::format("{} bytes", src.size())));
  img.pixels.resize(n * 4);
  std::uint8_t* out = img.pixels.data();
  const std::uint8_t* p = src.data();
  switch (t.format) {
    case 0:
      for (std::size_t i = 0; i < n; ++i, out += 4) std::memcpy(out, t.palette.data() + 4u * p[i], 4);
      break;
    case 565:
      for (std::size_t i = 0; i < n; ++i, out += 4) {
        const std::uint32_t v = core::load_u16(p + 2 * i);
        out[0] = x5(v >> 11), out[1] = x6((v >> 5) & 63), out[2] = x5(v & 31), out[3] = 255;
      }
      break;
    case 556:
      for (std::size_t i = 0; i < n; ++i, out += 4) {
        const std::uint32_t v = core::load_u16(p + 2 * i);
        out[0] = x5(v >> 11), out[1] = x5((v >> 6) & 31), out[2] = x6(v & 63), out[3] = 255;
      }
      break;
    case 4444:
      for (std::size_t i = 0; i < n; ++i, out += 4) {
        const std::uint32_t v = core::load_u16(p + 2 * i);
        out[0] = x4((v >> 8) & 15), out[1] = x4((v >> 4) & 15), out[2] = x4(v & 15), out[3] = x4(v >> 12);
      }
      break;
    case 88:
      for (std::size_t i = 0; i < n; ++i, out += 4) {
        const std::uint8_t a = p[2 * i], l = p[2 * i + 1];
        out[0] = l, out[1] = l, out[2] = l, out[3] = a;
      }
      break;
    case 888:
      for (std::size_t i = 0; i < n; ++i, out += 4) {
        out[0] = p[4 * i], out[1] = p[4 * i + 1], out[2] = p[4 * i + 2], out[3] = 255;
      }
      break;
    default:  // 8888: A R G B on disk
      for (std::size_t i = 0; i < n; ++i, out += 4) {
        out[0] = p[4 * i + 1], out[1] = p[4 * i + 2], out[2] = p[4 * i + 3], out[3] = p[4 * i];
      }
      break;
  }
  return img;
}

std::uint32_t texm_mip_skip(const Texm& t) {
  const auto mips = static_cast<std::uint32_t>(t.mips.size());
  if (mips <= 1) return 0;
  switch (t.flags5 & 0x72000000u) {
    case 0x02000000u:
      return mips > 2 ? 2 : 1;
    case 0x10000000u:
      return 1;
    case 0x20000000u:
      return (t.width >= 256 || t.height >= 256) ? 1 : 0;
    case 0x40000000u:
      if (t.width > 128 && t.height > 128) return mips > 2 ? 2 : 1;
      return (t.width == 128 || t.height == 128) ? 1 : 0;
    default:
      return 0;
  }
}

namespace {

std::uint32_t to5(std::uint8_t v) {
  return (v * 31u + 127u) / 255u;
}
std::uint32_t to6(std::uint8_t v) {
  return (v * 63u + 127u) / 255u;
}
std::uint32_t to4(std::uint8_t v) {
  return (v + 8u) / 17u;
}

void encode_pixel(std::uint32_t format, TexmColor c, core::ByteWriter& w) {
  switch (format) {
    case 0:
      w.u8(c.r);
      break;
    case 565:
      w.u16(static_cast<std::uint16_t>(to5(c.r) << 11 | to6(c.g) << 5 | to5(c.b)));
      break;
    case 556:
      w.u16(static_cast<std::uint16_t>(to5(c.r) << 11 | to5(c.g) << 6 | to6(c.b)));
      break;
    case 4444:
      w.u16(static_cast<std::uint16_t>(to4(c.a) << 12 | to4(c.r) << 8 | to4(c.g) << 4 | to4(c.b)));
      break;
    case 88:
      w.u8(c.a), w.u8(c.r);
      break;
    case 888:
      w.u8(c.r), w.u8(c.g), w.u8(c.b), w.u8(0);
      break;
    default:
      w.u8(c.a), w.u8(c.r), w.u8(c.g), w.u8(c.b);
      break;
  }
}

TexmColor default_pixel(std::uint32_t level, std::uint32_t x, std::uint32_t y) {
  // A checker whose tint changes per level, so levels are told apart.
  const bool on = ((x ^ y) & 1) != 0;
  return {static_cast<std::uint8_t>(on ? 255 : 32), static_cast<std::uint8_t>(level * 40 % 256),
          static_cast<std::uint8_t>(on ? 32 : 255), 255};
}

}  // namespace

core::Result<Texm> build_texm(std::uint32_t width, std::uint32_t height, std::uint32_t format, std::uint32_t mip_count,
                              TexmPixelFn pixel) {
  if (width == 0 || height == 0 || mip_count == 0 || mip_count > 32 || width > 4096 || height > 4096 ||
      texm_bytes_per_pixel(format) == 0)
    return core::fail(
        Diagnostic::error("builder.texm", "Texm builder needs 1..4096 sizes, 1..32 levels, a known format")
            .expect("w,h in 1..4096, mips 1..32, format 0/565/556/4444/88/888/8888",
                    fmt::format("{}x{}, {} mips, format {}", width, height, mip_count, format)));
  if (!pixel) pixel = &default_pixel;
  Texm t;
  t.width = width;
  t.height = height;
  t.format = format;
  if (format == 0) {
    t.palette.resize(kTexmPaletteSize);
    for (std::size_t i = 0; i < 256; ++i) {
      t.palette[4 * i] = t.palette[4 * i + 1] = t.palette[4 * i + 2] = static_cast<std::uint8_t>(i);
      t.palette[4 * i + 3] = 255;
    }
  }
  for (std::uint32_t l = 0; l < mip_count; ++l) {
    const std::uint32_t lw = texm_level_width(width, l), lh = texm_level_width(height, l);
    core::ByteWriter w(static_cast<std::size_t>(lw) * lh * texm_bytes_per_pixel(format));
    for (std::uint32_t y = 0; y < lh; ++y)
      for (std::uint32_t x = 0; x < lw; ++x) encode_pixel(format, pixel(l, x, y), w);
    t.mips.push_back(w.take());
  }
  return t;
}

namespace {

std::uint8_t palette_index(const core::Bytes& palette, const std::uint8_t* px) {
  int best = 0;
  std::uint32_t best_distance = UINT32_MAX;
  for (int i = 0; i < 256; ++i) {
    const std::uint8_t* e = palette.data() + 4 * i;
    std::uint32_t d = 0;
    for (int c = 0; c < 4; ++c) d += static_cast<std::uint32_t>((e[c] - px[c]) * (e[c] - px[c]));
    if (d < best_distance) best = i, best_distance = d;
    if (d == 0) break;
  }
  return static_cast<std::uint8_t>(best);
}

}  // namespace

core::Result<core::Bytes> encode_texm_level(const Rgba8Image& image, std::uint32_t format, const core::Bytes& palette,
                                            std::uint8_t pad888) {
  const std::uint32_t bpp = texm_bytes_per_pixel(format);
  const std::size_t n = static_cast<std::size_t>(image.width) * image.height;
  if (bpp == 0)
    return core::fail(Diagnostic::error("builder.texm", "unknown Texm format")
                          .expect("0, 565, 556, 4444, 88, 888 or 8888", fmt::format("{}", format)));
  if (image.pixels.size() != n * 4)
    return core::fail(Diagnostic::error("builder.texm", "pixel bytes do not match the image size")
                          .expect(fmt::format("{} bytes", n * 4), fmt::format("{} bytes", image.pixels.size())));
  if (format == 0 && palette.size() != kTexmPaletteSize)
    return core::fail(Diagnostic::error("builder.texm", "format 0 needs a 256-entry palette")
                          .expect("1024 bytes", fmt::format("{} bytes", palette.size())));
  core::ByteWriter w(n * bpp);
  const std::uint8_t* p = image.pixels.data();
  for (std::size_t i = 0; i < n; ++i, p += 4) {
    if (format == 0) {
      w.u8(palette_index(palette, p));
    } else if (format == 888) {
      w.u8(p[0]), w.u8(p[1]), w.u8(p[2]), w.u8(pad888);
    } else {
      encode_pixel(format, TexmColor{p[0], p[1], p[2], p[3]}, w);
    }
  }
  return w.take();
}

core::Result<Texm> build_lightmap(std::uint32_t width, std::uint32_t height, TexmPixelFn pixel) {
  return build_texm(width, height, 565, 1, pixel);
}

core::Diagnostics lightmap_findings(const Texm& t) {
  core::Diagnostics out;
  if (t.format != 565 || t.mips.size() != 1) {
    auto d =
        Diagnostic::warning("texm.lightmap_shape", "lightmap is not format 565 with one level (all known ones are)")
            .in("format")
            .expect("565, 1 level", fmt::format("{}, {} levels", t.format, t.mips.size()));
    d.severity = core::Severity::note;
    out.push_back(std::move(d));
  }
  return out;
}

core::Json texm_json(const Texm& t) {
  core::Json j;
  j["format"] = "texm";
  j["width"] = t.width;
  j["height"] = t.height;
  j["mip_count"] = t.mips.size();
  j["flags4"] = t.flags4;
  j["flags5"] = t.flags5;
  j["unknown6"] = t.unknown6;
  j["pixel_format"] = t.format;
  j["has_palette"] = !t.palette.empty();
  core::Json levels = core::Json::array();
  for (std::uint32_t i = 0; i < t.mips.size(); ++i)
    levels.push_back({{"width", texm_level_width(t.width, i)},
                      {"height", texm_level_width(t.height, i)},
                      {"bytes", t.mips[i].size()}});
  j["mips"] = std::move(levels);
  j["mip_skip"] = texm_mip_skip(t);
  if (t.page) {
    core::Json rects = core::Json::array();
    for (const auto& rc : *t.page)
      rects.push_back({{"x", rc.x}, {"width", rc.width}, {"y", rc.y}, {"height", rc.height}});
    j["page"] = std::move(rects);
  }
  return j;
}

namespace {

int detect(core::ByteView data, std::string_view) {
  return data.size() >= 4 && core::load_u32(data.data()) == kTexmMagic ? kDetectContent : kDetectNone;
}

constexpr FormatAdapter<Texm> kTexmFormat{
    .name = "texm",
    .description = "Iron3D Texm texture or lightmap (extracted entry, magic \"Texm\")",
    .detect = &detect,
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics*) { return read_texm(d, o); },
    .json = &texm_json,
    .write = [](const Texm& t) -> core::Result<core::Bytes> { return write_texm(t); },
};

}  // namespace

FormatInfo texm_format_info() {
  return format_info<Texm, kTexmFormat>();
}

}  // namespace sortie::iron3d
