// Ambient music: THEME loop, pools, the strict timer, the two-state generator (seed 001).
#include "sortie/env/ambient_music.hpp"

#include <gtest/gtest.h>

using namespace sortie;
using namespace sortie::env;

namespace {

std::vector<std::uint16_t> outputs(std::uint16_t a, std::uint16_t b, int n) {
  TwoStateGenerator g(a, b);
  std::vector<std::uint16_t> out;
  for (int i = 0; i < n; ++i) out.push_back(g.next());
  return out;
}

AmbientMusicConfig config(std::vector<std::string> def, std::vector<std::string> day, std::vector<std::string> night,
                          std::uint16_t a = 1, std::uint16_t b = 0) {
  AmbientMusicConfig c;
  c.theme = {"music.lib", "THEME.WAV"};
  c.default_pool = std::move(def);
  c.day_pool = std::move(day);
  c.night_pool = std::move(night);
  c.state_a = a;
  c.state_b = b;
  return c;
}

const core::Vec3 kBright{0.7f, 0.7f, 0.7f};  // length sqrt(3 * 0.49) = 1.2124 > 1.1: day
const core::Vec3 kDim{0.6f, 0.6f, 0.6f};     // length sqrt(3 * 0.36) = 1.0392 <= 1.1: night

}  // namespace

TEST(AmbientMusic, generator_first_outputs) {
  // a = 1, b = 0:
  //   a = (1 << 1) ^ 0 = 2;   b = (0 >> 1) ^ 2 = 2
  //   a = (2 << 1) ^ 2 = 6;   b = (2 >> 1) ^ 6 = 7
  //   a = (6 << 1) ^ 7 = 11;  b = (7 >> 1) ^ 11 = 8
  //   a = (11 << 1) ^ 8 = 30; b = (8 >> 1) ^ 30 = 26
  //   a = (30 << 1) ^ 26 = 38; b = (26 >> 1) ^ 38 = 43
  EXPECT_EQ(outputs(1, 0, 5), (std::vector<std::uint16_t>{2, 7, 8, 26, 43}));
  // a = 0x8000, b = 1: the shifted-out top bit is lost (16-bit state):
  //   a = 0x0000 ^ 1 = 1; b = 0 ^ 1 = 1
  //   a = 2 ^ 1 = 3;      b = 0 ^ 3 = 3
  //   a = 6 ^ 3 = 5;      b = 1 ^ 5 = 4
  //   a = 10 ^ 4 = 14;    b = 2 ^ 14 = 12
  EXPECT_EQ(outputs(0x8000, 1, 4), (std::vector<std::uint16_t>{1, 3, 4, 12}));
  // a = b = 0xFFFF:
  //   a = 0xFFFE ^ 0xFFFF = 0x0001; b = 0x7FFF ^ 0x0001 = 0x7FFE (32766)
  //   a = 0x0002 ^ 0x7FFE = 0x7FFC; b = 0x3FFF ^ 0x7FFC = 0x4003 (16387)
  //   a = 0xFFF8 ^ 0x4003 = 0xBFFB; b = 0x2001 ^ 0xBFFB = 0x9FFA (40954)
  EXPECT_EQ(outputs(0xFFFF, 0xFFFF, 3), (std::vector<std::uint16_t>{32766, 16387, 40954}));
  EXPECT_EQ(outputs(0, 0, 3), (std::vector<std::uint16_t>{0, 0, 0}));
}

TEST(AmbientMusic, theme_loop_starts_at_open) {
  AmbientMusic m(config({"A.WAV"}, {}, {}), 1);
  const auto ev = m.open(0);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].kind, SoundEventKind::start_loop);
  EXPECT_EQ(ev[0].loop, "theme");
  EXPECT_EQ(ev[0].sample, (SoundRef{"music.lib", "THEME.WAV"}));
  EXPECT_EQ(ev[0].bus, Bus::music);
}

TEST(AmbientMusic, timer_is_strict_and_redrawn_between_10_and_19_seconds) {
  AmbientMusic m(config({"A.WAV", "B.WAV"}, {}, {}), 3);
  std::vector<SoundEvent> out;
  EXPECT_FALSE(m.tick(0.0, std::nullopt, 0, out));    // 0 > 0 is false
  auto first = m.tick(0.25, std::nullopt, 250, out);  // the first positive tick plays
  ASSERT_TRUE(first);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, SoundEventKind::one_shot);
  EXPECT_EQ(out[0].bus, Bus::music);
  EXPECT_EQ(out[0].sample.archive, "music.lib");  // no variation library: the theme's
  EXPECT_GE(first->delay_seconds, 10u);
  EXPECT_LE(first->delay_seconds, 19u);
  EXPECT_EQ(m.elapsed(), 0.0);
  EXPECT_EQ(m.delay(), static_cast<double>(first->delay_seconds));
  // elapsed == delay is not enough; a quarter second more is.
  EXPECT_FALSE(m.tick(static_cast<double>(first->delay_seconds), std::nullopt, 0, out));
  EXPECT_EQ(out.size(), 1u);
  EXPECT_TRUE(m.tick(0.25, std::nullopt, 0, out));
  EXPECT_EQ(out.size(), 2u);
  // Delays of many choices cover 10..19 and nothing else.
  std::vector<int> seen(20, 0);
  for (int i = 0; i < 400; ++i) {
    auto c = m.tick(20.0, std::nullopt, 0, out);
    ASSERT_TRUE(c);
    ASSERT_GE(c->delay_seconds, 10u);
    ASSERT_LE(c->delay_seconds, 19u);
    ++seen[c->delay_seconds];
  }
  for (int d = 10; d <= 19; ++d) EXPECT_GT(seen[static_cast<std::size_t>(d)], 0) << d;
}

TEST(AmbientMusic, redraw_avoids_the_previous_index) {
  // generator (1, 0) outputs 2, 7, 8, 26, 43 -> % 2 = 0, 1, 0, 0, 1
  AmbientMusic m(config({"A.WAV", "B.WAV"}, {}, {}), 1);
  std::vector<SoundEvent> out;
  auto c1 = m.tick(1, std::nullopt, 0, out);
  auto c2 = m.tick(30, std::nullopt, 0, out);
  auto c3 = m.tick(30, std::nullopt, 0, out);
  auto c4 = m.tick(30, std::nullopt, 0, out);  // 26 % 2 = 0 repeats index 0 -> redraw 43 % 2 = 1
  EXPECT_EQ(c1->index, 0);
  EXPECT_EQ(c1->draws, 1);
  EXPECT_EQ(c2->index, 1);
  EXPECT_EQ(c3->index, 0);
  EXPECT_EQ(c4->index, 1);
  EXPECT_EQ(c4->draws, 2);
  EXPECT_EQ(out[3].sample.name, "B.WAV");
}

TEST(AmbientMusic, single_entry_pool_repeats_without_redraw) {
  AmbientMusic m(config({"ONLY.WAV"}, {}, {}), 1);
  std::vector<SoundEvent> out;
  EXPECT_EQ(m.tick(1, std::nullopt, 0, out)->index, 0);
  EXPECT_EQ(m.tick(30, std::nullopt, 0, out)->index, 0);
  EXPECT_EQ(out.size(), 2u);
}

TEST(AmbientMusic, degenerate_generator_state_never_hangs) {
  AmbientMusic m(config({"A.WAV", "B.WAV"}, {}, {}, 0, 0), 1);
  std::vector<SoundEvent> out;
  EXPECT_EQ(m.tick(1, std::nullopt, 0, out)->index, 0);
  auto c = m.tick(30, std::nullopt, 0, out);
  EXPECT_EQ(c->draws, kMaxVariationDraws);
  EXPECT_EQ(c->index, 1);
}

TEST(AmbientMusic, day_and_night_pools_by_the_1_1_rgb_length_rule) {
  AmbientMusic m(config({"D.WAV"}, {"DAY1.WAV"}, {"NIGHT1.WAV", "NIGHT2.WAV"}), 1);
  EXPECT_EQ(m.pool_for(kBright), VariationPool::day);
  EXPECT_EQ(m.pool_for(kDim), VariationPool::night);
  EXPECT_EQ(m.pool_for(std::nullopt), VariationPool::night);
  EXPECT_EQ(m.pool_for(core::Vec3{1.1f, 0.0f, 0.0f}), VariationPool::night);  // not above 1.1
  std::vector<SoundEvent> out;
  m.tick(1, kBright, 0, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sample.name, "DAY1.WAV");
  m.tick(30, kDim, 0, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NE(out[1].sample.name, "D.WAV");  // default is never used while day/night pools exist
  // Only the default pool: the sky does not matter.
  AmbientMusic d(config({"D.WAV"}, {}, {}), 1);
  EXPECT_EQ(d.pool_for(kBright), VariationPool::default_pool);
  EXPECT_EQ(d.pool_for(kDim), VariationPool::default_pool);
}

TEST(AmbientMusic, empty_chosen_pool_plays_nothing_and_keeps_the_timer) {
  AmbientMusic m(config({"D.WAV"}, {}, {"N1.WAV", "N2.WAV"}, 1, 0), 1);
  AmbientMusicConfig cfg = m.config();
  cfg.variation_library = "vars.lib";
  AmbientMusic v(cfg, 1);
  std::vector<SoundEvent> out;
  auto c = v.tick(1, kBright, 0, out);  // day pool is empty: no fallback
  ASSERT_TRUE(c);
  EXPECT_EQ(c->pool, VariationPool::day);
  EXPECT_EQ(c->index, -1);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(v.last_index(), -1);
  EXPECT_GE(v.delay(), 10.0);  // the next timer runs
  auto n = v.tick(30, kDim, 0, out);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->index, 0);  // 2 % 2: nothing to avoid after -1
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sample, (SoundRef{"vars.lib", "N1.WAV"}));
}

TEST(AmbientMusic, pause_keeps_timer_and_index) {
  AmbientMusic m(config({"A.WAV", "B.WAV", "C.WAV"}, {}, {}), 1);
  std::vector<SoundEvent> out;
  m.tick(1, std::nullopt, 0, out);
  m.tick(4, std::nullopt, 0, out);
  const double elapsed = m.elapsed();
  const int index = m.last_index();
  m.set_paused(true);
  EXPECT_FALSE(m.tick(1000, std::nullopt, 0, out));
  EXPECT_EQ(m.elapsed(), elapsed);
  EXPECT_EQ(m.last_index(), index);
  EXPECT_EQ(out.size(), 1u);
  m.set_paused(false);
  EXPECT_FALSE(m.tick(1, std::nullopt, 0, out));  // 5 s of at least 10: still waiting
  EXPECT_EQ(m.elapsed(), 5.0);
}
