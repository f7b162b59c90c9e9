#include "sortie/interchange/texture_png.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sortie/assets/prepared_visual.hpp"
#include "sortie/render/image_io.hpp"

namespace sortie::interchange {
namespace {

std::optional<core::Bytes> from_hex(const std::string& text) {
  if (text.size() % 2 != 0) return std::nullopt;
  core::Bytes out(text.size() / 2);
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = digit(text[2 * i]), lo = digit(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return out;
}

core::Diagnostic metadata_error(std::string what) {
  return core::Diagnostic::error("texture.metadata", fmt::format("the '{}' PNG chunk: {}", kTexmPngKeyword, what));
}

// The 888 pad byte when every pixel of every level has the same one.
std::optional<std::uint8_t> uniform_pad888(const iron3d::Texm& t) {
  if (t.format != 888) return std::nullopt;
  std::optional<std::uint8_t> pad;
  for (const auto& level : t.mips)
    for (std::size_t i = 3; i < level.size(); i += 4) {
      if (!pad) pad = level[i];
      if (*pad != level[i]) return std::nullopt;
    }
  return pad;
}

struct Header {
  std::uint32_t format = 8888;
  std::uint32_t flags4 = 0, flags5 = 0, unknown6 = 0;
  std::uint32_t mips = 0;
  std::uint8_t pad888 = 0;
  core::Bytes palette;
  std::optional<std::vector<iron3d::TexmPageRect>> page;
};

core::Result<Header> parse_metadata(const core::Json& j, std::uint32_t width, std::uint32_t height) {
  Header h;
  try {
    if (!j.is_object()) return core::fail(metadata_error("not a JSON object"));
    if (j.at("width").get<std::uint32_t>() != width || j.at("height").get<std::uint32_t>() != height)
      return core::fail(metadata_error("its size differs from the image")
                            .expect(fmt::format("{}x{}", width, height),
                                    fmt::format("{}x{}", j.at("width").dump(), j.at("height").dump())));
    h.format = j.at("format").get<std::uint32_t>();
    h.flags4 = j.value("flags4", 0u);
    h.flags5 = j.value("flags5", 0u);
    h.unknown6 = j.value("unknown6", 0u);
    h.mips = j.value("mips", 0u);
    h.pad888 = j.value("pad888", std::uint8_t{0});
    if (j.contains("palette")) {
      auto bytes = from_hex(j.at("palette").get<std::string>());
      if (!bytes || bytes->size() != iron3d::kTexmPaletteSize)
        return core::fail(metadata_error("the palette is not 1024 bytes of hex"));
      h.palette = std::move(*bytes);
    }
    if (j.contains("page")) {
      std::vector<iron3d::TexmPageRect> rects;
      for (const auto& r : j.at("page")) {
        if (!r.is_array() || r.size() != 4) return core::fail(metadata_error("a page rectangle is not [x, w, y, h]"));
        rects.push_back(
            {r[0].get<std::int16_t>(), r[1].get<std::int16_t>(), r[2].get<std::int16_t>(), r[3].get<std::int16_t>()});
      }
      h.page = std::move(rects);
    }
  } catch (const core::Json::exception& e) {
    return core::fail(metadata_error(e.what()));
  }
  return h;
}

}  // namespace

core::Json texm_png_metadata(const iron3d::Texm& t) {
  core::Json j = {{"format", t.format},
                  {"width", t.width},
                  {"height", t.height},
                  {"flags4", t.flags4},
                  {"flags5", t.flags5},
                  {"unknown6", t.unknown6},
                  {"mips", static_cast<std::uint32_t>(t.mips.size())}};
  if (auto pad = uniform_pad888(t)) j["pad888"] = *pad;
  if (t.format == 0) j["palette"] = core::to_hex(t.palette);
  if (t.page) {
    core::Json rects = core::Json::array();
    for (const auto& r : *t.page) rects.push_back({r.x, r.width, r.y, r.height});
    j["page"] = std::move(rects);
  }
  return j;
}

core::Result<std::vector<core::Bytes>> export_texture_png(const iron3d::Texm& texm, std::uint32_t levels) {
  const auto count = static_cast<std::uint32_t>(texm.mips.size());
  const std::uint32_t n = levels == 0 ? count : std::min(levels, count);
  render::PngOptions png;
  png.alpha = true;
  png.text.emplace_back(kTexmPngKeyword, texm_png_metadata(texm).dump());
  std::vector<core::Bytes> out;
  for (std::uint32_t level = 0; level < std::max<std::uint32_t>(n, 1); ++level) {
    SORTIE_TRY(auto image, iron3d::decode_texm_rgba8(texm, level));
    SORTIE_TRY(auto bytes, render::encode_png(image.width, image.height, image.pixels, png));
    out.push_back(std::move(bytes));
  }
  return out;
}

core::Result<iron3d::Texm> texm_from_rgba8(std::span<const iron3d::Rgba8Image> levels, const core::Json* metadata,
                                           const TextureImportOptions& options) {
  if (levels.empty()) return core::fail(core::Diagnostic::error("texture.size", "no image to import"));
  const auto& base = levels.front();
  if (base.width == 0 || base.height == 0 || base.width > options.max_side || base.height > options.max_side)
    return core::fail(
        core::Diagnostic::error("texture.size", "the image is larger than a Texm the importer writes")
            .expect(fmt::format("sides 1..{}", options.max_side), fmt::format("{}x{}", base.width, base.height)));
  Header h;
  if (metadata != nullptr) {
    SORTIE_TRY(h, parse_metadata(*metadata, base.width, base.height));
  }
  if (options.format) h.format = *options.format;
  if (iron3d::texm_bytes_per_pixel(h.format) == 0)
    return core::fail(core::Diagnostic::error("texture.format", "unknown Texm format")
                          .expect("0, 565, 556, 4444, 88, 888 or 8888", fmt::format("{}", h.format)));
  if (h.format == 0 && h.palette.size() != iron3d::kTexmPaletteSize)
    return core::fail(core::Diagnostic::error("texture.palette",
                                              "format 0 needs the palette of the 'sortie:texm' chunk; choose "
                                              "another --format for a PNG from elsewhere"));
  const std::uint32_t full = assets::full_mip_count(base.width, base.height);
  std::uint32_t mips = options.mips.value_or(h.mips != 0 ? h.mips : full);
  mips = std::clamp<std::uint32_t>(mips, 1, 32);
  iron3d::Texm t;
  t.width = base.width;
  t.height = base.height;
  t.flags4 = h.flags4;
  t.flags5 = h.flags5;
  t.unknown6 = h.unknown6;
  t.format = h.format;
  if (h.format == 0) t.palette = h.palette;
  t.page = h.page;
  iron3d::Rgba8Image current;
  for (std::uint32_t level = 0; level < mips; ++level) {
    const std::uint32_t w = iron3d::texm_level_width(t.width, level), ht = iron3d::texm_level_width(t.height, level);
    if (level < levels.size()) {
      current = levels[level];
      if (current.width != w || current.height != ht)
        return core::fail(
            core::Diagnostic::error("texture.size", "a mip image has the wrong size")
                .in(fmt::format("level {}", level))
                .expect(fmt::format("{}x{}", w, ht), fmt::format("{}x{}", current.width, current.height)));
    } else if (current.width != w || current.height != ht) {
      current = assets::downsample_rgba8(current);  // 1 x 1 levels past the chain stay 1 x 1
    }
    SORTIE_TRY(auto bytes, iron3d::encode_texm_level(current, t.format, t.palette, h.pad888));
    t.mips.push_back(std::move(bytes));
  }
  return t;
}

core::Result<iron3d::Texm> import_texture_png(std::span<const core::ByteView> pngs,
                                              const TextureImportOptions& options) {
  std::vector<iron3d::Rgba8Image> levels;
  std::optional<core::Json> metadata;
  render::PngReadLimits limits;
  limits.max_side = options.max_side;
  for (std::size_t i = 0; i < pngs.size(); ++i) {
    auto png = render::decode_png(pngs[i], limits);
    if (!png) return core::fail(std::move(png.error()).in(fmt::format("level {}", i)));
    if (i == 0)
      for (const auto& [key, text] : png->text)
        if (key == kTexmPngKeyword) {
          metadata = core::Json::parse(text, nullptr, false);
          if (metadata->is_discarded()) return core::fail(metadata_error("not valid JSON"));
        }
    levels.push_back({png->width, png->height, std::move(png->rgba)});
  }
  return texm_from_rgba8(levels, metadata ? &*metadata : nullptr, options);
}

}  // namespace sortie::interchange
