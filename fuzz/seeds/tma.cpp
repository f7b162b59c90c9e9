#include "sortie/iron3d/tma.hpp"

#include "seeds.hpp"

SORTIE_FUZZ_SEEDS(tma, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie::iron3d;
  Tma empty;
  empty.land_path = "DATA\\MAPS\\Tut_1\\land";
  out.add("minimal", *write_tma(empty));
  Tma t = empty;
  t.description_raw = std::string("d\0\x98", 3);
  t.add_path(30, {{1, 2, 3}});
  t.add_path(-5, {});
  t.add_clan(TmaClan::standard("Alpha", 1, {10, 20}, "MISSIONS\\SCRIPTS\\default", 7, "", 8)).add_relation("Beta", 2);
  t.add_clan(TmaClan::spatial("Beta", {0, 0}, "first", {{{{1, 2, 3, 4, 5}}}}, "second", 9));
  t.add_clan(TmaClan::standard("Gamma", 3, {0, 0}, "g", 1, "g.trf", 2));
  auto& o = t.add_object(TmaObject::placed("s_tree_04", "tree_01", {418.5F, 717.25F, 3.0F}));
  o.add_property("Life state", {1, 0, 0, 0});
  o.add_property("Invulnerability", {0, 0, 0, 0});
  t.add_object(TmaObject::placed("UNITS\\UNITS\\AutoDEMO\\w_m_wlk2.dat", "", {1, 2, 3}))
      .add_property("ClanID", {2, 0, 0, 0});
  t.add_extra({{5, 6, 7}, {0, 0, 0, 0}});
  out.add("rich", *write_tma(t));
  Tma odd = t;
  odd.format_version = 2;
  odd.objects[0].flags = 0x80000003u;
  out.add("compatible_only", *write_tma(odd));
});
