#pragma once
// Which squad maps a run is about (`sortie squad accept [--maps DIR|FILE...]`): the given files
// and every *.txt of the given directories (sorted by name), or without any the maps of the
// repository: ./data/squad, else data/squad beside the build tree or the install of the program.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/squad/accept.hpp"
#include "sortie/squad/map.hpp"

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

// `sortie squad check MAP...`: every map loaded; what a report prints.
struct MapCheck {
  std::string path;
  std::optional<SquadMap> map;            // loaded
  std::optional<core::Diagnostic> error;  // or why not
};
struct MapCheckRun {
  std::vector<MapCheck> maps;
  [[nodiscard]] int exit_code() const;  // the worst of the errors' (core::exit_code_for)
  [[nodiscard]] core::Json to_json() const;
  // One line per loaded map; a map that failed adds its diagnostic to `errors` instead.
  [[nodiscard]] std::string to_text(std::vector<core::Diagnostic>& errors) const;
};
MapCheckRun check_maps(const std::vector<std::string>& paths);

}  // namespace sortie::squad
