#pragma once
// Sound resources and the sound events the environment produces for the audio owner (seed 001
// "Погода, осадки и звуковые события"): StartLoop, SetLoopVolume, StopLoop, OneShot.
#include <cstdint>
#include <string>
#include <string_view>

#include "sortie/core/json.hpp"
#include "sortie/core/math.hpp"

namespace sortie::env {

// A sound resource: archive + entry name. An empty archive means "the mission's library"
// (the audio owner supplies it). Identity is ASCII case-insensitive on both parts.
struct SoundRef {
  std::string archive;
  std::string name;
  [[nodiscard]] bool empty() const { return name.empty(); }
  // "atm_rain1.wav" -> {"", "atm_rain1.wav"}; "sounds.lib/atm_rain1.wav" -> {"sounds.lib", ...};
  // the last '/' or '\' separates the archive from the entry.
  static SoundRef parse(std::string_view text);
  [[nodiscard]] std::string to_string() const;  // inverse of parse
  [[nodiscard]] std::string key() const;        // folded "ARCHIVE/NAME": cache identity
  bool operator==(const SoundRef&) const = default;
};

enum class Bus : std::uint8_t { master, effects, ambient, voice, music };
inline constexpr std::size_t kBusCount = 5;
std::string_view to_string(Bus bus);

enum class SoundEventKind : std::uint8_t { start_loop, set_loop_volume, stop_loop, one_shot };
std::string_view to_string(SoundEventKind kind);

struct SoundEvent {
  SoundEventKind kind = SoundEventKind::one_shot;
  std::int64_t time_ms = 0;
  std::string loop;  // loop identity for the loop events ("rain", "snow", "theme"); empty for one-shots
  SoundRef sample;   // StartLoop and OneShot
  Bus bus = Bus::effects;
  bool positional = false;
  core::Vec3 position{};
  float volume = 1.0f;
  float min_distance = 0.0f;  // positional sources only
  float max_distance = 0.0f;
  float frequency_ratio = 1.0f;
  bool operator==(const SoundEvent&) const = default;
};

core::Json sound_event_json(const SoundEvent& event);

}  // namespace sortie::env
