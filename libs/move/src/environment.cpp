#include "sortie/move/environment.hpp"

#include "sortie/nav/iron3d_input.hpp"

namespace sortie::move {

core::Result<MoveEnvironmentPtr> make_environment(const iron3d::LandMsh& msh, const iron3d::LandMap& map,
                                                  MoveParams params, const nav::ArealPolicy& policy) {
  auto env = std::make_shared<MoveEnvironment>();
  env->params = std::move(params);
  if (!msh.faces.empty()) {
    SORTIE_TRY(auto terrain, nav::terrain_world_from(msh));
    env->terrain = std::make_shared<const nav::TerrainWorld>(std::move(terrain));
  }
  if (!map.areals.empty()) {
    SORTIE_TRY(auto areals, nav::areal_map_from(map, policy));
    env->areals = std::make_shared<const nav::ArealMap>(std::move(areals));
  }
  return MoveEnvironmentPtr(std::move(env));
}

}  // namespace sortie::move
