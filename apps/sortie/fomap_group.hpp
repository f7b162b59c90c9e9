#pragma once
// The `sortie fomap ...` subcommand group. Every cmd_fomap*.cpp adds its verbs to the same
// group:  SORTIE_COMMAND(fomap_bake, [](CLI::App& root, Outcome& o) {
//           auto* cmd = sortie::cli::fomap_group(root).add_subcommand("bake", "..."); ... });
#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/fomap/map_model.hpp"
#include "sortie/fomap/project.hpp"

namespace sortie::cli {

// Creates the `fomap` group on `root` the first time, returns the same group afterwards.
CLI::App& fomap_group(CLI::App& root);

// A list option that takes exactly one value per use (`--protos A --protos B`), so the paths
// after it are never swallowed into the list.
CLI::Option* add_list_option(CLI::App* cmd, const std::string& name, std::vector<std::string>& values,
                             const std::string& description);

// The project of the --protos paths. A path that does not exist or cannot be read is printed and
// gives nullopt (the command then exits 2 before doing anything).
std::optional<fomap::Project> load_project(const std::vector<std::string>& protos);

// Expands files and directories: directories are walked recursively for files whose extension
// (without the dot) is in `extensions`, sorted; given files are kept as they are. An argument
// that does not exist is an `io.open` error, a directory without such a file `usage.no_maps`.
struct CollectedFiles {
  std::vector<std::filesystem::path> files;
  core::Diagnostics errors;
};
CollectedFiles collect_files(const std::vector<std::string>& args, const std::vector<std::string>& extensions);

// Prints the first `limit` diagnostics and how many more there are.
void print_errors(const core::Diagnostics& errors, std::size_t limit = 50);

// The worst exit code of a set of diagnostics (I/O and usage: 2, the rest: 1).
int worst_exit(const core::Diagnostics& errors);

// A container named on the command line and the project of its --protos; nullopt (the error
// printed) when the file cannot be read or the protos cannot be loaded: exit 2.
struct ContainerInput {
  fomap::Project project;
  fomap::MapContainer container;
};
std::optional<ContainerInput> load_container(const std::string& file, const std::vector<std::string>& protos);

// Prints the input errors (missing paths, directories without maps); exit 2 when there are any.
int report_inputs(const CollectedFiles& inputs);

}  // namespace sortie::cli
