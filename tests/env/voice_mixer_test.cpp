// The PCM mixing of sound output (sortie/env/voice_mixer.hpp): values worked out by hand.
#include "sortie/env/voice_mixer.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace sortie;
using namespace sortie::env;

namespace {

iron3d::DecodedWave wave(std::uint32_t rate, std::uint16_t channels, std::vector<std::int16_t> samples) {
  iron3d::DecodedWave w;
  w.sample_rate = rate;
  w.channels = channels;
  w.source_format = iron3d::kWaveFormatPcm;
  w.samples = std::move(samples);
  return w;
}

env::SourceParams params(bool loop) {
  env::SourceParams p;
  p.loop = loop;
  return p;
}

std::vector<std::int16_t> render(VoiceMixer& m, std::size_t frames) {
  std::vector<std::int16_t> out(frames * 2, 1234);
  m.render(out);
  return out;
}

std::vector<std::int16_t> left(const std::vector<std::int16_t>& stereo) {
  std::vector<std::int16_t> l;
  for (std::size_t i = 0; i < stereo.size(); i += 2) l.push_back(stereo[i]);
  return l;
}

}  // namespace

TEST(VoiceMixer, half_rate_one_shot_interpolates_holds_its_last_frame_then_ends) {
  const auto w = wave(22050, 1, {0, 1000, 2000, 3000});
  VoiceMixer m(44100);  // step 0.5 source frames per output frame
  ASSERT_EQ(m.start_source(1, w, params(false), 0.5f, 0), env::BackendStatus::ok);
  const auto out = render(m, 10);
  // positions 0, 0.5, ..., 3.5 (3.5 holds frame 3), then ended: 0.
  const std::vector<std::int16_t> expected{0, 250, 500, 750, 1000, 1250, 1500, 1500, 0, 0};
  EXPECT_EQ(left(out), expected);
  for (std::size_t i = 0; i < out.size(); i += 2) EXPECT_EQ(out[i], out[i + 1]) << i;  // mono on both sides
  EXPECT_TRUE(m.ended(1));
  EXPECT_EQ(m.active_voices(), 1u);  // ended voices wait for stop_source
  EXPECT_EQ(m.stop_source(1), env::BackendStatus::ok);
  EXPECT_EQ(m.active_voices(), 0u);
  EXPECT_EQ(m.stop_source(1), env::BackendStatus::failed);
}

TEST(VoiceMixer, loop_wraps_and_interpolates_toward_frame_zero) {
  const auto w = wave(100, 1, {100, 200, 300});
  VoiceMixer m(200);
  ASSERT_EQ(m.start_source(7, w, params(true), 1.0f, 4), env::BackendStatus::ok);  // 4 % 3 = 1
  EXPECT_EQ(*m.position(7), 1.0);
  // positions 1, 1.5, 2, 2.5 (300 -> 100), 3 -> 0, 0.5
  const std::vector<std::int16_t> expected{200, 250, 300, 200, 100, 150};
  EXPECT_EQ(left(render(m, 6)), expected);
  EXPECT_DOUBLE_EQ(*m.position(7), 1.0);
  EXPECT_FALSE(m.ended(7));
}

TEST(VoiceMixer, stereo_sample_keeps_its_channels_and_frequency_ratio_scales_the_step) {
  const auto w = wave(1000, 2, {10, -10, 20, -20, 30, -30, 40, -40});
  VoiceMixer m(1000);
  auto p = params(false);
  p.frequency_ratio = 2.0f;
  ASSERT_EQ(m.start_source(2, w, p, 1.0f, 0), env::BackendStatus::ok);
  const std::vector<std::int16_t> expected{10, -10, 30, -30, 0, 0};
  EXPECT_EQ(render(m, 3), expected);
}

TEST(VoiceMixer, voices_add_and_clip_to_16_bits) {
  const auto a = wave(100, 1, {30000, -30000, 1000});
  VoiceMixer m(100);
  ASSERT_EQ(m.start_source(1, a, params(true), 1.0f, 0), env::BackendStatus::ok);
  ASSERT_EQ(m.start_source(2, a, params(true), 0.5f, 0), env::BackendStatus::ok);
  const std::vector<std::int16_t> expected{32767, -32768, 1500};
  EXPECT_EQ(left(render(m, 3)), expected);
  ASSERT_EQ(m.update_source(2, params(true), 0.0f), env::BackendStatus::ok);
  EXPECT_EQ(left(render(m, 3)), (std::vector<std::int16_t>{30000, -30000, 1000}));
}

TEST(VoiceMixer, mute_is_silent_but_positions_move_on) {
  const auto w = wave(100, 1, {1, 2, 3, 4, 5, 6, 7, 8});
  VoiceMixer m(100);
  ASSERT_EQ(m.start_source(1, w, params(true), 1.0f, 0), env::BackendStatus::ok);
  m.set_muted(true);
  EXPECT_EQ(render(m, 3), std::vector<std::int16_t>(6, 0));
  EXPECT_DOUBLE_EQ(*m.position(1), 3.0);
  m.set_muted(false);
  EXPECT_EQ(left(render(m, 2)), (std::vector<std::int16_t>{4, 5}));
}

TEST(VoiceMixer, pause_is_silent_and_keeps_positions) {
  const auto w = wave(100, 1, {1, 2, 3, 4, 5, 6, 7, 8});
  VoiceMixer m(100);
  ASSERT_EQ(m.start_source(1, w, params(false), 1.0f, 2), env::BackendStatus::ok);
  m.set_paused(true);
  EXPECT_EQ(render(m, 4), std::vector<std::int16_t>(8, 0));
  EXPECT_DOUBLE_EQ(*m.position(1), 2.0);
  m.set_paused(false);
  EXPECT_EQ(left(render(m, 2)), (std::vector<std::int16_t>{3, 4}));
  EXPECT_EQ(m.rendered_frames(), 6u);
}

TEST(VoiceMixer, positional_gain_follows_directsound_distance_and_listener_right) {
  env::Listener l;
  l.position = {0, 0, 0};
  l.forward = {0, 1, 0};  // north; right = forward x up = east
  l.up = {0, 0, 1};
  env::SourceParams p;
  p.positional = true;
  p.min_distance = 100, p.max_distance = 1500;
  p.position = {200, 0, 0};  // east, distance 200: 100 / 200, fully right
  EXPECT_EQ(spatial_gain(p, l), (StereoGain{0.0f, 0.5f}));
  p.position = {-50, 0, 0};  // inside min distance: 1, fully left
  EXPECT_EQ(spatial_gain(p, l), (StereoGain{1.0f, 0.0f}));
  p.position = {0, 3000, 0};  // ahead, beyond max: 100 / 1500 on both sides
  EXPECT_FLOAT_EQ(spatial_gain(p, l).left, 100.0f / 1500.0f);
  EXPECT_FLOAT_EQ(spatial_gain(p, l).right, 100.0f / 1500.0f);
  p.position = {0, 0, 0};  // at the listener: full, centred
  EXPECT_EQ(spatial_gain(p, l), (StereoGain{1.0f, 1.0f}));
  p.positional = false;
  p.position = {200, 0, 0};
  EXPECT_EQ(spatial_gain(p, l), (StereoGain{1.0f, 1.0f}));
  // The voice uses the listener it was last given.
  const auto w = wave(100, 1, {1000, 1000});
  VoiceMixer m(100);
  p.positional = true;
  ASSERT_EQ(m.start_source(1, w, p, 1.0f, 0), env::BackendStatus::ok);
  m.set_listener(l);
  EXPECT_EQ(render(m, 1), (std::vector<std::int16_t>{0, 500}));
}

TEST(VoiceMixer, rejects_a_source_beyond_the_voice_table) {
  const auto w = wave(100, 1, {1});
  VoiceMixer m(100);
  for (env::SourceId id = 1; id <= kMaxVoices; ++id)
    ASSERT_EQ(m.start_source(id, w, params(true), 1.0f, 0), env::BackendStatus::ok);
  EXPECT_EQ(m.start_source(999, w, params(true), 1.0f, 0), env::BackendStatus::failed);
  EXPECT_EQ(m.update_source(999, params(true), 1.0f), env::BackendStatus::failed);
  EXPECT_EQ(m.active_voices(), kMaxVoices);
}
