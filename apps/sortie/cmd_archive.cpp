// `sortie archive list|extract`: a thin client of the archive facade (libs/iron3d archive.hpp,
// archive_files.hpp); the group and its shared options are archive_group.hpp's.
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

int run_list(const ArchiveOptions& o) {
  auto a = open_archive(o);
  if (!a) {
    if (o.json) print_json({{"file", o.archive}, {"valid", false}, {"diagnostic", a.error().to_json()}});
    return report_archive_error(a.error());
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
  if (!a) return report_archive_error(a.error());
  const fs::path dir = o.out.empty() ? fs::path(iron3d::archive_default_extract_dir(o.archive)) : fs::path(o.out);
  Progress progress("extract", o.names.empty() ? a->size() : o.names.size());
  iron3d::ArchiveExtractOptions xo;
  xo.names = o.names;
  xo.progress = [&](std::size_t done, std::size_t, std::string_view file) { progress.update(done, file); };
  auto x = iron3d::extract_archive(*a, dir, xo);
  progress.finish();
  if (!x) return report_archive_error(x.error());
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

}  // namespace

SORTIE_COMMAND(archive, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<ArchiveOptions>();
  CLI::App* cmd = &archive_group(root);

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
});

}  // namespace sortie::cli
