// `sortie sound list ARCHIVE`, `sortie sound decode ARCHIVE ENTRY -o out.wav`: the sound bank of
// libs/env over a sounds.lib-style archive (NRes or RsLi).
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/env/sound_files.hpp"

namespace sortie::cli {
namespace {

using core::Json;

struct SoundOptions {
  std::string archive;
  std::string entry;
  std::string out;
  bool json = false;
};

int run_list(const SoundOptions& o) {
  auto listing = env::list_sound_archive(o.archive);
  if (!listing) return fail_with(listing.error());
  print_report(*listing, o.json);
  return kExitOk;
}

int run_decode(const SoundOptions& o) {
  auto decoded = env::decode_sound_file(o.archive, o.entry, o.out);
  if (!decoded) {
    const env::SoundDecodeFailure& f = decoded.error();
    if (!f.entry) return fail_with(f.diagnostic);  // the archive or the write: exit 2 for I/O
    if (o.json) print_json(Json{{"archive", o.archive}, {"entry", f.entry->to_json()}});
    print_error(f.diagnostic);
    return kExitInvalid;
  }
  print_report(*decoded, o.json);
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
