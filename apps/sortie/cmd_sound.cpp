// `sortie sound list ARCHIVE`, `sortie sound decode ARCHIVE ENTRY -o out.wav`: the sound bank of
// libs/env over a sounds.lib-style archive (NRes or RsLi).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/env/sound_bank.hpp"

namespace sortie::cli {
namespace {

using core::Json;

struct SoundOptions {
  std::string archive;
  std::string entry;
  std::string out;
  bool json = false;
};

// Mounts a host archive file and gives a bank that answers for it under its file name.
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

env::SoundBank bank_for(std::shared_ptr<const assets::MountedArchive> archive) {
  const std::string name = archive->path().path;
  return env::SoundBank(
      [archive](std::string_view) -> core::Result<std::shared_ptr<const assets::MountedArchive>> { return archive; },
      name);
}

Json lookup_json(const std::string& name, std::uint64_t size, const env::SoundLookup& l) {
  Json j{{"name", name}, {"size", size}, {"status", std::string(env::to_string(l.status))}};
  if (l.ok()) {
    j["encoding"] = l.sample->source_format == iron3d::kWaveFormatPcm ? "pcm" : "ms_adpcm";
    j["sample_rate"] = l.sample->sample_rate;
    j["channels"] = l.sample->channels;
    j["frames"] = l.sample->frames();
    j["duration_seconds"] = static_cast<double>(l.sample->frames()) / l.sample->sample_rate;
  } else {
    j["diagnostic"] = l.diagnostic.to_json();
  }
  return j;
}

int run_list(const SoundOptions& o) {
  auto archive = mount(o.archive);
  if (!archive) {
    print_error(archive.error());
    return exit_code_for(archive.error());
  }
  auto bank = bank_for(*archive);
  Json entries = Json::array();
  std::size_t decoded = 0;
  for (std::size_t i = 0; i < (*archive)->size(); ++i) {
    const std::string name = (*archive)->name(i);
    const auto payload = (*archive)->payload(i);
    const std::uint64_t size = payload ? payload->size() : 0;
    const auto l = bank.lookup({"", name});
    decoded += l.ok();
    Json j = lookup_json(name, size, l);
    if (!o.json) {
      std::cout << fmt::format("{:<32} {:>9} {:<15}", name, size, env::to_string(l.status));
      if (l.ok())
        std::cout << fmt::format(" {:<8} {} Hz {} ch {} frames ({:.3f} s)", j["encoding"].get<std::string>(),
                                 l.sample->sample_rate, l.sample->channels, l.sample->frames(),
                                 j["duration_seconds"].get<double>());
      else
        std::cout << " " << l.diagnostic.message;
      std::cout << "\n";
    }
    entries.push_back(std::move(j));
  }
  if (o.json) {
    print_json(Json{{"archive", o.archive}, {"entries", std::move(entries)}, {"decoded", decoded}});
  } else {
    std::cout << fmt::format("{} entries, {} decodable\n", (*archive)->size(), decoded);
  }
  return kExitOk;
}

int run_decode(const SoundOptions& o) {
  auto archive = mount(o.archive);
  if (!archive) {
    print_error(archive.error());
    return exit_code_for(archive.error());
  }
  auto bank = bank_for(*archive);
  const auto l = bank.lookup({"", o.entry}, "sound decode");
  if (!l.ok()) {
    if (o.json) print_json(Json{{"archive", o.archive}, {"entry", lookup_json(o.entry, 0, l)}});
    print_error(l.diagnostic);
    return kExitInvalid;
  }
  const auto wave = iron3d::make_pcm16_wave(l.sample->sample_rate, l.sample->channels, l.sample->samples);
  if (auto st = core::write_file_atomic(o.out, iron3d::write_wave(wave)); !st) {
    print_error(st.error());
    return kExitUsage;
  }
  if (o.json) {
    Json j = lookup_json(o.entry, 0, l);
    j.erase("size");
    print_json(Json{{"archive", o.archive}, {"entry", std::move(j)}, {"out", o.out}});
  } else {
    std::cout << fmt::format("{}: {} frames, {} Hz, {} ch ({}) -> {} (PCM 16-bit)\n", o.entry, l.sample->frames(),
                             l.sample->sample_rate, l.sample->channels,
                             l.sample->source_format == iron3d::kWaveFormatPcm ? "pcm" : "ms_adpcm", o.out);
  }
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(sound, [](CLI::App& root, Outcome& outcome) {
  auto* sound = root.add_subcommand("sound", "Sound archives: list entries, decode one to a PCM WAV file");
  sound->require_subcommand(1);
  sound->footer(
      "Examples:\n"
      "  sortie sound list sounds.lib\n"
      "  sortie sound decode sounds.lib ATM_RAIN1.WAV -o rain.wav\n");
  auto lo = std::make_shared<SoundOptions>();
  auto* list = sound->add_subcommand("list", "List the entries of a sound archive with their decode status");
  list->add_option("archive", lo->archive, "NRes or RsLi archive")->required();
  list->add_flag("--json", lo->json, "machine-readable output");
  list->callback([lo, &outcome] { outcome.exit_code = run_list(*lo); });
  auto dopt = std::make_shared<SoundOptions>();
  auto* decode = sound->add_subcommand("decode", "Decode one entry (PCM or MS ADPCM) to a 16-bit PCM WAV file");
  decode->add_option("archive", dopt->archive, "NRes or RsLi archive")->required();
  decode->add_option("entry", dopt->entry, "entry name (ASCII case-insensitive)")->required();
  decode->add_option("-o,--out", dopt->out, "output .wav file (written atomically)")->required();
  decode->add_flag("--json", dopt->json, "machine-readable output");
  decode->callback([dopt, &outcome] { outcome.exit_code = run_decode(*dopt); });
});

}  // namespace sortie::cli
