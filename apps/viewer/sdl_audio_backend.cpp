#include "sdl_audio_backend.hpp"

#include <SDL.h>
#include <fmt/format.h>

#include <span>

namespace sortie::viewer {

core::Result<std::unique_ptr<SdlAudioBackend>> SdlAudioBackend::open(const AudioOutputOptions& options) {
  if (!options.driver.empty()) SDL_SetHintWithPriority(SDL_HINT_AUDIODRIVER, options.driver.c_str(), SDL_HINT_OVERRIDE);
  const std::string wanted = options.driver.empty() ? std::string("default") : options.driver;
  if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0)
    return core::fail(
        core::Diagnostic::error("audio.no_device", fmt::format("SDL audio ({}): {}", wanted, SDL_GetError())));
  const std::uint32_t rate = options.rate ? options.rate : 44100;
  std::unique_ptr<SdlAudioBackend> backend(new SdlAudioBackend(rate));
  SDL_AudioSpec want{};
  want.freq = static_cast<int>(rate);
  want.format = AUDIO_S16SYS;
  want.channels = 2;
  want.samples = options.buffer ? options.buffer : 1024;
  want.callback = &SdlAudioBackend::callback;
  want.userdata = backend.get();
  SDL_AudioSpec have{};
  const SDL_AudioDeviceID device = SDL_OpenAudioDevice(nullptr, 0, &want, &have, SDL_AUDIO_ALLOW_FREQUENCY_CHANGE);
  if (device == 0) {
    auto d = core::Diagnostic::error("audio.no_device", fmt::format("SDL audio ({}): {}", wanted, SDL_GetError()));
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    return core::fail(std::move(d));
  }
  // The device opens paused: the callback has not run yet, so the mixer can take the rate the
  // device chose before it starts.
  backend->device_ = device;
  backend->mixer_ = env::VoiceMixer(static_cast<std::uint32_t>(have.freq > 0 ? have.freq : static_cast<int>(rate)));
  const char* current = SDL_GetCurrentAudioDriver();
  backend->driver_ = current ? current : wanted;
  SDL_PauseAudioDevice(device, 0);
  return backend;
}

SdlAudioBackend::~SdlAudioBackend() {
  if (device_ == 0) return;
  SDL_CloseAudioDevice(device_);  // stops the callback thread before the mixer goes away
  SDL_QuitSubSystem(SDL_INIT_AUDIO);
}

void SdlAudioBackend::callback(void* self, std::uint8_t* stream, int len) {
  auto* backend = static_cast<SdlAudioBackend*>(self);
  const std::size_t samples = len > 0 ? static_cast<std::size_t>(len) / sizeof(std::int16_t) : 0;
  // SDL hands out a byte buffer for the AUDIO_S16SYS stream it asked for; it is suitably aligned.
  backend->mixer_.render(std::span<std::int16_t>(reinterpret_cast<std::int16_t*>(stream), samples));
}

template <class F>
auto SdlAudioBackend::locked(F&& f) const {
  SDL_LockAudioDevice(device_);
  auto result = f();
  SDL_UnlockAudioDevice(device_);
  return result;
}

env::BackendStatus SdlAudioBackend::start_source(env::SourceId id, const iron3d::DecodedWave& sample,
                                                 const env::SourceParams& params, float gain,
                                                 std::uint64_t position_frames) {
  return locked([&] { return mixer_.start_source(id, sample, params, gain, position_frames); });
}

env::BackendStatus SdlAudioBackend::update_source(env::SourceId id, const env::SourceParams& params, float gain) {
  return locked([&] { return mixer_.update_source(id, params, gain); });
}

env::BackendStatus SdlAudioBackend::stop_source(env::SourceId id) {
  return locked([&] { return mixer_.stop_source(id); });
}

env::BackendStatus SdlAudioBackend::set_listener(const env::Listener& listener) {
  return locked([&] { return mixer_.set_listener(listener); });
}

env::BackendStatus SdlAudioBackend::set_paused(bool paused) {
  return locked([&] { return mixer_.set_paused(paused); });
}

env::BackendStatus SdlAudioBackend::set_muted(bool muted) {
  return locked([&] { return mixer_.set_muted(muted); });
}

std::optional<double> SdlAudioBackend::position(env::SourceId id) const {
  return locked([&] { return mixer_.position(id); });
}

std::uint64_t SdlAudioBackend::rendered_frames() const {
  return locked([&] { return mixer_.rendered_frames(); });
}

std::unique_ptr<env::AudioBackend> open_audio_backend(const AudioOutputOptions& options, std::ostream& warnings) {
  auto sdl = SdlAudioBackend::open(options);
  if (sdl) return std::move(*sdl);
  warnings << "warning: " << sdl.error().message << "; sound is off (no audio device)\n";
  return std::make_unique<env::NullAudioBackend>();
}

}  // namespace sortie::viewer
