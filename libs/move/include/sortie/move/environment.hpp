#pragma once
// What the movement stack moves over: the terrain interface (nav::TerrainWorld: height, normal,
// rays), the areal map (nav::ArealMap: IArealMap) and the Behavior.ini parameters. Prepared and
// immutable; shared by the command kinds and the movement system of one world. A null
// environment is "no system map", a null terrain "no terrain interface", a null areal map a
// behaviour without IArealMap (seed 001, Behavior: the error states).
#include <memory>

#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/move/params.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/nav/terrain_world.hpp"

namespace sortie::move {

struct MoveEnvironment {
  std::shared_ptr<const nav::TerrainWorld> terrain;
  std::shared_ptr<const nav::ArealMap> areals;
  MoveParams params;
};

using MoveEnvironmentPtr = std::shared_ptr<const MoveEnvironment>;

// From Iron3D map data: a Land.msh without faces gives no terrain, a Land.map without areals no
// areal map (both are then diagnosed where they are needed). Errors of the nav builders
// (nav.terrain.*, nav.areal.*) come back as they are.
core::Result<MoveEnvironmentPtr> make_environment(const iron3d::LandMsh& msh, const iron3d::LandMap& map,
                                                  MoveParams params = {}, const nav::ArealPolicy& policy = {});

}  // namespace sortie::move
