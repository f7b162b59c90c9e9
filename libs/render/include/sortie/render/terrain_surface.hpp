#pragma once
// The terrain's surface as one texture spanning the map (terrain_surface.cpp): the Land2.wea
// materials blended across face borders and the map's lightmap applied, baked once when a
// MissionScene is built.
//
// Blending. Land.msh gives every face one Land2 row (spec §15.5; how the original composes its
// two layers is not recovered), so a per-face draw has hard staircase edges between materials.
// Each vertex gets one weight per terrain texture: the share of the faces around it that use
// that texture. Inside a face the weights are interpolated, jittered by a smooth noise so the
// borders are irregular, and the textures mixed by them: a border becomes a soft, ragged band
// one cell wide, and a face whose vertices all touch its own material only looks as before.
//
// Lighting. The first LIGHTMAPS row of Land2.wea (spec §13: a Texm of lightmap.lib) is read as
// sortie's terrain lightmap: it spans the terrain's XY bounds (texel row 0 at the lowest Y,
// column 0 at the lowest X) and multiplies the surface colour. The retail mapping of terrain
// lightmaps is not recovered; the sample writes its baked hill shading this way
// (assets' sample generator, generator version 10). A lightmapped terrain is drawn unlit: the
// lightmap is its light.
#include <cstdint>
#include <vector>

#include "sortie/assets/prepared_visual.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/render/texture.hpp"

namespace sortie::render {

struct TerrainSurface {
  Texture texture;              // side a power of two, 256..1024, with a mip chain
  std::vector<core::Vec2> uvs;  // one per terrain position: its place on the surface texture
  bool lightmapped = false;     // the Land2.wea lightmap was applied
  std::uint32_t materials = 0;  // terrain textures blended
};

// `textures[i]` is terrain.textures[i] converted (not null). Faces without a texture keep the
// untextured grey. Errors render.scene.terrain_surface: no positions or an empty XY extent.
core::Result<TerrainSurface> bake_terrain_surface(const assets::PreparedTerrain& terrain,
                                                  const std::vector<const Texture*>& textures, const Texture* lightmap);

// The side of the surface texture for an XY extent: two texels per world unit (the sample's
// terrain textures have 64 texels per 32 units), a power of two within 256..1024.
std::uint32_t terrain_surface_size(float extent);

}  // namespace sortie::render
