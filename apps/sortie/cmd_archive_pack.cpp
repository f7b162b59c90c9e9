// `sortie archive pack SOURCE -o ARCHIVE`: an archive built from an extract directory or a
// manifest (iron3d::pack_archive), written atomically.
#include <fmt/format.h>

#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include "archive_group.hpp"
#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/archive_files.hpp"

namespace sortie::cli {
namespace {

namespace fs = std::filesystem;
using core::Diagnostic;
using core::Json;

int run_pack(const ArchiveOptions& o) {
  iron3d::ArchivePackOptions po;
  po.canonical = o.canonical;
  if (!o.format.empty()) {
    const auto format = iron3d::parse_archive_format(o.format);
    if (!format)
      return report_archive_error(Diagnostic::error("usage.format", "bad --format").expect("nres or rsli", o.format));
    po.plain_format = *format;
  }
  if (!o.method.empty()) {
    const auto method = iron3d::parse_rsli_method(o.method);
    if (!method)
      return report_archive_error(Diagnostic::error("usage.method", "bad --method")
                                      .expect("stored, xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate", o.method));
    po.plain_method = *method;
  }
  auto packed = iron3d::pack_archive(o.source, po);
  if (!packed) return report_archive_error(packed.error());
  if (!packed->from_manifest)
    std::cerr << fmt::format(
        "note: {} has no {}; packing every file in it ({})\n", o.source, iron3d::kArchiveManifestName,
        po.plain_format == iron3d::ArchiveFormat::rsli ? "RsLi, names uppercased" : "type 0, canonical layout");
  else if (packed->resized > 0)
    std::cerr << fmt::format("note: {} payload(s) changed size; offsets recomputed (gaps kept, sort table rebuilt)\n",
                             packed->resized);
  else if (packed->rebuilt)
    std::cerr << fmt::format("note: library rebuilt ({} entr{} packed anew; sort table and XOR keys recomputed)\n",
                             packed->repacked, packed->repacked == 1 ? "y" : "ies");
  auto st = core::write_file_atomic(o.out, packed->bytes);
  if (!st) return report_archive_error(st.error());
  std::cout << fmt::format("packed {} entries into {} ({} bytes)\n", packed->entries, o.out, packed->bytes.size());
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(archive_pack, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<ArchiveOptions>();
  CLI::App* cmd = &archive_group(root);

  auto* pack = cmd->add_subcommand("pack", "Build an archive from an extract directory (or a manifest)");
  pack->add_option("source", o->source, "directory made by extract, a _manifest.json, or any directory of files")
      ->required();
  pack->add_option("-o,--output", o->out, "archive to write (atomic)")->required();
  pack->add_flag("--canonical", o->canonical, "compact layout: payloads aligned to 8, unindexed bytes dropped");
  pack->add_option("--format", o->format, "for a directory without a manifest: nres (default) or rsli");
  pack->add_option("--method", o->method,
                   "with --format rsli: stored (default), xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate");
  pack->footer(
      "With a manifest, unchanged files give the original archive byte for byte; a file that\n"
      "changed size moves the payloads after it (gaps kept). To rename, edit \"name\" in the\n"
      "manifest. A directory without a manifest packs every file in it, named after the file.\n"
      "An RsLi manifest may change \"method\" per entry; unchanged entries keep their packed bytes.\n"
      "Examples:\n  sortie archive pack objects/ -o objects.rlb\n  sortie archive pack --canonical "
      "objects/_manifest.json -o small.rlb\n"
      "  sortie archive pack fonts/ --format rsli --method lzss -o gamefont.rlb\n");
  pack->callback([o, &outcome] { outcome.exit_code = run_pack(*o); });
});

}  // namespace sortie::cli
