#include <array>
#include <cstdio>
#include <string>

#include "nav_input_codec.hpp"
#include "seeds.hpp"
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/nav/iron3d_input.hpp"

using namespace sortie;

namespace {
// Adds the seed if it reads back as written (the seeds are meant to reach the builders whole).
void add(fuzz::SeedSink& out, std::string name, const fuzz::NavFuzzInput& in) {
  core::Bytes bytes = fuzz::encode_nav_fuzz_input(in);
  if (fuzz::decode_nav_fuzz_input(bytes) != in) {
    std::fprintf(stderr, "fuzz_seeds: nav_input/%s does not read back\n", name.c_str());
    return;
  }
  out.add(std::move(name), std::move(bytes));
}
}  // namespace

SORTIE_FUZZ_SEEDS(nav_input, [](fuzz::SeedSink& out) {
  // Hand-made: two unit squares linked across x = 1, one triangle pair under them, a 2 x 1 grid.
  fuzz::NavFuzzInput small;
  small.soup.positions = {{0, 0, 0}, {2, 0, 1}, {0, 1, 2}, {2, 1, 3}};
  small.soup.faces = {{{0, 1, 2}, 1}, {{1, 3, 2}, 2}};
  for (float x0 : {0.0f, 1.0f}) {
    nav::ArealPolygon p;
    p.anchor = {x0 + 0.5f, 0.5f};
    p.ring = {{x0, 0}, {x0 + 1, 0}, {x0 + 1, 1}, {x0, 1}};
    p.links = {-1, x0 == 0 ? 1 : -1, -1, x0 == 0 ? -1 : 0};
    small.areals.areals.push_back(std::move(p));
  }
  small.areals.grid = nav::CandidateGrid{{0, 0}, {2, 1}, 2, 1, {{0}, {1}}};
  small.queries = {{0.25f, 0.5f}, {1.75f, 0.5f}, {1.0f, 0.5f}, {3.0f, 3.0f}};
  add(out, "two_squares", small);
  auto no_grid = small;
  no_grid.areals.grid.reset();
  add(out, "two_squares_no_grid", no_grid);

  // Builder terrain converted through nav/iron3d_input (grids of at most 255 x 255 cells).
  for (auto [cols, areals, grid] : {std::array<std::uint32_t, 3>{5, 2, 4}, {9, 3, 8}}) {
    auto msh = iron3d::make_land_msh_from_heightfield(iron3d::make_sample_heightfield(cols, cols, cols));
    if (!msh) continue;
    auto map = iron3d::make_land_map_for(*msh, {areals, areals, grid, grid});
    if (!map) continue;
    auto input = nav::areal_input_from(*map);
    if (!input) continue;
    fuzz::NavFuzzInput in;
    in.soup = nav::triangle_soup_from(*msh);
    in.areals = std::move(*input);
    for (const auto& a : in.areals.areals) in.queries.push_back(a.anchor);
    add(out, "builder_" + std::to_string(cols) + "_areals_" + std::to_string(areals), in);
  }
});
