#include "sortie/env/sound_bank.hpp"

#include <fmt/format.h>

#include "sortie/core/text.hpp"

namespace sortie::env {

using core::Diagnostic;

std::string_view to_string(SoundLookupStatus status) {
  switch (status) {
    case SoundLookupStatus::decoded_sample:
      return "decoded_sample";
    case SoundLookupStatus::entry_missing:
      return "entry_missing";
    case SoundLookupStatus::entry_empty:
      return "entry_empty";
    case SoundLookupStatus::wave_invalid:
      return "wave_invalid";
    case SoundLookupStatus::archive_unavailable:
      return "archive_unavailable";
  }
  return "entry_missing";
}

ArchiveOpener repository_opener(assets::ArchiveRepository& repository) {
  return [&repository](std::string_view archive) -> core::Result<std::shared_ptr<const assets::MountedArchive>> {
    SORTIE_TRY(auto path, assets::normalize_path(archive, assets::PathPolicy::host_compatible));
    return repository.open(path);
  };
}

SoundBank::SoundBank(ArchiveOpener opener, std::string default_archive)
    : opener_(std::move(opener)), default_archive_(std::move(default_archive)) {}

SoundLookup SoundBank::resolve(const SoundRef& ref, const std::string& archive) {
  SoundLookup out;
  const std::string where = fmt::format("{}:{}", archive, ref.name);
  auto failure = [&](SoundLookupStatus status, Diagnostic d) {
    out.status = status;
    d.code = fmt::format("sound.{}", to_string(status));
    if (d.file.empty()) d.file = where;
    out.diagnostic = std::move(d);
    return out;
  };
  auto opened = opener_(archive);
  if (!opened) {
    Diagnostic d = opened.error();
    d.message = fmt::format("sound '{}': archive '{}' cannot be opened: {} [{}]", ref.name, archive, d.message, d.code);
    if (d.file.empty()) d.file = archive;
    return failure(SoundLookupStatus::archive_unavailable, std::move(d));
  }
  const auto& mounted = **opened;
  const auto index = mounted.find(ref.name);
  if (!index)
    return failure(
        SoundLookupStatus::entry_missing,
        Diagnostic::error("", fmt::format("sound '{}': archive '{}' has no such entry", ref.name, archive))
            .expect("an entry named " + ref.name, fmt::format("{} entries, none with that name", mounted.size())));
  auto payload = mounted.payload(*index);
  if (!payload) {
    Diagnostic d = payload.error();
    d.message = fmt::format("sound '{}': entry of '{}' cannot be read: {} [{}]", ref.name, archive, d.message, d.code);
    return failure(SoundLookupStatus::wave_invalid, std::move(d));
  }
  if (payload->empty())
    return failure(
        SoundLookupStatus::entry_empty,
        Diagnostic::error("", fmt::format("sound '{}' in '{}' is an empty entry (no waveform)", ref.name, archive))
            .expect("a RIFF/WAVE payload", "0 bytes"));
  iron3d::ReadOptions ro{core::Profile::compatible, where};
  auto decoded = iron3d::decode_wave(*payload, ro);
  if (!decoded) {
    Diagnostic d = decoded.error();
    d.message =
        fmt::format("sound '{}' in '{}' is not a decodable wave: {} [{}]", ref.name, archive, d.message, d.code);
    d.file = where;
    return failure(SoundLookupStatus::wave_invalid, std::move(d));
  }
  out.status = SoundLookupStatus::decoded_sample;
  ++stats_.decoded;
  stats_.decoded_frames += decoded->frames();
  out.sample = std::make_shared<const iron3d::DecodedWave>(std::move(*decoded));
  return out;
}

SoundLookup SoundBank::lookup(const SoundRef& ref, std::string_view origin) {
  ++stats_.lookups;
  const std::string& archive = ref.archive.empty() ? default_archive_ : ref.archive;
  const std::string key = core::ascii_upper(archive) + "/" + core::ascii_upper(ref.name);
  auto it = cache_.find(key);
  if (it != cache_.end()) {
    ++stats_.cache_hits;
  } else {
    it = cache_.emplace(key, resolve(ref, archive)).first;
  }
  SoundLookup out = it->second;
  if (!out.ok() && !origin.empty()) out.diagnostic.field = std::string(origin);
  return out;
}

}  // namespace sortie::env
