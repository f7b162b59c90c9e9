#include "sample_effects.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "sortie/assets/prepared_effect.hpp"
#include "sortie/iron3d/fxid.hpp"

namespace sortie::assets::detail {
namespace {

constexpr std::uint32_t kBoltWidth = 32;
constexpr std::uint32_t kBoltHeight = 256;
constexpr std::uint32_t kGlowWidth = 16;
constexpr std::uint32_t kGlowHeight = 64;

float smoothstep01(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

// The bolt's centre column at row y: a jagged path through 13 fixed nodes (top to bottom).
float bolt_centre(float y) {
  static constexpr std::array<float, 13> kNodes{16.0f, 13.0f, 19.0f, 15.0f, 21.0f, 17.0f, 11.0f,
                                                14.0f, 20.0f, 16.0f, 12.0f, 18.0f, 16.0f};
  const float t = std::clamp(y / static_cast<float>(kBoltHeight), 0.0f, 1.0f) * (kNodes.size() - 1);
  const auto i = std::min(static_cast<std::size_t>(t), kNodes.size() - 2);
  const float f = t - static_cast<float>(i);
  return kNodes[i] + (kNodes[i + 1] - kNodes[i]) * f;
}

// A white-blue core, a bluish glow around it, transparent elsewhere.
iron3d::TexmColor bolt_texel(std::uint32_t level, std::uint32_t x, std::uint32_t y) {
  const float s = static_cast<float>(1u << level);
  const float px = (static_cast<float>(x) + 0.5f) * s, py = (static_cast<float>(y) + 0.5f) * s;
  const float d = std::abs(px - bolt_centre(py));
  const float core = 1.0f - smoothstep01(d / 1.6f);
  const float glow = std::exp(-d / 3.5f) * 0.55f;
  const float a = std::clamp(core + glow, 0.0f, 1.0f);
  const auto c = [&](float base) {
    return static_cast<std::uint8_t>(std::lround(std::clamp(base + core * (255.0f - base), 0.0f, 255.0f)));
  };
  return {c(170.0f), c(190.0f), 255, static_cast<std::uint8_t>(std::lround(a * 255.0f))};
}

// A soft green column: opaque in the middle, fading to the sides and toward the top.
iron3d::TexmColor glow_texel(std::uint32_t level, std::uint32_t x, std::uint32_t y) {
  const float s = static_cast<float>(1u << level);
  const float u = ((static_cast<float>(x) + 0.5f) * s) / kGlowWidth;
  const float v = ((static_cast<float>(y) + 0.5f) * s) / kGlowHeight;  // 0 top .. 1 bottom
  const float a = smoothstep01(1.0f - std::abs(u * 2.0f - 1.0f)) * smoothstep01(v * 1.4f);
  return {150, 255, 180, static_cast<std::uint8_t>(std::lround(std::clamp(a, 0.0f, 1.0f) * 255.0f))};
}

core::Result<iron3d::Fxid> beacon_fxid() {
  iron3d::Fxid fx;
  fx.header.time_mode = 0;            // constant 1 ...
  fx.header.flags = 0x0200 | 0x0020;  // ... times tn (0x200), then the triangular remap (0x20): 0 -> 1 -> 0
  fx.header.duration_seconds = 4.0f;
  fx.header.scale = {1.0f, 1.0f, 1.0f};
  SORTIE_TRY(auto light, iron3d::make_fxid_command(1, true));
  EffectLightFields l;
  l.window = {0.0f, 1.0f};
  l.offset_min = l.offset_max = {0.0f, 0.0f, 8.0f};
  l.range_min = 40.0f;
  l.range_max = 60.0f;
  l.strength = 1.5f;
  l.color = {0.45f, 1.0f, 0.6f};
  write_light_fields(light, l);
  SORTIE_TRY(auto body, iron3d::make_fxid_command(3, true, "material.lib", "env_beacon"));
  EffectBodyFields b;
  b.alpha_source = -1.0f;  // the effect value: the pulse
  b.alpha_min = 0.0f;
  b.alpha_max = 0.9f;
  b.alpha_power = 1.0f;
  b.window = {0.0f, 1.0f};
  b.size_min = {2.0f, 2.0f, 24.0f};
  b.size_max = {3.0f, 3.0f, 30.0f};
  b.offset_min = b.offset_max = {0.0f, 0.0f, 15.0f};  // standing on the ground
  b.size_power = b.offset_power = {1.0f, 1.0f, 1.0f};
  write_body_fields(body, b);
  // Sparks (opcode 7: a particle emitter in the native runtime); sortie keeps it and says so.
  SORTIE_TRY(auto sparks, iron3d::make_fxid_command(7, true, "material.lib", "env_beacon"));
  fx.commands = {std::move(light), std::move(body), std::move(sparks)};
  return fx;
}

}  // namespace

core::Status add_sample_effects(GameBuilder& game) {
  SORTIE_CHECK(game.add_texture("FX_BOLT", kBoltWidth, kBoltHeight, 8888, 1, &bolt_texel));
  SORTIE_CHECK(game.add_texture("FX_GLOW", kGlowWidth, kGlowHeight, 8888, 1, &glow_texel));
  SORTIE_CHECK(game.add_material("env_lightning", {"FX_BOLT"}));
  SORTIE_CHECK(game.add_material("env_beacon", {"FX_GLOW"}));
  game.add_effect("lightning", lightning_fxid("sounds.lib", "THUNDER1.WAV", "env_lightning"));
  SORTIE_TRY(auto beacon, beacon_fxid());
  game.add_effect("beacon", beacon);
  return {};
}

}  // namespace sortie::assets::detail
