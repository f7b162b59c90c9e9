#pragma once
// The audio owner: applies sound events to logical sources, mixes them on five buses and talks
// to an AudioBackend (seed 001 "Звуковая подсистема"; "Проверки звука").
//
//   - A source is created per StartLoop/OneShot; its sample comes from the SoundBank, so many
//     sources share one decoded sample.
//   - Buses master, effects, ambient, voice, music: gain = volume * bus * master (0 while muted).
//   - Time: advance(dt) moves every playing source's position (ms -> frames at the sample rate
//     times the frequency ratio); loops wrap, one-shots end and are stopped. pause freezes
//     positions; mute silences output but keeps positions and time running.
//   - The listener follows the camera frame and is set before a frame's events are applied
//     (stdRenderGame updates it before world traversal).
//   - The backend is an interface: NullAudioBackend is the no-device backend and answers every
//     call explicitly with BackendStatus::no_device; logical state (sources, positions, events)
//     does not depend on the answer, so a missing device never changes the simulation. An SDL2
//     backend comes with the viewer.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/env/camera.hpp"
#include "sortie/env/sound_bank.hpp"
#include "sortie/env/sound_event.hpp"
#include "sortie/iron3d/wave.hpp"
#include "sortie/world/trace.hpp"

namespace sortie::env {

using SourceId = std::uint32_t;

struct Listener {
  core::Vec3 position{};
  core::Vec3 forward{1, 0, 0};
  core::Vec3 up{0, 0, 1};
  std::int64_t time_ms = 0;
  bool operator==(const Listener&) const = default;
};
Listener listener_from_camera(const CameraFrame& camera, std::int64_t time_ms);

struct SourceParams {
  Bus bus = Bus::effects;
  bool loop = false;
  bool positional = false;
  core::Vec3 position{};
  float volume = 1.0f;
  float min_distance = 0.0f;
  float max_distance = 0.0f;
  float frequency_ratio = 1.0f;
  bool operator==(const SourceParams&) const = default;
};

enum class BackendStatus : std::uint8_t { ok, no_device, failed };
std::string_view to_string(BackendStatus status);

class AudioBackend {
 public:
  virtual ~AudioBackend() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  [[nodiscard]] virtual bool has_device() const = 0;
  // `gain` is the mixed gain (volume * bus * master, 0 when muted); position in frames.
  virtual BackendStatus start_source(SourceId id, const iron3d::DecodedWave& sample, const SourceParams& params,
                                     float gain, std::uint64_t position_frames) = 0;
  virtual BackendStatus update_source(SourceId id, const SourceParams& params, float gain) = 0;
  virtual BackendStatus stop_source(SourceId id) = 0;
  virtual BackendStatus set_listener(const Listener& listener) = 0;
  virtual BackendStatus set_paused(bool paused) = 0;
  virtual BackendStatus set_muted(bool muted) = 0;
};

enum class BackendCall : std::uint8_t { start_source, update_source, stop_source, set_listener, set_paused, set_muted };

// No device: every call is answered with no_device and recorded (kind, in order).
class NullAudioBackend final : public AudioBackend {
 public:
  static constexpr std::string_view kMessage = "3D Sound was not initialized";
  [[nodiscard]] std::string_view name() const override { return "none"; }
  [[nodiscard]] bool has_device() const override { return false; }
  BackendStatus start_source(SourceId, const iron3d::DecodedWave&, const SourceParams&, float, std::uint64_t) override {
    return record(BackendCall::start_source);
  }
  BackendStatus update_source(SourceId, const SourceParams&, float) override {
    return record(BackendCall::update_source);
  }
  BackendStatus stop_source(SourceId) override { return record(BackendCall::stop_source); }
  BackendStatus set_listener(const Listener&) override { return record(BackendCall::set_listener); }
  BackendStatus set_paused(bool) override { return record(BackendCall::set_paused); }
  BackendStatus set_muted(bool) override { return record(BackendCall::set_muted); }
  [[nodiscard]] const std::vector<BackendCall>& calls() const { return calls_; }

 private:
  BackendStatus record(BackendCall c) {
    calls_.push_back(c);
    return BackendStatus::no_device;
  }
  std::vector<BackendCall> calls_;
};

struct MixerSource {
  SourceId id = 0;
  std::string loop;  // loop identity; empty for one-shots
  SoundRef ref;
  std::shared_ptr<const iron3d::DecodedWave> sample;
  SourceParams params;
  std::int64_t played_ms = 0;
  std::uint64_t position_frames = 0;
};

struct ApplyResult {
  SoundEventKind kind = SoundEventKind::one_shot;
  std::optional<SoundLookupStatus> lookup;  // events that resolve a sample
  BackendStatus backend = BackendStatus::ok;
  std::optional<SourceId> source;
  core::Diagnostic diagnostic;  // lookup failure or a loop event for a loop that is not playing
  [[nodiscard]] bool ok() const { return diagnostic.code.empty(); }
};

class SoundMixer {
 public:
  SoundMixer(SoundBank& bank, AudioBackend& backend);
  // Stops every source it started: a backend may mix on another thread, and its voices point
  // into the bank's decoded samples, which may go before the backend does.
  ~SoundMixer();
  SoundMixer(const SoundMixer&) = delete;
  SoundMixer& operator=(const SoundMixer&) = delete;
  void set_listener(const CameraFrame& camera, std::int64_t time_ms);
  ApplyResult apply(const SoundEvent& event);
  // Listener first, then the events in order.
  std::vector<ApplyResult> apply_frame(const CameraFrame& camera, std::int64_t time_ms,
                                       std::span<const SoundEvent> events);
  void advance(std::int64_t dt_ms);
  void set_paused(bool paused);
  void set_muted(bool muted);
  void set_bus_volume(Bus bus, float volume);
  [[nodiscard]] float bus_volume(Bus bus) const { return bus_volume_[static_cast<std::size_t>(bus)]; }
  [[nodiscard]] float effective_gain(const MixerSource& source) const;
  [[nodiscard]] const std::vector<MixerSource>& sources() const { return sources_; }
  [[nodiscard]] const MixerSource* loop(std::string_view name) const;
  [[nodiscard]] const Listener& listener() const { return listener_; }
  [[nodiscard]] bool paused() const { return paused_; }
  [[nodiscard]] bool muted() const { return muted_; }
  [[nodiscard]] std::int64_t time_ms() const { return time_ms_; }
  [[nodiscard]] std::size_t backend_unanswered() const { return backend_unanswered_; }  // calls not answered ok
  // The "sound" trace channel (world/trace.hpp): sources started and stopped, the voices playing.
  // Null: none.
  void set_trace(world::Trace* trace) { trace_ = trace != nullptr && trace->on("sound") ? trace : nullptr; }

 private:
  void trace_source(std::string_view what, const MixerSource& s) const;
  BackendStatus note(BackendStatus s);
  void refresh_position(MixerSource& s) const;
  SoundBank& bank_;
  AudioBackend& backend_;
  std::vector<MixerSource> sources_;  // in creation order
  std::array<float, kBusCount> bus_volume_{1, 1, 1, 1, 1};
  Listener listener_;
  SourceId next_id_ = 1;
  std::int64_t time_ms_ = 0;
  bool paused_ = false;
  bool muted_ = false;
  std::size_t backend_unanswered_ = 0;
  world::Trace* trace_ = nullptr;
};

}  // namespace sortie::env
