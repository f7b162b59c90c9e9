#pragma once
// Which squad maps a run is about (`sortie squad accept [--maps DIR|FILE...]`): the given files
// and every *.txt of the given directories (sorted by name), or without any the maps of the
// repository: ./data/squad, else data/squad beside the build tree or the install of the program.
#include <filesystem>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/squad/accept.hpp"

namespace sortie::squad {

// The running program's file (/proc/self/exe); empty where it cannot be read.
std::filesystem::path current_executable();

// ./data/squad, then (with an `executable`) data/squad of the source tree above a build tree
// (build/<preset>/apps/sortie/sortie) and share/sortie/squad of an install (bin/sortie).
std::vector<std::filesystem::path> default_map_dirs(const std::filesystem::path& executable);

// The maps of `args` (directories: their *.txt files sorted, then files in the order given), or
// without args the *.txt files of the first of `default_dirs` that is a directory, each loaded.
// Errors: usage.squad.maps (nothing found; a directory without maps), the maps' own.
core::Result<std::vector<NamedMap>> collect_maps(const std::vector<std::string>& args,
                                                 const std::vector<std::filesystem::path>& default_dirs);

}  // namespace sortie::squad
