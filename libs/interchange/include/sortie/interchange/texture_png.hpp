#pragma once
// Texm <-> PNG (issue #20 part 3). A Texm level becomes an 8-bit RGBA PNG through the decoder of
// spec §12.4; the Texm header fields a PNG cannot hold (format, flags, the 888 pad byte, the
// palette, the Page atlas, the level count) ride in one tEXt chunk, keyword "sortie:texm", as
// JSON. Importing a PNG encodes its pixels back (iron3d::encode_texm_level); with that chunk the
// header comes back too, so export -> import of every level gives the same Texm bytes for the
// formats whose decode is one-to-one (565, 556, 4444, 88, 888 with one pad byte, 8888, and a
// palette without repeated entries).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/interchange/limits.hpp"
#include "sortie/iron3d/texm.hpp"

namespace sortie::interchange {

inline constexpr const char* kTexmPngKeyword = "sortie:texm";

// The Texm header as the tEXt chunk carries it.
core::Json texm_png_metadata(const iron3d::Texm& texm);

// One PNG per level, level 0 first; `levels` 0 = every level of the file, else the first N.
// Errors texm.* from the decoder, render.png.* from the encoder.
core::Result<std::vector<core::Bytes>> export_texture_png(const iron3d::Texm& texm, std::uint32_t levels = 1);

struct TextureImportOptions {
  // The Texm format code (0, 565, 556, 4444, 88, 888, 8888); default: the chunk's, else 8888.
  std::optional<std::uint32_t> format;
  // Levels to write: default the chunk's count, else the full chain down to 1 x 1. Levels past
  // the PNGs given are box-filtered from the last one (assets::downsample_rgba8: each target
  // pixel the rounded mean of its source rectangle, channels independent).
  std::optional<std::uint32_t> mips;
  std::uint32_t max_side = kTextureSideMax;  // Texm sides the importer writes
};

// Builds a Texm from PNG files: `pngs[0]` is level 0, further entries are the next levels (each
// must have its level's size). Errors: render.png.* (decoding), texture.size (a side past
// max_side, or a level of the wrong size), texture.format (an unknown format code),
// texture.metadata (a "sortie:texm" chunk that is not valid JSON of the expected shape),
// texture.palette (format 0 without a palette: give the chunk or choose another format).
core::Result<iron3d::Texm> import_texture_png(std::span<const core::ByteView> pngs,
                                              const TextureImportOptions& options);
// One RGBA8 image (already decoded) as level 0; the header fields from `metadata` when given.
core::Result<iron3d::Texm> texm_from_rgba8(std::span<const iron3d::Rgba8Image> levels, const core::Json* metadata,
                                           const TextureImportOptions& options);

}  // namespace sortie::interchange
