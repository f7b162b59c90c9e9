// The SDL2 audio backend on SDL's file-writing "disk" driver: the mission's THEME loop, decoded
// from a sounds.lib built by our own writers, reaches the device as real samples; mute and pause
// keep positions; a driver that does not exist falls back to the no-device backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <thread>

#include "sdl_audio_backend.hpp"
#include "sortie/assets/archive_repository.hpp"
#include "sortie/core/text.hpp"
#include "sortie/env/ambient_music.hpp"
#include "sortie/env/audio.hpp"
#include "sortie/iron3d/nres.hpp"

using namespace sortie;
using namespace sortie::viewer;
namespace fs = std::filesystem;

namespace {

constexpr std::int16_t kAmplitude = 8000;

// Half a second of a 441 Hz sine at 22,050 Hz (50 frames per period), mono PCM.
core::Bytes theme_wave() {
  std::vector<std::int16_t> s(11025);
  for (std::size_t i = 0; i < s.size(); ++i)
    s[i] = static_cast<std::int16_t>(
        std::lround(kAmplitude * std::sin(2.0 * std::numbers::pi * static_cast<double>(i % 50) / 50.0)));
  return iron3d::write_wave(iron3d::make_pcm16_wave(22050, 1, s));
}

env::ArchiveOpener opener() {
  auto bytes = iron3d::NresBuilder().add(0, "THEME.WAV", theme_wave()).build();
  auto path = assets::normalize_path("sounds.lib", assets::PathPolicy::host_compatible);
  std::shared_ptr<const assets::MountedArchive> lib = *assets::mount_archive(*path, std::move(*bytes));
  return [lib](std::string_view name) -> core::Result<std::shared_ptr<const assets::MountedArchive>> {
    if (core::iequals_ascii(name, "sounds.lib")) return lib;
    return core::fail(core::Diagnostic::error("asset.archive_missing", "archive not found").of(std::string(name)));
  };
}

// Waits (bounded) until the device has pulled `frames` more frames; false when it never does.
bool wait_frames(const SdlAudioBackend& b, std::uint64_t frames) {
  const std::uint64_t target = b.rendered_frames() + frames;
  for (int i = 0; i < 2000 && b.rendered_frames() < target; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return b.rendered_frames() >= target;
}

}  // namespace

TEST(SdlAudio, disk_driver_plays_the_theme_loop_and_mute_pause_keep_positions) {
  const fs::path out = fs::path(::testing::TempDir()) / "sortie_viewer_audio.raw";
  fs::remove(out);
  ::setenv("SDL_DISKAUDIOFILE", out.c_str(), 1);
  ::setenv("SDL_DISKAUDIODELAY", "0", 1);  // the disk driver does not wait for the wall clock
  {
    auto backend = SdlAudioBackend::open({"disk", 44100, 512});
    ASSERT_TRUE(backend) << backend.error().message;
    SdlAudioBackend& b = **backend;
    EXPECT_EQ(b.driver(), "disk");
    EXPECT_EQ(b.device_rate(), 44100u);

    env::SoundBank bank(opener(), "sounds.lib");
    env::SoundMixer mixer(bank, b);
    env::AmbientMusicConfig config;
    config.theme = {"sounds.lib", "THEME.WAV"};
    env::AmbientMusic music(config, 1);
    const auto results = mixer.apply_frame(env::CameraFrame{}, 0, music.open(0));
    ASSERT_EQ(results.size(), 1u);
    ASSERT_TRUE(results[0].ok()) << results[0].diagnostic.message;
    EXPECT_EQ(results[0].backend, env::BackendStatus::ok);
    const env::SourceId id = *results[0].source;
    ASSERT_TRUE(wait_frames(b, 44100 / 2));  // half a second of output: one pass of the loop

    mixer.set_muted(true);
    const double muted_at = *b.position(id);
    ASSERT_TRUE(wait_frames(b, 4096));
    EXPECT_NE(*b.position(id), muted_at);  // mute: time runs on
    mixer.set_muted(false);

    mixer.set_paused(true);
    const double paused_at = *b.position(id);
    ASSERT_TRUE(wait_frames(b, 4096));
    EXPECT_EQ(*b.position(id), paused_at);  // pause: the position stays
    mixer.set_paused(false);
    EXPECT_EQ(mixer.backend_unanswered(), 0u);
  }  // closing the device flushes the file

  std::ifstream in(out, std::ios::binary);
  ASSERT_TRUE(in);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 44100u * 4 / 2);
  std::vector<std::int16_t> samples(bytes.size() / 2);
  std::memcpy(samples.data(), bytes.data(), samples.size() * 2);
  std::size_t loud = 0;
  int peak = 0;
  for (std::size_t i = 0; i + 1 < samples.size(); i += 2) {
    EXPECT_EQ(samples[i], samples[i + 1]) << "frame " << i / 2;  // a mono non-positional loop: L == R
    if (std::abs(samples[i]) > kAmplitude / 2) ++loud;
    peak = std::max(peak, std::abs(static_cast<int>(samples[i])));
  }
  // At least the first half second (22,050 frames of the sine at 44,100 Hz) sounded; a sine is
  // above half its amplitude 2/3 of the time. Linear interpolation keeps the peak within one
  // step of the sample's peak (8000 * cos(2 pi / 100) = 7984).
  EXPECT_GE(loud, 22050u * 2 / 3 - 100);
  EXPECT_GE(peak, 7984);
  EXPECT_LE(peak, kAmplitude);
}

TEST(SdlAudio, unknown_driver_falls_back_to_the_null_backend_with_one_warning) {
  std::ostringstream warnings;
  auto backend = open_audio_backend({"no-such-driver", 44100, 512}, warnings);
  ASSERT_TRUE(backend);
  EXPECT_EQ(backend->name(), "none");
  EXPECT_FALSE(backend->has_device());
  const std::string text = warnings.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  EXPECT_NE(text.find("no-such-driver"), std::string::npos);
}

TEST(SdlAudio, dummy_driver_opens_a_device) {
  std::ostringstream warnings;
  auto backend = open_audio_backend({"dummy", 22050, 512}, warnings);
  ASSERT_TRUE(backend);
  EXPECT_EQ(backend->name(), "sdl2");
  EXPECT_TRUE(backend->has_device());
  EXPECT_TRUE(warnings.str().empty()) << warnings.str();
}
