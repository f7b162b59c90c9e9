#include "sortie/env/sound_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "sortie/assets/game_path.hpp"
#include "sortie/core/file_io.hpp"

namespace sortie::env {

namespace {

// Mounts a host archive file under its file name.
core::Result<std::shared_ptr<const assets::MountedArchive>> mount(const std::string& file) {
  SORTIE_TRY(auto bytes, core::read_file(file));
  const std::string name = std::filesystem::path(file).filename().string();
  SORTIE_TRY(auto path, assets::normalize_path(name, assets::PathPolicy::host_compatible));
  auto m = assets::mount_archive(path, std::move(bytes));
  if (!m) {
    core::Diagnostic d = m.error();
    if (d.file.empty()) d.file = file;
    return core::fail(std::move(d));
  }
  return m;
}

// A bank that answers for the one mounted archive.
SoundBank bank_for(const std::shared_ptr<const assets::MountedArchive>& archive) {
  return SoundBank(
      [archive](std::string_view) -> core::Result<std::shared_ptr<const assets::MountedArchive>> { return archive; },
      archive->path().path);
}

const char* encoding_of(const iron3d::DecodedWave& w) {
  return w.source_format == iron3d::kWaveFormatPcm ? "pcm" : "ms_adpcm";
}

}  // namespace

core::Json SoundEntryStatus::to_json() const {
  core::Json j{{"name", name}, {"size", size}, {"status", std::string(to_string(lookup.status))}};
  if (lookup.ok()) {
    const iron3d::DecodedWave& w = *lookup.sample;
    j["encoding"] = encoding_of(w);
    j["sample_rate"] = w.sample_rate;
    j["channels"] = w.channels;
    j["frames"] = w.frames();
    j["duration_seconds"] = static_cast<double>(w.frames()) / w.sample_rate;
  } else {
    j["diagnostic"] = lookup.diagnostic.to_json();
  }
  return j;
}

std::size_t SoundArchiveListing::decoded() const {
  return static_cast<std::size_t>(
      std::count_if(entries.begin(), entries.end(), [](const SoundEntryStatus& e) { return e.lookup.ok(); }));
}

core::Json SoundArchiveListing::to_json() const {
  core::Json list = core::Json::array();
  for (const SoundEntryStatus& e : entries) list.push_back(e.to_json());
  return core::Json{{"archive", archive}, {"entries", std::move(list)}, {"decoded", decoded()}};
}

std::string SoundArchiveListing::to_text() const {
  std::string out;
  for (const SoundEntryStatus& e : entries) {
    out += fmt::format("{:<32} {:>9} {:<15}", e.name, e.size, to_string(e.lookup.status));
    if (e.lookup.ok()) {
      const iron3d::DecodedWave& w = *e.lookup.sample;
      out += fmt::format(" {:<8} {} Hz {} ch {} frames ({:.3f} s)", encoding_of(w), w.sample_rate, w.channels,
                         w.frames(), static_cast<double>(w.frames()) / w.sample_rate);
    } else {
      out += " " + e.lookup.diagnostic.message;
    }
    out += "\n";
  }
  out += fmt::format("{} entries, {} decodable\n", entries.size(), decoded());
  return out;
}

core::Result<SoundArchiveListing> list_sound_archive(const std::string& file) {
  SORTIE_TRY(const auto archive, mount(file));
  SoundBank bank = bank_for(archive);
  SoundArchiveListing listing;
  listing.archive = file;
  for (std::size_t i = 0; i < archive->size(); ++i) {
    SoundEntryStatus e;
    e.name = archive->name(i);
    const auto payload = archive->payload(i);
    e.size = payload ? payload->size() : 0;
    e.lookup = bank.lookup({"", e.name});
    listing.entries.push_back(std::move(e));
  }
  return listing;
}

core::Json DecodedSoundFile::to_json() const {
  core::Json j = entry.to_json();
  j.erase("size");
  return core::Json{{"archive", archive}, {"entry", std::move(j)}, {"out", out}};
}

std::string DecodedSoundFile::to_text() const {
  const iron3d::DecodedWave& w = *entry.lookup.sample;
  return fmt::format("{}: {} frames, {} Hz, {} ch ({}) -> {} (PCM 16-bit)\n", entry.name, w.frames(), w.sample_rate,
                     w.channels, encoding_of(w), out);
}

tl::expected<DecodedSoundFile, SoundDecodeFailure> decode_sound_file(const std::string& file, const std::string& entry,
                                                                     const std::string& out) {
  auto archive = mount(file);
  if (!archive) return tl::make_unexpected(SoundDecodeFailure{archive.error(), std::nullopt});
  SoundBank bank = bank_for(*archive);
  DecodedSoundFile d;
  d.archive = file;
  d.out = out;
  d.entry.name = entry;
  d.entry.lookup = bank.lookup({"", entry}, "sound decode");
  if (!d.entry.lookup.ok()) return tl::make_unexpected(SoundDecodeFailure{d.entry.lookup.diagnostic, d.entry});
  const iron3d::DecodedWave& w = *d.entry.lookup.sample;
  const auto wave = iron3d::make_pcm16_wave(w.sample_rate, w.channels, w.samples);
  if (auto st = core::write_file_atomic(out, iron3d::write_wave(wave)); !st) {
    return tl::make_unexpected(SoundDecodeFailure{st.error(), std::nullopt});
  }
  return d;
}

}  // namespace sortie::env
