#pragma once
// `sortie sound list ARCHIVE` and `sortie sound decode ARCHIVE ENTRY -o OUT.wav` as library calls:
// a host archive file (NRes or RsLi, sounds.lib style) mounted under its file name and read
// through the sound bank, every entry with its decode status, or one entry decoded to a 16-bit
// PCM WAV written atomically.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/env/sound_bank.hpp"

namespace sortie::env {

struct SoundEntryStatus {
  std::string name;
  std::uint64_t size = 0;
  SoundLookup lookup;
  [[nodiscard]] core::Json to_json() const;
};

struct SoundArchiveListing {
  std::string archive;
  std::vector<SoundEntryStatus> entries;
  [[nodiscard]] std::size_t decoded() const;
  [[nodiscard]] core::Json to_json() const;
  [[nodiscard]] std::string to_text() const;
};

// Errors: io.* (the file), the path's and the archive reader's.
core::Result<SoundArchiveListing> list_sound_archive(const std::string& file);

struct DecodedSoundFile {
  std::string archive;
  SoundEntryStatus entry;
  std::string out;
  [[nodiscard]] core::Json to_json() const;
  [[nodiscard]] std::string to_text() const;
};

// One entry decoded and written. Errors: list_sound_archive's, the lookup's diagnostic (the entry
// is missing or does not decode: `failed` is set to its status so --json can show it), io.* of
// the write.
struct SoundDecodeFailure {
  core::Diagnostic diagnostic;
  std::optional<SoundEntryStatus> entry;  // the entry's status when the lookup failed
};
tl::expected<DecodedSoundFile, SoundDecodeFailure> decode_sound_file(const std::string& file, const std::string& entry,
                                                                     const std::string& out);

}  // namespace sortie::env
