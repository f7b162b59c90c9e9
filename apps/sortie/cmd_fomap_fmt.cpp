// `sortie fomap fmt`: maps rewritten in the Mapper's canonical form (libs/fomap canonical.hpp),
// atomically in place, or listed with --check.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/fomap/canonical.hpp"

namespace sortie::cli {
namespace {

struct FmtOptions {
  std::vector<std::string> paths;
  std::vector<std::string> protos;
  bool check = false;
};

int run_fmt(const FmtOptions& o) {
  const CollectedFiles inputs = collect_files(o.paths, {"fomap"});
  const auto& files = inputs.files;
  int worst = report_inputs(inputs);
  const auto project = load_project(o.protos);
  if (!project) return kExitUsage;
  std::size_t changed = 0;
  Progress progress(o.check ? "fomap fmt --check" : "fomap fmt", files.size());
  std::size_t done = 0;
  for (const auto& path : files) {
    progress.update(++done, path.filename().string());
    auto text = core::read_text_file(path);
    if (!text) {
      print_error(text.error());
      worst = kExitUsage;
      continue;
    }
    auto out = fomap::format_text(std::move(*text), path.generic_string(), *project);
    if (!out) {
      print_error(out.error());
      worst = std::max(worst, kExitInvalid);
      continue;
    }
    if (!out->changed) continue;
    ++changed;
    if (o.check) {
      std::cout << path.generic_string() << "\n";
      worst = std::max(worst, kExitInvalid);
      continue;
    }
    auto st = core::rewrite_file(path, out->text);
    if (!st) {
      print_error(st.error());
      worst = kExitUsage;
      continue;
    }
    std::cout << "formatted " << path.generic_string() << "\n";
  }
  progress.finish();
  if (o.check && changed > 0) std::cerr << fmt::format("{} of {} file(s) are not canonical\n", changed, files.size());
  return worst;
}

}  // namespace

SORTIE_COMMAND(fomap_fmt, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<FmtOptions>();
  auto* cmd = fomap_group(root).add_subcommand("fmt", "Rewrite maps in the Mapper's canonical form (atomic, in place)");
  cmd->footer(
      "Without --protos no value can be compared with its prototype, so nothing is dropped as redundant.\n"
      "Examples:\n  sortie fomap fmt --protos Protos/ Maps/arroyo.fomap\n  sortie fomap fmt --check --protos Protos/ "
      "Maps/\n");
  cmd->add_option("files", o->paths, "map files or directories (walked for .fomap)")->required();
  add_list_option(cmd, "--protos", o->protos,
                  "proto directory (.fopro/.focr/.foitem/.foloc/.fomap, .fomain, _project_*.tsv)");
  cmd->add_flag("--check", o->check, "do not write; list non-canonical files and exit 1 when there are any");
  cmd->callback([o, &outcome] { outcome.exit_code = run_fmt(*o); });
});

}  // namespace sortie::cli
