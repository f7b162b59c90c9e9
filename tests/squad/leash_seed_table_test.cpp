// Seed 002 §5a is inconsistent about the leash (docs/squad-maps.md, "The leash"): its table says
// the disc keeps 25 % of its speed at the hard bound, i.e. over = (d - anchorLeash) /
// (anchorLeashMax - anchorLeash); its formulas quote an equilibrium at d = 3.4, urgency 0.55.
// sortie keeps the equilibrium (over = (d - anchorLeash) / anchorLeash: 62.5 % at the bound).
// These tests pin both readings with the library's own urgency and squad speed.
#include <gtest/gtest.h>

#include <algorithm>

#include "sortie/squad/leash.hpp"

namespace sortie::squad {
namespace {

// The disc speed under the seed table's reading of `over`.
float table_disc_speed(float d, const Tuning& t) {
  const float over = std::max(0.0f, d - t.anchor_leash) / (t.anchor_leash_max - t.anchor_leash);
  return t.anchor_speed * std::max(0.08f, 1.0f - t.leash_drag * over);
}

TEST(LeashSeedTable, ours_keeps_62_5_percent_at_the_hard_bound) {
  const Tuning t;
  EXPECT_NEAR(disc_speed(t.anchor_leash_max, false, t) / t.anchor_speed, 0.625f, 1e-6f);
  EXPECT_NEAR(table_disc_speed(t.anchor_leash_max, t) / t.anchor_speed, 0.25f, 1e-6f);  // the table's 25 %
}

TEST(LeashSeedTable, the_table_reading_cannot_reach_the_seeds_equilibrium) {
  const Tuning t;
  // At the quoted distance the table's disc is slower than the squad's slowest walk.
  EXPECT_NEAR(table_disc_speed(3.4f, t), 1.2375f, 1e-4f);
  EXPECT_LT(table_disc_speed(3.4f, t), squad_speed(0.0f, false, t));
  // Its equilibrium (bisection as leash_equilibrium does) sits below the urgency start: the
  // squad walks at moveSpeed and never speeds up.
  float lo = 0.0f, hi = t.anchor_leash_max;
  for (int i = 0; i < 60; ++i) {
    const float mid = 0.5f * (lo + hi);
    (table_disc_speed(mid, t) - squad_speed(leash_urgency(mid, t), false, t) > 0.0f ? lo : hi) = mid;
  }
  EXPECT_NEAR(lo, 3.15f, 0.01f);
  EXPECT_EQ(leash_urgency(lo, t), 0.0f);
  // Ours reaches the seed's 3.4 / 0.55.
  const LeashEquilibrium ours = leash_equilibrium(t, false);
  EXPECT_NEAR(ours.distance, 3.40f, 0.01f);
  EXPECT_NEAR(ours.urgency, 0.55f, 0.01f);
}

}  // namespace
}  // namespace sortie::squad
