#pragma once
// Sound bank (seed 001 "Sound resources и SWAV", spec §24): sounds.lib-style archives (NRes or
// RsLi, mounted through libs/assets) looked up by archive + entry name. Every lookup answers one
// of
//   decoded_sample       RIFF/WAVE PCM or MS ADPCM decoded to 16-bit PCM (iron3d/wave.hpp)
//   entry_missing        the archive has no such entry
//   entry_empty          the entry exists with a zero-size payload (never given to the parser)
//   wave_invalid         the payload is not a decodable RIFF/WAVE
//   archive_unavailable  the archive itself could not be opened (file missing, broken)
// and failures carry a diagnostic with the whole chain: who asked (origin), archive, entry,
// and the reader's own finding. Results are cached by identity (folded archive/name): a sample
// is decoded once and shared by every source that plays it; resolution is lazy (first lookup).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/env/sound_event.hpp"
#include "sortie/iron3d/wave.hpp"

namespace sortie::env {

enum class SoundLookupStatus : std::uint8_t {
  decoded_sample,
  entry_missing,
  entry_empty,
  wave_invalid,
  archive_unavailable
};
std::string_view to_string(SoundLookupStatus status);

struct SoundLookup {
  SoundLookupStatus status = SoundLookupStatus::entry_missing;
  std::shared_ptr<const iron3d::DecodedWave> sample;  // decoded_sample only
  core::Diagnostic diagnostic;                        // failures only
  [[nodiscard]] bool ok() const { return status == SoundLookupStatus::decoded_sample; }
};

using ArchiveOpener =
    std::function<core::Result<std::shared_ptr<const assets::MountedArchive>>(std::string_view archive)>;

// Opens archives as game paths through a repository (host-compatible path policy).
ArchiveOpener repository_opener(assets::ArchiveRepository& repository);

struct SoundBankStats {
  std::size_t lookups = 0;
  std::size_t cache_hits = 0;
  std::size_t decoded = 0;  // samples decoded (one per identity)
  std::uint64_t decoded_frames = 0;
};

class SoundBank {
 public:
  // `default_archive` answers refs with an empty archive (the mission's library).
  SoundBank(ArchiveOpener opener, std::string default_archive);
  // `origin` names the requester for the diagnostic chain ("weather.rain_sample").
  SoundLookup lookup(const SoundRef& ref, std::string_view origin = {});
  [[nodiscard]] const SoundBankStats& stats() const { return stats_; }
  [[nodiscard]] const std::string& default_archive() const { return default_archive_; }

 private:
  SoundLookup resolve(const SoundRef& ref, const std::string& archive);
  ArchiveOpener opener_;
  std::string default_archive_;
  std::map<std::string, SoundLookup> cache_;  // by folded "ARCHIVE/NAME"
  SoundBankStats stats_;
};

}  // namespace sortie::env
