#pragma once
// The corpus-scale terrain the navigation and movement benchmarks share: a 78 x 78 heightfield
// (6,084 vertices, 11,858 faces) and a Land.map of 600 areals (25 x 24), each built once.
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/nav/terrain_world.hpp"

namespace sortie::bench {

inline const iron3d::LandMsh& corpus_msh() {
  static const iron3d::LandMsh m =
      iron3d::make_land_msh_from_heightfield(iron3d::make_sample_heightfield(78, 78, 2026), {8}).value();
  return m;
}
inline const iron3d::LandMap& corpus_map() {
  static const iron3d::LandMap m = iron3d::make_land_map_for(corpus_msh(), {25, 24}).value();
  return m;
}
inline const nav::TriangleSoup& corpus_soup() {
  static const nav::TriangleSoup s = nav::triangle_soup_from(corpus_msh());
  return s;
}
inline const nav::ArealInput& corpus_areal_input() {
  static const nav::ArealInput in = nav::areal_input_from(corpus_map()).value();
  return in;
}
inline const nav::TerrainWorld& corpus_world() {
  static const nav::TerrainWorld w = nav::TerrainWorld::build(corpus_soup()).value();
  return w;
}
inline const nav::ArealMap& corpus_areals() {
  static const nav::ArealMap m = nav::ArealMap::build(corpus_areal_input()).value();
  return m;
}

}  // namespace sortie::bench
