#include "seeds.hpp"
#include "sortie/iron3d/terrain_builder.hpp"

using namespace sortie;

SORTIE_FUZZ_SEEDS(land_map, [](fuzz::SeedSink& out) {
  // Small builder maps, as whole files and as bare payloads.
  for (auto [cols, areals, grid] : {std::array<std::uint32_t, 3>{3, 1, 1}, {6, 2, 3}, {10, 3, 8}}) {
    auto m = iron3d::make_land_msh_from_heightfield(iron3d::make_sample_heightfield(cols, cols, cols));
    if (!m) continue;
    auto map = iron3d::make_land_map_for(*m, {areals, areals, grid, grid});
    if (!map) continue;
    if (auto bytes = iron3d::write_land_map(*map))
      out.add("partition_" + std::to_string(areals) + "_grid_" + std::to_string(grid), std::move(*bytes));
    // The same map as a bare payload for the direct decoder (u32 areal count first).
    if (auto payload = iron3d::encode_land_map_payload(*map)) {
      core::ByteWriter w;
      w.u32(static_cast<std::uint32_t>(map->areals.size()));
      w.bytes(*payload);
      out.add("payload_" + std::to_string(areals) + "_grid_" + std::to_string(grid), w.take());
    }
  }
});
