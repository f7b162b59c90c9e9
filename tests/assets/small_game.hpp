#pragma once
// The small game the resolver and visual-store tests share: two models, three materials (one
// DEFAULT), two textures, one lightmap, a registry with inheritance and a non-geometric
// prototype, one unit DAT.
//   tree.msh   (static.rlb) rows M_ONE, M_TWO            <- s_tree
//   bunker.msh (bases.rlb)  rows M_TWO, M_ONE; LM_A      <- b_base <- b_child (parent ref)
//   M_ONE: T_A; M_TWO: T_A, T_B (animated); DEFAULT: T_B; sun: system.rlb:sun.bas only
//   UNITS/u1.dat: s_tree, b_child
#include <gtest/gtest.h>

#include "sortie/assets/game_builder.hpp"

namespace sortie::assets::test {

inline GameBuilder small_game(ArchiveFormat objects = ArchiveFormat::rsli) {
  GameBuilder g(objects);
  EXPECT_TRUE(g.add_texture("T_A", 16, 16, 565, 2, 1).has_value());
  EXPECT_TRUE(g.add_texture("T_B", 8, 8, 4444, 1, 2).has_value());
  EXPECT_TRUE(g.add_lightmap("LM_A", 8, 8, 3).has_value());
  EXPECT_TRUE(g.add_material("M_ONE", {"T_A"}).has_value());
  EXPECT_TRUE(g.add_material("M_TWO", {"T_A", "T_B"}, true).has_value());
  EXPECT_TRUE(g.add_material("DEFAULT", {"T_B"}).has_value());
  EXPECT_TRUE(g.add_model({"static.rlb", "tree.msh", {"M_ONE", "M_TWO"}, {}}).has_value());
  EXPECT_TRUE(g.add_model({"bases.rlb", "bunker.msh", {"M_TWO", "M_ONE"}, {"LM_A"}}).has_value());
  g.add_prototype("s_tree", {{"static.rlb", "tree.msh"}});
  g.add_prototype("b_base", {{"bases.rlb", "bunker.msh"}});
  g.add_prototype("b_child", {{"objects.rlb", "b_base"}, {"bases.rlb", "child.bas"}});
  g.add_prototype("sun", {{"system.rlb", "sun.bas"}});
  EXPECT_TRUE(g.add_unit_dat("UNITS/u1.dat", {"s_tree", "b_child"}).has_value());
  return g;
}

}  // namespace sortie::assets::test
