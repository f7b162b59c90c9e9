#pragma once
// Iron3D terrain as nav input: the only part of libs/nav that knows the Iron3D formats.
// Land.msh -> TriangleSoup (every TerrainFace28, its full surface mask; face i stays face i) and
// Land.map -> ArealInput (anchors and rings in XY, the anchor height and normal as the areal's
// plane, links with their edge_ref, raw class and logic words, the candidate grid over the XY
// bounds of every boundary vertex, spec §18).
#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/nav/terrain_world.hpp"

namespace sortie::nav {

TriangleSoup triangle_soup_from(const iron3d::LandMsh& msh);

// Error: nav.areal.link for a link (-1, e) with e != -1, which an ArealInput cannot hold (the
// Land.map reader rejects it as land_map.areal.link_pair). A packed grid cell addressing ids past
// the pool (validate_land_map: land_map.grid.pool_range) gives an empty candidate list.
core::Result<ArealInput> areal_input_from(const iron3d::LandMap& map);

// The two steps in one call: triangle_soup_from + TerrainWorld::build, areal_input_from +
// ArealMap::build.
core::Result<TerrainWorld> terrain_world_from(const iron3d::LandMsh& msh);
core::Result<ArealMap> areal_map_from(const iron3d::LandMap& map, const ArealPolicy& policy = {});

}  // namespace sortie::nav
