#pragma once
// A mission's environment in one object (issue #12 part 9; the viewer's mission mode): the
// weather schedule's EnvironmentFrame (drawn by render::WeatherDrawing), the ambient music state
// machine and the sound output, advanced together once per displayed frame by game time:
//
//   open:   the THEME StartLoop (music bus) goes to the mixer at time 0;
//   update: the listener is set from the camera frame first, then the weather's events of the
//           frame (rain/snow loops, the lightning effects' sound commands), then the caller's
//           (the world's effects: EffectRunner sounds), then the music's variation one-shot
//           (AmbientMusic::tick with the frame's dt and the frame's sky_base_rgb, which picks
//           the DAY or NIGHT pool when the music has them); finally the mixer's logical time
//           advances.
//
// The sound output is the caller's: a BackendFactory opens it (the viewer's SDL2 device, or
// NullAudioBackend with a warning when no device opens; a VoiceMixer in tests); without one the
// NullAudioBackend answers. The logical state never depends on which backend answered.
// Where music and weather come from (the caller decides, apps/viewer/mode_mission.cpp): by default
// the mission's own — the ambient_music_loop / ambient_music_variation records of its mission.cfg
// (ambient_music_from_mission, docs/mission-cfg.md) and the schedule of its sky.weather —
// or what the command line gives instead (--theme/--variations, --weather FILE).
// Sound refs with an empty archive resolve in the default library: a host file given with
// --sounds, else the game's sounds.lib.
// A sample that does not resolve is reported once per sample (not once per frame).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "sortie/env/ambient_music.hpp"
#include "sortie/env/audio.hpp"
#include "sortie/env/environment.hpp"
#include "sortie/env/sound_bank.hpp"

namespace sortie::env {

// Opens the sound output; a warning (no device...) goes to `warnings`.
using BackendFactory = std::function<std::unique_ptr<AudioBackend>(std::ostream& warnings)>;

struct AmbienceOptions {
  bool mute = false;
  std::filesystem::path sounds;  // host path of the default sound library; empty: the game's
  std::string default_archive = "sounds.lib";
  AmbientMusicConfig music;                // THEME and the variation pools (none: no music)
  std::optional<WeatherSchedule> weather;  // none: clear weather, no EnvironmentFrame
  // The effect a strike of `weather` starts (env::choose_lightning_effect); null: the stand-in.
  std::shared_ptr<const assets::PreparedEffect> lightning;
  std::uint64_t seed = 1;
  // Something to play or draw: a theme, a variation pool or a weather schedule.
  [[nodiscard]] bool any() const;
};

class Ambience {
 public:
  // Errors: the --sounds archive's (io.*, nres.*, rsli.*, asset.*). No audio device is not an error: the factory's
  // fallback (or the null backend without a factory) answers.
  static core::Result<std::unique_ptr<Ambience>> open(const AmbienceOptions& options, ArchiveOpener game_opener,
                                                      const BackendFactory& open_backend, std::ostream& warnings);
  // One displayed frame at game time `time_ms` (never backwards); `extra`: more sound events of
  // the frame (the world's effects), applied after the weather's. Returns the weather frame
  // (nullptr without a schedule).
  const EnvironmentFrame* update(std::int64_t time_ms, const CameraFrame& camera,
                                 std::span<const SoundEvent> extra = {});
  void set_muted(bool muted) { mixer_->set_muted(muted); }
  void set_paused(bool paused);
  // The "sound" trace channel (the mixer's sources); null: none.
  void set_trace(world::Trace* trace) { mixer_->set_trace(trace); }

  [[nodiscard]] const SoundMixer& mixer() const { return *mixer_; }
  [[nodiscard]] AudioBackend& backend() { return *backend_; }
  [[nodiscard]] const AmbientMusic& music() const { return *music_; }
  [[nodiscard]] bool has_weather() const { return environment_ != nullptr; }
  [[nodiscard]] std::size_t problems() const { return warned_.size(); }

 private:
  Ambience(std::ostream& warnings) : warnings_(warnings) {}
  void apply(std::int64_t time_ms, const CameraFrame& camera, const std::vector<SoundEvent>& events);

  std::ostream& warnings_;
  std::unique_ptr<AudioBackend> backend_;
  std::unique_ptr<SoundBank> bank_;
  std::unique_ptr<SoundMixer> mixer_;
  std::unique_ptr<AmbientMusic> music_;
  std::unique_ptr<Environment> environment_;
  std::optional<std::int64_t> last_ms_;
  std::vector<SoundEvent> pending_;  // THEME, applied with the first frame's listener
  std::set<std::string> warned_;
};

}  // namespace sortie::env
