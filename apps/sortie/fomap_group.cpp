// The `sortie fomap` group shared by every fomap verb.
#include "fomap_group.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"

namespace sortie::cli {

CLI::App& fomap_group(CLI::App& root) {
  return command_group(
      root, "fomap", "FOnline .fomap map containers: lint, canonical format, ...",
      "Examples:\n"
      "  sortie fomap lint Maps/ --protos Protos/ --strict\n"
      "  sortie fomap fmt --check --protos Protos/ Maps/\n"
      "List options (--protos, --resources, --scripts) take one path per use: --protos A --protos B.\n");
}

CLI::Option* add_list_option(CLI::App* cmd, const std::string& name, std::vector<std::string>& values,
                             const std::string& description) {
  return cmd->add_option(name, values, description + " (one path per use; repeat for several)")
      ->allow_extra_args(false);
}

std::optional<fomap::Project> load_project(const std::vector<std::string>& protos) {
  fomap::Project project = fomap::Project::load({protos.begin(), protos.end()});
  bool ok = true;
  for (const auto& d : project.load_notes)
    if (d.code.rfind("io.", 0) == 0) {
      print_error(d);
      ok = false;
    }
  if (!ok) return std::nullopt;
  return project;
}

CollectedFiles collect_files(const std::vector<std::string>& args, const std::vector<std::string>& extensions) {
  namespace fs = std::filesystem;
  CollectedFiles out;
  for (const auto& a : args) {
    std::error_code ec;
    const fs::path p(a);
    if (fs::is_regular_file(p, ec)) {
      out.files.push_back(p);
      continue;
    }
    if (!fs::is_directory(p, ec)) {
      out.errors.push_back(core::Diagnostic::error("io.open", "no such file or directory").of(a));
      continue;
    }
    std::vector<fs::path> found;
    for (auto i = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
         !ec && i != fs::recursive_directory_iterator(); i.increment(ec)) {
      if (!i->is_regular_file(ec)) continue;
      std::string ext = i->path().extension().string();
      if (!ext.empty()) ext.erase(0, 1);
      if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end()) found.push_back(i->path());
    }
    if (found.empty())
      out.errors.push_back(
          core::Diagnostic::error("usage.no_maps", fmt::format("a directory without any .{} file", extensions.front()))
              .of(a));
    std::sort(found.begin(), found.end());
    out.files.insert(out.files.end(), found.begin(), found.end());
  }
  return out;
}

void print_errors(const core::Diagnostics& errors, std::size_t limit) {
  std::size_t n = 0;
  for (const auto& d : errors) {
    if (++n > limit) {
      std::cerr << fmt::format("sortie: ... {} more error(s); use --json for all\n", errors.size() - limit);
      break;
    }
    print_error(d);
  }
}

int worst_exit(const core::Diagnostics& errors) {
  int worst = kExitOk;
  for (const auto& d : errors) worst = std::max(worst, exit_code_for(d));
  return worst;
}

std::optional<ContainerInput> load_container(const std::string& file, const std::vector<std::string>& protos) {
  auto text = core::read_text_file(file);
  if (!text) {
    print_error(text.error());
    return std::nullopt;
  }
  auto project = load_project(protos);
  if (!project) return std::nullopt;
  return ContainerInput{std::move(*project), fomap::MapContainer::from_text(std::move(*text), file)};
}

int report_inputs(const CollectedFiles& inputs) {
  for (const auto& d : inputs.errors) print_error(d);
  return inputs.errors.empty() ? kExitOk : kExitUsage;
}

}  // namespace sortie::cli
