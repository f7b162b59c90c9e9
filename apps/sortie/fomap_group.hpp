#pragma once
// The `sortie fomap ...` subcommand group. Every cmd_fomap*.cpp adds its verbs to the same
// group:  SORTIE_COMMAND(fomap_bake, [](CLI::App& root, Outcome& o) {
//           auto* cmd = sortie::cli::fomap_group(root).add_subcommand("bake", "..."); ... });
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace sortie::cli {

// Creates the `fomap` group on `root` the first time, returns the same group afterwards.
CLI::App& fomap_group(CLI::App& root);

// Expands files and directories: directories are walked recursively for files whose extension
// (without the dot) is in `extensions`; given files are kept as they are. Sorted, de-duplicated
// per argument; an argument that does not exist is returned in `missing`.
std::vector<std::filesystem::path> collect_files(const std::vector<std::string>& args, const std::vector<std::string>& extensions,
                                                 std::vector<std::string>& missing);

}  // namespace sortie::cli
