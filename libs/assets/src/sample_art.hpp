#pragma once
// How the sample game looks (sample_art.cpp): terrain textures that read as land (sand, grass,
// earth, rock, snow), painted plates for models instead of checkers, the terrain's material
// rows chosen by height and slope, and models with silhouettes (tracked vehicles with turrets,
// walkers with legs, buildings with roofs, towers, trees and rocks) built from boxes, prisms
// and cones. Everything is a pure function of its arguments; no seeded stream is drawn from.
#include <cstdint>
#include <string>

#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/iron3d/texm.hpp"

namespace sortie::assets::detail {

// The terrain's Land2.wea rows, in this order.
enum class TerrainKind : std::uint8_t { sand, grass, earth, rock, snow };
inline constexpr std::uint32_t kTerrainKinds = 5;
std::string terrain_texture_name(TerrainKind kind);   // "TERR_SAND", ...
std::string terrain_material_name(TerrainKind kind);  // "TERR_SAND_M", ...

// Texel sources for iron3d::build_texm: call the setter, then build (state is thread-local).
void set_terrain_texel_source(TerrainKind kind, std::uint32_t size);
iron3d::TexmColor terrain_texel(std::uint32_t level, std::uint32_t x, std::uint32_t y);
// Painted plates: one of eight paints (olive, tan, steel, rust, concrete, dark, brick, wood)
// picked by `seed`, with soft noise and panel seams.
void set_plate_texel_source(std::uint32_t seed, std::uint32_t size);
iron3d::TexmColor plate_texel(std::uint32_t level, std::uint32_t x, std::uint32_t y);

// Makes the map an island: within six cells of its edge the ground falls smoothly to a sea
// floor below the lowest inland point (the renderer's sea covers it), so the map's edge is a
// shore rather than a cut.
void shape_island(iron3d::Heightfield& field);

// The sun of the sample's lightmaps, the way its light travels: render::MissionScene's
// default light, so baked terrain and lit models agree.
inline constexpr core::Vec3 kSampleSunDirection{0.45f, 0.35f, -0.82f};
// A map's terrain lightmap (lightmap.lib, 565, one level; named by Land2.wea's LIGHTMAPS row):
// texel (x, y) is the light at the ground point x, y texels from the map's lowest corner (the
// square of the longer side): ambient darkened in hollows plus the sun by the slope, with the
// shadows hills cast. `field` must outlive the build.
void set_terrain_lightmap_source(const iron3d::Heightfield* field, std::uint32_t size);
iron3d::TexmColor terrain_lightmap_texel(std::uint32_t level, std::uint32_t x, std::uint32_t y);

// Sets every cell's material tag (0xFF00 | Land2 row) from its height and slope: sand by the
// water, grass on gentle ground, earth higher up, rock on steep cells, snow on the tops.
void tag_terrain_by_height_and_slope(iron3d::Heightfield& field);

// A model for the archive it lives in: units.rlb alternates tracked vehicles and walkers,
// bases.rlb buildings, fortif.rlb towers and bunkers, static.rlb trees and rocks. The shape
// stands on its origin, is 2 hz tall (machines: as tall as their footprint suggests), and its XY extent is exactly
// [-hx, hx] x [-hy, hy], the box the sample drew before (the runtime derives obstacle footprints from it, so the world
// moves as it did). Body parts use material row 0, details row 1 % material_rows. `variant`
// picks among the archive's shapes.
enum class ShapeFamily : std::uint8_t { prop, base, unit, fortification };
iron3d::MshBuildInput sample_shape(ShapeFamily family, float hx, float hy, float hz, std::uint16_t material_rows,
                                   std::uint32_t variant);

}  // namespace sortie::assets::detail
