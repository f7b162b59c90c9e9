#pragma once
// The viewer's mission environment in one object (issue #12 part 9): the weather schedule's
// EnvironmentFrame (drawn by render::WeatherDrawing), the ambient music state machine and the
// sound output, advanced together once per displayed frame by game time:
//
//   open:   the THEME StartLoop (music bus) goes to the mixer at time 0;
//   update: the listener is set from the camera frame first, then the weather's events of the
//           frame (rain/snow loops, thunder one-shots), then the music's variation one-shot
//           (AmbientMusic::tick with the frame's dt and the frame's sky_base_rgb, which picks
//           the DAY or NIGHT pool when the music has them); finally the mixer's logical time
//           advances.
//
// Where music and weather come from (the caller decides, apps/viewer/mode_mission.cpp): by default
// the mission's own — the ambient_music_loop / ambient_music_variation records of its mission.cfg
// (env::ambient_music_from_mission, docs/mission-cfg.md) and the schedule of its sky.weather —
// or what the command line gives instead (--theme/--variations, --weather FILE).
// Sound refs with an empty archive resolve in the default library: a host file given with
// --sounds, else the game's sounds.lib.
// A sample that does not resolve is reported once per sample (not once per frame).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "audio/sdl_audio_backend.hpp"
#include "sortie/env/ambient_music.hpp"
#include "sortie/env/audio.hpp"
#include "sortie/env/environment.hpp"
#include "sortie/env/sound_bank.hpp"

namespace sortie::viewer {

struct AmbienceOptions {
  AudioOutputOptions output;
  bool mute = false;
  std::filesystem::path sounds;  // host path of the default sound library; empty: the game's
  std::string default_archive = "sounds.lib";
  env::AmbientMusicConfig music;                // THEME and the variation pools (none: no music)
  std::optional<env::WeatherSchedule> weather;  // none: clear weather, no EnvironmentFrame
  std::uint64_t seed = 1;
  // Something to play or draw: a theme, a variation pool or a weather schedule.
  [[nodiscard]] bool any() const;
};

class Ambience {
 public:
  // Errors: the --sounds archive's (io.*, nres.*, rsli.*, asset.*). No audio device is not an error: the null backend
  // answers (one warning).
  static core::Result<std::unique_ptr<Ambience>> open(const AmbienceOptions& options, env::ArchiveOpener game_opener,
                                                      std::ostream& warnings);
  // One displayed frame at game time `time_ms` (never backwards). Returns the weather frame
  // (nullptr without a schedule).
  const env::EnvironmentFrame* update(std::int64_t time_ms, const env::CameraFrame& camera);
  void set_muted(bool muted) { mixer_->set_muted(muted); }
  void set_paused(bool paused);

  [[nodiscard]] const env::SoundMixer& mixer() const { return *mixer_; }
  [[nodiscard]] env::AudioBackend& backend() { return *backend_; }
  [[nodiscard]] const env::AmbientMusic& music() const { return *music_; }
  [[nodiscard]] bool has_weather() const { return environment_ != nullptr; }
  [[nodiscard]] std::size_t problems() const { return warned_.size(); }

 private:
  Ambience(std::ostream& warnings) : warnings_(warnings) {}
  void apply(std::int64_t time_ms, const env::CameraFrame& camera, const std::vector<env::SoundEvent>& events);

  std::ostream& warnings_;
  std::unique_ptr<env::AudioBackend> backend_;
  std::unique_ptr<env::SoundBank> bank_;
  std::unique_ptr<env::SoundMixer> mixer_;
  std::unique_ptr<env::AmbientMusic> music_;
  std::unique_ptr<env::Environment> environment_;
  std::optional<std::int64_t> last_ms_;
  std::vector<env::SoundEvent> pending_;  // THEME, applied with the first frame's listener
  std::set<std::string> warned_;
};

}  // namespace sortie::viewer
