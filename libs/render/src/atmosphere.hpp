#pragma once
// The renderer's sky and fog pass (draw.hpp, Atmosphere): a sky colour per viewport row,
// prepared once a frame, and two per-tile steps, clearing to the sky and fogging what was drawn.
#include <cstdint>
#include <vector>

#include "pipeline.hpp"
#include "sortie/render/draw.hpp"

namespace sortie::render::detail {

struct AtmosphereState {
  bool active = false;
  int first_row = 0;                    // window row of sky_rows[0] (the scissor's top)
  std::vector<std::uint32_t> sky_rows;  // packed colour per scissor row
  // View distance from window depth d: (a - n b) / (n c - e) with n = 2 d - 1 (the projection's
  // z and w rows), negated for a camera looking down -Z.
  float p22 = 0.0f, p23 = 0.0f, p32 = 0.0f, p33 = 1.0f;
  bool fog = false;
  float fog_start = 0.0f, fog_scale = 0.0f, fog_max = 0.0f;  // factor = min(max, (dist - start) * scale)
  float fog_r = 0.0f, fog_g = 0.0f, fog_b = 0.0f;
  // Fogs eight pixels at once (the renderer sets the AVX2 one where it runs its AVX2 kernels);
  // null: four at a time in SSE2. The same result pixel for pixel.
  void (*fog8)(const AtmosphereState& a, std::uint32_t* color, const float* depth, float clear_z) = nullptr;
};

// Prepares the frame's sky rows and fog constants; inactive when the frame has no atmosphere.
void prepare_atmosphere(const Frame& frame, const FrameGeometry& g, AtmosphereState& out);
// Fills the tile's colour with the sky rows (every pixel of the tile buffer).
void clear_tile_to_sky(const AtmosphereState& a, TileContext& t);
// Blends every pixel of the tile's clip rectangle whose depth is nearer than `clear_z` toward
// the fog colour by its view distance.
void fog_tile(const AtmosphereState& a, TileContext& t, float clear_z);

#if SORTIE_RENDER_HAVE_AVX2
namespace avx2 {
// fog_tile's pixel step for eight pixels (raster_avx2.cpp; only where cpu_has_avx2()).
void fog8(const AtmosphereState& a, std::uint32_t* color, const float* depth, float clear_z);
}  // namespace avx2
#endif

}  // namespace sortie::render::detail
