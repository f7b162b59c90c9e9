// The `sortie archive` group shared by every archive verb.
#include "archive_group.hpp"

#include <iostream>
#include <map>

#include "cli_util.hpp"
#include "command.hpp"

namespace sortie::cli {

CLI::App& archive_group(CLI::App& root) {
  return command_group(root, "archive", "List, extract, pack and edit NRes and RsLi archives (.rlb, .lib)",
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
}

int report_archive_error(const core::Diagnostic& d) {
  print_error(d);
  if (d.code.starts_with("nres.sort"))
    std::cerr << "hint: --compatible accepts an archive whose sort table is invalid\n";
  if (d.code == "rsli.corrupt_table" || d.code == "rsli.ao_trailer" || d.code == "rsli.deflate_eof_quirk")
    std::cerr << "hint: --compatible accepts this RsLi quirk (reported as a warning)\n";
  return exit_code_for(d);
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

}  // namespace sortie::cli
