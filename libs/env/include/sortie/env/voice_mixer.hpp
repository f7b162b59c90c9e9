#pragma once
// The PCM side of sound output: an AudioBackend that keeps a fixed table of voices (one per
// logical source of SoundMixer) and mixes their decoded samples into interleaved stereo signed
// 16-bit frames at the device rate. No device here, so the mixing is tested exactly; a device
// backend (the viewer's SDL2 one, apps/viewer/sdl_audio_backend.hpp) feeds render() from its
// callback.
//
//   - A voice plays its sample at sample_rate * frequency_ratio / device_rate source frames per
//     output frame, linearly interpolated between neighbouring frames (a loop interpolates its
//     last frame toward frame 0; a one-shot holds its last frame). Mono samples go to both
//     channels; stereo samples keep their channels.
//   - Gain is the mixer's effective gain (volume * bus * master, 0 while muted). A positional
//     voice is attenuated the DirectSound way the original used: min_distance / distance for a
//     distance between min and max, 1 nearer than min, constant beyond max (distance 0 = the
//     defaults 1 and 1e9); it is panned by the direction's component along the listener's right
//     (forward x up): left *= min(1, 1 - pan), right *= min(1, 1 + pan).
//   - pause: render() writes silence and positions stay; mute: silence, positions move on
//     (the logical mixer's contract: "mute keeps positions and time").
//   - render() never allocates, frees or locks: voices are added and removed only by the
//     AudioBackend calls (a device backend makes them under its device lock); a one-shot that
//     reaches its end only stops sounding until stop_source frees it.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "sortie/env/audio.hpp"

namespace sortie::env {

inline constexpr std::size_t kMaxVoices = 64;
inline constexpr float kDefaultMinDistance = 1.0f;
inline constexpr float kDefaultMaxDistance = 1e9f;

struct StereoGain {
  float left = 1.0f;
  float right = 1.0f;
  bool operator==(const StereoGain&) const = default;
};

// The left/right factors of a source for a listener (1, 1 for a non-positional source).
StereoGain spatial_gain(const SourceParams& params, const Listener& listener);

class VoiceMixer final : public AudioBackend {
 public:
  explicit VoiceMixer(std::uint32_t device_rate);
  [[nodiscard]] std::string_view name() const override { return "mix"; }
  [[nodiscard]] bool has_device() const override { return true; }
  BackendStatus start_source(SourceId id, const iron3d::DecodedWave& sample, const SourceParams& params, float gain,
                             std::uint64_t position_frames) override;
  BackendStatus update_source(SourceId id, const SourceParams& params, float gain) override;
  BackendStatus stop_source(SourceId id) override;
  BackendStatus set_listener(const Listener& listener) override;
  BackendStatus set_paused(bool paused) override;
  BackendStatus set_muted(bool muted) override;

  // Fills `out` (interleaved stereo, out.size() / 2 frames) and advances the voices.
  void render(std::span<std::int16_t> out);

  [[nodiscard]] std::uint32_t device_rate() const { return device_rate_; }
  [[nodiscard]] std::size_t active_voices() const;
  // The voice's play position in source frames (fractional), when it exists.
  [[nodiscard]] std::optional<double> position(SourceId id) const;
  [[nodiscard]] bool ended(SourceId id) const;  // a one-shot past its last frame
  [[nodiscard]] std::uint64_t rendered_frames() const { return rendered_frames_; }

 private:
  struct Voice {
    SourceId id = 0;
    bool used = false;
    bool ended = false;
    // Copied from the caller's sample: the mixer owns no decoded data; the caller keeps the
    // sample alive while the source exists (SoundMixer's sources hold the shared sample).
    const iron3d::DecodedWave* sample = nullptr;
    SourceParams params;
    float gain = 0.0f;
    double position = 0.0;
  };
  static constexpr std::size_t kBlockFrames = 256;
  Voice* find(SourceId id);
  [[nodiscard]] const Voice* find(SourceId id) const;
  void mix_voice(Voice& v, std::size_t frames);

  std::uint32_t device_rate_;
  std::array<Voice, kMaxVoices> voices_{};
  std::array<float, kBlockFrames * 2> block_{};
  Listener listener_;
  bool paused_ = false;
  bool muted_ = false;
  std::uint64_t rendered_frames_ = 0;
};

}  // namespace sortie::env
