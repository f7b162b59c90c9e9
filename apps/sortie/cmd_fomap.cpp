// `sortie fomap lint` and `sortie fomap fmt`: thin clients of libs/fomap (lint.hpp, canonical.hpp).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli_util.hpp"
#include "command.hpp"
#include "fomap_group.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/fomap/canonical.hpp"
#include "sortie/fomap/lint.hpp"
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

struct FmtOptions {
  std::vector<std::string> paths;
  std::vector<std::string> protos;
  bool check = false;
};

// Prints the input errors (missing paths, directories without maps); exit 2 when there are any.
int report_inputs(const CollectedFiles& inputs) {
  for (const auto& d : inputs.errors) print_error(d);
  return inputs.errors.empty() ? kExitOk : kExitUsage;
}

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
  fomap::LintReport total;
  std::vector<fomap::DeclaredMap> declared;
  Progress progress("fomap lint", files.size());
  std::size_t done = 0;
  for (const auto& path : files) {
    auto text = core::read_text_file(path);
    if (!text) {
      print_error(text.error());
      worst = kExitUsage;
      continue;
    }
    const auto container = fomap::MapContainer::from_text(std::move(*text), path.generic_string());
    total.merge(fomap::lint_container(container, project, options));
    for (auto& d : fomap::declared_maps(container)) declared.push_back(std::move(d));
    progress.update(++done, path.filename().string());
  }
  progress.finish();
  {
    fomap::LintReport pack = fomap::lint_pack_identity(declared);
    pack.files = pack.maps = pack.placements = 0;
    total.merge(std::move(pack));
  }
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
