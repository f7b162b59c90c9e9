#include "seeds.hpp"
#include "sortie/iron3d/terrain_builder.hpp"

using namespace sortie;

SORTIE_FUZZ_SEEDS(land_msh, [](fuzz::SeedSink& out) {
  for (auto [cols, rows, tiles] : {std::array<std::uint32_t, 3>{2, 2, 1}, {4, 3, 2}, {9, 7, 3}}) {
    auto m = iron3d::make_land_msh_from_heightfield(iron3d::make_sample_heightfield(cols, rows, cols), {tiles});
    if (!m) continue;
    if (auto bytes = iron3d::write_land_msh(*m))
      out.add("heightfield_" + std::to_string(cols) + "x" + std::to_string(rows), std::move(*bytes));
  }
});
