// Seeds for fuzz_visual_store (layout in visual_store_codec.hpp), written by the builders: each
// record kind on its own, the raw structures of the same records, and whole stores.
#include "seeds.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/terrain_builder.hpp"
#include "sortie/iron3d/wear.hpp"
#include "visual_store_codec.hpp"

using namespace sortie;
using namespace sortie::iron3d;
using fuzz::VisualSection;

namespace {

core::Bytes versioned_mat0(const std::vector<std::string>& textures, bool animated) {
  auto mat = *build_mat0(textures, animated);
  core::Bytes b = write_mat0(mat);
  b.insert(b.begin(), static_cast<std::uint8_t>(mat.version));
  return b;
}

// A box whose second node hangs off the first through a rotated fallback key.
MshModel two_node_box() {
  MshModel m = *build_msh_model(msh_box_input(1, 2, 3, 2));
  MshNode child = m.nodes[0];
  child.parent = 0;
  child.fallback_key = 1;
  m.nodes.push_back(child);
  m.node_count = m.nodes.size();
  m.anim_keys = std::vector<MshAnimKey>{{{1, 0, 0}, 0, {0, 0, 23170, 23170}}, {{0, 2, 0}, 0, {0, 0, 0, 32767}}};
  m.node_names = std::vector<std::string>{"root", "child"};
  return m;
}

LandMsh small_land() {
  return *make_land_msh_from_heightfield(make_sample_heightfield(4, 3, 7), {2});
}

}  // namespace

SORTIE_FUZZ_SEEDS(visual_store, [](fuzz::SeedSink& out) {
  const core::Bytes box = *write_msh_canonical(*build_msh_model(msh_box_input(1, 1, 1, 2)));
  const core::Bytes wear = write_wear(*build_wear({"M_FZ", "GONE"}, {"LM_FZ"}));
  const core::Bytes mat0 = versioned_mat0({"T_FZ", "", "T_FZ"}, true);
  const core::Bytes texm = write_texm(*build_texm(8, 4, 565, 2));
  const core::Bytes land = *write_land_msh(small_land());

  out.add("records", fuzz::encode_visual_fuzz_input({0,
                                                     {{VisualSection::msh, box},
                                                      {VisualSection::mat0, mat0},
                                                      {VisualSection::texm, texm},
                                                      {VisualSection::texm, write_texm(*build_texm(3, 5, 0, 1))},
                                                      {VisualSection::texm, write_texm(*build_texm(16, 2, 8888, 5))},
                                                      {VisualSection::land, land}}}));
  out.add("raw", fuzz::encode_visual_fuzz_input(
                     {0,
                      {{VisualSection::mesh, fuzz::encode_raw_mesh(two_node_box())},
                       {VisualSection::terrain, fuzz::encode_raw_terrain(small_land())},
                       {VisualSection::texture, fuzz::encode_raw_texture(*build_texm(4, 4, 4444, 3))},
                       {VisualSection::texture, fuzz::encode_raw_texture(*build_texm(2, 2, 0, 1))}}}));
  // A declared size no input can back: level 0 claims 2^31 x 2^31 pixels and holds none.
  Texm huge;
  huge.width = huge.height = 0x80000000u;
  huge.format = 8888;
  huge.mips = {core::Bytes{}};
  out.add("raw_huge", fuzz::encode_visual_fuzz_input({0, {{VisualSection::texture, fuzz::encode_raw_texture(huge)}}}));
  out.add("two_nodes",
          fuzz::encode_visual_fuzz_input({0, {{VisualSection::msh, *write_msh_canonical(two_node_box())}}}));

  out.add("store_defaults", fuzz::encode_visual_fuzz_input({fuzz::kVisualBuildStore, {}}));
  out.add("store", fuzz::encode_visual_fuzz_input({fuzz::kVisualBuildStore,
                                                   {{VisualSection::msh, box},
                                                    {VisualSection::wear, wear},
                                                    {VisualSection::mat0, mat0},
                                                    {VisualSection::texm, texm},
                                                    {VisualSection::land, land}}}));
  out.add("store_paletted",
          fuzz::encode_visual_fuzz_input({fuzz::kVisualBuildStore,
                                          {{VisualSection::texm, write_texm(*build_texm(4, 4, 0, 3))},
                                           {VisualSection::wear, write_wear(*build_wear({"M_FZ"}))}}}));
});
