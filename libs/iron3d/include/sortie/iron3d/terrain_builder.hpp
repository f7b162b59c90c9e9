#pragma once
// Builders for synthetic terrain: a Land.msh from a heightfield grid and a Land.map whose areals
// partition that terrain. Used by the sample-content generator, tests, benchmarks and fuzz seeds.
// Face vertex and neighbour indices are u16 (0xFFFF = none), so a map holds at most 65,535
// vertices and 65,535 faces; grid area ids are u16 too, so at most 65,535 areals.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/land_msh.hpp"

namespace sortie::iron3d {

struct Heightfield {
  std::uint32_t columns = 0;   // vertices along X (>= 2)
  std::uint32_t rows = 0;      // vertices along Y (>= 2)
  float cell_size = 1.0f;      // spacing of grid vertices in world units
  core::Vec3 origin;           // world position of vertex (0, 0); heights are added to origin.z
  std::vector<float> heights;  // rows * columns, row-major: heights[y * columns + x]
  // Optional per-cell data, (columns - 1) * (rows - 1) entries, row-major; empty = defaults.
  std::vector<std::uint32_t> cell_masks;          // full surface mask of both faces (default 0x00000001)
  std::vector<std::uint16_t> cell_material_tags;  // TerrainFace28 material_tag (default 0xFF01)
};

struct LandMshBuildOptions {
  std::uint32_t slot_tiles = 8;  // slots per axis; each slot covers a rectangle of cells (<= cells per axis)
};

// Positions (one per grid vertex), packed normals and UVs, two faces per cell with neighbours
// across every shared edge, one material pair per face (faces ordered slot by slot, pair k keyed k,
// flag 0x0010 where a slot or a run of equal material tags starts), slots with bounds.
// Errors: land_msh.build.size, land_msh.build.vertex_limit, land_msh.build.face_limit.
core::Result<LandMsh> make_land_msh_from_heightfield(const Heightfield& field, const LandMshBuildOptions& options = {});

struct LandMapBuildOptions {
  std::uint32_t areals_x = 0;  // areal columns; 0 = chosen from the mesh size
  std::uint32_t areals_y = 0;
  std::uint32_t grid_cells_x = 128;
  std::uint32_t grid_cells_y = 128;
};

// Rectangular areals tiling the XY bounds of the mesh, corner heights taken from the mesh, links
// between every pair of adjacent areals (edge k of one names the opposite edge of the other),
// unit normals, and a grid whose cells list every areal overlapping them.
// Errors: land_map.build.empty, land_map.build.areal_limit, land_map.build.grid.
core::Result<LandMap> make_land_map_for(const LandMsh& msh, const LandMapBuildOptions& options = {});

// Irregular areals: a lattice of cells_x * cells_y over the mesh's XY bounds, its inner points
// moved by a hashed jitter (at most `jitter` of a cell each way, so every cell stays convex),
// each cell split into two triangles (the diagonal alternating), heights from the mesh. A
// triangle `blocked` accepts is left out: a hole no route crosses (water, cliffs, the ground a
// building stands on). Links join triangles across shared edges (each names the edge back); the
// grid covers the kept areals' XY bounds, a cell listing every areal whose box touches it.
// Errors: land_map.build.empty (no faces, or every triangle blocked), land_map.build.areal_limit
// (more than 65,535 triangles), land_map.build.grid.
struct TriangulatedLandMapOptions {
  std::uint32_t cells_x = 16;
  std::uint32_t cells_y = 16;
  float jitter = 0.15f;  // share of a cell, <= 0.15 keeps every lattice cell convex
  std::uint32_t seed = 0;
  std::function<bool(const std::array<core::Vec3, 3>& triangle)> blocked;
  std::function<float(float x, float y)> height;  // the ground's height; empty: land_msh_height_at
  std::uint32_t grid_cells_x = 128;
  std::uint32_t grid_cells_y = 128;
};
core::Result<LandMap> make_triangulated_land_map(const LandMsh& msh, const TriangulatedLandMapOptions& options);

// A deterministic rolling heightfield (sum of sines plus Rng noise) for tests and samples.
Heightfield make_sample_heightfield(std::uint32_t columns, std::uint32_t rows, std::uint64_t seed,
                                    float cell_size = 8.0f);

// Highest terrain point at (x, y), or nullopt outside the mesh (brute force; for builders/tests).
std::optional<float> land_msh_height_at(const LandMsh& msh, float x, float y);

}  // namespace sortie::iron3d
