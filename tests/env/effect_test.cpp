// Effects at run time (env/effect.hpp, docs/effects.md): an instance's lifetime, what each opcode
// yields from known field values, what is kept and traced, determinism, and the lightning path of
// the weather (the thunder is the FX's sound command).
#include "sortie/env/effect.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <memory>

#include "parse_weather.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/env/environment.hpp"

namespace sortie::env::effect_test {
namespace {

using assets::EffectBodyFields;
using assets::EffectLightFields;
using assets::EffectSoundFields;
using iron3d::FxidCommand;

FxidCommand command(std::uint32_t opcode, std::string_view archive = {}, std::string_view name = {}) {
  auto c = iron3d::make_fxid_command(opcode, true, archive, name);
  EXPECT_TRUE(c.has_value());
  return *c;
}

// One of each executed opcode with known numbers, an opcode 7 and a disabled body, 1 s long.
//   light: window [0, 1], offset (0,0,0) -> (0,0,10), range 100 -> 300, strength 2, RGB (1, .5, .25)
//   sound: window [0.5, 1], offset (0, 0, -5), min 10, max 200, ratio 1.5, sounds.lib/boom.wav
//   body:  window [0.2, 0.6], size (2,4,10) -> (4,4,30), offset 0 -> (0,0,8), alpha 0 -> 1 on u
iron3d::Fxid known_fx(std::uint32_t time_mode = 1) {
  iron3d::Fxid fx;
  fx.header.time_mode = time_mode;
  fx.header.duration_seconds = 1.0f;
  FxidCommand l = command(1);
  EffectLightFields lf;
  lf.window = {0.0f, 1.0f};
  lf.offset_max = {0, 0, 10};
  lf.range_min = 100.0f;
  lf.range_max = 300.0f;
  lf.strength = 2.0f;
  lf.color = {1.0f, 0.5f, 0.25f};
  assets::write_light_fields(l, lf);
  FxidCommand s = command(2, "sounds.lib", "boom.wav");
  EffectSoundFields sf;
  sf.window = {0.5f, 1.0f};
  sf.offset = {0, 0, -5};
  sf.params = {10.0f, 200.0f, 1.5f, 0.0f};
  assets::write_sound_fields(s, sf);
  FxidCommand b = command(3, "material.lib", "bolt");
  EffectBodyFields bf;
  bf.alpha_source = 0.0f;
  bf.alpha_max = 1.0f;
  bf.alpha_power = 1.0f;
  bf.window = {0.2f, 0.6f};
  bf.size_min = {2, 4, 10};
  bf.size_max = {4, 4, 30};
  bf.offset_max = {0, 0, 8};
  bf.size_power = bf.offset_power = {1, 1, 1};
  assets::write_body_fields(b, bf);
  FxidCommand off = b;
  off.word &= ~0x100u;
  fx.commands = {l, s, b, command(7, "material.lib", "smoke"), off};
  return fx;
}

std::shared_ptr<const assets::PreparedEffect> prepared(const iron3d::Fxid& fx, std::string name = "known") {
  auto e = assets::prepare_effect(fx, "effects.rlb", std::move(name));
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().to_string());
  return std::make_shared<const assets::PreparedEffect>(std::move(*e));
}

TEST(Effect, an_instance_shows_from_its_start_to_the_last_millisecond_before_its_end) {
  EffectRunner r;
  const auto id = r.start(prepared(known_fx()), "known", {100, 200, 5}, 1000, 7);
  EXPECT_EQ(id, 1u);
  const auto& before = r.update(999);  // before its start: its trace (it was started), nothing shown
  EXPECT_TRUE(before.lights.empty());
  EXPECT_EQ(before.traces.size(), 1u);
  EXPECT_EQ(before.live, 0u);
  const auto& at_start = r.update(1000);
  EXPECT_EQ(at_start.lights.size(), 1u);
  EXPECT_EQ(at_start.live, 1u);
  const auto& last = r.update(1999);  // the last millisecond alive
  EXPECT_EQ(last.lights.size(), 1u);
  EXPECT_EQ(last.live, 1u);
  const auto& gone = r.update(2000);  // start + 1000 ms: over
  EXPECT_TRUE(gone.lights.empty());
  EXPECT_TRUE(gone.bodies.empty());
  EXPECT_EQ(gone.live, 0u);
  EXPECT_TRUE(r.instances().empty());
}

TEST(Effect, opcode_1_is_a_point_light_from_the_fx_fields) {
  EffectInstance i{1, prepared(known_fx()), "known", {100, 200, 5}, 1000, 2000, 7};
  EffectFrame f;
  evaluate_effect(i, 1500, f);  // tn 0.5, v = tn (time_mode 1), u = 0.5
  ASSERT_EQ(f.lights.size(), 1u);
  const EffectLight& l = f.lights[0];
  EXPECT_EQ(l.instance, 1u);
  EXPECT_EQ(l.command, 0u);
  EXPECT_EQ(l.position, (core::Vec3{100, 200, 10}));  // origin + lerp((0,0,0), (0,0,10), 0.5)
  EXPECT_FLOAT_EQ(l.radius, 200.0f);                  // lerp(100, 300, 0.5)
  EXPECT_FLOAT_EQ(l.color.x, 1.0f);                   // RGB * strength 2 * v 0.5
  EXPECT_FLOAT_EQ(l.color.y, 0.5f);
  EXPECT_FLOAT_EQ(l.color.z, 0.25f);
}

TEST(Effect, opcode_3_is_a_body_with_its_material_inside_its_window) {
  EffectInstance i{1, prepared(known_fx()), "known", {100, 200, 5}, 1000, 2000, 7};
  EffectFrame before, mid, after;
  evaluate_effect(i, 1150, before);  // tn 0.15: before the window [0.2, 0.6]
  EXPECT_TRUE(before.bodies.empty());
  evaluate_effect(i, 1300, mid);     // tn 0.3: u = (0.3 - 0.2) / 0.4 = 0.25
  ASSERT_EQ(mid.bodies.size(), 1u);  // the disabled copy draws nothing
  const EffectBody& b = mid.bodies[0];
  EXPECT_EQ(b.command, 2u);
  EXPECT_EQ(b.material, "bolt");
  EXPECT_FLOAT_EQ(b.size.x, 2.5f);  // 2 + (4 - 2) * 0.25
  EXPECT_FLOAT_EQ(b.size.y, 4.0f);
  EXPECT_FLOAT_EQ(b.size.z, 15.0f);   // 10 + 20 * 0.25
  EXPECT_FLOAT_EQ(b.center.z, 7.0f);  // 5 + 8 * 0.25
  EXPECT_FLOAT_EQ(b.alpha, 0.25f);    // alpha source >= 0: u
  evaluate_effect(i, 1650, after);    // tn 0.65: past the window
  EXPECT_TRUE(after.bodies.empty());
}

TEST(Effect, opcode_2_is_one_sound_command_when_the_lifetime_reaches_its_window) {
  EffectRunner r;
  r.start(prepared(known_fx()), "known", {100, 200, 5}, 1000, 7);
  EXPECT_TRUE(r.update(1000).sounds.empty());
  EXPECT_TRUE(r.update(1499).sounds.empty());
  const auto& f = r.update(1600);  // the window starts at tn 0.5 = 1500 ms
  ASSERT_EQ(f.sounds.size(), 1u);
  const SoundEvent& s = f.sounds[0];
  EXPECT_EQ(s.kind, SoundEventKind::one_shot);
  EXPECT_EQ(s.time_ms, 1500);
  EXPECT_EQ(s.sample, (SoundRef{"sounds.lib", "boom.wav"}));
  EXPECT_EQ(s.bus, Bus::effects);
  EXPECT_TRUE(s.positional);
  EXPECT_EQ(s.position, (core::Vec3{100, 200, 0}));
  EXPECT_EQ(s.min_distance, 10.0f);
  EXPECT_EQ(s.max_distance, 200.0f);
  EXPECT_EQ(s.frequency_ratio, 1.5f);
  EXPECT_TRUE(r.update(1999).sounds.empty());  // once
}

TEST(Effect, a_sound_is_given_even_when_the_instance_ends_between_two_updates) {
  EffectRunner r;
  r.start(prepared(known_fx()), "known", {0, 0, 0}, 1000, 7);
  const auto& f = r.update(5000);  // one update long after the end
  EXPECT_EQ(f.sounds.size(), 1u);
  EXPECT_TRUE(f.lights.empty());
  EXPECT_EQ(f.live, 0u);
}

TEST(Effect, the_start_trace_names_what_runs_and_every_opcode_it_keeps) {
  EffectRunner r;
  r.start(prepared(known_fx()), "known", {100, 200, 5}, 1000, 7);
  const auto& f = r.update(1000);
  ASSERT_EQ(f.traces.size(), 1u);
  EXPECT_EQ(f.traces[0],
            "fx 1 'known' (effects.rlb/known) at 1.000 s at (100.0, 200.0, 5.0) for 1.000 s: runs command 0 light, "
            "command 1 sound sounds.lib/boom.wav, command 2 body bolt; keeps, not executed: command 3 opcode 7 "
            "material.lib/smoke (opcode 7 is not executed); command 4 opcode 3 material.lib/bolt (it is disabled "
            "(bit 8 of its word is clear))");
  EXPECT_TRUE(r.update(1001).traces.empty());  // once per start
  // A header part sortie does not run is named too.
  auto fx = known_fx(15);
  fx.header.flags = 0x0040;
  EXPECT_NE(
      describe_effect(*prepared(fx))
          .find("time_mode 15 (max of modes 5 and 9): the effect runs at full value; flag 0x0040 (starts inactive)"),
      std::string::npos)
      << describe_effect(*prepared(fx));
}

TEST(Effect, the_random_shift_comes_from_the_instances_seed) {
  auto fx = known_fx();
  fx.header.flags = 0x0008;
  fx.header.random_shift = {50, 20, 0};
  const auto e = prepared(fx);
  EffectInstance a{1, e, "known", {100, 200, 5}, 0, 1000, 42};
  const core::Vec3 o = effect_origin(a);
  EXPECT_EQ(o, effect_origin(a));  // the same every time it is asked
  EXPECT_LE(std::abs(o.x - 100.0f), 50.0f);
  EXPECT_LE(std::abs(o.y - 200.0f), 20.0f);
  EXPECT_EQ(o.z, 5.0f);
  EXPECT_NE(o, (core::Vec3{100, 200, 5}));
  EffectInstance b = a;
  b.seed = 43;
  EXPECT_NE(effect_origin(b), o);
  // Without the flag the position is the origin.
  EffectInstance plain{1, prepared(known_fx()), "known", {100, 200, 5}, 0, 1000, 42};
  EXPECT_EQ(effect_origin(plain), (core::Vec3{100, 200, 5}));
}

TEST(Effect, the_same_starts_give_the_same_frames_whatever_the_frame_rate) {
  auto fx = known_fx();
  fx.header.flags = 0x0008;
  fx.header.random_shift = {5, 5, 5};
  const auto e = prepared(fx);
  auto frames_at = [&](std::int64_t step) {
    EffectRunner r;
    r.start(e, "a", {0, 0, 0}, 0, 1);
    r.start(e, "b", {10, 0, 0}, 300, 2);
    std::vector<SoundEvent> sounds;
    for (std::int64_t t = 0; t <= 1200; t += step) {
      const auto& f = r.update(t);
      sounds.insert(sounds.end(), f.sounds.begin(), f.sounds.end());
    }
    EffectFrame at;
    for (const auto& i : r.instances()) evaluate_effect(i, 1200, at);
    return std::make_pair(sounds, at.lights.size());
  };
  const auto a = frames_at(10);
  EXPECT_EQ(a.first.size(), 2u);
  EXPECT_EQ(a, frames_at(10));
  EXPECT_EQ(a.first, frames_at(37).first);  // the sounds do not depend on the step
}

TEST(Effect, the_runner_follows_the_worlds_instances_and_traces_an_unknown_name_once) {
  EffectLibrary lib;
  lib.add(prepared(known_fx(), "known"));
  EXPECT_NE(lib.find("KNOWN"), nullptr);
  EXPECT_NE(lib.find("effects.rlb/known"), nullptr);
  EXPECT_EQ(lib.find("fx.lib/known"), nullptr);
  EffectRunner r;
  std::vector<EffectInstanceState> live{{3, "known", {1, 2, 3}, 1'000'000, 2'000'000},
                                        {4, "nothing", {0, 0, 0}, 1'000'000, 1'500'000}};
  r.sync(live, lib);
  const auto& f = r.update(1200);
  ASSERT_EQ(f.traces.size(), 2u);
  EXPECT_EQ(f.traces[0].rfind("fx 3 'known' (effects.rlb/known) at 1.000 s", 0), 0u) << f.traces[0];
  EXPECT_EQ(f.traces[1], "fx 4 'nothing' at 1.000 s: not among the mission's effects, nothing runs");
  EXPECT_EQ(f.lights.size(), 1u);
  EXPECT_EQ(f.lights[0].instance, 3u);
  r.sync(live, lib);  // again: nothing new
  EXPECT_TRUE(r.update(1300).traces.empty());
  r.sync({}, lib);  // the world dropped them
  EXPECT_EQ(r.update(1400).live, 0u);
}

TEST(Effect, lightning_runs_the_schedules_effect_and_its_thunder_is_the_fx_sound_command) {
  auto e = assets::prepare_effect(assets::lightning_fxid("fx.lib", "CRACK.WAV", "bolt_mat"), "effects.rlb", "storm");
  ASSERT_TRUE(e.has_value());
  auto storm = std::make_shared<const assets::PreparedEffect>(std::move(*e));
  const auto schedule = test::parse(
      "sortie-weather 1\nmaterial lightning env_lightning\nsample lightning sounds.lib/thunder.wav\n"
      "effect lightning storm\nlightning_bounds 0 0 100 100 20\nkey 0 none 1 lightning\n");
  EffectLibrary lib;
  lib.add(storm);
  core::Diagnostics warnings;
  const auto chosen = choose_lightning_effect(schedule, &lib, &warnings, "sky.weather");
  EXPECT_EQ(chosen, storm);
  EXPECT_TRUE(warnings.empty());
  Environment env(schedule, 3, 1.0, chosen);
  const auto cam = CameraFrame::look({0, 0, 0}, {1, 0, 0});
  std::optional<LightningStrike> strike;
  std::vector<SoundEvent> sounds;
  for (std::int64_t t = 0; t <= 4000 && !strike; t += 20) {
    const auto& f = env.update(t, cam);
    sounds.insert(sounds.end(), f.sounds.begin(), f.sounds.end());
    if (!f.lightning.empty()) {
      strike = f.lightning.front();
      EXPECT_EQ(f.effects.traces.size(), 1u);
      EXPECT_EQ(f.effects.lights.size(), 1u);
      EXPECT_EQ(f.effects.bodies.size(), 1u);
      EXPECT_EQ(f.effects.bodies[0].material, "bolt_mat");  // the effect's, not the schedule's
      EXPECT_EQ(f.effects.bodies[0].size, (core::Vec3{40, 40, 600}));
      EXPECT_EQ(f.effects.bodies[0].center, strike->body_center);
    }
  }
  ASSERT_TRUE(strike);
  EXPECT_EQ(strike->effect, "effects.rlb/storm");
  ASSERT_EQ(sounds.size(), 1u);
  EXPECT_EQ(sounds[0].sample, (SoundRef{"fx.lib", "CRACK.WAV"}));  // the FX's archive[32] + name[32]
  EXPECT_EQ(sounds[0].time_ms, strike->time_ms);
  EXPECT_EQ(sounds[0].position, strike->position);
  EXPECT_EQ(sounds[0].min_distance, 100.0f);
  EXPECT_EQ(sounds[0].max_distance, 1500.0f);
  EXPECT_EQ(sounds[0].frequency_ratio, 1.0f);
}

TEST(Effect, a_schedule_without_its_effect_falls_back_to_the_stand_in_with_a_warning) {
  const auto named = test::parse(
      "sortie-weather 1\nmaterial lightning env_lightning\nsample lightning thunder.wav\neffect lightning storm\n"
      "lightning_bounds 0 0 1 1 0\nkey 0 none 1 lightning\n");
  EffectLibrary empty;
  core::Diagnostics warnings;
  const auto e = choose_lightning_effect(named, &empty, &warnings, "sky.weather");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->label(), "built-in/lightning");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "weather.lightning_effect");
  EXPECT_EQ(warnings[0].severity, core::Severity::warning);
  EXPECT_NE(warnings[0].message.find("'storm' is not among the mission's effects"), std::string::npos);
  // The stand-in plays the schedule's sample and draws its material.
  EXPECT_EQ(e->commands[1].reference_name, "thunder.wav");
  EXPECT_EQ(e->commands[2].reference_name, "env_lightning");
  // No effect named: weather.lightning_builtin; no lightning key: no warning.
  auto unnamed = named;
  unnamed.lightning_effect.clear();
  warnings.clear();
  choose_lightning_effect(unnamed, &empty, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, "weather.lightning_builtin");
  auto calm = unnamed;
  calm.keys[0].lightning = false;
  warnings.clear();
  choose_lightning_effect(calm, nullptr, &warnings);
  EXPECT_TRUE(warnings.empty());
}

TEST(Effect, the_schedule_names_its_lightning_effect_once) {
  const auto s = test::parse("sortie-weather 1\neffect lightning fx.lib/storm\nkey 0 none 0\n");
  EXPECT_EQ(s.lightning_effect, "fx.lib/storm");
  EXPECT_NE(write_weather_text(s).find("effect lightning fx.lib/storm\n"), std::string::npos);
  EXPECT_EQ(weather_schedule_json(s).at("effects").at("lightning"), "fx.lib/storm");
  for (const char* bad : {"sortie-weather 1\neffect rain x\n", "sortie-weather 1\neffect lightning\n",
                          "sortie-weather 1\neffect lightning a\neffect lightning b\n"}) {
    auto r = read_weather_text(core::as_bytes(std::string_view(bad)), "w");
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_TRUE(r.error().code == "weather.syntax" || r.error().code == "weather.duplicate") << r.error().code;
  }
}

// Hostile bodies: the words of the seed's lightning (plus every other opcode) replaced, a few at a
// time, by NaN, infinities, huge, tiny, negative, zero or random bits, from a seeded stream. Every
// FXID either is refused with an fx.* diagnostic or runs, and what it runs is finite.
TEST(Effect, hostile_field_values_are_refused_or_run_finite) {
  iron3d::Fxid base = assets::lightning_fxid("sounds.lib", "THUNDER1.WAV", "env_lightning");
  base.header.flags = 0x0008 | 0x0020 | 0x0200;
  base.header.random_shift = {10.0f, 10.0f, 10.0f};
  for (std::uint32_t op = 4; op <= 10; ++op) base.commands.push_back(command(op));
  const core::Bytes bytes = iron3d::write_fxid(base);
  const std::uint32_t specials[] = {0x7FC00000u, 0x7F800000u,           0xFF800000u,
                                    0x7F7FFFFFu, 0x00000001u,           0xBF800000u,
                                    0x00000000u, 0x49742400u /* 1e6 */, 0x49742401u /* just over */,
                                    0x3F800000u};
  core::Rng rng(20240601, 7);
  std::size_t refused = 0, ran = 0;
  for (int round = 0; round < 3000; ++round) {
    core::Bytes b = bytes;
    const int edits = 1 + static_cast<int>(rng.below(4));
    for (int k = 0; k < edits; ++k) {
      const std::size_t word = 1 + rng.below(static_cast<std::uint32_t>(b.size() / 4 - 1));  // keep the count
      const std::uint32_t v = rng.below(4) == 0 ? rng.next_u32() : specials[rng.below(std::size(specials))];
      core::store_u32(&b[word * 4], v);
    }
    auto fx = iron3d::read_fxid(b);
    if (!fx) continue;  // a command word broken: the reader's business
    auto e = assets::prepare_effect(*fx, "effects.rlb", "hostile");
    if (!e) {
      EXPECT_EQ(e.error().code.rfind("fx.", 0), 0u) << e.error().to_string();
      ++refused;
      continue;
    }
    ++ran;
    EffectRunner r;
    r.start(std::make_shared<const assets::PreparedEffect>(std::move(*e)), "h", {5, 6, 7}, 0, round);
    const std::int64_t life = r.instances().front().end_ms;
    for (const std::int64_t t : {std::int64_t{0}, life / 2, life - 1, life}) {
      const EffectFrame& f = r.update(t);
      for (const auto& l : f.lights) {
        ASSERT_TRUE(core::is_finite(l.position) && core::is_finite(l.color) && std::isfinite(l.radius)) << round;
      }
      for (const auto& bd : f.bodies) {
        ASSERT_TRUE(core::is_finite(bd.center) && core::is_finite(bd.size)) << round;
        ASSERT_TRUE(bd.alpha >= 0.0f && bd.alpha <= 1.0f) << round;
      }
      for (const auto& s : f.sounds) {
        ASSERT_TRUE(core::is_finite(s.position) && s.min_distance >= 0.0f && s.min_distance <= s.max_distance) << round;
        ASSERT_TRUE(s.frequency_ratio > 0.0f && s.frequency_ratio <= 16.0f) << round;
      }
    }
  }
  EXPECT_GT(refused, 100u);
  EXPECT_GT(ran, 100u);
}

}  // namespace
}  // namespace sortie::env::effect_test
