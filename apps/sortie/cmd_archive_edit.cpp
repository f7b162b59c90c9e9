// `sortie archive add|remove|rename`: one edit of an archive through the facade
// (iron3d::add_archive_entry, remove_archive_entries, rename_archive_entry), written atomically
// to -o or in place.
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
using core::Json;

// add/remove/rename: open, edit (library), write atomically to -o or in place.
int run_edit(const ArchiveOptions& o, const std::function<core::Result<core::Bytes>(const iron3d::Archive&)>& edit,
             std::string_view done) {
  auto a = open_archive(o);
  if (!a) return report_archive_error(a.error());
  auto out = edit(*a);
  if (!out) {
    const int code = report_archive_error(out.error());
    if (out.error().code == "archive.entry_exists" && !o.replace && !o.file.empty())
      std::cerr << "hint: --replace overwrites the payload of the existing entry\n";
    return code;
  }
  const std::string target = o.out.empty() ? o.archive : o.out;
  auto st = core::write_file_atomic(target, *out);
  if (!st) return report_archive_error(st.error());
  std::cout << fmt::format("{}: {} ({} bytes)\n", target, done, out->size());
  return kExitOk;
}

int run_add(const ArchiveOptions& o) {
  iron3d::ArchiveNewEntry entry;
  entry.name = o.entry_name.empty() ? fs::path(o.file).filename().string() : o.entry_name;
  if (auto st = iron3d::set_entry_type_and_method(entry, o.type, o.method); !st)
    return report_archive_error(st.error());
  entry.attr1 = o.attr1;
  entry.attr2 = o.attr2;
  entry.attr3 = o.attr3;
  entry.replace = o.replace;
  auto payload = core::read_file(o.file);
  if (!payload) return report_archive_error(payload.error());
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

}  // namespace

SORTIE_COMMAND(archive_edit, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<ArchiveOptions>();
  CLI::App* cmd = &archive_group(root);

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
