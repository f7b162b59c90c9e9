// libs/assets' own limits (assets/limits.hpp), each at the limit (accepted) and one past it
// (refused with its code).
#include "sortie/assets/limits.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sortie/assets/prepared_effect.hpp"

namespace sortie::assets::limits_test {
namespace {

iron3d::Fxid with_commands(std::size_t n, float seconds = 1.0f) {
  iron3d::Fxid fx;
  fx.header.duration_seconds = seconds;
  fx.commands.assign(n, *iron3d::make_fxid_command(6, true));  // 4 bytes each: the smallest command
  return fx;
}

TEST(AssetsLimits, effect_commands_at_the_limit_prepare_and_one_more_is_fx_limit) {
  auto at = prepare_effect(with_commands(kMaxEffectCommands), "effects.rlb", "many");
  ASSERT_TRUE(at.has_value()) << at.error().to_string();
  EXPECT_EQ(at->commands.size(), kMaxEffectCommands);
  auto over = prepare_effect(with_commands(kMaxEffectCommands + 1), "effects.rlb", "many");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "fx.limit");
  EXPECT_EQ(over.error().found, std::to_string(kMaxEffectCommands + 1));
}

TEST(AssetsLimits, an_effect_of_an_hour_prepares_and_the_next_float_is_fx_duration) {
  const auto hour = static_cast<float>(kMaxEffectSeconds);
  auto at = prepare_effect(with_commands(0, hour), "effects.rlb", "long");
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(at->lifetime_ms, 3'600'000);
  auto over = prepare_effect(with_commands(0, std::nextafter(hour, 1e9f)), "effects.rlb", "long");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "fx.duration");
}

TEST(AssetsLimits, an_effect_value_at_the_bound_prepares_and_the_next_float_is_fx_field) {
  auto fx = with_commands(0);
  fx.commands.push_back(*iron3d::make_fxid_command(1, true));
  EffectLightFields l;
  l.range_min = l.range_max = kMaxEffectValue;
  l.strength = 1.0f;
  l.color = {1, 1, 1};
  write_light_fields(fx.commands[0], l);
  fx.header.scale = {kMaxEffectValue, 1, 1};
  auto at = prepare_effect(fx, "effects.rlb", "big");
  ASSERT_TRUE(at.has_value()) << at.error().to_string();
  EXPECT_TRUE(at->commands[0].executed());
  l.range_max = std::nextafter(kMaxEffectValue, 1e9f);
  write_light_fields(fx.commands[0], l);
  auto over = prepare_effect(fx, "effects.rlb", "big");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, "fx.field");
  EXPECT_EQ(over.error().field, "commands[0].range_max");
  l.range_max = kMaxEffectValue;
  write_light_fields(fx.commands[0], l);
  fx.header.scale[0] = -std::nextafter(kMaxEffectValue, 1e9f);
  over = prepare_effect(fx, "effects.rlb", "big");
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().field, "header.scale");
}

}  // namespace
}  // namespace sortie::assets::limits_test
