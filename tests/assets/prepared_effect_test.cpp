// Effects as prepared resources (assets/prepared_effect.hpp, docs/effects.md): the field tables
// at their offsets, what is executed and what is kept, the header's value curve, and hostile
// bodies (each a diagnostic naming the field).
#include "sortie/assets/prepared_effect.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sortie/core/bytes.hpp"

namespace sortie::assets::prepared_effect_test {
namespace {

using iron3d::Fxid;
using iron3d::FxidCommand;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

FxidCommand command(std::uint32_t opcode, std::string_view archive = {}, std::string_view name = {}) {
  auto c = iron3d::make_fxid_command(opcode, true, archive, name);
  EXPECT_TRUE(c.has_value());
  return *c;
}

float f32_at(const FxidCommand& c, std::size_t offset) {
  return core::load_f32(&c.body[offset - 4]);  // offsets count the word
}

EffectLightFields light() {
  EffectLightFields l;
  l.window = {0.0f, 1.0f};
  l.offset_min = {0, 0, 1};
  l.offset_max = {0, 0, 3};
  l.range_min = 100.0f;
  l.range_max = 300.0f;
  l.strength = 2.0f;
  l.color = {1.0f, 0.5f, 0.25f};
  return l;
}

EffectSoundFields sound() {
  EffectSoundFields s;
  s.window = {0.5f, 1.0f};
  s.offset = {0, 0, -10};
  s.params = {100.0f, 1500.0f, 1.0f, 7.0f};
  s.parameter = 910;
  return s;
}

EffectBodyFields body() {
  EffectBodyFields b;
  b.alpha_source = 0.0f;
  b.alpha_min = 0.0f;
  b.alpha_max = 1.0f;
  b.alpha_power = 1.0f;
  b.window = {0.0f, 1.0f};
  b.size_min = {40, 40, 600};
  b.size_max = {40, 40, 600};
  b.size_power = b.offset_power = {1, 1, 1};
  return b;
}

Fxid effect_of(std::vector<FxidCommand> commands, float seconds = 1.0f) {
  Fxid fx;
  fx.header.time_mode = 1;
  fx.header.duration_seconds = seconds;
  fx.commands = std::move(commands);
  return fx;
}

TEST(PreparedEffect, field_tables_write_and_read_at_the_spec_offsets) {
  FxidCommand l = command(1);
  write_light_fields(l, light());
  EXPECT_EQ(f32_at(l, 8), 0.0f);
  EXPECT_EQ(f32_at(l, 12), 1.0f);
  EXPECT_EQ(f32_at(l, 24), 1.0f);     // offset_min.z at +16 + 8
  EXPECT_EQ(f32_at(l, 112), 100.0f);  // range min
  EXPECT_EQ(f32_at(l, 116), 300.0f);
  EXPECT_EQ(f32_at(l, 120), 2.0f);  // strength
  EXPECT_EQ(f32_at(l, 124), 1.0f);  // RGB
  EXPECT_EQ(f32_at(l, 132), 0.25f);
  EXPECT_EQ(read_light_fields(l), light());

  FxidCommand s = command(2, "sounds.lib", "boom.wav");
  write_sound_fields(s, sound());
  EXPECT_EQ(f32_at(s, 64), 100.0f);  // min distance (sortie's provisional reading)
  EXPECT_EQ(f32_at(s, 68), 1500.0f);
  EXPECT_EQ(f32_at(s, 72), 1.0f);
  EXPECT_EQ(f32_at(s, 76), 7.0f);  // kept
  EXPECT_EQ(core::load_u32(&s.body[80 - 4]), 910u);
  EXPECT_EQ(read_sound_fields(s), sound());
  // The reference at +84 is untouched by the fields.
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&s.body[84 - 4])), "sounds.lib");

  FxidCommand b = command(3, "material.lib", "bolt");
  write_body_fields(b, body());
  EXPECT_EQ(f32_at(b, 40), 40.0f);   // size min x
  EXPECT_EQ(f32_at(b, 48), 600.0f);  // size min z
  EXPECT_EQ(f32_at(b, 112), 1.0f);   // size power x
  EXPECT_EQ(read_body_fields(b), body());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&b.body[136 - 4 + 32])), "bolt");
}

TEST(PreparedEffect, runs_opcodes_1_2_3_and_keeps_the_others_with_a_reason) {
  FxidCommand l = command(1), s = command(2, "sounds.lib", "boom.wav"), b = command(3, "material.lib", "bolt");
  write_light_fields(l, light());
  write_sound_fields(s, sound());
  write_body_fields(b, body());
  FxidCommand off = b;
  off.word &= ~0x100u;  // disabled
  auto e = prepare_effect(effect_of({l, s, b, command(7, "material.lib", "smoke"), command(9), command(6), off}, 0.25f),
                          "effects.rlb", "storm");
  ASSERT_TRUE(e.has_value()) << e.error().to_string();
  EXPECT_EQ(e->lifetime_ms, 250);
  EXPECT_EQ(e->label(), "effects.rlb/storm");
  ASSERT_EQ(e->commands.size(), 7u);
  EXPECT_TRUE(e->commands[0].executed());
  EXPECT_TRUE(std::holds_alternative<EffectLightFields>(e->commands[0].fields));
  EXPECT_TRUE(e->commands[1].executed());
  EXPECT_EQ(e->commands[1].reference_archive, "sounds.lib");
  EXPECT_EQ(e->commands[1].reference_name, "boom.wav");
  EXPECT_TRUE(e->commands[2].executed());
  EXPECT_EQ(e->commands[2].reference_name, "bolt");
  EXPECT_EQ(e->commands[3].kept_because, "opcode 7 is not executed");
  EXPECT_EQ(e->commands[3].reference_name, "smoke");  // kept, with its reference
  EXPECT_EQ(e->commands[4].kept_because, "opcode 9 is not executed");
  EXPECT_EQ(e->commands[5].kept_because, "opcode 6 is not executed");
  EXPECT_EQ(e->commands[6].kept_because, "it is disabled (bit 8 of its word is clear)");
  EXPECT_TRUE(e->warnings.empty());  // kept opcodes and disabled commands are no finding
  EXPECT_EQ(effect_material_names(*e), (std::vector<std::string>{"bolt"}));
  // The raw record is kept whole.
  EXPECT_EQ(iron3d::write_fxid(e->fx),
            iron3d::write_fxid(
                effect_of({l, s, b, command(7, "material.lib", "smoke"), command(9), command(6), off}, 0.25f)));
}

TEST(PreparedEffect, lifetime_is_the_header_duration_in_whole_milliseconds) {
  for (const auto& [seconds, ms] : std::vector<std::pair<float, std::int64_t>>{
           {0.25f, 250}, {1.0f, 1000}, {0.0f, 0}, {3600.0f, 3'600'000}, {0.0004f, 0}, {0.0016f, 2}}) {
    auto e = prepare_effect(effect_of({}, seconds), "effects.rlb", "x");
    ASSERT_TRUE(e.has_value()) << seconds;
    EXPECT_EQ(e->lifetime_ms, ms) << seconds;
  }
}

TEST(PreparedEffect, value_follows_time_mode_then_flags_0x200_and_0x20) {
  auto value = [](std::uint32_t mode, std::uint32_t flags, float tn) {
    Fxid fx = effect_of({});
    fx.header.time_mode = mode;
    fx.header.flags = flags;
    auto e = prepare_effect(fx, "a", "b");
    EXPECT_TRUE(e.has_value());
    return e->value_at(tn);
  };
  EXPECT_EQ(value(0, 0, 0.3f), 1.0f);  // constant
  EXPECT_FLOAT_EQ(value(1, 0, 0.3f), 0.3f);
  EXPECT_FLOAT_EQ(value(2, 0, 0.3f), 0.3f);
  EXPECT_FLOAT_EQ(value(3, 0, 0.3f), 0.7f);
  EXPECT_FLOAT_EQ(value(0, 0x200, 0.3f), 0.3f);          // x tn
  EXPECT_FLOAT_EQ(value(0, 0x200 | 0x20, 0.25f), 0.5f);  // triangular: 0.25 -> 0.5
  EXPECT_FLOAT_EQ(value(0, 0x200 | 0x20, 0.75f), 0.5f);  // 0.75 -> (1 - 0.75) * 2
  EXPECT_FLOAT_EQ(value(0, 0x200 | 0x20, 0.5f), 1.0f);
  EXPECT_EQ(value(14, 0, 0.3f), 1.0f);  // kept, not guessed: full value
}

TEST(PreparedEffect, header_parts_sortie_does_not_run_are_named) {
  Fxid fx = effect_of({});
  fx.header.time_mode = 14;
  fx.header.flags = 0x0040 | 0x0008 | 0x0200 | 0x4000;
  fx.header.pivot = {1, 2, 3};
  auto e = prepare_effect(fx, "effects.rlb", "x");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->header_kept,
            (std::vector<std::string>{"time_mode 14 (1 - queue parameter 49): the effect runs at full value",
                                      "flag 0x0040 (starts inactive)", "flag 0x4000 (unknown)", "the pivot"}));
}

TEST(PreparedEffect, rejects_a_lifetime_that_is_not_finite_negative_or_over_an_hour) {
  for (float d : {kNaN, std::numeric_limits<float>::infinity(), -0.5f, 3600.5f}) {
    auto e = prepare_effect(effect_of({}, d), "effects.rlb", "bad");
    ASSERT_FALSE(e.has_value()) << d;
    EXPECT_EQ(e.error().code, "fx.duration");
    EXPECT_EQ(e.error().field, "header.duration_seconds");
    EXPECT_NE(e.error().message.find("effects.rlb/bad"), std::string::npos) << e.error().to_string();
  }
}

TEST(PreparedEffect, rejects_a_value_it_reads_that_is_not_finite_naming_command_and_field) {
  EffectLightFields l = light();
  l.color.y = kNaN;
  FxidCommand lc = command(1);
  write_light_fields(lc, l);
  auto e = prepare_effect(effect_of({command(6), lc}), "effects.rlb", "nan");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code, "fx.field");
  EXPECT_EQ(e.error().field, "commands[1].color");
  EXPECT_NE(e.error().message.find("commands[1] (opcode 1) color at +128 is not a finite number within +-1000000"),
            std::string::npos)
      << e.error().to_string();

  EffectSoundFields s = sound();
  s.params[1] = std::numeric_limits<float>::infinity();
  FxidCommand sc = command(2, "sounds.lib", "boom.wav");
  write_sound_fields(sc, s);
  e = prepare_effect(effect_of({sc}), "effects.rlb", "inf");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().field, "commands[0].max_distance");

  EffectBodyFields b = body();
  b.size_max.z = kNaN;
  FxidCommand bc = command(3, "material.lib", "bolt");
  write_body_fields(bc, b);
  e = prepare_effect(effect_of({bc}), "effects.rlb", "body");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().field, "commands[0].size_max");

  Fxid header = effect_of({});
  header.header.random_shift[1] = kNaN;
  e = prepare_effect(header, "effects.rlb", "shift");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code, "fx.field");
  EXPECT_EQ(e.error().field, "header.random_shift");
}

TEST(PreparedEffect, keeps_a_command_whose_finite_values_cannot_run_with_a_warning) {
  EffectSoundFields ratio0 = sound();
  ratio0.params[2] = 0.0f;
  EffectSoundFields far_near = sound();
  far_near.params = {2000.0f, 100.0f, 1.0f, 0.0f};
  EffectLightFields dark = light();
  dark.range_min = dark.range_max = 0.0f;
  EffectBodyFields flat = body();
  flat.size_min.z = flat.size_max.z = 0.0f;
  EffectBodyFields backwards = body();
  backwards.window = {0.8f, 0.2f};
  std::vector<FxidCommand> cs;
  for (const auto& f : {ratio0, far_near}) {
    cs.push_back(command(2, "sounds.lib", "boom.wav"));
    write_sound_fields(cs.back(), f);
  }
  cs.push_back(command(2));  // no sample named
  write_sound_fields(cs.back(), sound());
  cs.push_back(command(1));
  write_light_fields(cs.back(), dark);
  for (const auto& f : {flat, backwards}) {
    cs.push_back(command(3, "material.lib", "bolt"));
    write_body_fields(cs.back(), f);
  }
  auto e = prepare_effect(effect_of(cs), "effects.rlb", "odd");
  ASSERT_TRUE(e.has_value()) << e.error().to_string();
  ASSERT_EQ(e->warnings.size(), 6u);
  for (const auto& c : e->commands) EXPECT_FALSE(c.executed()) << c.index;
  EXPECT_EQ(e->commands[0].kept_because, "its frequency ratio 0 is not in (0, 16]");
  EXPECT_EQ(e->commands[1].kept_because, "its distances 2000..100 are not 0 <= min <= max");
  EXPECT_EQ(e->commands[2].kept_because, "it names no sample (archive[32] + name[32] at +84 are empty)");
  EXPECT_EQ(e->commands[3].kept_because, "its range 0..0 is not above 0 (a light reaches nothing)");
  EXPECT_EQ(e->commands[4].kept_because, "its height (size z) is 0 throughout");
  EXPECT_EQ(e->commands[5].kept_because, "its window [0.8, 0.2] is not inside the lifetime [0, 1]");
  EXPECT_EQ(e->warnings[0].code, "fx.command_skipped");
  EXPECT_EQ(e->warnings[0].field, "commands[0]");
  EXPECT_TRUE(effect_material_names(*e).empty());
}

TEST(PreparedEffect, a_zero_filled_command_runs_over_the_whole_lifetime) {
  // make_fxid_command's zero body: window [0, 0] reads as [0, 1], powers 0 as linear.
  auto e = prepare_effect(effect_of({command(3, "material.lib", "bolt")}), "a", "b");
  ASSERT_TRUE(e.has_value());
  // Zero size: kept (nothing to draw), the window itself is valid.
  EXPECT_EQ(e->commands[0].kept_because, "its width (size x) is 0 throughout");
  const auto& f = read_body_fields(e->fx.commands[0]);
  EXPECT_EQ(f.window, (EffectWindow{0.0f, 0.0f}));  // the bytes as stored
}

TEST(PreparedEffect, the_seeds_lightning_runs_all_three_commands) {
  auto e = prepare_effect(lightning_fxid("sounds.lib", "THUNDER1.WAV", "env_lightning"), "effects.rlb", "lightning");
  ASSERT_TRUE(e.has_value()) << e.error().to_string();
  EXPECT_EQ(e->lifetime_ms, 250);
  EXPECT_EQ(e->fx.header.time_mode, 3u);
  ASSERT_EQ(e->commands.size(), 3u);
  for (const auto& c : e->commands) EXPECT_TRUE(c.executed()) << c.index << ": " << c.kept_because;
  const auto& s = std::get<EffectSoundFields>(e->commands[1].fields);
  EXPECT_EQ(s.min_distance(), 100.0f);
  EXPECT_EQ(s.max_distance(), 1500.0f);
  EXPECT_EQ(s.frequency_ratio(), 1.0f);
  const auto& b = std::get<EffectBodyFields>(e->commands[2].fields);
  EXPECT_EQ(b.size_min, (core::Vec3{40, 40, 600}));
  EXPECT_EQ(e->commands[2].reference_archive, "material.lib");
  EXPECT_EQ(e->commands[2].reference_name, "env_lightning");
  // A name that does not fit a reference leaves it empty: the command is kept.
  auto long_name = prepare_effect(lightning_fxid("", std::string(40, 'x'), "m"), "a", "b");
  ASSERT_TRUE(long_name.has_value());
  EXPECT_FALSE(long_name->commands[1].executed());
}

TEST(EffectRef, a_bare_name_is_in_effects_rlb_and_the_last_separator_names_the_archive) {
  EXPECT_EQ(EffectRef::parse("lightning"), (EffectRef{"effects.rlb", "lightning"}));
  EXPECT_EQ(EffectRef::parse(" fx.lib/boom "), (EffectRef{"fx.lib", "boom"}));
  EXPECT_EQ(EffectRef::parse("DATA\\fx.lib\\boom"), (EffectRef{"DATA\\fx.lib", "boom"}));
  EXPECT_EQ(EffectRef::parse("/boom"), (EffectRef{"effects.rlb", "boom"}));
  EXPECT_EQ(EffectRef::parse("Lightning").key(), EffectRef::parse("EFFECTS.RLB/lightning").key());
  EXPECT_EQ(EffectRef::parse("lightning").to_string(), "effects.rlb/lightning");
}

}  // namespace
}  // namespace sortie::assets::prepared_effect_test
