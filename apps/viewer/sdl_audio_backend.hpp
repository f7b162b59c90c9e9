#pragma once
// The viewer's SDL2 audio backend (issue #12 part 5/9): an env::AudioBackend that opens an SDL
// audio device (signed 16-bit stereo, callback mode) and lets an env::VoiceMixer fill the device's
// buffers. Every AudioBackend call changes the voice table under SDL_LockAudioDevice, held for
// the few assignments of one call; the callback only mixes (no allocation, no other lock).
//
// open_audio_backend() is what the viewer calls: the SDL backend when a device opens, otherwise
// env::NullAudioBackend and one warning line naming the driver and SDL's reason. The logical
// state (env::SoundMixer) never depends on which backend answered.
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/env/audio.hpp"
#include "sortie/env/voice_mixer.hpp"

namespace sortie::viewer {

struct AudioOutputOptions {
  std::string driver;           // SDL audio driver ("dummy", "disk", "pulseaudio"...); empty = SDL's choice
  std::uint32_t rate = 44100;   // requested device rate (the device may choose another)
  std::uint16_t buffer = 1024;  // device buffer in frames
};

class SdlAudioBackend final : public env::AudioBackend {
 public:
  // audio.no_device when the audio subsystem or the device does not open (SDL's reason in the
  // message); the subsystem is left as it was found.
  static core::Result<std::unique_ptr<SdlAudioBackend>> open(const AudioOutputOptions& options);
  ~SdlAudioBackend() override;
  SdlAudioBackend(const SdlAudioBackend&) = delete;
  SdlAudioBackend& operator=(const SdlAudioBackend&) = delete;

  [[nodiscard]] std::string_view name() const override { return "sdl2"; }
  [[nodiscard]] bool has_device() const override { return true; }
  env::BackendStatus start_source(env::SourceId id, const iron3d::DecodedWave& sample, const env::SourceParams& params,
                                  float gain, std::uint64_t position_frames) override;
  env::BackendStatus update_source(env::SourceId id, const env::SourceParams& params, float gain) override;
  env::BackendStatus stop_source(env::SourceId id) override;
  env::BackendStatus set_listener(const env::Listener& listener) override;
  env::BackendStatus set_paused(bool paused) override;
  env::BackendStatus set_muted(bool muted) override;

  [[nodiscard]] const std::string& driver() const { return driver_; }
  [[nodiscard]] std::uint32_t device_rate() const { return mixer_.device_rate(); }
  [[nodiscard]] std::optional<double> position(env::SourceId id) const;
  [[nodiscard]] std::uint64_t rendered_frames() const;

 private:
  explicit SdlAudioBackend(std::uint32_t rate) : mixer_(rate) {}
  static void callback(void* self, std::uint8_t* stream, int len);
  template <class F>
  auto locked(F&& f) const;

  std::uint32_t device_ = 0;
  env::VoiceMixer mixer_;
  std::string driver_;
};

// The SDL backend, or the NullAudioBackend with one warning on `warnings` when no device opens.
std::unique_ptr<env::AudioBackend> open_audio_backend(const AudioOutputOptions& options, std::ostream& warnings);

}  // namespace sortie::viewer
