// Seeds for the asset format fuzz targets, written by the builders.
#include "seeds.hpp"
#include "sortie/assets/prepared_effect.hpp"
#include "sortie/iron3d/fxid.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/object_refs.hpp"
#include "sortie/iron3d/texm.hpp"
#include "sortie/iron3d/unit_dat.hpp"
#include "sortie/iron3d/wear.hpp"

using namespace sortie;
using namespace sortie::iron3d;

SORTIE_FUZZ_SEEDS(unit_dat, [](fuzz::SeedSink& out) {
  out.add("empty", write_unit_dat(UnitDat{}));
  out.add("two",
          write_unit_dat(*build_unit_dat({{"objects.rlb", "w_m_body", "body"}, {"objects.rlb", "w_m_gun", ""}})));
});

SORTIE_FUZZ_SEEDS(object_refs, [](fuzz::SeedSink& out) {
  out.add("payload", write_object_refs({*make_object_ref("static.rlb", "s_tree_0_04.msh")}));
  out.add("registry",
          *build_object_registry(
              {{"s_tree_04", {*make_object_ref("static.rlb", "s_tree_0_04.msh")}},
               {"fr_child", {*make_object_ref("objects.rlb", "s_tree_04"), *make_object_ref("fortif.rlb", "x.bas")}}}));
});

SORTIE_FUZZ_SEEDS(msh, [](fuzz::SeedSink& out) {
  out.add("box", *write_msh_canonical(*build_msh_model(msh_box_input(1, 1, 1))));
  out.add("box3", *write_msh_canonical(*build_msh_model(msh_box_input(1, 2, 3, 3))));
});

SORTIE_FUZZ_SEEDS(wear, [](fuzz::SeedSink& out) {
  out.add("one", write_wear(*build_wear({"MAT"})));
  out.add("lightmaps", write_wear(*build_wear({"BODY", "GLASS"}, {"LM_BODY"})));
});

SORTIE_FUZZ_SEEDS(mat0, [](fuzz::SeedSink& out) {
  auto m = *build_mat0({"TEX_A", "TEX_B"}, true);
  auto b = write_mat0(m);
  b.insert(b.begin(), 6);  // first byte = version
  out.add("v6", b);
  m.version = 0;
  b = write_mat0(m);
  b.insert(b.begin(), 0);
  out.add("v0", b);
});

SORTIE_FUZZ_SEEDS(texm, [](fuzz::SeedSink& out) {
  out.add("565", write_texm(*build_texm(4, 4, 565, 3)));
  out.add("pal", write_texm(*build_texm(2, 2, 0, 1)));
  auto t = *build_texm(2, 1, 8888, 1);
  t.page = std::vector<TexmPageRect>{{0, 2, 0, 1}};
  out.add("page", write_texm(t));
});

SORTIE_FUZZ_SEEDS(fxid, [](fuzz::SeedSink& out) {
  Fxid fx;
  fx.commands.push_back(*make_fxid_command(6, true));
  fx.commands.push_back(*make_fxid_command(2, true, "sounds.lib", "boom.wav"));
  out.add("two", write_fxid(fx));
  Fxid all;
  for (std::uint32_t op = 1; op <= 10; ++op) all.commands.push_back(*make_fxid_command(op, true));
  out.add("all", write_fxid(all));
});

// Effects run from their bytes (fuzz/fx_run.cpp): the seed's lightning, and one with the random
// shift, the triangular value and every opcode.
SORTIE_FUZZ_SEEDS(fx_run, [](fuzz::SeedSink& out) {
  Fxid lightning = assets::lightning_fxid("sounds.lib", "THUNDER1.WAV", "env_lightning");
  out.add("lightning", write_fxid(lightning));
  lightning.header.flags = 0x0008 | 0x0020 | 0x0200;
  lightning.header.random_shift = {10.0f, 10.0f, 0.0f};
  lightning.header.time_mode = 0;
  for (std::uint32_t op = 4; op <= 10; ++op) lightning.commands.push_back(*make_fxid_command(op, true));
  out.add("shifted_all", write_fxid(lightning));
});
