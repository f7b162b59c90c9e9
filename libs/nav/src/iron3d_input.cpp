#include "sortie/nav/iron3d_input.hpp"

#include <algorithm>
#include <limits>

#include "nav_internal.hpp"

namespace sortie::nav {

TriangleSoup triangle_soup_from(const iron3d::LandMsh& msh) {
  TriangleSoup soup;
  soup.positions = msh.positions;
  soup.faces.reserve(msh.faces.size());
  for (const auto& f : msh.faces) soup.faces.push_back({{f.vertices[0], f.vertices[1], f.vertices[2]}, f.surface_mask});
  return soup;
}

core::Result<ArealInput> areal_input_from(const iron3d::LandMap& map) {
  ArealInput in;
  const std::size_t n = map.areals.size();
  in.areals.reserve(n);
  // Grid bounds: the XY box of every boundary vertex (NaN coordinates are skipped by std::min/max).
  core::Vec2 lo{std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
  core::Vec2 hi{std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest()};
  for (std::size_t i = 0; i < n; ++i) {
    const iron3d::Areal& a = map.areals[i];
    ArealPolygon p;
    p.anchor = a.anchor.xy();
    p.anchor_z = a.anchor.z;
    p.normal = a.normal;
    p.class_id = a.class_id;
    p.logic_flag = a.logic_flag;
    p.ring.reserve(a.vertices.size());
    for (const core::Vec3& v : a.vertices) {
      p.ring.push_back(v.xy());
      lo = {std::min(lo.x, v.x), std::min(lo.y, v.y)};
      hi = {std::max(hi.x, v.x), std::max(hi.y, v.y)};
    }
    p.links.reserve(a.links.size());
    p.link_edges.reserve(a.links.size());
    for (std::size_t k = 0; k < a.links.size(); ++k) {
      const iron3d::EdgeLink& l = a.links[k];
      if (l.is_none()) {
        p.links.push_back(-1);
        p.link_edges.push_back(-1);
        continue;
      }
      if (l.area_ref == -1) return core::fail(detail::missing_areal_link(i, k, n, l.area_ref));
      p.links.push_back(l.area_ref);
      p.link_edges.push_back(l.edge_ref);
    }
    in.areals.push_back(std::move(p));
  }
  CandidateGrid g;
  g.min = lo;
  g.max = hi;
  g.cells_x = map.grid.cells_x;
  g.cells_y = map.grid.cells_y;
  g.cells.reserve(map.grid.cells.size());
  for (std::size_t c = 0; c < map.grid.cells.size(); ++c) {
    const auto ids = map.grid.candidates(c);
    g.cells.emplace_back(ids.begin(), ids.end());
  }
  in.grid = std::move(g);
  return in;
}

core::Result<TerrainWorld> terrain_world_from(const iron3d::LandMsh& msh) {
  return TerrainWorld::build(triangle_soup_from(msh));
}

core::Result<ArealMap> areal_map_from(const iron3d::LandMap& map, const ArealPolicy& policy) {
  SORTIE_TRY(const ArealInput in, areal_input_from(map));
  return ArealMap::build(in, policy);
}

}  // namespace sortie::nav
