// `sortie archive list|extract|pack|add|remove|rename`: a thin client of the archive facade
// (libs/iron3d archive.hpp). This file parses options and prints; the library opens NRes or
// RsLi by content, extracts, packs and edits.
#include <fmt/format.h>

#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/iron3d/archive.hpp"
#include "sortie/iron3d/archive_files.hpp"

namespace sortie::cli {
namespace {

namespace fs = std::filesystem;
using core::Diagnostic;
using core::Json;

struct ArchiveOptions {
  std::string archive;  // input archive (list, extract, add, remove, rename)
  std::string source;   // pack: directory or manifest
  std::string out;      // -o
  std::vector<std::string> names;
  std::string file;        // add: payload file
  std::string entry_name;  // add --name
  std::string type;        // add --type
  std::string method;      // add/pack --method (RsLi)
  std::string format;      // pack --format for a directory without a manifest
  std::uint32_t attr1 = 0, attr2 = 0, attr3 = 0;
  std::string old_name, new_name;
  bool json = false;
  bool compatible = false;
  bool canonical = false;
  bool replace = false;
};

core::Profile profile_of(const ArchiveOptions& o) {
  return o.compatible ? core::Profile::compatible : core::Profile::strict;
}

int report(const Diagnostic& d) {
  print_error(d);
  if (d.code.starts_with("nres.sort"))
    std::cerr << "hint: --compatible accepts an archive whose sort table is invalid\n";
  if (d.code == "rsli.corrupt_table" || d.code == "rsli.ao_trailer" || d.code == "rsli.deflate_eof_quirk")
    std::cerr << "hint: --compatible accepts this RsLi quirk (reported as a warning)\n";
  return exit_code_for(d);
}

core::Result<iron3d::Archive> open_archive(const ArchiveOptions& o) {
  return iron3d::Archive::open_file(o.archive, profile_of(o));
}

int run_list(const ArchiveOptions& o) {
  auto a = open_archive(o);
  if (!a) {
    if (o.json) print_json({{"file", o.archive}, {"valid", false}, {"diagnostic", a.error().to_json()}});
    return report(a.error());
  }
  if (o.json) {
    Json j = a->to_json();
    j["file"] = o.archive;
    print_json(j);
    return kExitOk;
  }
  std::cout << fmt::format("{}: {} archive, {} entries\n", o.archive, iron3d::to_string(a->format()), a->size());
  std::cout << fmt::format("{:>6}  {:<8} {:>10} {:>10}  {}\n", "index", "type", "size", "offset", "name");
  for (std::size_t i = 0; i < a->size(); ++i) {
    const auto& it = a->items()[i];
    std::cout << fmt::format("{:>6}  {:<8} {:>10} {:>#10x}  {}\n", i, it.type_label, it.size, it.offset, it.name);
  }
  for (const auto& w : a->warnings()) std::cout << "warning: " << w.message << "\n";
  return kExitOk;
}

int run_extract(const ArchiveOptions& o) {
  auto a = open_archive(o);
  if (!a) return report(a.error());
  const fs::path dir = o.out.empty() ? fs::path(iron3d::archive_default_extract_dir(o.archive)) : fs::path(o.out);
  Progress progress("extract", o.names.empty() ? a->size() : o.names.size());
  iron3d::ArchiveExtractOptions xo;
  xo.names = o.names;
  xo.progress = [&](std::size_t done, std::size_t, std::string_view file) { progress.update(done, file); };
  auto x = iron3d::extract_archive(*a, dir, xo);
  progress.finish();
  if (!x) return report(x.error());
  if (!o.names.empty()) {
    std::cout << fmt::format("extracted {} of {} entries to {}\n", x->extracted, x->entries, dir.string());
    return kExitOk;
  }
  std::cout << fmt::format("extracted {} entries to {} (manifest {})\n", x->extracted, dir.string(),
                           x->manifest.string());
  if (!x->preserved.empty())
    std::cout << fmt::format("kept {} non-zero unindexed region(s) in {}\n", x->preserved.size(),
                             (dir / iron3d::kArchiveGapDir).string());
  return kExitOk;
}

int run_pack(const ArchiveOptions& o) {
  iron3d::ArchivePackOptions po;
  po.canonical = o.canonical;
  if (!o.format.empty()) {
    const auto format = iron3d::parse_archive_format(o.format);
    if (!format) return report(Diagnostic::error("usage.format", "bad --format").expect("nres or rsli", o.format));
    po.plain_format = *format;
  }
  if (!o.method.empty()) {
    const auto method = iron3d::parse_rsli_method(o.method);
    if (!method)
      return report(Diagnostic::error("usage.method", "bad --method")
                        .expect("stored, xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate", o.method));
    po.plain_method = *method;
  }
  auto packed = iron3d::pack_archive(o.source, po);
  if (!packed) return report(packed.error());
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
  if (!st) return report(st.error());
  std::cout << fmt::format("packed {} entries into {} ({} bytes)\n", packed->entries, o.out, packed->bytes.size());
  return kExitOk;
}

// add/remove/rename: open, edit (library), write atomically to -o or in place.
int run_edit(const ArchiveOptions& o, const std::function<core::Result<core::Bytes>(const iron3d::Archive&)>& edit,
             std::string_view done) {
  auto a = open_archive(o);
  if (!a) return report(a.error());
  auto out = edit(*a);
  if (!out) {
    const int code = report(out.error());
    if (out.error().code == "archive.entry_exists" && !o.replace && !o.file.empty())
      std::cerr << "hint: --replace overwrites the payload of the existing entry\n";
    return code;
  }
  const std::string target = o.out.empty() ? o.archive : o.out;
  auto st = core::write_file_atomic(target, *out);
  if (!st) return report(st.error());
  std::cout << fmt::format("{}: {} ({} bytes)\n", target, done, out->size());
  return kExitOk;
}

int run_add(const ArchiveOptions& o) {
  iron3d::ArchiveNewEntry entry;
  entry.name = o.entry_name.empty() ? fs::path(o.file).filename().string() : o.entry_name;
  if (!o.type.empty()) {
    entry.type_id = iron3d::parse_nres_type_id(o.type);
    if (!entry.type_id)
      return report(Diagnostic::error("usage.type", "bad --type")
                        .expect("a number (7, 0x15) or a 4-character tag (MAT0)", o.type));
  }
  if (!o.method.empty()) {
    entry.method = iron3d::parse_rsli_method(o.method);
    if (!entry.method)
      return report(Diagnostic::error("usage.method", "bad --method")
                        .expect("stored, xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate", o.method));
  }
  entry.attr1 = o.attr1;
  entry.attr2 = o.attr2;
  entry.attr3 = o.attr3;
  entry.replace = o.replace;
  auto payload = core::read_file(o.file);
  if (!payload) return report(payload.error());
  entry.payload = std::move(*payload);
  const std::string done = "entry '" + entry.name + "' written";
  return run_edit(
      o, [&](const iron3d::Archive& a) { return iron3d::add_archive_entry(a, std::move(entry), {o.canonical}); }, done);
}

int run_remove(const ArchiveOptions& o) {
  return run_edit(
      o, [&](const iron3d::Archive& a) { return iron3d::remove_archive_entries(a, o.names, {o.canonical}); },
      fmt::format("{} entr{} removed", o.names.size(), o.names.size() == 1 ? "y" : "ies"));
}

int run_rename(const ArchiveOptions& o) {
  return run_edit(
      o,
      [&](const iron3d::Archive& a) { return iron3d::rename_archive_entry(a, o.old_name, o.new_name, {o.canonical}); },
      fmt::format("renamed '{}' to '{}'", o.old_name, o.new_name));
}

void add_common(CLI::App* cmd, ArchiveOptions& o) {
  cmd->add_flag("--compatible", o.compatible,
                "compatible profile: accept an archive whose sort table is invalid (lookup scans linearly)");
}

void add_write_flags(CLI::App* cmd, ArchiveOptions& o) {
  cmd->add_option("-o,--output", o.out, "write the result here instead of replacing ARCHIVE (atomic either way)");
  cmd->add_flag("--canonical", o.canonical,
                "repack compactly (payloads aligned to 8, unindexed bytes dropped); default keeps the original layout");
  add_common(cmd, o);
}

}  // namespace

SORTIE_COMMAND(archive, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<ArchiveOptions>();
  auto* cmd = root.add_subcommand("archive", "List, extract, pack and edit NRes and RsLi archives (.rlb, .lib)");
  cmd->require_subcommand(1);
  cmd->footer(
      "Examples:\n"
      "  sortie archive list objects.rlb                     table of entries (--json: every field)\n"
      "  sortie archive extract textures.lib -o tex/         every entry + tex/_manifest.json\n"
      "  sortie archive extract objects.rlb -o out/ b_bunk   only the named entries\n"
      "  sortie archive pack tex/ -o textures.lib            rebuild from an extract directory\n"
      "  sortie archive add material.lib new.mat0 --type MAT0 -o material2.lib\n"
      "  sortie archive remove material.lib OLD_MAT\n"
      "  sortie archive rename material.lib OLD_MAT NEW_MAT\n"
      "  sortie archive add gamefont.rlb font.bin --name FONT.FNT --method lzss\n"
      "\n"
      "Workflow: extract, edit or replace files in the directory, pack. The manifest keeps every\n"
      "header field, so pack rebuilds an unchanged directory byte for byte. Names are matched\n"
      "ASCII case-insensitively, as the game does. Exit codes: 0 ok, 1 invalid archive or\n"
      "entry not found, 2 usage or I/O error.\n");

  auto* list = cmd->add_subcommand("list", "List the entries of an archive");
  list->add_option("archive", o->archive, "archive file")->required();
  list->add_flag("--json", o->json, "every header and directory field as JSON");
  add_common(list, *o);
  list->footer("Examples:\n  sortie archive list objects.rlb\n  sortie archive list --json Material.lib\n");
  list->callback([o, &outcome] { outcome.exit_code = run_list(*o); });

  auto* extract = cmd->add_subcommand("extract", "Write entries to files (all of them: plus a manifest for pack)");
  extract->add_option("archive", o->archive, "archive file")->required();
  extract->add_option("names", o->names, "entry names to extract (default: all, with _manifest.json)");
  extract->add_option("-o,--output", o->out,
                      "output directory (default: ARCHIVE's name with '_' for '.', e.g. objects_rlb)");
  add_common(extract, *o);
  extract->footer(
      "Entry names become safe file names (characters like / \\ : * ? replaced by _, clashes get ~1, ~2).\n"
      "_manifest.json maps files back to entries and keeps every field; non-zero unindexed bytes\n"
      "go to _gaps/. Examples:\n  sortie archive extract objects.rlb -o objects/\n  sortie archive extract "
      "textures.lib grass.0 -o .\n");
  extract->callback([o, &outcome] { outcome.exit_code = run_extract(*o); });

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

  auto* add = cmd->add_subcommand("add", "Add a file as a new entry (or --replace an existing one)");
  add->add_option("archive", o->archive, "NRes or RsLi archive")->required();
  add->add_option("file", o->file, "payload file")->required();
  add->add_option("--name", o->entry_name, "entry name, 1..35 bytes (default: the file's name)");
  add->add_option("--type", o->type, "type id: number (7, 0x15) or 4-character tag (MAT0, Texm, WEAR)");
  add_number(add, "--attr1", o->attr1, "attr1 of the new entry (decimal or 0x hex)");
  add_number(add, "--attr2", o->attr2, "attr2 of the new entry (decimal or 0x hex)");
  add_number(add, "--attr3", o->attr3, "attr3 of the new entry (decimal or 0x hex)");
  add->add_flag("--replace", o->replace, "replace the payload of an existing entry with that name");
  add->add_option("--method", o->method,
                  "RsLi packing: stored, xor, lzss, xor-lzss, lzhuf, xor-lzhuf, deflate (default: stored for a new "
                  "entry, the entry's own method with --replace)");
  add_write_flags(add, *o);
  add->footer(
      "Examples:\n  sortie archive add material.lib rust.mat0 --name RUST --type MAT0\n  sortie archive add "
      "objects.rlb b_bunk --replace -o objects_new.rlb\n");
  add->callback([o, &outcome] { outcome.exit_code = run_add(*o); });

  auto* remove = cmd->add_subcommand("remove", "Remove entries by name");
  remove->add_option("archive", o->archive, "NRes or RsLi archive")->required();
  remove->add_option("names", o->names, "entry names")->required();
  add_write_flags(remove, *o);
  remove->footer("Example:\n  sortie archive remove material.lib OLD_MAT -o material2.lib\n");
  remove->callback([o, &outcome] { outcome.exit_code = run_remove(*o); });

  auto* rename = cmd->add_subcommand("rename", "Rename an entry (new name 1..35 bytes)");
  rename->add_option("archive", o->archive, "NRes or RsLi archive")->required();
  rename->add_option("old", o->old_name, "current entry name")->required();
  rename->add_option("new", o->new_name, "new entry name")->required();
  add_write_flags(rename, *o);
  rename->footer("Example:\n  sortie archive rename material.lib OLD_MAT NEW_MAT\n");
  rename->callback([o, &outcome] { outcome.exit_code = run_rename(*o); });
});

}  // namespace sortie::cli
