// `sortie fomap lint`: a thin client of libs/fomap (lint_files.hpp, lint.hpp, references.hpp).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/fomap/lint_files.hpp"
#include "sortie/fomap/references.hpp"

namespace sortie::cli {
namespace {

using core::Json;

struct LintOptions {
  std::vector<std::string> paths;
  std::vector<std::string> protos;
  std::vector<std::string> resources;  // resource roots (opt-in missing-resource check)
  std::vector<std::string> scripts;    // .fos files / directories (opt-in script check)
  bool strict = false;
  bool json = false;
};

int run_lint(const LintOptions& o) {
  const CollectedFiles inputs = collect_files(o.paths, {"fomap"});
  const auto& files = inputs.files;
  int worst = report_inputs(inputs);
  const auto loaded = load_project(o.protos);
  if (!loaded) return kExitUsage;
  const fomap::Project& project = *loaded;
  // Reference indexes are built once per run (resource listing, script declarations).
  core::Diagnostics index_notes;
  std::optional<fomap::ResourceIndex> resources;
  std::optional<fomap::ScriptIndex> scripts;
  if (!o.resources.empty())
    resources = fomap::ResourceIndex::scan({o.resources.begin(), o.resources.end()}, index_notes);
  if (!o.scripts.empty()) scripts = fomap::ScriptIndex::scan({o.scripts.begin(), o.scripts.end()}, index_notes);
  for (const auto& d : index_notes) print_error(d);
  if (!index_notes.empty()) worst = kExitUsage;
  const fomap::LintOptions options{
      .strict = o.strict, .resources = resources ? &*resources : nullptr, .scripts = scripts ? &*scripts : nullptr};
  const auto skipped = fomap::skipped_checks(project, options);
  Progress progress("fomap lint", files.size());
  const fomap::LintFilesRun run = fomap::lint_files(
      files, project, options,
      [&](std::size_t done, const std::filesystem::path& path) { progress.update(done, path.filename().string()); });
  progress.finish();
  for (const auto& d : run.io_errors) print_error(d);
  if (!run.io_errors.empty()) worst = kExitUsage;
  const fomap::LintReport& total = run.report;
  if (o.json) {
    Json j = total.to_json();
    j["strict"] = o.strict;
    j["protos_loaded"] = project.has_protos;
    if (resources) j["resource_files"] = resources->size();
    if (scripts) j["script_functions"] = scripts->size();
    Json not_checked = Json::array();
    for (const auto& s : skipped) not_checked.push_back(Json{{"check", s.check}, {"reason", s.reason}});
    j["not_checked"] = std::move(not_checked);
    print_json(j);
  } else {
    for (const auto& f : total.findings) std::cout << f.to_string() << "\n";
    std::cout << total.summary() << (o.strict ? " (strict gate)" : "") << "\n";
    if (resources) std::cout << fmt::format("resources checked against {} file(s)\n", resources->size());
    if (scripts)
      std::cout << fmt::format("scripts checked against {} function(s) in {} file(s)\n", scripts->size(),
                               scripts->files());
    for (const auto& s : skipped) std::cout << fmt::format("{} not checked ({})\n", s.check, s.reason);
  }
  if (total.errors() > 0) worst = std::max(worst, kExitInvalid);
  return worst;
}

}  // namespace

SORTIE_COMMAND(fomap_lint, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<LintOptions>();
  auto* cmd = fomap_group(root).add_subcommand(
      "lint", "Check maps against the engine's rules (stable rule IDs); --strict is the gate");
  cmd->footer(
      "Exit 0: no errors; 1: errors found; 2: I/O or usage error.\n"
      "Examples:\n  sortie fomap lint --strict --protos Protos/ Maps/\n  sortie fomap lint --json Maps/den.fomap\n"
      "  sortie fomap lint --protos Protos/ --resources Resources/ --scripts Scripts/ Maps/\n"
      "Without --protos / --resources / --scripts those checks are skipped and the report says so.\n");
  cmd->add_option("paths", o->paths, "map files or directories (walked for .fomap)")->required();
  add_list_option(cmd, "--protos", o->protos,
                  "proto directory (.fopro/.focr/.foitem/.foloc/.fomap, .fomain, _project_*.tsv)");
  cmd->add_flag("--strict", o->strict, "strict gate: everything the engine repairs or ignores is an error");
  add_list_option(
      cmd, "--resources", o->resources,
      "resource root: Resource values (PicMap, PicInv, ModelName...) must name a file below one, path relative "
      "to the root, '\\' or '/', ASCII case-insensitive");
  add_list_option(
      cmd, "--scripts", o->scripts,
      "AngelScript sources (a .fos file or directory): script values (InitScript, StaticScript, TriggerScript) "
      "must name a server function Namespace::Func with the engine's signature and attribute");
  cmd->add_flag("--json", o->json, "machine-readable report");
  cmd->callback([o, &outcome] { outcome.exit_code = run_lint(*o); });
});

}  // namespace sortie::cli
