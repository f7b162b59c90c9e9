// mission.cfg -> ambient music (docs/mission-cfg.md): the loop and variation blocks found by name
// or desc, THEME and the loop library, the three numbered pools, LIBRARY vs the loop's library,
// gaps, duplicates and a missing THEME as warnings.
#include "sortie/env/mission_music.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace sortie;
using namespace sortie::env;

namespace {

iron3d::MissionConfig parse(std::string_view text) {
  auto c = iron3d::read_mission_cfg(core::as_bytes(text));
  EXPECT_TRUE(c) << c.error().to_string();
  return c ? *c : iron3d::MissionConfig{};
}

std::vector<std::string> codes(const MissionAmbientMusic& m) {
  std::vector<std::string> out;
  for (const auto& w : m.warnings) out.push_back(w.code);
  return out;
}

using Pool = std::vector<std::string>;

}  // namespace

TEST(MissionMusic, default_pool_only) {
  const auto m =
      ambient_music_from_mission_cfg(parse("object ambient_music_loop\n"
                                           "  library music.lib\n"
                                           "  THEME theme01.wav\n"
                                           "end\n"
                                           "object ambient_music_variation\n"
                                           "  DEFAULT_VARIATION1 a.wav\n"
                                           "  default_variation2 \"b b.wav\"\n"
                                           "end\n"));
  EXPECT_TRUE(m.warnings.empty()) << m.warnings.front().to_string();
  EXPECT_TRUE(m.has_loop);
  EXPECT_TRUE(m.has_variations);
  EXPECT_EQ(m.config.theme, (SoundRef{"music.lib", "theme01.wav"}));
  EXPECT_EQ(m.config.default_pool, (Pool{"a.wav", "b b.wav"}));
  EXPECT_TRUE(m.config.day_pool.empty());
  EXPECT_TRUE(m.config.night_pool.empty());
  // No LIBRARY in the variation block: the loop's library.
  EXPECT_EQ(m.config.variation_library, std::optional<std::string>("music.lib"));
  EXPECT_EQ(m.config.state_a, AmbientMusicConfig{}.state_a);
}

TEST(MissionMusic, day_and_night_pools_from_blocks_named_by_desc) {
  // Blocks found by `desc` (any case) rather than by name; keys in any case and order.
  const auto m =
      ambient_music_from_mission_cfg(parse("object music1\n"
                                           "  desc AMBIENT_MUSIC_LOOP\n"
                                           "  theme loop.wav\n"
                                           "end\n"
                                           "object music2\n"
                                           "  desc ambient_music_variation\n"
                                           "  NIGHT_VARIATION2 n2.wav\n"
                                           "  DAY_VARIATION1 d1.wav\n"
                                           "  NIGHT_VARIATION1 n1.wav\n"
                                           "  DAY_VARIATION2 d2.wav\n"
                                           "  DAY_VARIATION3 d3.wav\n"
                                           "end\n"));
  EXPECT_TRUE(m.warnings.empty());
  EXPECT_EQ(m.config.theme, (SoundRef{"", "loop.wav"}));  // no library: the mission's default
  EXPECT_EQ(m.config.day_pool, (Pool{"d1.wav", "d2.wav", "d3.wav"}));
  EXPECT_EQ(m.config.night_pool, (Pool{"n1.wav", "n2.wav"}));
  EXPECT_TRUE(m.config.default_pool.empty());
  EXPECT_FALSE(m.config.variation_library.has_value());

  // Played: at night the night pool, from the theme's (default) library.
  AmbientMusic music(m.config, 7);
  std::vector<SoundEvent> out;
  const auto c = music.tick(0.5, core::Vec3{0.1f, 0.1f, 0.1f}, 500, out);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->pool, VariationPool::night);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sample.archive, "");
  EXPECT_EQ(out[0].sample.name, m.config.night_pool.at(static_cast<std::size_t>(c->index)));
}

TEST(MissionMusic, variation_library_overrides_the_loop_library) {
  const auto m =
      ambient_music_from_mission_cfg(parse("object ambient_music_loop\n"
                                           "  library \"music.lib\"\n"
                                           "  THEME t.wav\n"
                                           "end\n"
                                           "object ambient_music_variation\n"
                                           "  LIBRARY sounds.lib\n"
                                           "  DEFAULT_VARIATION1 v.wav\n"
                                           "end\n"));
  EXPECT_TRUE(m.warnings.empty());
  EXPECT_EQ(m.config.theme, (SoundRef{"music.lib", "t.wav"}));
  EXPECT_EQ(m.config.variation_library, std::optional<std::string>("sounds.lib"));
  AmbientMusic music(m.config, 1);
  const auto open = music.open(0);
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].sample, (SoundRef{"music.lib", "t.wav"}));
  std::vector<SoundEvent> out;
  ASSERT_TRUE(music.tick(0.1, std::nullopt, 100, out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sample, (SoundRef{"sounds.lib", "v.wav"}));
}

TEST(MissionMusic, a_gap_ends_the_pool_with_a_warning) {
  const auto m = ambient_music_from_mission_cfg(parse("object ambient_music_loop\n"
                                                      "THEME t.wav\n"
                                                      "end\n"
                                                      "object ambient_music_variation\n"
                                                      "DAY_VARIATION1 d1.wav\n"
                                                      "DAY_VARIATION2 d2.wav\n"
                                                      "DAY_VARIATION4 d4.wav\n"
                                                      "DAY_VARIATION5 d5.wav\n"
                                                      "NIGHT_VARIATION1 n1.wav\n"
                                                      "NIGHT_VARIATION2 \"\"\n"
                                                      "NIGHT_VARIATION3 n3.wav\n"
                                                      "end\n"),
                                                "MISSIONS/m01/mission.cfg");
  EXPECT_EQ(m.config.day_pool, (Pool{"d1.wav", "d2.wav"}));
  EXPECT_EQ(m.config.night_pool, (Pool{"n1.wav"}));
  ASSERT_EQ(codes(m), (std::vector<std::string>{"ambient_music.variation_gap", "ambient_music.variation_gap"}));
  const auto& day = m.warnings[0];
  EXPECT_EQ(day.severity, core::Severity::warning);
  EXPECT_EQ(day.file, "MISSIONS/m01/mission.cfg");
  EXPECT_EQ(day.field, "objects[1].lines[2]");  // DAY_VARIATION4, the first key ignored
  EXPECT_EQ(day.offset, std::optional<std::uint64_t>(117));
  EXPECT_EQ(day.message, "line 7: DAY_VARIATION3 is missing: the day pool ends with 2 entries; 2 keys are ignored");
  EXPECT_EQ(m.warnings[1].message,
            "line 10: NIGHT_VARIATION2 is empty: the night pool ends with 1 entry; 2 keys are ignored");
}

TEST(MissionMusic, missing_theme_is_a_warning_and_plays_no_loop) {
  const auto m =
      ambient_music_from_mission_cfg(parse("object ambient_music_loop\n"
                                           "  library music.lib\n"
                                           "end\n"
                                           "object ambient_music_variation\n"
                                           "  DEFAULT_VARIATION1 a.wav\n"
                                           "end\n"));
  ASSERT_EQ(codes(m), (std::vector<std::string>{"ambient_music.theme_missing"}));
  EXPECT_EQ(m.warnings[0].field, "objects[0]");
  EXPECT_EQ(m.warnings[0].offset, std::optional<std::uint64_t>(0));
  EXPECT_TRUE(m.config.theme.empty());
  EXPECT_EQ(m.config.default_pool, (Pool{"a.wav"}));
  EXPECT_EQ(m.config.variation_library, std::optional<std::string>("music.lib"));
  AmbientMusic music(m.config, 1);
  EXPECT_TRUE(music.open(0).empty());
  // An empty THEME is missing too, and the warning points at its line.
  const auto e = ambient_music_from_mission_cfg(parse("object ambient_music_loop\nTHEME \"\"\nend\n"));
  ASSERT_EQ(codes(e), (std::vector<std::string>{"ambient_music.theme_missing"}));
  EXPECT_EQ(e.warnings[0].field, "objects[0].lines[0]");
}

TEST(MissionMusic, the_first_of_two_loop_blocks_counts) {
  const auto m =
      ambient_music_from_mission_cfg(parse("object ambient_music_loop\n"
                                           "THEME first.wav\n"
                                           "end\n"
                                           "object other\n"
                                           "desc ambient_music_loop\n"
                                           "THEME second.wav\n"
                                           "end\n"
                                           "object ambient_music_variation\n"
                                           "end\n"
                                           "object ambient_music_variation\n"
                                           "DEFAULT_VARIATION1 ignored.wav\n"
                                           "end\n"));
  EXPECT_EQ(m.config.theme.name, "first.wav");
  EXPECT_TRUE(m.config.default_pool.empty());  // the first variation block is empty
  ASSERT_EQ(codes(m), (std::vector<std::string>{"ambient_music.loop_duplicate", "ambient_music.variation_duplicate"}));
  EXPECT_EQ(m.warnings[0].field, "objects[1]");
  EXPECT_NE(m.warnings[0].message.find("line 1 counts"), std::string::npos) << m.warnings[0].message;
}

TEST(MissionMusic, bad_and_repeated_pool_keys_are_ignored_with_warnings) {
  const auto m =
      ambient_music_from_mission_cfg(parse("object ambient_music_loop\nTHEME t.wav\nend\n"
                                           "object ambient_music_variation\n"
                                           "DEFAULT_VARIATION0 zero.wav\n"
                                           "DEFAULT_VARIATION01 lead.wav\n"
                                           "DEFAULT_VARIATIONX x.wav\n"
                                           "DEFAULT_VARIATION99999999999 big.wav\n"
                                           "DEFAULT_VARIATION1 one.wav\n"
                                           "default_variation1 again.wav\n"
                                           "DEFAULT_VARIATIONS not.a.pool.key\n"
                                           "end\n"));
  EXPECT_EQ(m.config.default_pool, (Pool{"one.wav"}));
  EXPECT_EQ(codes(m), (std::vector<std::string>{"ambient_music.variation_key", "ambient_music.variation_key",
                                                "ambient_music.variation_key", "ambient_music.variation_key",
                                                "ambient_music.variation_repeated", "ambient_music.variation_key"}));
}

TEST(MissionMusic, variations_without_a_loop_block_and_a_config_without_music) {
  const auto m = ambient_music_from_mission_cfg(
      parse("object ambient_music_variation\nLIBRARY sounds.lib\nNIGHT_VARIATION1 n.wav\nend\n"));
  EXPECT_FALSE(m.has_loop);
  EXPECT_TRUE(m.has_variations);
  EXPECT_EQ(codes(m), (std::vector<std::string>{"ambient_music.loop_missing"}));
  EXPECT_TRUE(m.config.theme.empty());
  EXPECT_EQ(m.config.night_pool, (Pool{"n.wav"}));
  EXPECT_EQ(m.config.variation_library, std::optional<std::string>("sounds.lib"));

  const auto none = ambient_music_from_mission_cfg(parse("object sound_resource\ndesc x\nend\n"));
  EXPECT_FALSE(none.has_loop);
  EXPECT_FALSE(none.has_variations);
  EXPECT_TRUE(none.warnings.empty());
  EXPECT_TRUE(none.config.theme.empty());
  EXPECT_TRUE(none.config.default_pool.empty());
}

TEST(MissionMusic, from_a_prepared_mission_with_and_without_mission_cfg) {
  assets::MissionData md;
  EXPECT_FALSE(ambient_music_from_mission(md).has_value());
  md.mission_cfg = parse("object ambient_music_loop\nlibrary music.lib\nend\n");
  md.mission_cfg_path = *assets::normalize_path("MISSIONS/m01/mission.cfg");
  const auto m = ambient_music_from_mission(md);
  ASSERT_TRUE(m.has_value());
  EXPECT_TRUE(m->has_loop);
  ASSERT_EQ(codes(*m), (std::vector<std::string>{"ambient_music.theme_missing"}));
  EXPECT_EQ(m->warnings[0].file, "MISSIONS/m01/mission.cfg");
  EXPECT_EQ(m->config.theme.archive, "music.lib");
}
