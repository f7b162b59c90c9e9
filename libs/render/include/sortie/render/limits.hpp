#pragma once
// Every absolute limit of the renderer's inputs (issue #21 part 4): PNG decoding (the defaults of
// PngReadLimits), textures, framebuffers, the iso grid's text rows and the orbit frame count. No
// spec sets them (the game's own textures are at most 512 on a side). Exceeding one gives the
// reader's code, named beside it; tests/render/limits_test.cpp feeds each limit and limit + 1.
#include <cstdint>

namespace sortie::render {

// A framebuffer's side: 8192 (the rasterizer's fixed-point range is sized for it);
// render.framebuffer.size.
inline constexpr std::uint32_t kMaxFramebufferSize = 8192;
// A texture's side: 8192, as the framebuffer; render.texture.size.
inline constexpr std::uint32_t kMaxTextureSize = 8192;
// Mip levels of a texture: 14, the chain from 8192 down to 1.
inline constexpr std::uint32_t kMaxTextureLevels = 14;
// A decoded PNG's side: 16384 (twice the framebuffer, for images cut into tiles);
// render.png.limit, read from the header before any pixel memory.
inline constexpr std::uint32_t kPngSideMax = 16384;
// A decoded PNG's pixels: 2^26 (64 Mi pixels, 256 MiB of RGBA); render.png.limit, as the side.
inline constexpr std::uint64_t kPngPixelsMax = std::uint64_t{1} << 26;
// Rows, and cells per row, of an iso grid: 1024; render.iso.grid.
inline constexpr std::uint32_t kMaxIsoGridSide = 1024;
// Frames of one orbit render: 3600 (a turn at one frame per 0.1 degree); a usage error of
// `sortie render --orbit`.
inline constexpr std::uint32_t kMaxOrbitFrames = 3600;

}  // namespace sortie::render
